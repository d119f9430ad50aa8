"""A mover's place past the depth compared, where hybrid keeps only the pairs a ranking to that
depth can reach (rc 1: scifact q1191 read "#112, 104 documents rose past it" where explain and
a ranking to 1,000 put it at #194). The place is counted over every pair, as explain counts it;
without the prepared state at hand it is said as a bound.

Real embeddings (the default model) of the tea-beir sample, each document there four times
(604 documents), so that a query's list of 100 stops well short of the corpus.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import (
    Comparison,
    Configuration,
    compare_configurations,
    explain_move,
)
from workbench.core.data import Corpus, Dataset
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


@pytest.fixture(scope="module")
def tea() -> Dataset:
    data = load_dataset(SAMPLES / "tea-beir")
    docs = list(data.corpus)
    copies = [replace(d, id=f"{d.id}-c{k}") for k in range(1, 4) for d in docs]
    return replace(data, corpus=Corpus(docs + copies, name=data.corpus.name))


@pytest.fixture(scope="module")
def comp(tea: Dataset) -> Comparison:
    model = get_model("hybrid")
    return compare_configurations(model, tea, [
        Configuration("defaults", model.schema.resolve({})),
        Configuration("keyword", model.schema.resolve({"alpha": 0.0}))], ["ndcg@10"])


def _true_place(tea: Dataset, query: int, doc: int) -> int:
    """The first place of the document's score among every document of the query, from a
    run that keeps every pair (vector_candidates 0) and ranks the whole corpus."""
    pipe = Pipeline(get_model("hybrid"), tea, {"alpha": 0.0, "vector_candidates": 0})
    r = pipe.run(metric_names=(), depth=len(tea.corpus), select=False)
    n = int(r.ranking.count[query])
    row, scores = r.ranking.docs[query, :n].tolist(), r.ranking.scores[query, :n]
    return int(np.count_nonzero(scores > scores[row.index(doc)])) + 1


def _fallen(comp: Comparison) -> list[tuple[int, int, int]]:
    """(query, doc, rank before) of the movers that fell out of the ranked 100."""
    out = [(m.query, m.doc, m.baseline_rank) for m in comp.movers(1, 10, 500)
           if m.rank is None and m.baseline_rank is not None]
    assert out, "no document fell past the list: the case tests nothing"
    return out  # type: ignore[return-value]


def test_a_place_past_a_pruned_list_is_counted_over_every_pair(
        tea: Dataset, comp: Comparison) -> None:
    assert comp.results[1].scores.n_pairs < len(tea.queries) * len(tea.corpus)  # pruned
    q, d, before = next(f for f in _fallen(comp) if tea.queries.ids[f[0]] == "q09")
    place = _true_place(tea, q, d)
    assert place > 100
    move = explain_move(comp, 1, q, d)
    assert move.beyond_b == place
    text = move.sentence()
    assert f"to below the top 100 (#{place}, tied with 3 others)" in text, text
    assert f"{place - before} documents rose past it" in text and "at least" not in text


def test_without_the_prepared_state_the_place_is_a_bound(tea: Dataset, comp: Comparison) -> None:
    q, d, before = next(f for f in _fallen(comp) if tea.queries.ids[f[0]] == "q09")
    place = _true_place(tea, q, d)
    bare = replace(comp, prepared=[], _whole={})
    move = explain_move(bare, 1, q, d)
    assert move.beyond_b is not None and move.beyond_b < place  # what the pruned table has
    text = move.sentence()
    assert f"(#{move.beyond_b} or lower, tied with at least 3 others)" in text, text
    assert f"at least {move.beyond_b - before} documents rose past it" in text
