"""The Configurations menu's dialogs belong to the window the menu is in, not to the compare
view whose list does the work: hidden, it had owned Save current as…'s dialog (review rv4 P)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot


def test_the_menus_dialogs_are_owned_by_the_main_window(
        qtbot: QtBot, window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    s = window.session
    s.recompute()
    s.save_configuration("mine")
    owners: list[tuple[str, QWidget]] = []

    def get_text(parent: QWidget, title: str, *a: object, **k: object) -> tuple[str, bool]:
        owners.append((title, parent))
        return "mine", True  # taken: the question whether to replace it comes next

    def exec_(box: QMessageBox) -> int:
        owners.append((box.windowTitle(), box.parentWidget()))
        return 0  # nothing clicked: cancelled

    def file_dialog(parent: QWidget, title: str, *a: object, **k: object) -> tuple[str, str]:
        owners.append((title, parent))
        return "", ""

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(get_text))
    monkeypatch.setattr(QMessageBox, "exec", exec_)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(file_dialog))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(file_dialog))
    menu = window.config_menu
    menu.save.trigger()
    menu.import_toml.trigger()
    menu.export_toml.trigger()
    assert not window.compare_window().isVisible()
    assert [title for title, _ in owners] == [
        "Save configuration", "Save configuration", "Import parameters", "Export parameters"]
    assert all(owner is window for _, owner in owners), [
        (title, type(owner.window()).__name__) for title, owner in owners]
    assert [c.name for c in s.configurations] == ["mine"]  # every question cancelled
    # deleting asks nothing now (Edit ▸ Undo brings it back): no dialog to own
    menu.delete("mine")
    assert [c.name for c in s.configurations] == [] and len(owners) == 4
