"""In short, the sentences a stakeholder reads when reading nothing else (review F): a tuned
configuration's held-out p with its verdict (6), a p near 0.05 among many tests said to be
weak evidence (7), and the judgment-free sentence that says the lists were cut (12)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuned_on import TunedOn
from workbench.report.text import summary_lines


def _tuned(held_default: float, held_tuned: float, p: float) -> Comparison:
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    comp = compare_configurations(
        model, ds, [Configuration("defaults", model.schema.defaults()),
                    Configuration("tuned", model.schema.resolve({"k1": 0.9, "b": 0.4}))],
        ["ndcg@10"], n_resamples=200)
    comp.training = frozenset({"tuned"})
    comp.tuned["tuned"] = TunedOn("tea-beir", "3-fold cross-validation",
                                  tuple(ds.queries.ids), "ndcg@10", held_default,
                                  held_tuned, p, len(ds.queries))
    return comp


@pytest.mark.parametrize(("held", "p", "said"), [
    ((0.7454, 0.7479), 0.844,
     "0.7454 → 0.7479 (+0.0025, p 0.844): no clear difference held out: it may be chance."),
    ((0.60, 0.66), 0.01, "0.6000 → 0.6600 (+0.0600, p 0.010): better held out, beyond chance."),
    ((0.66, 0.60), 0.01, "0.6600 → 0.6000 (−0.0600, p 0.010): worse held out, beyond chance.")])
def test_a_tuned_configurations_held_out_p_comes_with_its_verdict(
        held: tuple[float, float], p: float, said: str) -> None:
    # memories, tuned 3-fold: "… 0.7454 → 0.7479 (+0.0025, p 0.844). On the queries it was
    # tuned on, … (+0.0371)": the one figure that mattered had no words, the training gain had
    (line,) = summary_lines(_tuned(*held, p))
    assert f"{said} On the queries it was tuned on, ndcg@10 " in line
    assert "— training scores, no evidence for new queries: the held-out figures are the " \
           "estimate." in line
