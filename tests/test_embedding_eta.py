"""How long an embedding has left, said beside its progress ("embedding 2/8 texts, about 30 s
left"): reckoned from the steps finished, in characters (the texts go longest first, so a
count of texts would overstate what is left), each text counted up to what the model reads."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.core.embeddings import (
    DEFAULT_MODEL,
    READ_CHARS,
    TEXT_OVERHEAD,
    _Pace,
    embed_texts,
    get_encoder,
    register_encoder,
    text_cost,
)
from workbench.core.embeddings import embed as embed_module
from workbench.core.engine import NO_PROGRESS, Progress


def test_a_text_costs_what_the_model_reads_of_it() -> None:
    assert text_cost("x" * 500) == 500 + TEXT_OVERHEAD
    assert text_cost("x" * 50_000) == READ_CHARS + TEXT_OVERHEAD  # truncated by the model


def test_the_time_left_is_the_characters_left_at_the_pace_so_far() -> None:
    pace = _Pace(["x" * 1100] * 10)  # 1,200 each
    assert pace.left(0) == ""  # nothing timed yet
    pace.finished(0, 2, 10.0)  # 2,400 in 10 s
    assert pace.left(2) == "about 40 s left"  # 9,600 at 240 a second
    assert pace.left(9) == "about 5 s left"
    assert pace.left(10) == ""
    # the longest go first: two long texts timed, eight short ones left take far less
    pace = _Pace(["x" * 5000] * 2 + ["x" * 100] * 8)  # 1,300 each, then 200 each
    pace.finished(0, 2, 26.0)  # 100 a second
    assert pace.left(2) == "about 16 s left"  # 1,600, not the 104 s eight more long ones take


class FakeClock:
    """A FAKE clock for the embedding module's `time`: each encode call moves it on by 5 s a
    text, so that the pace is known."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


class TimedEncoder:
    """The real default model, behind a fake clock (`FakeClock`) that it moves on."""

    def __init__(self, name: str, clock: FakeClock) -> None:
        self.inner = get_encoder(DEFAULT_MODEL)
        self.name = name
        self.clock = clock

    @property
    def identity(self) -> str:
        return f"{self.inner.identity}-{self.name}"

    @property
    def dim(self) -> int:
        return self.inner.dim

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        out = self.inner.encode(texts, batch_size=batch_size, progress=progress)
        self.clock.now += 5.0 * len(texts)
        return out


def test_embedding_says_how_long_is_left(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                         request: pytest.FixtureRequest) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    clock = FakeClock()
    monkeypatch.setattr(embed_module, "time", clock)
    enc = TimedEncoder(f"timed-{request.node.name}", clock)
    register_encoder(enc.name, enc)
    said: list[str] = []
    texts = [f"text {i}: " + "tea leaves " * 50 for i in range(8)]  # 509 characters each
    vectors = embed_texts(texts, model=enc.name, batch_size=2,
                          progress=Progress(on_progress=lambda f, m: said.append(m)))
    assert vectors.shape == (8, enc.dim)
    # the first step (2 texts, 10 s) sets the pace: 6 texts of 609 left take 30 s
    assert "embedding 2/8 texts, about 30 s left" in said, said
    assert "embedding 6/8 texts, about 10 s left" in said, said
    assert not any("left" in m for m in said if m.startswith("embedding 0/8")), said
