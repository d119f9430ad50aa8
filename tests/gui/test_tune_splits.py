"""The Tune tab's Validation offers another judged split to tune on only where it has queries
of its own: Cranfield's test.binary (test's queries again, graded 0/1) was offered as
'test.binary → test', and Start then refused it."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.conftest import need_dataset
from tests.test_training_splits import three_splits
from workbench.core.session import TuningSession
from workbench.gui.tune_panel import TunePanel


def _validation(qtbot: QtBot, folder: Path) -> tuple[TunePanel, dict[str, tuple[str, bool, str]]]:
    """The Tune panel on `folder` at split test, and its split entries: data → (text, enabled,
    tooltip)."""
    s = TuningSession()
    s.open(folder)
    s.set_model("bm25")
    s.recompute()
    panel = TunePanel(s)
    qtbot.addWidget(panel)
    panel.rebuild()
    box = panel.settings.validation
    rows = {}
    for i in range(box.count()):
        key = str(box.itemData(i))
        if key.startswith("split:"):
            rows[key] = (box.itemText(i), box.model().item(i).isEnabled(),
                         str(box.itemData(i, 3)))  # 3: the tooltip role
    return panel, rows


def test_a_split_of_the_held_out_queries_is_listed_but_not_offered(qtbot: QtBot,
                                                                   tmp_path: Path) -> None:
    panel, rows = _validation(qtbot, three_splits(tmp_path / "tea"))
    text, enabled, tip = rows["split:test.binary"]
    assert (text, enabled) == ("test.binary → test (no queries of its own)", False)
    assert tip == ("not offered: split test.binary judges no query of its own: all 2 it judges "
                   "are split test's too, so tuning on it would be tuning on the held-out "
                   "queries")
    # train shares one of its three queries with test: offered, the shared one said
    text, enabled, tip = rows["split:train"]
    assert (text, enabled) == ("train → test", True)
    assert tip == ("tune on split train, hold out split test; 1 of the 3 queries split train "
                   "judges is judged in split test too: held out, not tuned on")
    box = panel.settings.validation
    box.setCurrentIndex(box.findData("split:train"))
    assert panel.settings.choices()["train_split"] == "train"


def test_cranfields_binary_split_is_not_offered(qtbot: QtBot) -> None:
    _panel, rows = _validation(qtbot, need_dataset("cranfield"))
    assert list(rows) == ["split:test.binary"]
    assert rows["split:test.binary"][1] is False
    assert "all 225 it judges are split test's too" in rows["split:test.binary"][2]
