"""File ▸ Tasks from git history…: `tasks-from-git` in the window for the open repository —
the tasks are mined off the GUI thread (progress, Cancel), written where asked, and opened."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from workbench.core.engine import Progress
from workbench.core.repo.tasks import mine_tasks, pick_snapshot
from workbench.gui.main_window import MainWindow
from workbench.gui.tasks_dialog import TasksFromGitDialog, repository_of

SAMPLES = Path(__file__).resolve().parents[2] / "sample_corpora"


def _dialog(window: MainWindow, synchronous: bool = True) -> TasksFromGitDialog:
    repo = repository_of(window.session.dataset)
    assert repo is not None
    dialog = TasksFromGitDialog(repo, window, synchronous=synchronous)
    dialog.made.connect(window.menu_actions._open_made_tasks)
    return dialog


def test_tasks_made_from_the_history_are_opened(window: MainWindow, tmp_path: Path,
                                                monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import workbench.gui.tasks_dialog as td

    asked: list[dict[str, object]] = []

    def spy(*args: object, **kw: object) -> object:
        asked.append(kw)
        return mine_tasks(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(td, "mine_tasks", spy)
    assert not window.menu_actions.mine_tasks.isEnabled()  # the vault is no repository
    assert window.open_path(SAMPLES / "code-repo")
    assert window.menu_actions.mine_tasks.isEnabled()
    s = window.session
    s.set_params({"w_similar": 0.6})
    dialog = _dialog(window)
    dialog.fraction.setValue(0.4)
    dialog.subject_only.setChecked(True)
    dialog.max_files.setValue(7)
    out = tmp_path / "made" / "tasks.jsonl"
    dialog.out.setText(str(out))
    dialog.show()
    dialog.make.click()
    repo = repository_of(s.dataset)
    assert repo is not None
    snapshot = pick_snapshot(repo, tasks_fraction=0.4)
    assert len(asked) == 1 and asked[0]["snapshot"] == snapshot
    assert asked[0]["subject_only"] is True and asked[0]["max_files"] == 7
    want = mine_tasks(repo, snapshot=snapshot, subject_only=True, max_files=7).tasks
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == [
        t.id for t in want]
    assert list(s.dataset.queries.ids) == [t.id for t in want]
    assert s.queries_file == str(out) and s.params["w_similar"] == 0.6
    assert s.model.id == "codeledger" and s.result is not None
    message = window.statusBar().currentMessage()
    assert f"{len(want)} tasks from the" in message and str(out) in message
    # the whole account stays in the dialog, which stays open (review G, 5: a clipped
    # status-bar line, gone after 20 s): what was made, written where, and what was left out
    text = dialog.status.text()
    assert text.startswith(f"{len(want)} tasks from the ") and str(out) in text
    assert dialog.isVisible() and dialog.cancel.text() == "Close" and dialog.make.isEnabled()
    dialog.cancel.click()
    assert not dialog.isVisible()


def test_the_dialog_offers_the_file_kinds_and_says_what_was_left_out(
        window: MainWindow, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The CLI's --include kinds, --no-tests and --min-files are there; the changed files left
    out are counted by reason, with the box that keeps them; the default file is named for
    every option (a second run with other options had overwritten the first)."""
    import workbench.gui.tasks_dialog as td

    asked: list[dict[str, object]] = []

    def spy(*args: object, **kw: object) -> object:
        asked.append(kw)
        return mine_tasks(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(td, "mine_tasks", spy)
    assert window.open_path(SAMPLES / "code-repo")
    dialog = _dialog(window)
    first = dialog.out.text()
    dialog.max_files.setValue(5)
    assert dialog.out.text() != first and "-max5" in dialog.out.text()
    dialog.kinds["docs"].setChecked(True)
    dialog.tests.setChecked(False)
    assert dialog.out.text().endswith("-0.30-max5-notests-docs.jsonl")
    dialog.min_files.setValue(2)
    out = tmp_path / "tasks.jsonl"
    dialog.out.setText(str(out))
    dialog.make.click()
    assert asked[0]["include"] == ("docs",) and asked[0]["include_tests"] is False
    assert asked[0]["min_files"] == 2 and asked[0]["max_files"] == 5
    repo = repository_of(window.session.dataset)
    assert repo is not None
    mined = mine_tasks(repo, snapshot=pick_snapshot(repo, tasks_fraction=0.3), max_files=5,
                       min_files=2, include_tests=False, include=("docs",))
    text = dialog.status.text()
    left = [f"{n} {td.DROPPED[k]}" for k, n in mined.dropped.items() if n]
    assert left and "changed files left out: " in text and all(x in text for x in left)
    assert mined.dropped.get("test")  # the sample changes tests: said with their box
    assert "test files (tests left out) — tick tests above to keep them" in text
    # the dialog grows to hold the account: its spin boxes had been squeezed to 11 px
    assert dialog.height() >= dialog.sizeHint().height()
    assert dialog.max_files.height() >= dialog.max_files.minimumSizeHint().height()


def test_a_file_that_cannot_be_written_changes_nothing(window: MainWindow,
                                                       tmp_path: Path) -> None:
    assert window.open_path(SAMPLES / "code-repo")
    before = (window.session.dataset, window.session.queries_file)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    dialog = _dialog(window)
    dialog.out.setText(str(blocker / "tasks.jsonl"))  # a folder that is a file
    dialog.make.click()
    assert "a-file" in dialog.status.text() and dialog.make.isEnabled()
    assert dialog.result() != TasksFromGitDialog.DialogCode.Accepted
    assert (window.session.dataset, window.session.queries_file) == before
    # the default file follows the share until a file is typed
    dialog2 = _dialog(window)
    dialog2.fraction.setValue(0.5)
    assert dialog2.out.text().endswith("-0.50-max20.jsonl")


def test_cancel_stops_the_mining(window: MainWindow, tmp_path: Path, qtbot,  # type: ignore[no-untyped-def]
                                 monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import workbench.gui.tasks_dialog as td

    started = threading.Event()

    def slow(*args: object, progress: Progress, **kw: object) -> object:
        while True:  # until Cancel: each report checks the stop flag
            progress(0.5, "reading changes")
            started.set()
            threading.Event().wait(0.01)

    monkeypatch.setattr(td, "mine_tasks", slow)
    assert window.open_path(SAMPLES / "code-repo")
    before = window.session.dataset
    dialog = _dialog(window, synchronous=False)
    out = tmp_path / "tasks.jsonl"
    dialog.out.setText(str(out))
    dialog.make.click()
    assert started.wait(10)
    qtbot.waitUntil(lambda: dialog.bar.value() == 50)
    assert not dialog.make.isEnabled() and dialog.status.text() == "reading changes"
    dialog.cancel.click()
    qtbot.waitUntil(lambda: dialog.status.text() == "cancelled")
    assert dialog.make.isEnabled() and not out.exists()
    assert window.session.dataset is before
    dialog.task.shutdown()


def test_the_share_of_history_reads_as_a_percentage(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # it read "0.30" beside "history that becomes tasks"
    dialog = TasksFromGitDialog(tmp_path)
    qtbot.addWidget(dialog)
    assert dialog.fraction.text() == "30 %" and dialog.fraction.value() == 0.3
    dialog.fraction.lineEdit().selectAll()
    qtbot.keyClicks(dialog.fraction.lineEdit(), "45")
    dialog.fraction.interpretText()
    assert dialog.fraction.value() == 0.45 and dialog.fraction.text() == "45 %"
    dialog.fraction.stepUp()
    assert abs(dialog.fraction.value() - 0.5) < 1e-9
    dialog.fraction.lineEdit().selectAll()  # what is shown is what is mined
    qtbot.keyClicks(dialog.fraction.lineEdit(), "33.5")
    dialog.fraction.interpretText()
    assert dialog.fraction.text() == "34 %" and dialog.fraction.value() == 0.34
