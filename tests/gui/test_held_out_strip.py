"""Tuned values in the live window: the session keeps the record of the queries the live
values were tuned on (Apply best, or a configuration tune saved) through slider moves, undo and
redo, and the metric strip's cards, deltas and paired test count only the judged queries
neither the live values nor the baseline was tuned on. The figures are checked against each
configuration's own evaluation with only the held-out queries judged, built here from the
sample's files."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.data import Dataset
from workbench.core.formats import load_dataset
from workbench.core.metrics import paired_test
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.session import TuningSession
from workbench.core.tuned_on import TunedOn
from workbench.gui.metric_strip import COMPARISON_TIP, MetricStrip

TEA = SAMPLES / "tea-beir"
TUNED = {"k1": 0.5, "b": 0.3}
FIRST_TEN = tuple(f"q{i:02d}" for i in range(1, 11))


def _record(trained_on: tuple[str, ...], dataset: str = "tea-beir") -> TunedOn:
    return TunedOn(dataset, "3-fold over 25 queries (seed 0)", trained_on, "ndcg@10")


@pytest.fixture
def session() -> TuningSession:
    s = TuningSession()
    s.open(TEA)
    s.set_model("bm25")
    s.recompute()
    return s


def _held_out_means(params: dict[str, float], held: list[str]) -> dict[str, float]:
    """The model's metrics with only `held` judged, from the files, apart from the session."""
    ds = load_dataset(TEA)
    assert ds.qrels is not None
    sub = Dataset(ds.name, ds.corpus, ds.queries, {q: ds.qrels[q] for q in held})
    return Pipeline(get_model("bm25"), sub, params).run(
        ["ndcg@10", "mrr@10", "p@10", "r@10", "r@100"]).means


def test_the_record_follows_the_values(session: TuningSession) -> None:
    s = session
    record = _record(FIRST_TEN)
    s.set_params(TUNED, tuned_on=record)
    assert s.tuned_on is record
    s.set_param("k1", 0.6)  # a slider moved on from tuned values keeps the record
    assert s.tuned_on is record
    s.undo()
    assert s.params["k1"] == 0.5 and s.tuned_on is record
    s.undo()  # before the tuned values: none
    assert s.tuned_on is None and s.params["k1"] == 1.2
    s.redo()
    assert s.tuned_on is record
    s.save_configuration("mine")  # saved values keep it, for compare and the report
    assert s.configurations.get("mine").tuned_on is record
    s.reset_param()  # every default: nothing tuned any more
    assert s.tuned_on is None
    s.apply_configuration("mine")
    assert s.tuned_on is record and s.params["k1"] == 0.5
    s.set_model("vault-search")
    assert s.tuned_on is None
    s.set_model("bm25")  # back: the values as left, with their record
    assert s.tuned_on is record and s.params["k1"] == 0.5


def test_the_strip_counts_only_the_queries_not_tuned_on(qtbot: QtBot,
                                                        session: TuningSession) -> None:
    s = session
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    strip.resize(1500, 90)
    strip.show()
    qtbot.waitExposed(strip)
    assert strip.held_note.isHidden()
    s.pin_baseline()
    s.set_params(TUNED, tuned_on=_record(FIRST_TEN))
    s.recompute()
    held = [q for q in load_dataset(TEA).queries.ids if q not in FIRST_TEN]
    mine, base = _held_out_means(TUNED, held), _held_out_means({}, held)
    for card, name in zip(strip.cards, s.metric_names, strict=True):
        assert card.value.text() == f"{mine[name]:.3f}", name
        assert f"vs {base[name]:.3f}" in card.detail.text(), name
    # the cards differ from the all-query means the training queries would have given
    assert s.result is not None
    assert any(f"{s.result.means[n]:.3f}" != f"{mine[n]:.3f}" for n in s.metric_names)
    assert strip.held_note.isVisible()
    assert strip.held_note.text() == ("counted: the 15 of 25 judged queries not tuned on "
                                      "(10 set aside, tuned on by the live values)")
    # the paired test on the same 15
    assert s.baseline is not None
    idx = [s.dataset.queries.index[q] for q in held]  # type: ignore[union-attr]
    name = s.metric_names[0]
    want = paired_test(s.baseline.result.per_query[name][idx], s.result.per_query[name][idx])
    got = s.comparison()
    assert got is not None and (got.improved, got.worsened) == (want.improved, want.worsened)
    assert f"▲{want.improved}" in strip.comparison.text()
    # undo to the values before: every query counted again, and the note gone
    s.undo()
    s.recompute()
    assert strip.held_note.isHidden()
    assert strip.cards[0].value.text() == f"{s.result.means[name]:.3f}"


def test_a_tuned_baseline_sets_its_queries_aside_too(session: TuningSession) -> None:
    s = session
    s.configurations.save("tuned", "bm25", TUNED, tuned_on=_record(FIRST_TEN[:4]))
    s.set_baseline("tuned")
    s.set_params({"b": 0.9}, tuned_on=_record(FIRST_TEN[4:]))
    mask = s.held_out().mask
    assert mask is not None
    ids = np.array(s.dataset.queries.ids)  # type: ignore[union-attr]
    assert sorted(ids[mask]) == [f"q{i:02d}" for i in range(11, 26)]
    assert s.held_out().note == ("counted: the 15 of 25 judged queries not tuned on (10 set "
                                 "aside, tuned on by the live values and the baseline "
                                 "'tuned')")


def test_every_query_tuned_on_says_training_scores(session: TuningSession) -> None:
    s = session
    s.set_params(TUNED, tuned_on=_record(tuple(s.dataset.queries.ids)))  # type: ignore[union-attr]
    held = s.held_out()
    assert held.mask is None
    assert held.note == ("training scores: every judged query was tuned on by "
                         "the live values")


def test_a_record_about_another_dataset_changes_nothing(session: TuningSession) -> None:
    session.set_params(TUNED, tuned_on=_record(FIRST_TEN, dataset="scifact"))
    assert session.held_out().mask is None and session.held_out().note == ""


def test_the_query_list_greys_the_queries_tuned_on(qtbot: QtBot,
                                                   session: TuningSession) -> None:
    from PySide6.QtCore import Qt

    from workbench.gui.query_list import ASIDE, QueryList

    s = session
    ql = QueryList(s)
    qtbot.addWidget(ql)
    s.pin_baseline()
    s.set_params(TUNED, tuned_on=_record(FIRST_TEN))
    s.recompute()
    model = ql.model
    fg, tip = Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.ToolTipRole
    rows = {q: i for i, q in enumerate(s.dataset.queries.ids)}  # type: ignore[union-attr]
    for q in ("q01", "q10"):
        for col in (2, 3):
            assert model.data(model.index(rows[q], col), fg) == ASIDE
        assert "tuned on" in model.data(model.index(rows[q], 3), tip)
    assert model.data(model.index(rows["q11"], 2), fg) != ASIDE
    assert model.data(model.index(rows["q11"], 3), tip) is None
    s.undo()
    s.recompute()
    assert model.data(model.index(rows["q01"], 2), fg) != ASIDE


def test_a_narrow_window_gets_the_short_comparison_not_a_wider_floor(qtbot: QtBot) -> None:
    """The paired test's line takes the room the cards leave: at 1,400 px the whole line, in
    a window too narrow for it ▲ ▼ and p (the whole in the tooltip); the cards, not the line,
    set the narrowest width (it set a 1,131-px floor, 1,403 px for codeledger's 7 cards)."""
    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "code-repo")
    w.session.pin_baseline()
    w.resize(1600, 900)
    w.show()
    qtbot.waitExposed(w)
    strip = w.metrics
    qtbot.waitUntil(lambda: "(randomisation)" in strip.comparison.text())
    assert strip.comparison.toolTip() == COMPARISON_TIP  # what ▲ ▼ and p mean
    cards = sum(c.width() for c in (strip.k_spin, *strip.cards,
                                    *strip.extra_cards.values()) if not c.isHidden())
    assert strip.minimumSizeHint().width() < cards + strip.comparison.wide
    w.resize(w.minimumSizeHint().width(), 900)
    qtbot.waitUntil(lambda: "queries" not in strip.comparison.text())
    assert "p = " in strip.comparison.text() and "▲" in strip.comparison.text()
    assert "(randomisation)" in strip.comparison.toolTip()
    assert w.minimumSizeHint().width() < 1280  # a 1,280-px screen holds codeledger's window
    # and a 1,024-px one: the cards that find no room are hidden and counted (seven fixed
    # cards held the window at 1,243 px)
    assert w.minimumSizeHint().width() <= 1024
    w.resize(1024, 768)
    qtbot.waitUntil(lambda: strip.overflow.isVisible())
    shown = [c for c in (*strip.cards, *strip.extra_cards.values()) if not c.isHidden()]
    hidden = int(strip.overflow.text().lstrip("+").split()[0])  # "+2 more" (rn 9)
    assert len(shown) + hidden == len(strip.cards) + 2  # bundle recall and precision
    # the model's own figures stay, the general metrics after the first give way
    assert shown == [*strip.cards[:len(shown) - 2], *strip.extra_cards.values()]
    assert "R@100" in strip.overflow.toolTip()
    assert "bundle" not in strip.overflow.toolTip()
    w.resize(1600, 900)
    qtbot.waitUntil(lambda: not strip.overflow.isVisible())
    assert sum(not c.isHidden() for c in strip.extra_cards.values()) == 2
    w.close()


def test_training_scores_get_no_test_and_no_colour(qtbot: QtBot,
                                                   session: TuningSession) -> None:
    # every judged query tuned on (k-fold values): the strip showed "▲13 ▼6 p = 0.115" and
    # green deltas beside its own note that the figures are training scores
    s = session
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    s.pin_baseline()
    every = tuple(f"q{i:02d}" for i in range(1, 26))
    s.set_params(TUNED, tuned_on=_record(every))
    s.recompute()
    strip.refresh()
    assert "training scores: no test" in strip.comparison.texts[0]
    assert "p =" not in strip.comparison.texts[0] and "▲" not in strip.comparison.texts[0]
    # said once: the line below the cards had repeated it ("training scores: every judged
    # query was tuned on by the live values") and pushed the charts down
    assert "tuned on by the live values" in strip.comparison.texts[0]
    assert strip.held_note.isHidden()
    # where the long line does not fit, the short one (it had run past the window's edge)
    strip.comparison.resize(strip.comparison.wide + 20, strip.comparison.height())
    assert "tuned on" not in strip.comparison.text()
    assert "tuned on by the live values" in strip.comparison.toolTip()
    detail = strip.cards[0].detail.text()
    assert detail.startswith("<span style='color:#8c959f'>")  # the Δ shown, uncoloured
    assert "vs" in detail
