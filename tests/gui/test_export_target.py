"""File ▸ Export settings for the target system…: the window's values written into a folder as
the target reads them, the same files `workbench export --out` writes for those values; over a
config already there, only what was changed from the defaults replaces its values, the rest is
kept and said; a model of the workbench's own has no such export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.gui.conftest import SAMPLES
from workbench.cli import main


def test_the_windows_values_are_written_as_export_writes_them(window: Any,
                                                              tmp_path: Path) -> None:
    assert window.open_path(SAMPLES / "code-repo", model="codeledger")
    s = window.session
    s.set_params({"w_keyword": 0.5, "max_files": 12})
    s.recompute()
    acts = window.menu_actions
    assert acts.export_target.isEnabled()
    mine = tmp_path / "window"
    assert acts.export_target_to(str(mine))
    cli = tmp_path / "cli"
    assert main(["export", "-m", "codeledger", "-p", "w_keyword=0.5", "-p", "max_files=12",
                 "--out", str(cli)]) == 0
    written = sorted(p.relative_to(mine) for p in mine.rglob("*") if p.is_file())
    assert written == sorted(p.relative_to(cli) for p in cli.rglob("*") if p.is_file())
    for name in written:
        assert (mine / name).read_text() == (cli / name).read_text(), name
    assert "wrote .codeledger/config.json" in window.statusBar().currentMessage()


def test_a_config_already_there_keeps_what_the_window_did_not_change(window: Any,
                                                                      tmp_path: Path) -> None:
    assert window.open_path(SAMPLES / "code-repo", model="codeledger")
    s = window.session
    s.set_params({"w_keyword": 0.5})
    s.recompute()
    folder = tmp_path / "project"
    (folder / ".codeledger").mkdir(parents=True)
    team = {"selector": {"default_budget": {"tokens": 5000, "max_files": 10}}}
    (folder / ".codeledger" / "config.json").write_text(json.dumps(team))
    assert window.menu_actions.export_target_to(str(folder))
    config = json.loads((folder / ".codeledger" / "config.json").read_text())
    assert config["selector"]["default_budget"] == {"tokens": 5000, "max_files": 10}  # kept
    assert config["selector"]["weights"]["keyword"] == 0.5  # the window's change, written
    box = window.menu_actions.export_box
    assert box is not None and "kept its own selector.default_budget.tokens 5000" in box.text()


def test_a_workbench_model_has_no_target(window: Any) -> None:
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    act = window.menu_actions.export_target
    assert not act.isEnabled() and "params TOML" in act.toolTip()
