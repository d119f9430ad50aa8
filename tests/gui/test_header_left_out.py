"""The header's dataset line says the queries left out for want of judgments (CISI: 36 of
its 112): it read "76 queries, 76 judged", as if that were the whole query file."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.conftest import need_dataset
from tests.test_left_out_queries import four_queries
from workbench.core.session import TuningSession
from workbench.gui.header import Header


def _line(qtbot: QtBot, folder: Path, split: str = "test") -> str:
    s = TuningSession()
    s.open(folder, split=split)
    header = Header(s)
    qtbot.addWidget(header)
    return header.dataset_label._plain


def test_the_header_says_the_queries_left_out(qtbot: QtBot, tmp_path: Path) -> None:
    # every query kept is judged: said once, so that the line fits at 1,280 px (tea-beir's
    # "…; 1 without judgments left o…" was cut), the whole sentence in the tooltip
    assert _line(qtbot, four_queries(tmp_path / "tea")) == (
        "dataset: tea (3 docs, 2 judged queries; 2 unjudged left out)")


def test_with_several_splits_it_names_the_split(qtbot: QtBot, tmp_path: Path) -> None:
    assert _line(qtbot, four_queries(tmp_path / "tea", train=True), "train") == (
        "dataset: tea · train (3 docs, 1 query, 1 judged; 3 not judged in split train, "
        "left out)")


def test_cisi(qtbot: QtBot) -> None:
    assert _line(qtbot, need_dataset("cisi")) == (
        "dataset: cisi (1,460 docs, 76 judged queries; 36 unjudged left out)")
