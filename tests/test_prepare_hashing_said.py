"""A large corpus says it is being hashed before its prepare: 200,000 documents took 3.7 s
with nothing on the screen (the progress bar came only after the fingerprint)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core import engine
from workbench.core.engine import Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model

TEA = Path(__file__).resolve().parent.parent / "sample_corpora" / "tea-beir"


@pytest.mark.parametrize("threshold, said", [(100, True), (10_000, False)])
def test_hashing_a_large_corpus_is_said_first(monkeypatch: pytest.MonkeyPatch,
                                              threshold: int, said: bool) -> None:
    ds = load_dataset(TEA)  # 151 documents
    monkeypatch.setattr(engine, "HASHING_SAID", threshold)
    seen: list[str] = []
    model = get_model("bm25")
    engine.prepare(model, ds, model.schema.resolve({}),
                   Progress(on_progress=lambda frac, msg: seen.append(msg)))
    assert seen, "prepare said nothing"
    first = "checking the cache: hashing 151 documents"
    assert (seen[0] == first) is said
    assert seen.count(first) == (1 if said else 0)
