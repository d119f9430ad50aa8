"""The decision-shaped synthetic corpus of `workbench bench`: deterministic, shaped as the
pi-memory reader makes decisions, and scored by `decision-memory`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench.bench.synthetic_decisions import synthetic_decisions
from workbench.core.formats.pi_memory import decision_document
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


def test_deterministic_per_seed() -> None:
    a, b = synthetic_decisions(300, 20, seed=4), synthetic_decisions(300, 20, seed=4)
    assert list(a.corpus) == list(b.corpus)
    assert list(a.queries) == list(b.queries)
    assert a.qrels == b.qrels
    assert list(synthetic_decisions(300, 20, seed=5).corpus) != list(a.corpus)
    assert a.name == "synthetic-decisions-300x20"


def test_documents_as_the_reader_makes_them(tmp_path: Path) -> None:
    ds = synthetic_decisions(400, 10, seed=1)
    for doc in ds.corpus:
        record = {"id": doc.id, "title": doc.title, "text": doc.text, "tags": list(doc.tags),
                  **doc.metadata}
        assert decision_document(record, tmp_path / "decisions.jsonl", 1) == doc
    meta = [d.metadata for d in ds.corpus]
    assert {m["source"] for m in meta} == {"manual", "extracted", "turn"}
    assert any(m["archived"] for m in meta) and any("supersededBy" in m for m in meta)
    assert any("kbPath" in m for m in meta) and any(m["important"] for m in meta)
    assert any(set(d.tags) & {"decision", "preference", "workflow"} for d in ds.corpus)
    assert all(m["cwd"].startswith("/home/dev/repos/") for m in meta if m["cwd"])
    for q in ds.queries:
        assert q.context["prompt"] is True and q.context["for_injection"] is True
        assert q.context["cwd"].startswith("/home/dev/repos/")
        assert q.context["now"].endswith("Z")


def test_scored_by_decision_memory() -> None:
    ds = synthetic_decisions(2000, 40, seed=2)
    pipe = Pipeline(get_model("decision-memory"), ds)
    result = pipe.run()
    gate = result.scores.gate
    assert result.scores.n_pairs > 0
    assert (gate == 0).any()  # some decisions are injected
    assert len(np.unique(gate)) > 5  # and many gates do work
