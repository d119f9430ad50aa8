"""A P@k card where the model returns fewer results a query than k carries the CLI's cap note
(review r49, rg 3: "P@10 0.195" on importance, whose limit is 5, read as poor precision; the
CLI's eval says "p@10 is at most 0.5")."""

from __future__ import annotations

from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.metric_strip import MetricStrip


def test_the_p_card_says_its_cap_where_the_limit_is_under_k(qtbot: QtBot) -> None:
    s = TuningSession()
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    s.open(SAMPLES / "memories")
    s.set_model("importance")  # Max results 5
    s.recompute()
    card = strip.cards[s.metric_names.index("p@10")]
    assert card.name.text() == "P@10  at most 0.5"
    assert card.toolTip().endswith(
        "note, now: importance returns at most 5 results a query (its limit is 5): P@10 is at "
        "most 0.5")
    # nDCG@10 has no bound, but counts only those 5, as eval says (rv2 dr2 7: no note at all)
    ndcg = strip.cards[s.metric_names.index("ndcg@10")]
    # the why said once under the cards, as eval says it (rA 11), not "·top 5" on each
    assert ndcg.name.text() == "nDCG@10"
    assert strip.cap_note.isVisibleTo(strip)
    # short, what the cards say first; eval's whole note in its tooltip (dF 3)
    assert strip.cap_note.plain_text() == (
        "at most 5 results a query: P@10 ≤ 0.5; R@100 = R@10; nDCG@10, MRR@10 and R@10 "
        "count only those 5")
    assert strip.cap_note.toolTip() == (
        "importance returns at most 5 results a query (its limit is 5): P@10 is at most 0.5; "
        "nDCG@10, MRR@10, R@10 and R@100 count only those 5; R@100 = R@10 here")
    assert ndcg.toolTip().endswith(
        "note, now: importance returns at most 5 results a query (its limit is 5): nDCG@10 "
        "counts only those 5")
    r100 = strip.cards[s.metric_names.index("r@100")]
    assert r100.name.text() == "R@100  = R@10"  # both 0.604: the same 5 results
    r10 = strip.cards[s.metric_names.index("r@10")]
    assert r10.value.text() == r100.value.text()
    assert r100.toolTip().endswith(": R@100 counts only those 5")
    s.set_params({**s.params, "limit": 1})
    s.recompute()
    assert ndcg.name.text() == "nDCG@10"
    assert "count only that one" in strip.cap_note.plain_text()
    s.set_params({**s.params, "limit": 5})
    s.recompute()
    s.set_k(5)  # P@5 can reach 1: no mark
    assert strip.cards[s.metric_names.index("p@5")].name.text() == "P@5"
    assert "P@5" not in strip.cap_note.plain_text()
    assert "at most" not in strip.cards[s.metric_names.index("p@5")].toolTip()
    strip.shutdown()


def test_the_bound_is_said_to_be_the_current_values_own(qtbot: QtBot) -> None:
    """dr4 9: "P@20  ≤ 0.05 · 0.048 · −0.045 vs 0.093" read as the metric's bound while the
    baseline (limit 5) stood above it on the same card."""
    s = TuningSession()
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    s.open(SAMPLES / "memories")
    s.set_model("importance")
    s.recompute()
    s.pin_baseline()  # limit 5
    s.set_param("limit", 1)
    s.set_k(20)
    s.recompute()
    card = strip.cards[s.metric_names.index("p@20")]
    assert card.name.text() == "P@20  at most 0.05"
    assert card.toolTip().endswith(
        "note, now: importance returns at most 1 result a query (its limit is 1): P@20 is at "
        "most 0.05\nthe baseline: importance returns at most 5 results a query (its limit is "
        "5): P@20 is at most 0.25")
    s.set_param("limit", 0)  # the baseline capped, the current values not: no mark
    s.recompute()
    assert card.name.text() == "P@20"
    s.pin_baseline()  # not capped either; then the current values capped again
    s.set_param("limit", 2)
    s.recompute()
    assert card.name.text() == "P@20  at most 0.1"
    assert card.toolTip().endswith("\nthe baseline is not bounded this way: its longest list "
                                   "reaches the cut-off")
    strip.shutdown()


def test_equal_recalls_over_short_lists_say_so(qtbot: QtBot) -> None:
    # rA 11, on decisions-eval: every case returns at most 3 (its topK), so R@10 and R@100
    # are one figure (0.700 and 0.700 on the cards)
    s = TuningSession()
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    s.open(SAMPLES / "decisions-eval")
    s.set_model("decision-memory")  # the sample's (workbench.toml), at its defaults
    s.recompute()
    r10 = strip.cards[s.metric_names.index("r@10")]
    r100 = strip.cards[s.metric_names.index("r@100")]
    assert r10.value.text() == r100.value.text() == "0.700"
    assert r100.name.text() == "R@100  = R@10" and r10.name.text() == "R@10"
    # dF 3: the whole note (1,491 px) was cut mid-word with no "…" before the "R@100 =
    # R@10" the card names, and said "30 queries" under "mean of 30 cases"
    note = strip.cap_note
    assert note.plain_text() == ("at most 3 results a case: P@10 ≤ 0.3; R@100 = R@10; "
                                 "nDCG@10, MRR@10 and R@10 count only what it returned")
    assert note.toolTip().startswith("decision-memory returned at most 3 results a case here: "
                                     "P@10 is at most 0.3; ")
    assert "on 30 of the 30 cases" in note.toolTip() and "quer" not in note.toolTip()
    assert note.toolTip().endswith("; R@100 = R@10 here")
    strip.show()
    qtbot.waitExposed(strip)
    strip.resize(2000, strip.height())
    qtbot.waitUntil(lambda: note.text() == note.plain_text())
    # narrower than it (the cards hold the strip at 700 px or so): cut at its last whole
    # clause, said cut
    note.resize(note.fontMetrics().horizontalAdvance(note.plain_text()) * 3 // 4,
                note.height())
    assert note.text() == "at most 3 results a case: P@10 ≤ 0.3; R@100 = R@10; …"
    assert note.toolTip().startswith("decision-memory returned at most 3 results a case")
    strip.shutdown()
