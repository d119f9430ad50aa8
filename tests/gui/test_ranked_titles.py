"""The ranked table's title column: a corpus whose titles are labels many documents share
(OpenVault's event types) shows each label with the document's first line; distinct titles
are shown as they are."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from workbench.core.data import Corpus, Document
from workbench.core.data import display_title as _title


def test_shared_labels_get_the_text_beside_them() -> None:
    labels = Corpus([Document(f"m{i}", "action" if i % 2 else "revelation",
                              f"Suzy did thing {i}\nmore") for i in range(20)])
    assert _title(labels, labels[3]) == "action: Suzy did thing 3"
    titled = Corpus([Document(f"d{i}", f"Paper {i}", "abstract") for i in range(20)])
    assert _title(titled, titled[3]) == "Paper 3"
    untitled = Corpus([Document("d", "", "first line\nsecond")])
    assert _title(untitled, untitled[0]) == "first line"


def test_codeledgers_legend_ends_above_the_table_at_1280(qtbot: QtBot, styled: object) -> None:
    """Its height set, the label's resize came back and set the other bound (at least 66 px,
    at most 50): the layout placed it 8 px low, "hatched: negative" under the table."""
    from conftest import SAMPLES

    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "code-repo")
    w.session.pin_baseline()
    qtbot.wait(20)
    legend, view = w.ranked.legend, w.ranked.view
    assert legend.minimumHeight() == legend.maximumHeight() == legend.height()
    assert legend.height() >= legend.heightForWidth(legend.width())
    qtbot.waitUntil(lambda: legend.geometry().bottom() < view.geometry().top())
    w.close()


def test_the_relevance_column_shows_only_where_something_is_judged(qtbot: QtBot) -> None:
    # review gv 10: decisions (no judgments) kept an empty "rel" column, the room its titles
    # lacked at 1,024 px
    from conftest import SAMPLES

    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1024, 768)
    assert w.open_path(SAMPLES / "decisions")
    assert w.ranked.view.isColumnHidden(5)
    assert w.open_path(SAMPLES / "tea-beir")
    assert not w.ranked.view.isColumnHidden(5)
