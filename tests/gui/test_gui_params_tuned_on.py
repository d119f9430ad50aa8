"""`workbench gui DATA --params FILE` with a file `tune --out` wrote: the window keeps the
file's record of the queries the values were tuned on (review b, finding 1), as Configurations
▸ Import does, so the metric strip calls their figures training scores and a Tune run from
them never holds them out. Switching the split (File ▸ Split) keeps the record too."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset

TEA = str(SAMPLES / "tea-beir")


def _tuned_file(tmp_path: Path) -> Path:
    """A k-fold `tune --out` file: its values were tuned on every judged query of TEA (the
    start out of range and --pick best: a trial's values, not the start kept, which is tuned
    on no query: rv 6)."""
    out = tmp_path / "best.toml"
    assert main(["tune", TEA, "-m", "bm25", "--trials", "4", "--folds", "2", "--storage",
                 str(tmp_path / "s.db"), "--range", "k1=1.5:3", "--pick", "best", "--out",
                 str(out)]) == 0
    return out


def _window_of_cli(monkeypatch: pytest.MonkeyPatch, qtbot: QtBot, argv: list[str]) -> Any:
    """The window `workbench gui ARGV` opens (synchronous, its event loop not entered)."""
    import workbench.gui.app as app_module
    import workbench.gui.main_window as mw

    made: list[Any] = []

    class Synchronous(mw.MainWindow):
        def __init__(self) -> None:
            super().__init__(synchronous=True, restore=False)
            qtbot.addWidget(self)
            made.append(self)

    monkeypatch.setattr(mw, "MainWindow", Synchronous)
    monkeypatch.setattr(app_module.QApplication, "exec", lambda self: 0)
    assert main(["gui", *argv]) == 0
    assert len(made) == 1
    return made[0]


def test_gui_params_keeps_the_files_tuned_on_record(monkeypatch: pytest.MonkeyPatch,
                                                     qtbot: QtBot, tmp_path: Path) -> None:
    out = _tuned_file(tmp_path)
    w = _window_of_cli(monkeypatch, qtbot, [TEA, "-m", "bm25", "--params", str(out)])
    s = w.session
    ds = load_dataset(TEA)
    judged = {q for q in ds.queries.ids if (ds.qrels or {}).get(q)}
    assert s.tuned_on is not None
    assert set(s.tuned_on.trained_on) == judged  # k-fold: the written values saw them all
    s.recompute()
    held = s.held_out()
    assert held.training and held.note.startswith("training scores")
    assert w.metrics.held_note.text().startswith("training scores")
    # a Tune run from these values sets every one of them aside: none is left to hold out
    from workbench.core.tuning.job import job_from_session

    assert job_from_session(s, ["k1"]).tuned_on is s.tuned_on


def test_split_switch_keeps_the_record(qtbot: QtBot) -> None:
    from workbench.core.tuned_on import TunedOn
    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(TEA, model="bm25")
    record = TunedOn("tea-beir", "earlier run", ("q01", "q02"), "ndcg@10", model="bm25")
    w.session.set_params({"k1": 0.5}, tuned_on=record)
    assert w.open_with(split="test")  # read again, values kept: so is what they were tuned on
    assert w.session.params["k1"] == 0.5 and w.session.tuned_on == record


def test_values_edited_with_p_keep_the_queries_not_the_figures(
        monkeypatch: pytest.MonkeyPatch, qtbot: QtBot, tmp_path: Path) -> None:
    out = _tuned_file(tmp_path)
    w = _window_of_cli(monkeypatch, qtbot, [TEA, "-m", "bm25", "--params", str(out),
                                            "-p", "k1=2.9"])
    t = w.session.tuned_on
    assert t is not None and t.trained_on and t.held_n == 0
