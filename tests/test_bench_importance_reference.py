"""bench's importance row is timed against the document's rules applied memory by memory: that
reference must give the importance model's own totals, or the ratio compares two different
computations."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.bench.references import REFERENCES, importance_per_memory, importance_scores
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

MEMORIES = Path(__file__).resolve().parent.parent / "sample_corpora" / "memories"


@pytest.mark.parametrize("overrides", [
    {},  # the defaults: pre-filter on, archived excluded
    {"prefilter": False, "exclude_archived": False, "k1": 0.9, "b": 0.4},
    {"superseded_archive": True, "prefilter_days": 3.0, "stale_medium": 0.2},
])
def test_the_reference_gives_the_models_totals(overrides: dict[str, object]) -> None:
    ds = load_dataset(MEMORIES)
    model = get_model("importance")
    pipe = Pipeline(model, ds, overrides)
    scores = model.combine(pipe.prepared, pipe.params)
    reference = importance_scores(ds, pipe.params)
    gated = 0
    for qi in range(len(ds.queries)):
        row = scores.row(qi)
        ours = dict(zip(scores.docs[row].tolist(), scores.total[row].tolist(), strict=True))
        theirs = {d: total for total, d in reference(qi)}
        assert sorted(ours) == sorted(theirs), ds.queries[qi].id
        np.testing.assert_allclose([theirs[d] for d in sorted(ours)],
                                   [ours[d] for d in sorted(ours)], rtol=1e-12, atol=1e-15)
        gated += int((scores.gate[row] > 0).sum())
    if not overrides:
        assert gated > 0  # the gates are exercised, not only the formula


def test_the_importance_row_has_a_reference() -> None:
    assert REFERENCES["importance"] is importance_per_memory
    ds = load_dataset(MEMORIES)
    params = get_model("importance").schema.resolve({})
    ms, note = importance_per_memory(ds, params)
    assert ms is not None and ms > 0
    assert note.startswith("the document's rules memory by memory, ")
    assert importance_per_memory(ds, get_model("importance").schema.resolve(
        {"relevance": "coverage"})) == (None, "reference only for relevance = bm25-max")
