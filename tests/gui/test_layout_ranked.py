"""The ranked table at laptop widths (review rv2 1): at 1,024 × 768 on decision-memory the
titles read "Incre…" beside a gate column of 110 px, whose codes were elided even at 1,600 px
("single_token…"). The title keeps about 14 characters before the bars or the gate grow; a
gate shows its code's words, the code and the model's reason in the cell's tooltip."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from workbench.gui.elided import TEXT_MARGIN, elide_words
from workbench.gui.main_window import MainWindow
from workbench.gui.ranked_table import COLUMNS, Share, share_width

TITLE, GATE = COLUMNS.index("title"), COLUMNS.index("gate")


def _window(qtbot: QtBot, size: tuple[int, int]) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "decisions", model="decision-memory")
    qtbot.wait(20)  # the layout settles
    return w


def test_at_1024_the_titles_keep_fourteen_characters(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1024, 768))
    view = w.ranked.view
    assert not view.isColumnHidden(TITLE) and not view.isColumnHidden(GATE)
    fm = view.fontMetrics()
    assert view.columnWidth(TITLE) >= fm.horizontalAdvance("x" * 14), [
        view.columnWidth(c) for c in range(len(COLUMNS))]
    # … and the table needs no sideways scrolling for it
    assert sum(view.columnWidth(c) for c in range(len(COLUMNS))
               if not view.isColumnHidden(c)) <= view.viewport().width()
    w.close()


def test_at_1024_pinned_the_gates_show_their_first_words(qtbot: QtBot,
                                                         styled: object) -> None:
    """rv2 1: at 1,024 px with a baseline pinned the gate column had 50 px, "…" in most of
    its cells ("single token evidence", "source turn", "archived" alike); the title now keeps
    10 characters, the bars a sixth of their width, and the gate its gates' labels."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    w = _window(qtbot, (1024, 768))
    w.session.pin_baseline()
    qtbot.wait(20)
    view, model = w.ranked.view, w.ranked.model
    fm = view.fontMetrics()
    shown = {}
    for row, r in enumerate(model.rows):
        if r.gate:
            index = model.index(row, GATE)
            opt = QStyleOptionViewItem()
            opt.initFrom(view)
            opt.rect = view.visualRect(index)
            view.itemDelegateForColumn(GATE).initStyleOption(opt, index)
            shown[index.data()] = opt.text
    # the model's labels where the words do not fit (their first words had read "not in…",
    # "long…": rv2 dr2 4)
    assert shown["single token evidence"] == "one word"
    assert shown["source turn"] == "from turn"
    assert view.columnWidth(TITLE) >= fm.horizontalAdvance("x" * 10)
    assert sum(view.columnWidth(c) for c in range(len(COLUMNS))
               if not view.isColumnHidden(c)) <= view.viewport().width()
    # not pinned, the titles keep their fourteen characters (the Δ column's room)
    w.session.clear_baseline()
    qtbot.wait(20)
    assert view.columnWidth(TITLE) >= fm.horizontalAdvance("x" * 14)
    w.close()


def test_a_gate_reads_as_words_its_reason_in_the_tooltip(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1024, 768))
    model = w.ranked.model
    row = next(i for i, r in enumerate(model.rows) if r.gate == "single_token_evidence")
    cell = model.index(row, GATE)
    assert cell.data() == "single token evidence"
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "single_token_evidence" in tip
    assert "injection needs at least min_strong strong (exact) matches" in tip
    w.close()


def test_at_1600_every_gate_shows_whole(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1600, 1000))
    view, model = w.ranked.view, w.ranked.model
    fm = view.fontMetrics()
    shown = {r.gate for r in model.rows if r.gate}
    assert {"single_token_evidence", "source_turn"} <= shown
    for gate in shown:
        assert view.columnWidth(GATE) >= fm.horizontalAdvance(gate.replace("_", " ")) + 8
    assert view.columnWidth(TITLE) >= fm.horizontalAdvance("x" * 30)
    w.close()


def test_the_room_is_shared_name_first() -> None:
    name, ids = Share(120, 0), Share(60, 200)
    bar, gate = Share(60, 180), Share(70, 170)
    # short: the gate and the bars give way alike, down to their floors, before the name
    assert share_width(290, name, ids, bar, gate, floors=(50, 45)) == (120, 60, 50, 60)
    assert share_width(200, name, ids, bar, gate, floors=(50, 45)) == (45, 60, 45, 50)
    # room: the id first, then equal parts to the name, the gate and the bars
    assert share_width(440, name, ids, bar, gate) == (120, 190, 60, 70)
    assert share_width(540, name, ids, bar, gate) == (150, 200, 90, 100)
    assert share_width(900, name, ids, bar, gate) == (350, 200, 180, 170)
    # a name that needs 140 px: no more of the equal parts (dr2 5), the rest to the bars and
    # the gate up to their most, then the name again
    short = Share(120, 140)
    assert share_width(540, short, ids, bar, gate) == (140, 200, 95, 105)
    assert share_width(600, short, ids, bar, gate) == (140, 200, 125, 135)
    assert share_width(900, short, ids, bar, gate) == (350, 200, 180, 170)


def test_the_contributions_heading_fits_its_column_as_a_word_or_sigma(
        qtbot: QtBot, styled: object) -> None:
    """At 1,024 × 768 on bm25 the bars had 100 px: the header took "contributions" to fit and
    drew it cut at both sides (":ontributions:"), its semi-bold text and padding wider; never
    "sig.", which read as significance in a window of p-values (dr3 6). Cut at the right it
    had read "co…", then "…" alone over bars of 31 px (rv2 dr2 4): now "contributions",
    else "contrib.", else "Σ" (the bars are the score's terms), the header's tooltip saying
    what they are."""
    from PySide6.QtGui import QFont, QFontMetrics

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1024, 768)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "tea-beir", model="bm25")
    qtbot.wait(20)
    view = w.ranked.view
    bar = COLUMNS.index("contributions")
    font = QFont(view.horizontalHeader().font())
    font.setWeight(QFont.Weight.DemiBold)
    fm = QFontMetrics(font)
    whole = fm.horizontalAdvance("contributions") + 16
    short = fm.horizontalAdvance("contrib.") + 16
    for width in (view.columnWidth(bar), 200, whole, whole - 1, 60, short, short - 1, 31, 20):
        view.setColumnWidth(bar, width)
        heading = view.model().headerData(bar, Qt.Orientation.Horizontal)
        want = ("contributions" if width >= whole else "contrib." if width >= short
                else "Σ")
        assert heading == want, (width, heading)
    tip = view.model().headerData(bar, Qt.Orientation.Horizontal,
                                  Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("contributions: each signal's contribution to the score")
    w.close()


@pytest.mark.parametrize(("sample", "size"), [("memories", (1024, 768)),
                                              ("decisions", (1024, 768)),
                                              ("vault", (1280, 800))])
def test_the_bars_column_and_its_heading_are_the_same_for_every_query(
        qtbot: QtBot, styled: object, sample: str, size: tuple[int, int]) -> None:
    """The name's column was capped at what the selected query's rows need, the gate column
    shown only while a gated row was listed, the score column as wide as the query's scores:
    the bars' width and heading changed between neighbouring queries (memories at 1,024 px:
    q10's bars 95 px under "signals", q11's 126 under "contributions"; dr3 6). They are
    measured over the dataset: walking every query, with a baseline and without, moves no
    column but the title's, which takes the rest."""
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / sample)
    qtbot.wait(20)
    view, model, s = w.ranked.view, w.ranked.model, w.session
    fixed = [c for c in range(len(COLUMNS)) if c != TITLE]
    for pinned in (False, True):
        if pinned:
            s.pin_baseline()
            qtbot.wait(10)
        seen = set()
        for q in range(len(s.dataset.queries)):
            s.select_query(q)
            qtbot.wait(1)
            seen.add((tuple(-1 if view.isColumnHidden(c) else view.columnWidth(c)
                            for c in fixed),
                      model.headerData(COLUMNS.index("contributions"),
                                       Qt.Orientation.Horizontal)))
        assert len(seen) == 1, (pinned, seen)
    w.close()


def test_the_names_column_is_no_wider_than_its_rows_need_the_bars_get_the_rest(
        qtbot: QtBot, styled: object) -> None:
    """code-repo's paths stand in the title's place: at 1,280 × 800 their column took 288 px
    (262 pinned) where the widest needed 225, and the bars had 148 (123) (dr2 5)."""
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "code-repo", model="codeledger")
    qtbot.wait(20)
    view, rows = w.ranked.view, w.ranked.model.rows
    fm = view.fontMetrics()
    ID, BAR = COLUMNS.index("id"), COLUMNS.index("contributions")
    bar_most = fm.horizontalAdvance("x" * 22) + 16
    for pinned in (False, True):
        if pinned:
            w.session.pin_baseline()
            qtbot.wait(20)
        assert view.isColumnHidden(TITLE)
        need = max(fm.horizontalAdvance(r.doc_id) for r in rows) + 2 * TEXT_MARGIN
        # whole, and no wider than that while the bars are short of their most
        assert need <= view.columnWidth(ID)
        assert view.columnWidth(ID) <= need + 4 or view.columnWidth(BAR) >= bar_most, (
            view.columnWidth(ID), need, view.columnWidth(BAR))
        assert sum(view.columnWidth(c) for c in range(len(COLUMNS))
                   if not view.isColumnHidden(c)) <= view.viewport().width()
    w.close()


def test_a_gates_words_are_cut_after_a_word_else_an_ellipsis_alone(qapp: object) -> None:
    """At 1,024 px the gate column read "operat…", cut inside its first word (dr2 8), then
    "sour.", "sing." (English words), "ope. tit." (undecodable) and "long…" in one column,
    "sing." silently dropping "token evidence" (dr3 5): one style, whole words and "…"."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication

    fm = QFontMetrics(QApplication.font())
    gate = "operational title"
    assert elide_words(gate, fm, fm.horizontalAdvance(gate)) == gate
    evidence = "single token evidence"
    assert elide_words(evidence, fm, fm.horizontalAdvance("single token…")) == "single token…"
    assert elide_words(evidence, fm, fm.horizontalAdvance("single token…") - 1) == "single…"
    assert elide_words(evidence, fm, fm.horizontalAdvance("single…")) == "single…"
    # not even one word: "…" alone, never an abbreviation or a cut word
    for room in (fm.horizontalAdvance("single…") - 1, fm.horizontalAdvance("sing."), 20):
        assert elide_words(evidence, fm, room) == "…"
    assert elide_words(gate, fm, fm.horizontalAdvance("ope. tit.")) == "…"
    assert elide_words("archived", fm, fm.horizontalAdvance("archived") - 1) == "…"


# decision-memory's gates as its narrow column shows them (rv2 dr2 4: "not in…", "long…")
LABELS = {"single token evidence": "one word", "not in project": "off-project",
          "long prompt evidence": "few hits", "operational title": "ops title",
          "source turn": "from turn", "archived": "archived"}


def test_long_prompt_evidence_s_label_is_whole_in_the_narrowest_gate_column(
        qapp: object, styled: object) -> None:
    """r51 dr3 10: "long, weak", the widest label, read "long,…" in a column under 70 px.
    The gate column keeps at least seven characters' room (`RankedTable._fit_id`'s
    gate_least); the label reads whole there."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication

    from workbench.core.models.decision_memory.params import GATE_LABELS

    fm = QFontMetrics(QApplication.font())
    room = fm.horizontalAdvance("x" * 7) + 4  # the column's least, less its text margins
    label = GATE_LABELS["long_prompt_evidence"]
    assert elide_words(label, fm, room) == label
    assert "," not in label  # one gate, not two


def test_at_1024_pinned_the_gate_column_shows_words_or_a_label(qtbot: QtBot,
                                                               styled: object) -> None:
    """rv2 dr2 4: at 1,024 px with a baseline pinned the gate's first words had read "not
    in…" (a negation missing its object), "long…" or "…" alone: a gate too long for its
    column shows the model's short label, the code and the reason in the tooltip."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    w = _window(qtbot, (1024, 768))
    w.session.pin_baseline()
    qtbot.wait(20)
    view, model = w.ranked.view, w.ranked.model
    shown = {}
    for q in range(len(w.session.dataset.queries)):
        w.session.select_query(q)
        qtbot.wait(2)
        for row, r in enumerate(model.rows):
            if not r.gate:
                continue
            index = model.index(row, GATE)
            opt = QStyleOptionViewItem()
            opt.initFrom(view)
            opt.rect = view.visualRect(index)
            view.itemDelegateForColumn(GATE).initStyleOption(opt, index)
            shown[index.data()] = opt.text
            # the whole words and the reason in the tooltip
            assert r.gate in index.data(Qt.ItemDataRole.ToolTipRole)
    assert {"single token evidence", "not in project", "long prompt evidence"} <= set(shown)
    for words, text in shown.items():
        assert text == words or text == LABELS[words], (words, text)
        assert "…" not in text
    assert shown["not in project"] == "off-project"  # "not in…" in a 9-character column
    w.close()


@pytest.mark.parametrize("width", [1024, 1280])
def test_the_gate_column_shows_labels_in_every_row_once_one_does_not_fit(
        qtbot: QtBot, styled: object, width: int) -> None:
    """rv2 dr5 5: at 1,280 px pinned one column had shown "one word" (a label) beside "not in
    project" (words), each cell's form set by its own width. Once any gate's words do not
    fit, every row shows its label, its tooltip leading with "label = code"."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    w = _window(qtbot, (width, 800))
    w.session.pin_baseline()
    qtbot.wait(20)
    view, model = w.ranked.view, w.ranked.model
    codes = {v: k for k, v in w.session.model.gate_labels.items()}
    shown = {}
    for q in range(len(w.session.dataset.queries)):
        w.session.select_query(q)
        qtbot.wait(2)
        for row, r in enumerate(model.rows):
            if not r.gate:
                continue
            index = model.index(row, GATE)
            opt = QStyleOptionViewItem()
            opt.initFrom(view)
            opt.rect = view.visualRect(index)
            view.itemDelegateForColumn(GATE).initStyleOption(opt, index)
            shown[index.data()] = opt.text
            tip = index.data(Qt.ItemDataRole.ToolTipRole)
            assert tip.startswith(f"{LABELS[index.data()]} = {r.gate}\n"), tip
    assert {"single token evidence", "not in project"} <= set(shown)
    assert all(text == LABELS[words] and text in codes for words, text in shown.items()), shown
    w.close()


def test_at_1024_unpinned_the_gate_labels_read_whole(qtbot: QtBot, styled: object) -> None:
    """rA 8: at 1,024 px without a baseline the gate column kept seven characters, and the
    labels read "one…" and "from…", naming no gate; it now keeps the widest label whole (the
    bars give the room), the title still its fourteen characters."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    w = _window(qtbot, (1024, 768))
    view, model = w.ranked.view, w.ranked.model
    fm = view.fontMetrics()
    shown = {}
    for q in range(len(w.session.dataset.queries)):
        w.session.select_query(q)
        qtbot.wait(2)
        for row, r in enumerate(model.rows):
            if not r.gate:
                continue
            index = model.index(row, GATE)
            opt = QStyleOptionViewItem()
            opt.initFrom(view)
            opt.rect = view.visualRect(index)
            view.itemDelegateForColumn(GATE).initStyleOption(opt, index)
            shown[index.data()] = opt.text
    assert {"single token evidence", "source turn"} <= set(shown)
    for words, text in shown.items():
        assert text in (words, LABELS[words]) and "…" not in text, (words, text)
    assert view.columnWidth(TITLE) >= fm.horizontalAdvance("x" * 14)
    w.close()


def test_every_score_gated_to_0_keeps_the_models_whole_numbers(qtbot: QtBot,
                                                               styled: object) -> None:
    """rA 7: with the min score above every score, decision-memory's score column switched
    from its whole numbers ("65", "0") to "0.0000" in every row."""
    w = _window(qtbot, (1280, 800))
    w.session.set_params({"inject_min_score": 250.0, "search_min_score": 250.0})
    w.session.recompute()
    qtbot.wait(5)
    model = w.ranked.model
    assert model.rows and all(r.score == 0 for r in model.rows)
    texts = {model.index(row, COLUMNS.index("score")).data() for row in range(len(model.rows))}
    assert texts == {"0"}, texts
    w.close()
