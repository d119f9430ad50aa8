"""The metric strip says what its cards are: the mean over the judged queries, in the data's own
noun, under the k box and in every card's tooltip (rn 2: the nDCG@10 card's 0.591 sat beside
the selected query's own 0.388, nothing saying which was which); and the cards that find no
room are named where the room left holds their names (rn 9: "+1" was explained on hover
only)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.session import TuningSession
from workbench.core.tuned_on import TunedOn
from workbench.gui.charts._standalone import open_session
from workbench.gui.metric_strip import MetricStrip


def _judged(qrels: Path) -> int:
    """The queries a qrels file judges, counted from the file."""
    lines = qrels.read_text(encoding="utf-8").splitlines()[1:]
    return len({line.split("\t")[0] for line in lines if line.strip()})


def _strip(qtbot: QtBot, session: TuningSession, width: int = 1500) -> MetricStrip:
    strip = MetricStrip(session, defer_ms=0)
    qtbot.addWidget(strip)
    strip.resize(width, 90)
    strip.show()
    qtbot.waitExposed(strip)
    return strip


def _mean_note(strip: MetricStrip) -> str:
    return strip.mean_label.text().replace("\n", " ")


def test_the_cards_say_they_are_a_mean_in_the_data_s_noun(qtbot: QtBot) -> None:
    n = _judged(SAMPLES / "story" / "qrels" / "test.tsv")
    assert n == 26  # the finding's count
    strip = _strip(qtbot, open_session(SAMPLES / "story", "bm25"))
    assert strip.mean_label.isVisible()
    assert _mean_note(strip) == f"mean of {n} chat moments"
    # under the k box, no wider than it: the note takes no card's room
    assert strip.mean_label.width() <= strip.k_spin.width()
    assert strip.mean_label.geometry().top() >= strip.k_spin.geometry().bottom()
    for card in strip.cards:
        assert f"mean over the {n} judged chat moments" in card.toolTip(), card.name.text()


def test_a_repository_s_cards_are_a_mean_over_its_tasks(qtbot: QtBot) -> None:
    tasks = sum(1 for line in (SAMPLES / "code-repo" / "tasks.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip())
    strip = _strip(qtbot, open_session(SAMPLES / "code-repo", "codeledger"), width=1800)
    assert _mean_note(strip) == f"mean of {tasks} tasks"
    shown = [c for c in (*strip.cards, *strip.extra_cards.values()) if c.isVisible()]
    assert len(shown) == len(strip.cards) + 2  # bundle recall and precision among them
    for card in shown:
        assert f"mean over the {tasks} judged tasks" in card.toolTip(), card.name.text()


def test_held_out_cards_say_how_many_they_count(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "tea-beir", "bm25")
    strip = _strip(qtbot, s)
    assert _mean_note(strip) == "mean of 25 queries"
    first_ten = tuple(f"q{i:02d}" for i in range(1, 11))
    record = TunedOn("tea-beir", "3-fold over 25 queries (seed 0)", first_ten, "ndcg@10")
    s.set_params({"k1": 0.5, "b": 0.3}, tuned_on=record)
    s.recompute()
    assert _mean_note(strip) == "mean of 15 queries"
    # review dB 3: said plainly, the selected query's own value first in the note's tooltip
    assert ("mean over the 15 judged queries not tuned on (10 of the 25 queries were)"
            in strip.cards[0].toolTip())
    assert strip.mean_label.toolTip() == (
        "The metric cards are not the selected query's own value (the query list and the "
        "ranked table show that): each is a mean over the 15 judged queries not tuned on "
        "(10 of the 25 queries were).")


def test_held_out_line_says_the_data_s_noun(qtbot: QtBot) -> None:
    # review dB 3: "counted: the 16 of 26 judged queries not tuned on" under "mean of 16
    # chat moments"
    s = open_session(SAMPLES / "story", "bm25")
    strip = _strip(qtbot, s)
    assert s.dataset is not None
    record = TunedOn("story", "test", tuple(s.dataset.queries.ids[:10]), "ndcg@10")
    s.set_params({}, tuned_on=record)
    s.recompute()
    assert _mean_note(strip) == "mean of 16 chat moments"
    assert strip.held_note.text().startswith(
        "counted: the 16 of 26 judged chat moments not tuned on (10 set aside")
    assert "the 16 judged chat moments not tuned on (10 of the 26 chat moments were)" in (
        strip.cards[0].toolTip())


def test_a_count_card_is_not_called_a_mean(qtbot: QtBot) -> None:
    # review dB 2: decisions-eval's "mean of 30 cases" sat beside "cases passing 20 / 30",
    # its tooltip saying every card was a mean
    cases = sum(1 for line in (SAMPLES / "decisions-eval" / "eval.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip())
    assert cases == 30
    strip = _strip(qtbot, open_session(SAMPLES / "decisions-eval", "decision-memory"))
    assert strip.cases_card.isVisible()
    assert strip.cases_card.value.text().endswith(f"/ {cases}")
    # the longest wording that fits the k box's width (the window's font: the first)
    # dH 7: "from nDCG@10:" read as "derived from nDCG@10"
    assert strip.mean_label.text() in (f"nDCG@10 on:\nmean of {cases} cases",
                                       f"nDCG@10 on:\nmean of {cases}")
    tip = strip.mean_label.toolTip()
    assert "cases passing counts the cases that pass" in tip
    assert f"the cards from nDCG@10 on are each a mean over the {cases} judged cases" in tip
    assert "each is a mean" not in tip
    fm = strip.mean_label.fontMetrics()
    for line in strip.mean_label.text().split("\n"):  # both lines fit under the k box
        assert fm.horizontalAdvance(line) <= strip.mean_label.width()


def test_no_judgments_no_mean_note(qtbot: QtBot) -> None:
    strip = _strip(qtbot, open_session(SAMPLES / "decisions", "decision-memory"))
    assert strip.mean_label.isHidden()


def test_a_hidden_card_is_named_where_there_is_room(qtbot: QtBot) -> None:
    strip = _strip(qtbot, open_session(SAMPLES / "tea-beir", "bm25"))
    step = strip.cards[0].width() + strip._layout.spacing()
    # room for four of the five cards and a little over: the fifth, R@100, named
    strip.resize(strip._fixed_width() + 4 * step + step // 2 + 40, 90)
    qtbot.waitUntil(lambda: strip.overflow.text() == "+1 more (R@100)")
    assert strip.cards[4].isHidden() and strip.cards[3].isVisible()
    # nothing overlaps: the count ends before the paired test's line begins
    assert strip.overflow.geometry().right() < strip.comparison.geometry().left()
    assert strip.comparison.width() >= strip.comparison.minimumWidth()
    # too narrow for the names: the count, the names in the tooltip
    strip.resize(strip.minimumWidth(), 90)
    qtbot.waitUntil(lambda: strip.cards[3].isHidden())
    assert strip.overflow.text() in ("+2 more", "+2")
    assert strip.overflow.toolTip().endswith("R@10, R@100")
