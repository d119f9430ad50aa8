"""One rule marks a difference beyond chance in every table: the Markdown's ★, the HTML's
colour and the compare window's colour follow In short's multiple-comparison words, and
judged@ (coverage) is marked nowhere (review rv3, F3 and F4)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.html import html_report
from workbench.report.text import markdown, summary_lines


@pytest.fixture(scope="module")
def vault4() -> Comparison:
    model = get_model("vault-search")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("v_ms2", model.schema.resolve({"min_score": 0.2})),
               Configuration("v_pos0", model.schema.resolve({"w_position": 0.0})),
               Configuration("v_den0", model.schema.resolve({"w_density": 0.0}))]
    return compare_configurations(model, load_dataset(SAMPLES / "vault"), configs,
                                  n_resamples=2000)


def test_a_p_weak_among_many_is_not_starred_beyond_chance(vault4: Comparison) -> None:
    # In short: v_ms2's ndcg@10, p 0.016, 0 better and 7 worse, is weak evidence among the 12
    # p-values shown (judged@10's, coverage, is none: dr6 8): above 0.05 after Holm's
    # adjustment over them, 12 × 0.0156 = 0.19 by hand (review rb, 1)
    assert ("exploratory, and not below 0.05 after Holm's adjustment over the 12 p-values "
            "shown (Holm p 0.188)") in summary_lines(vault4)[0]
    page = markdown(vault4)
    (row,) = [line for line in page.splitlines() if line.startswith("| ndcg@10 | 0.7357 | "
                                                                     "0.6671 |")]
    assert "−0.0686 ☆" in row and "★" not in row
    assert ("☆: p below 0.05 alone, but exploratory and not below 0.05 after Holm's "
            "adjustment: weak evidence") in page
    # counted against the table (r52 dr8 6): 18 p-values, judged@10's and those on which no
    # query moved (6) untested
    assert "12 of the table's 18 p-values are side looks" in page


def test_the_html_leaves_a_weak_p_uncoloured(vault4: Comparison) -> None:
    page = html_report(vault4)
    cell = re.search(r'<tr data-metric="ndcg@10">.*?</tr>', page)
    assert cell is not None
    # v_ms2's Δ, the first compared configuration's: marked ☆, neither red nor green
    deltas = re.findall(r'<td class="num ([a-z]*)">([^<]*)(<span class="weak"[^>]*>☆</span>)?',
                        cell.group(0))
    tone, text, weak = deltas[0]
    assert text.strip() == "−0.0686" and tone == "" and weak
    assert "(☆: p below 0.05 alone, but not after Holm&#x27;s adjustment: weak evidence)" \
        in page or "(☆: p below 0.05 alone, but not after Holm's adjustment: weak evidence)" \
        in page


def test_judged_is_never_starred() -> None:
    # memories, limit 5 → 10: judged@10 0.4050 → 0.2999, p 0.002 (the longer lists hold
    # unjudged memories): coverage, not quality, as the HTML already left it plain
    model = get_model("importance")
    changed = {"limit": 10, "prefilter": False, "exclude_archived": False,
               "relevance": "coverage"}
    comp = compare_configurations(
        model, load_dataset(SAMPLES / "memories"),
        [Configuration("defaults", model.schema.defaults()),
         Configuration("long", model.schema.resolve(changed))], n_resamples=2000)
    judged = next(r for r in comp.rows if r.metric == "judged@10")
    p = judged.p_values[1]
    assert p is not None and p < 0.05
    page = markdown(comp)
    (row,) = [line for line in page.splitlines() if line.startswith("| judged@10 |")]
    assert "★" not in row and "☆" not in row
    # and the length note names it: a share of what each list returned
    assert "judged@10 is a share of what each returned" in page
