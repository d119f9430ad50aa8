"""A BEIR folder's splits in the window: `gui --split`, File ▸ Split (the folder's judged splits,
the one read checked), the header naming it, and a saved session and the Recent menu reading
the folder at the same split again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.session import TuningSession
from workbench.core.session_file import read_session_file
from workbench.gui import settings as st
from workbench.gui.main_window import MainWindow

SAMPLES = Path(__file__).resolve().parents[2] / "sample_corpora"


def _two_splits(tmp_path: Path) -> Path:
    """The tea sample with a train split beside its test one: q01–q05 judged in train."""
    folder = tmp_path / "tea2"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    rows = (folder / "qrels" / "test.tsv").read_text().splitlines()
    train = [rows[0], *(r for r in rows[1:] if r.split("\t")[0] in {f"q0{i}" for i in range(1, 6)})]
    (folder / "qrels" / "train.tsv").write_text("\n".join(train) + "\n")
    (folder / "workbench.toml").unlink()  # a plain BEIR folder, not a sample
    return folder


def _split_names(window: MainWindow) -> list[tuple[str, bool]]:
    return [(a.text(), a.isChecked()) for a in window.menu_actions.split_menu.actions()]


def test_file_split_reads_the_folder_at_another_split(window: MainWindow,
                                                      tmp_path: Path) -> None:
    s = window.session
    folder = _two_splits(tmp_path)
    assert window.open_path(folder, "bm25")
    all_judged = len(s.dataset.queries)
    assert s.split == "test"
    assert _split_names(window) == [("test", True), ("train", False)]
    assert window.menu_actions.split_menu.isEnabled()
    assert "tea2 · test (" in window.header.dataset_label._plain
    s.set_params({"k1": 0.7})

    next(a for a in window.menu_actions.split_menu.actions() if a.text() == "train").trigger()
    assert s.split == "train"
    assert [q.id for q in s.dataset.queries] == ["q01", "q02", "q03", "q04", "q05"] != all_judged
    assert s.params["k1"] == 0.7  # the model and its values kept
    assert _split_names(window) == [("test", False), ("train", True)]
    assert "tea2 · train (" in window.header.dataset_label._plain
    # the Recent menu (and the next launch) read it at that split again
    assert st.recalled_files(str(folder)) == (None, None, "train")
    assert window.open_path(SAMPLES / "vault")
    assert not window.menu_actions.split_menu.isEnabled()  # a vault has no splits
    assert "·" not in window.header.dataset_label._plain
    assert window.reopen(str(folder))
    assert s.split == "train" and len(s.dataset.queries) == 5


def test_one_split_or_none_leaves_the_menu_off(window: MainWindow) -> None:
    assert window.open_path(SAMPLES / "tea-beir")
    assert _split_names(window) == [("test", True)]
    assert not window.menu_actions.split_menu.isEnabled()
    assert "·" not in window.header.dataset_label._plain


def test_a_split_the_folder_lacks_is_refused_and_changes_nothing(window: MainWindow,
                                                                  tmp_path: Path) -> None:
    s = window.session
    folder = _two_splits(tmp_path)
    assert window.open_path(folder, "bm25", split="train")
    assert not window.open_path(folder, split="dev")
    assert s.split == "train" and len(s.dataset.queries) == 5


def test_a_saved_session_keeps_the_split(tmp_path: Path) -> None:
    folder = _two_splits(tmp_path)
    s = TuningSession()
    s.open(folder, split="train")
    s.set_model("bm25")
    s.recompute()
    saved = tmp_path / "session.json"
    s.save(saved)
    assert json.loads(saved.read_text())["split"] == "train"
    again = TuningSession()
    again.load(saved)
    assert again.split == "train" and len(again.dataset.queries) == 5
    # a file from before the split was kept reads the test split
    data = json.loads(saved.read_text())
    del data["split"]
    saved.write_text(json.dumps(data))
    again.load(saved)
    assert again.split == "test" and len(again.dataset.queries) > 5


@pytest.mark.parametrize("bad", [5, "", None])
def test_a_bad_split_in_a_session_file_names_the_field(tmp_path: Path, bad: object) -> None:
    folder = _two_splits(tmp_path)
    s = TuningSession()
    s.open(folder)
    s.set_model("bm25")
    saved = tmp_path / "session.json"
    s.save(saved)
    data = json.loads(saved.read_text())
    data["split"] = bad
    saved.write_text(json.dumps(data))
    with pytest.raises(FormatError) as caught:
        read_session_file(saved)
    assert caught.value.field == "split"


def test_a_folder_judged_in_train_and_dev_only_opens_at_its_first(window: MainWindow,
                                                                 tmp_path: Path) -> None:
    """It lacked qrels/test.tsv, so File ▸ Open refused it and File ▸ Split was out of reach."""
    folder = _two_splits(tmp_path)
    (folder / "qrels" / "test.tsv").rename(folder / "qrels" / "dev.tsv")
    assert window.open_path(folder, "bm25")
    assert window.session.split == "dev"
    assert _split_names(window) == [("dev", True), ("train", False)]


def test_a_damaged_remembered_setting_is_forgotten_not_fatal() -> None:
    # nested past the JSON parser's recursion limit, it stopped the window from starting
    st.remember("dataset_files", "[" * 100_000 + "]" * 100_000)
    assert st.recalled_files("/any/folder") == (None, None, st.DEFAULT_SPLIT)
