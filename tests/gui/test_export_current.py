"""Configurations ▸ Export current as params TOML… (review r49 rt 3, rt 2, rt 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QWidget


def _export(window: Any, monkeypatch: pytest.MonkeyPatch, path: Path) -> str:
    def file_dialog(parent: QWidget, title: str, *a: object, **k: object) -> tuple[str, str]:
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(file_dialog))
    window.config_menu.export_toml.trigger()
    return path.read_text(encoding="utf-8")


def test_export_current_names_the_configuration_last_saved_or_switched_to(
        window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Apply anyway saved 'tuned on nDCG@10'; Save current as… 'engineer handoff' then saved
    the same values; Export current wrote "# configuration 'tuned on nDCG@10'"."""
    s = window.session
    s.recompute()
    s.save_configuration("tuned on nDCG@10")
    s.save_configuration("engineer handoff")
    text = _export(window, monkeypatch, tmp_path / "a.toml")
    assert "# configuration 'engineer handoff'" in text
    window.config_menu.switch_to("tuned on nDCG@10")  # the same values, chosen again
    text = _export(window, monkeypatch, tmp_path / "b.toml")
    assert "# configuration 'tuned on nDCG@10'" in text
