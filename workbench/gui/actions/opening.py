"""File ▸ Open: the dialogs asking for a dataset folder or file, its queries or judgments,
and tasks mined from the repository's git history."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from workbench.gui.actions.state import ActionsState
from workbench.gui.tasks_dialog import TasksFromGitDialog, repository_of


class OpeningMixin(ActionsState):
    """The open dialogs."""

    def _start_dir(self) -> str:
        return str(Path(self.w.session.source).parent) if self.w.session.source else ""

    def ask_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self.window, "Open dataset folder",
                                                self._start_dir())
        if path:
            self.w.open_path(path)

    def ask_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Open dataset file", self._start_dir(),
            # TREC SGML (docs.sgml.gz; the disks' files have no suffix: la010189, ft911_1)
            # and Pyserini's collection.txt are datasets too (dr5 10)
            "Datasets (*.jsonl *.json *.csv *.tsv *.txt *.gz *.sgml *.xml);;"
            "TREC documents, any name (*);;All files (*)")
        if path:
            self.w.open_path(path)

    def ask_queries(self) -> None:
        """Queries (or a repository's tasks, as `tasks-from-git` writes them) for the open
        dataset: it is read again with them, the model and its values kept."""
        path = self._ask_file("Open queries or tasks",  # TREC topics: topics.301-450 …
                              "Queries or tasks (*.jsonl *.csv *.tsv *.txt *.xml topics.*)")
        if path:
            self.w.open_with(queries=path)

    def ask_qrels(self) -> None:
        """Judgments (BEIR TSV or TREC qrels) for the open dataset's queries."""
        path = self._ask_file("Open judgments", "Judgments (*.tsv *.txt *.qrels)")
        if path:
            self.w.open_with(qrels=path)

    def _ask_file(self, title: str, kinds: str) -> str:
        path, _ = QFileDialog.getOpenFileName(self.window, title, self._start_dir(),
                                              f"{kinds};;All files (*)")
        return str(path)

    def ask_mine_tasks(self) -> None:
        """`tasks-from-git` for the open repository, in a dialog; its tasks are then opened."""
        repo = repository_of(self.w.session.dataset)
        if repo is None:
            return
        if self.tasks_dialog is not None:
            self.tasks_dialog.close()
        dialog = TasksFromGitDialog(repo, self.window)
        dialog.made.connect(self._open_made_tasks)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda *_: setattr(self, "tasks_dialog", None))
        self.tasks_dialog = dialog
        dialog.open()

    def _open_made_tasks(self, path: str, summary: str) -> None:
        if self.w.open_with(queries=path):
            self.window.statusBar().showMessage(f"{summary}; written to {path}", 20000)
