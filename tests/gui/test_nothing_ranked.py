"""A query that retrieves nothing says why where its ranking would be (the CLI's reason and
hint), and the preview says no document matched (review r49, rg 4: vault's v12 showed a
blank table and "Select a document to preview it." with nothing to select)."""

from __future__ import annotations

from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow


def test_an_empty_ranking_says_why(qtbot: QtBot) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    assert w.open_path(SAMPLES / "vault")
    s = w.session
    s.select_query(s.dataset.queries.index["v12"])  # type: ignore[union-attr]
    note = w.ranked.view.empty_note
    assert w.ranked.model.rowCount() == 0 and note.isVisible()
    # the CLI's `explain` words: vault-search's phrase rule and what to do about it
    assert note.text() == (
        "no result: no line of any note contains the phrase 'espresso channeling': "
        "vault-search matches the whole query as one phrase within a line, as obsidian-mcp "
        "does (search a shorter phrase; variant=documented matches the words apart, but is not "
        "what obsidian-mcp runs)")
    assert "No document matched this query." in w.preview.browser.toPlainText()
    s.select_query(0)  # a query that ranks documents: the table's rows, no note
    assert w.ranked.model.rowCount() > 0 and not note.isVisible()
    assert "No document matched" not in w.preview.browser.toPlainText()
    w.close()
