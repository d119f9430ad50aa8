"""File ▸ Tasks from git history…: `tasks-from-git` in the window, for the open repository.

The split (the share of the history that becomes tasks), the most and fewest files a task may
change, the kinds of file its files may be (tests, docs, config, …: `--include`) and the task
text (whole message or subject) are asked for; the mining runs off the GUI thread with
progress and Cancel (`BackgroundTask`); the tasks are written atomically to the chosen file
(by default in the workbench's cache folder, not inside the user's repository, named for the
options), and `made` hands that file to the window, which reads the repository again with it.
The dialog then stays open with the whole account — the tasks made, the commits that made
none and the changed files left out, and why — until it is closed, or made again with other
options.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Signal
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
from workbench.core.repo.file_kinds import FILE_KINDS, OPTIONAL_KINDS
from workbench.core.repo.git import git
from workbench.core.repo.tasks import DROPPED, SKIPPED, MinedTasks, mine_tasks, pick_snapshot
from workbench.core.store.paths import cache_dir

from .background import BackgroundTask

__all__ = ["TasksFromGitDialog", "repository_of", "summary_text"]

DEFAULT_FRACTION = 0.3  # as `tasks-from-git --task-fraction`
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


# the reasons that name the CLI's options, as the dialog names them
_SKIPPED_HERE = {"too_few_files": "changed fewer kept files that existed at the snapshot than "
                                  "the fewest asked (only docs, config, new files, …)",
                 "too_many_files": "changed more kept files than the most asked"}


def summary_text(m: MinedTasks, date: str, path: Path) -> str:
    """What was made and what was not, and why, as `tasks-from-git` says it, in the dialog's
    words (its options named as the dialog names them)."""
    lines = [f"{len(m.tasks)} tasks from the {m.commits} commits after {m.snapshot[:10]} "
             f"({date}), written to {path}"]
    skipped = [f"{m.skipped[k]} {_SKIPPED_HERE.get(k, text)}" for k, text in SKIPPED.items()
               if m.skipped.get(k)]
    if skipped:
        lines.append("commits that made no task: " + "; ".join(skipped))
    dropped = [f"{n} {DROPPED[k]}" + (f" — tick {k} above to keep them"
                                      if k in OPTIONAL_KINDS else
                                      " — tick tests above to keep them" if k == "test" else "")
               for k, n in ((k, m.dropped.get(k, 0)) for k in DROPPED) if n]
    if dropped:
        lines.append("changed files left out: " + "; ".join(dropped))
    lines += [f"note: {n}" for n in m.notes]
    return "\n".join(lines)


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
        self.min_files = QSpinBox(self)
        self.min_files.setRange(1, 500)
        self.min_files.setValue(1)
        self.min_files.setToolTip("A commit that changes fewer kept files than this is no "
                                  "task.")
        self.subject_only = QCheckBox("the commit subject only (else the whole message)", self)
        self.tests = QCheckBox("tests", self)
        self.tests.setChecked(True)
        self.tests.setToolTip("Test files a commit changed are among its task's files.")
        # the file kinds a task's files may be besides source (tasks-from-git --include)
        self.kinds = {k: QCheckBox(k, self) for k in OPTIONAL_KINDS}
        for k, box in self.kinds.items():
            box.setToolTip(f"Also {FILE_KINDS[k]} a commit changed.")
        self.out = QLineEdit("", self)
        self._edited = False
        self._follow_options()
        self.out.textEdited.connect(lambda *_: setattr(self, "_edited", True))
        self.fraction.valueChanged.connect(self._follow_options)
        self.max_files.valueChanged.connect(self._follow_options)
        self.min_files.valueChanged.connect(self._follow_options)
        for box in (self.subject_only, self.tests, *self.kinds.values()):
            box.toggled.connect(self._follow_options)
        kinds = QHBoxLayout()
        kinds.addWidget(QLabel("source,", self))
        kinds.addWidget(self.tests)
        for box in self.kinds.values():
            kinds.addWidget(box)
        kinds.addStretch(1)
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.out, 1)
        where.addWidget(browse)
        form = QFormLayout()
        form.addRow("history that becomes tasks", self.fraction)
        form.addRow("most files a task changes", self.max_files)
        form.addRow("fewest files a task changes", self.min_files)
        form.addRow("task files", kinds)
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
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
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
        """In the cache folder, named for the repository (its name and a digest of its path:
        two clones named alike do not share it) and every option, so that tasks made with
        other options never overwrite these."""
        digest = hashlib.sha256(str(self.repo.resolve()).encode()).hexdigest()[:6]
        parts = [f"{self.repo.name}-{digest}", f"{self.fraction.value():.2f}",
                 f"max{self.max_files.value()}"]
        if self.min_files.value() > 1:
            parts.append(f"min{self.min_files.value()}")
        if not self.tests.isChecked():
            parts.append("notests")
        also = [k for k, box in self.kinds.items() if box.isChecked()]
        if also:
            parts.append("+".join(also))
        if self.subject_only.isChecked():
            parts.append("subject")
        return cache_dir() / "tasks" / ("-".join(parts) + ".jsonl")

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
        min_files, tests = self.min_files.value(), self.tests.isChecked()
        include = tuple(k for k, box in self.kinds.items() if box.isChecked())
        if min_files > max_files:
            self._say(f"The fewest files a task changes ({min_files}) is more than the most "
                      f"({max_files}).", error=True)
            return

        def work(progress: Progress) -> _Made:
            progress(0.0, "picking the split")
            snapshot = pick_snapshot(repo, tasks_fraction=share)
            mined = mine_tasks(repo, snapshot=snapshot, max_files=max_files,
                               min_files=min_files, include_tests=tests, include=include,
                               subject_only=subject, progress=progress)
            date = git(repo, "show", "-s", "--format=%cs", mined.snapshot).decode().strip()
            progress(1.0, "writing the tasks")
            out.parent.mkdir(parents=True, exist_ok=True)
            write_tasks(out, mined.tasks)
            return _Made(mined, date, out)

        for w in self._inputs():
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
        # the status bar's line is short: the dialog holds the account (the reasons in the
        # CLI's words, "fewer than min-files", had been clipped there)
        line = (f"{len(m.tasks)} tasks from the {m.commits} commits after {m.snapshot[:10]} "
                f"({made.date})")
        # the whole account stays here, where the options that change it are (the window's
        # status bar had clipped it at its width and cleared it after 20 s)
        self.summary = summary_text(m, made.date, made.path)
        self._say(self.summary)
        self.cancel.setText("Close")
        self.made.emit(str(made.path), line)

    def _inputs(self) -> list[QWidget]:
        return [self.fraction, self.max_files, self.min_files, self.tests,
                *self.kinds.values(), self.subject_only, self.out, self.make]

    def _on_failed(self, message: str) -> None:
        self._idle()
        self._say(message or "cancelled", error=bool(message))

    def _cancel(self) -> None:
        if self.task.running:
            self.task.cancel()
        else:
            self.reject()

    def _idle(self) -> None:
        for w in self._inputs():
            w.setEnabled(True)
        self.bar.setVisible(False)

    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #b00020;" if error else "")
        # grown to hold it (the account's four lines had squeezed the spin boxes to 11 px
        # in the height the dialog opened at)
        need = self.sizeHint().height()
        if self.height() < need:
            self.resize(self.width(), need)

    def _follow_options(self, *_: object) -> None:
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
