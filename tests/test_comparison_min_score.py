"""A document one side's min score leaves out is explained as that, one way on every model
(review F, 10): its score, the same on both sides where nothing else changed, against the
min score; not "no signal changed (other documents moved)" (vault-search) nor a total of
21 → 0 behind a gate (decision-memory)."""

from __future__ import annotations

import numpy as np

from tests.conftest import SAMPLES
from workbench.core.comparison import (
    Comparison,
    Configuration,
    compare_configurations,
    explain_move,
)
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.html import html_report


def _compare(data: str, model_id: str, first: dict[str, object], second: dict[str, object],
             names: tuple[str, str]) -> Comparison:
    model = get_model(model_id)
    return compare_configurations(
        model, load_dataset(SAMPLES / data),
        [Configuration(names[0], model.schema.resolve(first)),
         Configuration(names[1], model.schema.resolve(second))], ["ndcg@10"],
        n_resamples=200)


def _doc(comp: Comparison, query: str, doc: str) -> tuple[int, int]:
    ds = comp.dataset
    return ds.queries.ids.index(query), ds.corpus.ids.index(doc)


def test_vault_searchs_min_score_filters_out_a_document_whose_score_held() -> None:
    # v04 "water hardness": the defaults rank one note, brewing/water-chemistry.md, at 1;
    # min score 0.3 leaves it out, its score (0.171) the same under both
    comp = _compare("vault", "vault-search", {}, {"min_score": 0.3},
                    ("defaults", "min_score=0.3"))
    q, d = _doc(comp, "v04", "brewing/water-chemistry.md")
    move = explain_move(comp, 1, q, d)
    assert move.total_a == move.total_b
    assert move.sentence() == ("dropped out from 1: its score 0.171 is under min_score 0.3: "
                               "filtered out — min_score 0 → 0.3")
    # the other way: let through where the min score is lowered
    back = _compare("vault", "vault-search", {"min_score": 0.3}, {},
                    ("min_score=0.3", "defaults"))
    assert explain_move(back, 1, q, d).sentence() == (
        "entered at 1: its score 0.171 was under min_score 0.3, and is no longer filtered out "
        "— min_score 0.3 → 0")


def test_decision_memorys_min_score_gate_reads_the_same() -> None:
    # turn-51: qm-035 scores lexical 15 + locality 6 = 21 under both; inject_min_score 30
    # gates it (below_min_score), which had read "21 → 0 (below_min_score gate) −21" and
    # "filtered out by the below_min_score gate under the second, let through by the first"
    comp = _compare("decisions", "decision-memory", {}, {"inject_min_score": 30},
                    ("defaults", "inject_min_score=30"))
    q, d = _doc(comp, "turn-51", "qm-035")
    move = explain_move(comp, 1, q, d)
    assert (move.gate_a, move.gate_b) == (None, None)
    assert np.isclose(move.total_a, 21.0) and np.isclose(move.total_b, 21.0)
    assert move.sentence() == ("dropped out from 1: its score 21 is under inject_min_score "
                               "30: filtered out — inject_min_score 8 → 30")
    page = html_report(comp)
    movers = page[page.index('<section id="movers"'):]
    card = movers[movers.index('<div class="mover">'):]
    assert movers.count('<div class="mover">') == 1 and "qm-035" in card  # the one mover
    total = card[card.index("<th>total</th>"):]
    total = total[:total.index("</tr>")]
    assert "below_min_score" not in total and "±0" in total and "−21" not in total
