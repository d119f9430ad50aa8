"""Embedding steps follow the time they take (review rv2, 4): fixed steps of eight batches
(512 texts) took 155 s on a loaded CPU, so a cancel after 38 s or 50 s kept nothing and the
60 s store rule waited for the step's end."""

from __future__ import annotations

import types
import uuid
from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.core.embeddings import embed as embed_module
from workbench.core.embeddings import embed_texts, next_step, open_store, register_encoder
from workbench.core.engine import NO_PROGRESS, Cancelled, Progress


class SlowClock:
    """A clock only the encoder moves: `per_text` seconds for each text it encodes."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


class PacedEncoder:
    """NOT a language model: each text a fixed unit vector by its length; encoding one costs
    `per_text` seconds of `clock`, progress (and so cancel) between batches as the real
    encoder's."""

    dim = 4

    def __init__(self, clock: SlowClock, per_text: float) -> None:
        self.name = self.identity = f"paced-{uuid.uuid4().hex[:12]}"  # unique per object
        self.clock, self.per_text = clock, per_text
        self.calls: list[int] = []

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dim), np.float32)
        for start in range(0, len(texts), batch_size):
            progress(start / len(texts), "")
            for i in range(start, min(len(texts), start + batch_size)):
                out[i, len(texts[i]) % self.dim] = 1.0
            self.clock.now += self.per_text * len(texts[start:start + batch_size])
        progress(1.0, "")
        return out


def _paced(monkeypatch: pytest.MonkeyPatch, per_text: float) -> tuple[SlowClock, PacedEncoder]:
    clock = SlowClock()
    monkeypatch.setattr(embed_module, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    enc = PacedEncoder(clock, per_text)
    register_encoder(enc.name, enc)
    return clock, enc


TEXTS = [f"text number {i} " + "x" * (i % 37) for i in range(1200)]


def test_the_next_step_holds_about_ten_seconds_in_whole_batches() -> None:
    # 64 texts in 16 s (4 a second): 40 texts in 10 s, less than a batch: one batch
    assert next_step(64, 16.0, 64, 512) == 64
    # 64 in 2 s (32 a second): 320 texts in 10 s, five batches
    assert next_step(64, 2.0, 64, 512) == 320
    # 64 in 0.5 s (128 a second): 1,280 in 10 s, held to eight batches
    assert next_step(64, 0.5, 64, 512) == 512
    assert next_step(64, 0.0, 64, 512) == 512  # a clock that did not move


def test_a_cancel_after_a_minute_on_a_slow_encoder_keeps_what_was_embedded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock, enc = _paced(monkeypatch, per_text=0.25)  # 4 texts a second, as the review saw
    with pytest.raises(Cancelled) as caught:
        embed_texts(TEXTS, model=enc.name, batch_size=64,
                    progress=Progress(should_stop=lambda: clock.now >= 60.0))
    # each batch of 64 takes 16 s: four finished by 64 s, the fifth cancelled as it began
    assert enc.calls == [64] * 5
    assert len(open_store(enc, "")) == 256
    assert caught.value.__notes__ == [
        "256 of 1,200 texts embedded before it are kept in the cache: the same command goes "
        "on from there"]


def test_the_steps_follow_the_pace_up_to_eight_batches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, enc = _paced(monkeypatch, per_text=0.125)  # 8 texts a second
    embed_texts(TEXTS[:300], model=enc.name, batch_size=16)
    # one batch of 16 first (2 s: 8 a second, 80 in 10 s: five batches), then 80 a step
    assert enc.calls == [16, 80, 80, 80, 44]
    _, fast = _paced(monkeypatch, per_text=0.001)
    embed_texts(TEXTS, model=fast.name, batch_size=16)
    assert fast.calls[:3] == [16, 128, 128]  # eight batches at the most
    assert sum(fast.calls) == 1200


def test_a_slow_encoder_stores_a_shard_every_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    # 4 texts a second, batches of 64 (16 s): a shard when a step ends a minute or more after
    # the last, 256 texts each (at 64, 128, 192 and 256 s), then the 176 left. Steps of 512
    # texts (128 s) had stored 512 at 128 s: a kill lost two minutes
    _, enc = _paced(monkeypatch, per_text=0.25)
    embed_texts(TEXTS, model=enc.name, batch_size=64)
    sizes = sorted(len(v) for v in open_store(enc, "").shards.values())
    assert sizes == [176, 256, 256, 256, 256]


def test_a_cancel_as_a_step_ends_keeps_that_step(monkeypatch: pytest.MonkeyPatch) -> None:
    # the encoder's last progress call (fraction 1, its work done) had raised the cancel and
    # dropped the step it had just finished
    clock, enc = _paced(monkeypatch, per_text=0.25)
    with pytest.raises(Cancelled):
        embed_texts(TEXTS, model=enc.name, batch_size=64,
                    progress=Progress(should_stop=lambda: clock.now >= 16.0))
    assert enc.calls == [64, 64]  # stopped as the second step began
    assert len(open_store(enc, "")) == 64
