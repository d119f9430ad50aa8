"""File ▸ Tasks from git history…: `tasks-from-git` in the window, for the open repository.

The split (the share of the history that becomes tasks), the most files a task may change and
the task text (whole message or subject) are asked for; the mining runs off the GUI thread with
progress and Cancel (`BackgroundTask`); the tasks are written atomically to the chosen file
(by default in the workbench's cache folder, not inside the user's repository), and `made`
hands that file to the window, which reads the repository again with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from workbench.core.data import Dataset
from workbench.core.engine import Progress
from workbench.core.formats.code_tasks import write_tasks
from workbench.core.repo.git import git
from workbench.core.repo.tasks import SKIPPED, MinedTasks, mine_tasks, pick_snapshot
from workbench.core.store.paths import cache_dir

from .background import BackgroundTask

__all__ = ["TasksFromGitDialog", "repository_of"]

DEFAULT_FRACTION = 0.3  # as `tasks-from-git --history-fraction`
DEFAULT_MAX_FILES = 20


def repository_of(dataset: Dataset | None) -> Path | None:
    """The git repository a code dataset was read from (its source is `root@commit`)."""
    if dataset is None or "@" not in dataset.source:
        return None
    root = Path(dataset.source.rpartition("@")[0])
    return root if (root / ".git").exists() else None


@dataclass(frozen=True)
class _Made:
    mined: MinedTasks
    date: str
    path: Path


class PercentSpin(QDoubleSpinBox):
    """A share of 0..1 shown and typed as a percentage ("30 %"; it read "0.30")."""

    def textFromValue(self, value: float) -> str:  # Qt override
        return f"{value * 100:.0f} %"

    def valueFromText(self, text: str) -> float:  # Qt override
        try:  # to the box's whole percent, as shown ("33.5" read 34 % and mined 33.5 %)
            return round(float(text.replace("%", "").strip())) / 100
        except ValueError:
            return self.value()

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:  # Qt override
        bare = text.replace("%", "").strip()
        if not bare:
            return QValidator.State.Intermediate, text, pos
        try:
            share = float(bare) / 100
        except ValueError:
            return QValidator.State.Invalid, text, pos
        ok = self.minimum() - 1e-9 <= share <= self.maximum() + 1e-9
        return (QValidator.State.Acceptable if ok else QValidator.State.Intermediate), text, pos


class TasksFromGitDialog(QDialog):
    made = Signal(str, str)  # the tasks file, a one-line summary

    def __init__(self, repo: Path, parent: QWidget | None = None, *,
                 synchronous: bool = False) -> None:
        super().__init__(parent)
        self.repo = repo
        self.setWindowTitle(f"Tasks from the history of {repo.name}")
        self.fraction = PercentSpin(self)
        self.fraction.setRange(0.05, 0.95)
        self.fraction.setSingleStep(0.05)
        self.fraction.setDecimals(2)
        self.fraction.setValue(DEFAULT_FRACTION)
        self.fraction.setToolTip("The newest share of the history becomes the tasks; the index "
                                 "is built at the commit before them (a time split: nothing a "
                                 "task reveals is in the index).")
        self.max_files = QSpinBox(self)
        self.max_files.setRange(1, 500)
        self.max_files.setValue(DEFAULT_MAX_FILES)
        self.max_files.setToolTip("A commit that changes more kept files than this is no task "
                                  "(a sweeping change says little about one question).")
        self.subject_only = QCheckBox("the commit subject only (else the whole message)", self)
        self.out = QLineEdit(str(self.default_path()), self)
        self._edited = False
        self.out.textEdited.connect(lambda *_: setattr(self, "_edited", True))
        self.fraction.valueChanged.connect(self._follow_fraction)
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.out, 1)
        where.addWidget(browse)
        form = QFormLayout()
        form.addRow("history that becomes tasks", self.fraction)
        form.addRow("most files a task changes", self.max_files)
        form.addRow("task text", self.subject_only)
        form.addRow("write the tasks to", where)
        self.note = QLabel("Each commit after the split becomes a task: its message, and the "
                           "source and test files it changed. Merges, bot commits, releases, "
                           "version bumps and one-word messages make no task.", self)
        self.note.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 100)
        self.bar.setVisible(False)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(self)
        self.make = self.buttons.addButton("Make tasks", QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.make.clicked.connect(self.start)
        self.cancel.clicked.connect(self._cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(form)
        layout.addWidget(self.bar)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.task = BackgroundTask(self, synchronous=synchronous)
        self.task.progress.connect(self._on_progress)
        self.task.finished.connect(self._on_done)
        self.task.failed.connect(self._on_failed)
        self.resize(560, self.sizeHint().height())

    def default_path(self) -> Path:
        return cache_dir() / "tasks" / f"{self.repo.name}-{self.fraction.value():.2f}.jsonl"

    def start(self) -> None:
        """Mine the tasks off the GUI thread; `made` when they are written."""
        if self.task.running:
            return
        out = Path(self.out.text().strip()).expanduser()
        if not self.out.text().strip():
            self._say("Give the file to write the tasks to.", error=True)
            return
        repo, share = self.repo, self.fraction.value()
        max_files, subject = self.max_files.value(), self.subject_only.isChecked()

        def work(progress: Progress) -> _Made:
            progress(0.0, "picking the split")
            snapshot = pick_snapshot(repo, tasks_fraction=share)
            mined = mine_tasks(repo, snapshot=snapshot, max_files=max_files,
                               subject_only=subject, progress=progress)
            date = git(repo, "show", "-s", "--format=%cs", mined.snapshot).decode().strip()
            progress(1.0, "writing the tasks")
            out.parent.mkdir(parents=True, exist_ok=True)
            write_tasks(out, mined.tasks)
            return _Made(mined, date, out)

        for w in (self.fraction, self.max_files, self.subject_only, self.out, self.make):
            w.setEnabled(False)
        self.bar.setValue(0)
        self.bar.setVisible(True)
        self._say("reading the history …")
        self.task.start(work)

    def _on_progress(self, fraction: float, message: str) -> None:
        self.bar.setValue(round(100 * fraction))
        self._say(message)

    def _on_done(self, made: object) -> None:
        assert isinstance(made, _Made)
        self._idle()
        m = made.mined
        if not m.tasks:
            self._say(f"No commit after the split ({m.snapshot[:10]}, {made.date}) made a task; "
                      "give a larger share of the history.", error=True)
            return
        reasons = ", ".join(f"{n} {SKIPPED[k].split(' (')[0]}" for k, n in m.skipped.items()
                            if n and k in SKIPPED)
        line = (f"{len(m.tasks)} tasks from the {m.commits} commits after {m.snapshot[:10]} "
                f"({made.date})" + (f"; skipped: {reasons}" if reasons else ""))
        self.made.emit(str(made.path), line)
        self.accept()

    def _on_failed(self, message: str) -> None:
        self._idle()
        self._say(message or "cancelled", error=bool(message))

    def _cancel(self) -> None:
        if self.task.running:
            self.task.cancel()
        else:
            self.reject()

    def _idle(self) -> None:
        for w in (self.fraction, self.max_files, self.subject_only, self.out, self.make):
            w.setEnabled(True)
        self.bar.setVisible(False)

    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #b00020;" if error else "")

    def _follow_fraction(self, *_: object) -> None:
        if not self._edited:
            self.out.setText(str(self.default_path()))

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Write the tasks to", self.out.text(),
                                              "Tasks (*.jsonl)")
        if path:
            self.out.setText(path)
            self._edited = True

    def done(self, result: int) -> None:
        self.task.shutdown()
        super().done(result)
