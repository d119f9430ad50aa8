"""A session whose dataset was moved where the file could not follow: the window offers to
locate it and opens the session with the dataset found there (it could only say the error)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.data import FormatError
from workbench.core.session import TuningSession
from workbench.core.session_file import DatasetMissing, read_session_file
from workbench.gui.main_window import MainWindow


def _saved_then_moved(tmp_path: Path) -> tuple[Path, Path]:
    """A session saved apart from its data, then the data moved: (session file, data now)."""
    data = tmp_path / "data" / "tea"
    shutil.copytree(SAMPLES / "tea-beir", data)
    s = TuningSession()
    s.open(data)
    s.set_model("bm25", {"k1": 0.9})
    session = tmp_path / "sessions" / "s.json"
    session.parent.mkdir()
    s.save(session)
    moved = tmp_path / "elsewhere" / "tea"
    moved.parent.mkdir()
    data.rename(moved)
    return session, moved


def test_the_reader_takes_the_dataset_where_it_is_now(tmp_path: Path) -> None:
    session, moved = _saved_then_moved(tmp_path)
    with pytest.raises(DatasetMissing, match="no such file or folder"):
        read_session_file(session)
    plan = read_session_file(session, str(moved))
    assert plan.dataset == str(moved) and plan.params["k1"] == 0.9


def test_the_window_offers_to_locate_a_moved_dataset(qtbot: QtBot, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    session, moved = _saved_then_moved(tmp_path)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    asked: list[str] = []

    def locate(path: str, why: str) -> str | None:
        asked.append(why)
        return str(moved)

    monkeypatch.setattr(w.menu_actions, "locate_dataset", locate)
    assert w.menu_actions.load_session_file(str(session))
    assert len(asked) == 1 and "no such file or folder" in asked[0]
    assert w.session.source == str(moved) and w.session.params["k1"] == 0.9
    assert json_dataset(session) != str(moved)  # the file itself is not changed


def test_cancelled_it_changes_nothing(qtbot: QtBot, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    session, _ = _saved_then_moved(tmp_path)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    monkeypatch.setattr(w.menu_actions, "locate_dataset", lambda path, why: None)
    assert not w.menu_actions.load_session_file(str(session))
    assert w.session.dataset is None
    assert "its dataset was not located" in w.statusBar().currentMessage()


def json_dataset(path: Path) -> str:
    import json

    value = json.loads(path.read_text(encoding="utf-8"))["dataset"]
    if not isinstance(value, str):
        raise FormatError(path, "no dataset")
    return value
