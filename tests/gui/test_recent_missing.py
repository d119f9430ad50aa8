"""Open recent: an entry whose folder was moved or deleted since is marked "(missing)" when
the menu opens, can be removed, and opening it says it is gone (not a format error)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.gui import settings as st
from workbench.gui.main_window import MainWindow


def _texts(window: MainWindow) -> list[tuple[str, bool]]:
    return [(a.text(), a.isEnabled()) for a in window.menu_actions.recent_menu.actions()
            if not a.isSeparator()]


def test_a_recent_folder_gone_since_is_marked_and_said_to_be_gone(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    gone = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", gone)
    assert window.open_path(gone)
    assert window.open_path(SAMPLES / "vault")
    vault = str(SAMPLES / "vault")
    shutil.rmtree(gone)
    menu = window.menu_actions.recent_menu
    menu.aboutToShow.emit()  # what opening the menu does
    assert _texts(window) == [(vault, True), (f"{gone} (missing)", False),
                              ("Remove missing (1)", True), ("Clear list", True)]
    # opened all the same (the list was read before it went): said to be gone, and dropped
    assert not window.menu_actions.open_recent(str(gone))
    assert window.error_box is not None
    assert window.error_box.text().startswith(f"{gone} is no longer there: it was moved, ")
    assert "expected a BEIR folder" not in window.error_box.text()
    assert st.recent_files() == [vault]
    assert _texts(window) == [(vault, True), ("Clear list", True)]


def test_remove_missing_keeps_the_rest_in_order(window: MainWindow, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a, b):
        shutil.copytree(SAMPLES / "tea-beir", folder)
        assert window.open_path(folder)
    assert window.open_path(SAMPLES / "vault")
    shutil.rmtree(a)
    window.menu_actions.recent_menu.aboutToShow.emit()
    remove = next(x for x in window.menu_actions.recent_menu.actions()
                  if x.text() == "Remove missing (1)")
    remove.trigger()
    assert st.recent_files() == [str(SAMPLES / "vault"), str(b)]
