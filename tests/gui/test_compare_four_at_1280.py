"""Four configurations at 1,280 × 800 (review rv3, F10): the metric table shows every column
(the last configuration's p and ▲/▼ had been behind a scroll bar), and the lists' ids keep
their file names ("roast…ck.md" had told no document from another)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QFont, QFontMetricsF
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES


def test_four_configurations_show_every_column_at_1280(qtbot: QtBot, window: Any,
                                                       styled: Any, tmp_path: Path) -> None:
    assert window.open_path(SAMPLES / "vault", model="vault-search")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    view = window.compare_window()
    for name, line in (("v_ms2", "min_score = 0.2"), ("v_pos0", "w_position = 0.0"),
                       ("v_den0", "w_density = 0.0")):
        (tmp_path / f"{name}.toml").write_text(f"[params]\n{line}\n", encoding="utf-8")
        assert view.configs.import_toml(tmp_path / f"{name}.toml")
    view.resize(1280, 800)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    qtbot.wait(20)
    assert view.comp is not None and len(view.comp.configs) == 4
    table = view.table
    header, room = table.horizontalHeader(), table.viewport().width()
    assert table.columnCount() == 14
    cut = [c for c in range(header.count())
           if header.sectionViewportPosition(c) + header.sectionSize(c) > room]
    assert cut == []
    assert view.lines.columns == [0, 1, 2, 3]


def test_an_id_keeps_its_file_name() -> None:
    from workbench.gui.compare.rank_rows import elide_id

    fm = QFontMetricsF(QFont())
    path = "roasting/second-crack.md"
    assert elide_id(path, fm.horizontalAdvance(path), fm) == path
    short = elide_id(path, fm.horizontalAdvance("roa…/second-crack.md"), fm)
    assert short.endswith("…/second-crack.md") and short.startswith("r")
    assert elide_id(path, fm.horizontalAdvance("…/second-crack.md"), fm) == "…/second-crack.md"
    name = elide_id(path, fm.horizontalAdvance("second-crack.md") - 2, fm)
    assert "/" not in name and "…" in name and name.endswith(".md")  # the name, its middle cut
    plain = elide_id("m44-communication-style", fm.horizontalAdvance("m44-comm…style"), fm)
    assert plain.startswith("m44") and "…" in plain  # no path: its middle cut


def test_a_title_too_squeezed_to_read_leaves_the_row_to_the_id() -> None:
    from workbench.gui.compare.rank_rows import id_width

    assert id_width(150, 160, 80, min_title=50) == 150  # 30 % is 45 px: under 50
    assert id_width(300, 250, 100, min_title=50) == 210  # 90 px for the title: kept
