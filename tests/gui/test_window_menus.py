"""The menus: tooltips shown (a greyed item's reason had been out of sight), a tooltip that
names another item by its real text, the Model menu labelled as the model box, Cancel prepare
on only while something prepares, Export ranked table CSV off without a query (it raised an
IndexError), the Help menu (shortcuts, README, About with the version), and configurations of
other datasets apart and labelled (review F1, F6, F9, F10)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES, HeldFakeEncoder
from workbench.gui.export_csv import write_ranked_csv
from workbench.gui.main_window import MainWindow

README = Path(__file__).resolve().parents[2] / "README.md"


def _menus(w: MainWindow) -> list[QMenu]:
    out: list[QMenu] = []

    def walk(menu: QMenu) -> None:
        out.append(menu)
        for act in menu.actions():
            if isinstance(sub := act.menu(), QMenu):
                walk(sub)

    for act in w.menuBar().actions():
        if isinstance(menu := act.menu(), QMenu):
            walk(menu)
    return out


def _plain(text: str) -> str:
    return text.replace("&", "")


def test_every_menu_shows_its_tooltips(window: MainWindow) -> None:
    titles = [_plain(m.title()) for m in _menus(window)]
    assert {"File", "Edit", "View", "Model", "Tools", "Configurations", "Help"} <= set(titles)
    assert all(m.toolTipsVisible() for m in _menus(window)), titles


def test_a_greyed_items_tooltip_names_the_item_it_points_to(qtbot: QtBot) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "tea-beir", model="bm25")  # the workbench's own model
    target = w.menu_actions.export_target
    assert not target.isEnabled()
    item = _plain(w.config_menu.export_toml.text())
    assert f"Configurations \u25b8 {item}" in target.toolTip()


def test_the_model_menu_is_labelled_as_the_model_box(window: MainWindow) -> None:
    combo = window.header.model_combo
    in_box = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    in_menu = {mid: act.text() for mid, act in window.menu_actions.model_actions.items()}
    assert in_menu == in_box
    assert in_menu["codeledger-document"].startswith("codeledger-document \u2014 ")


def test_cancel_prepare_is_on_only_while_preparing(qtbot: QtBot,
                                                   held_encoder: HeldFakeEncoder) -> None:
    w = MainWindow(restore=False)  # asynchronous: a preparation that runs a while
    qtbot.addWidget(w)
    cancel = w.menu_actions.cancel
    assert not cancel.isEnabled()
    with qtbot.waitSignal(w.loop.prepare_started, timeout=10_000):
        w.open_path(SAMPLES / "tea-beir", model="dense",
                    params={"embedding_model": held_encoder.name})
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    assert cancel.isEnabled()
    with qtbot.waitSignal(w.loop.prepare_finished, timeout=10_000):
        cancel.trigger()
    assert not cancel.isEnabled()
    w.close()


def test_export_csv_is_off_without_a_query(qtbot: QtBot, tmp_path: Path) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps({"id": f"d{i}", "title": f"Note {i}",
                                        "text": f"tea {i}"}) + "\n" for i in range(2)))
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(docs)
    s = w.session
    assert s.result is not None and len(s.dataset.queries) == 0  # type: ignore[union-attr]
    export = w.menu_actions.export
    assert not export.isEnabled() and "no query yet" in export.toolTip()
    with pytest.raises(ValueError, match="no query"):
        write_ranked_csv(s, tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()
    s.add_query("tea")
    s.recompute()
    assert export.isEnabled()
    assert write_ranked_csv(s, tmp_path / "out.csv") == 2  # both documents match "tea"


def test_help_lists_every_shortcut_the_readme_names(window: MainWindow) -> None:
    box = window.help_menu.show_shortcuts()
    text = box.text()
    named = set(re.findall(r"\b(?:Ctrl|Alt)\+[A-Za-z0-9+]+|\bF11\b", README.read_text()))
    assert named >= {"Ctrl+B", "Ctrl+K", "Alt+1", "F11"}  # the README's list is read
    listed = {k for cell in re.findall(r"<b>(.*?)</b>", text) for k in cell.split(", ")}
    assert named - listed == set()
    assert "<b>Ctrl+Shift+S</b></td><td>Configurations \u25b8 Save current as" in text
    box.close()


def test_about_says_the_version_the_cli_says(window: MainWindow,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    with pytest.raises(SystemExit):
        main(["--version"])
    version = capsys.readouterr().out.strip()
    assert version.startswith("workbench ")
    box = window.help_menu.show_about()
    assert version in box.text()
    box.close()
    docs = window.help_menu.show_docs()
    assert str(README) in docs.text() and "workbench --help" in docs.text()
    docs.close()


def test_configurations_of_other_datasets_stand_apart(window: MainWindow) -> None:
    s = window.session
    s.pin_baseline()  # on vault
    assert window.open_path(SAMPLES / "tea-beir")
    s.save_configuration("tea's")
    window.config_menu.refresh()
    texts = [a.text() for a in window.config_menu.switch_menu.actions()]
    assert texts == ["tea's", "", "made on other datasets than tea-beir:",
                     "baseline  (vault-search, on vault)"]
    other = window.config_menu.switch_menu.actions()[-1]
    assert "made on vault" in other.toolTip()
