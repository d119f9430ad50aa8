"""A session opened is an opening like any other: its dataset goes first on Open recent and is
what the next launch opens (review rv4 E); one whose dataset was located elsewhere keeps its
configurations as its dataset's and says the new place is not saved yet (review rv4 F)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui import settings as st
from workbench.gui.main_window import MainWindow


def _saved(tmp_path: Path, folder: str = "tea") -> Path:
    data = tmp_path / "data" / folder
    shutil.copytree(SAMPLES / "tea-beir", data)
    s = TuningSession()
    s.open(data, split="test")
    s.set_model("bm25", {"k1": 0.9})
    s.recompute()
    s.pin_baseline()
    session = tmp_path / "sessions" / "s.json"
    session.parent.mkdir()
    s.save(session)
    return session


def test_a_sessions_dataset_is_opened_next_time_and_first_on_open_recent(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    session = _saved(tmp_path)
    vault = st.recent_files()[0]
    assert vault.endswith("vault")
    assert window.menu_actions.load_session_file(str(session))
    tea = str(tmp_path / "data" / "tea")
    assert st.recent_files() == [tea, vault]
    assert st.recall("last_dataset") == tea and st.recall("last_model") == "bm25"
    assert [a.text() for a in window.menu_actions.recent_menu.actions()][:2] == [tea, vault]



def test_a_located_dataset_keeps_the_sessions_configurations_and_is_a_change_to_save(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = _saved(tmp_path)
    moved = tmp_path / "elsewhere" / "moved_tea"
    moved.parent.mkdir()
    (tmp_path / "data" / "tea").rename(moved)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    acts = w.menu_actions
    monkeypatch.setattr(acts, "locate_dataset", lambda path, why: str(moved))
    assert acts.load_session_file(str(session))
    s = w.session
    assert s.dataset is not None and s.dataset.name == "moved_tea"
    # the session's own pin, not "made on other datasets than moved_tea"
    assert [(c.name, c.dataset) for c in s.configurations] == [("baseline", "moved_tea")]
    w.config_menu.refresh()
    assert [a.text() for a in w.config_menu.switch_menu.actions()] == ["baseline"]
    assert st.recent_files()[0] == str(moved)
    # the file still names the old place: asked about on Quit, said in the status line
    assert acts.unsaved() and "new place" in acts.what_unsaved()
    assert "save the session" in w.statusBar().currentMessage()
    s.save(session)
    acts._mark_clean()
    assert not acts.unsaved()
