"""report/compare --cost measure a query's embedding once per encoder and prompt: two hybrid
configurations that differ in live values only embed a query alike, and two timings of one
encoder had read 6× apart (1958 ms against 324 ms, the first with the encoder's slow start:
dr5 6). The second row shows the first's figure, said to be the same."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.conftest import SAMPLES
from workbench.core import cost
from workbench.core.embeddings import register_encoder
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model


class CountingEncoder:
    """NOT a model: a unit vector from each text's hash, named uniquely (uuid); it counts the
    single-text calls (a query embedded, as the cost measures it)."""

    dim = 8
    device = "fake-device"

    def __init__(self) -> None:
        self.name = f"fake-shared-{uuid.uuid4().hex}"
        self.identity = self.name
        self.single = 0

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        if len(texts) == 1 and batch_size == 1:
            self.single += 1
        v = np.array([np.random.default_rng(list(t.encode())).standard_normal(self.dim)
                      for t in texts], np.float32).reshape(len(texts), self.dim)
        out: NDArray[np.float32] = v / np.linalg.norm(v, axis=1, keepdims=True)
        return out


def test_one_encoder_and_prompt_is_timed_once_and_shown_on_each_row() -> None:
    enc = CountingEncoder()
    register_encoder(enc.name, enc)
    ds, model = load_dataset(SAMPLES / "tea-beir"), get_model("hybrid")
    a = model.schema.resolve({"embedding_model": enc.name})
    b = model.schema.resolve({"embedding_model": enc.name, "alpha": 0.5})
    section = cost.cost_section([("hybrid", model, a), ("best", model, b)], ds)
    sample = min(len(ds.queries), cost.EMBED_SAMPLE)
    assert enc.single == 1 + sample  # one warm-up and the sample, once for both
    first, second = (c.serving.embedding for c in section.costs if c.serving is not None)
    assert first is not None and second is not None
    assert (second.p50_ms, second.p95_ms) == (first.p50_ms, first.p95_ms)
    rows = cost.cost_rows(section.costs)
    assert "same as" not in rows[0][7]
    assert rows[1][7] == rows[0][7] + " (same as hybrid)"


def test_configurations_differing_in_live_values_are_timed_query_by_query_in_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # dr5 6: timed one after the other, a live-value change had read 1.7x slower
    ds, model = load_dataset(SAMPLES / "tea-beir"), get_model("bm25")
    order: list[float] = []
    real = cost.run_live

    def seen(m: Any, prepared: Any, params: Any, *rest: Any) -> Any:
        order.append(float(params["k1"]))
        return real(m, prepared, params, *rest)

    monkeypatch.setattr(cost, "run_live", seen)
    configs = [("defaults", model, model.schema.defaults()),
               ("k1", model, model.schema.resolve({"k1": 2.0})),
               ("text", model, model.schema.resolve({"fields": "text"}))]
    section = cost.cost_section(configs, ds)
    n = min(len(ds.queries), cost.SERVE_SAMPLE)
    # the two that build alike in turn, query by query; the third (another build) alone
    assert order == [1.2, 2.0] * n + [1.2] * n
    assert all(c.serving is not None and c.serving.sample == n for c in section.costs)
    assert any(note.startswith("defaults and k1 differ in live values only (one build): "
                               "their queries were timed in turn") for note in section.notes)
    assert not any("text differ" in note for note in section.notes)
