"""Putting a kept trial's tied values back to the start (`settle.settle_ties`: an evaluation per
value that differs) reports to and polls the run's progress, as the trials do: the window's
Cancel lands between two evaluations (rv53 follow-up 3)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.core.engine import Cancelled, Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuning import Evaluator
from workbench.core.tuning.settle import settle_ties
from workbench.core.tuning.space import build_space


def test_a_cancel_lands_while_ties_are_put_back() -> None:
    model = get_model("bm25")
    dataset = load_dataset(SAMPLES / "tea-beir")
    evaluator = Evaluator(model, dataset, {}, ["ndcg@10"])
    space = build_space(model.schema, ["k1", "b"])
    train = np.ones(evaluator.n_queries, bool)
    drawn = {"k1": evaluator.base["k1"] + 0.5, "b": evaluator.base["b"] - 0.25}
    said: list[tuple[float, str]] = []
    progress = Progress(on_progress=lambda f, m: said.append((f, m)),
                        should_stop=lambda: len(said) >= 1)  # Cancel after the first
    with pytest.raises(Cancelled):
        settle_ties(evaluator, space, ["ndcg@10"], [], train, drawn, progress, "all")
    assert said == [(0.0, "all: scoring ties with the start, k1 (1 of 2)")]
    # not stopped: each value said in turn, and the run goes on
    said.clear()
    seen = Progress(on_progress=lambda f, m: said.append((f, m)))
    settle_ties(evaluator, space, ["ndcg@10"], [], train, drawn, seen, "all")
    assert [m for _, m in said] == ["all: scoring ties with the start, k1 (1 of 2)",
                                    "all: scoring ties with the start, b (2 of 2)"]
