"""What a query returns is counted whole, not to the ranking's depth: importance with no
limit returned 93.7 results a query on tea-beir, and the metric strip, Metric vs parameter,
sweep and tune's `results` had said 75.36 (the top 100 ranked, some queries cut there)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.selection_figures import (
    FIGURES,
    of_result,
    per_query,
    selects,
    snippet_chars,
)

SAMPLES = Path(__file__).resolve().parent.parent / "sample_corpora"


@pytest.mark.parametrize("model, params", [
    ("importance", {"limit": 0}),             # no limit: every candidate past 100 too
    ("importance", {"limit": 150}),           # a limit past the depth
    ("importance", {"limit": 3}),             # a limit inside it: nothing changes
    ("vault-search", {"offset": 5, "limit": 0}),  # paged, no limit
    ("vault-search", {"min_score": 0.2}),
])
def test_figures_count_past_the_ranking_depth(model: str, params: dict[str, object]) -> None:
    ds = load_dataset(SAMPLES / "tea-beir")
    pipe = Pipeline(get_model(model), ds, params)
    shallow = pipe.run((), depth=100)
    deep = pipe.run((), depth=100_000)  # every result ranked: what the queries return
    chars = snippet_chars(ds)
    for name in FIGURES:
        want = per_query(name, deep.ranking, chars)
        np.testing.assert_array_equal(of_result(name, shallow, chars), want, err_msg=name)
    if params.get("limit") == 0 and "offset" not in params:
        # the premise: some query returns more than the depth ranked
        assert (deep.ranking.count > 100).any()
        assert not np.array_equal(per_query("results", shallow.ranking),
                                  per_query("results", deep.ranking))


def test_dense_min_similarity_is_a_selection_cut() -> None:
    # its min similarity cuts the lists as a min score does: figures without judgments,
    # and left out of a ranking metric's default search
    assert selects(get_model("dense"))
