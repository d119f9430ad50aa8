"""File ▸ Save session and Open session: the session written with the view and the edits
held in Prepare, read back off the window's thread, its dataset located where it moved."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from workbench.core.data import FormatError
from workbench.core.params import ParamValue
from workbench.gui import settings as st
from workbench.gui.actions.state import ActionsState
from workbench.gui.actions.unsaved import _changes
from workbench.gui.errors import os_error_text
from workbench.gui.prepare_box import PrepareBox

if TYPE_CHECKING:
    from workbench.core.session_file import LoadedSession


class SessionFilesMixin(ActionsState):
    """Saving and opening a session file."""

    if TYPE_CHECKING:  # from the other parts of WindowActions
        def _held(self) -> dict[str, ParamValue]: ...
        def _prepare_box(self) -> PrepareBox | None: ...
        def _mark_clean(self) -> None: ...
        def may_replace(self, title: str = "Open session",
                        doing: str = "Opening a session replaces them, and Undo cannot bring "
                                     "them back.") -> bool: ...

    def ask_save_session(self) -> None:
        """The session saved, with the edits the Prepare box holds unapplied (a word list
        typed and not yet re-indexed had been left out, the file saying "params": {})."""
        path, _ = QFileDialog.getSaveFileName(self.window, "Save session", "session.json",
                                              "Workbench session (*.json)")
        if path:
            from workbench.core.session_file import write_session_file

            held = self._held()
            try:
                write_session_file(self.w.session, path, held, self._view_state())
            except OSError as exc:
                self.w.show_error(f"Could not save the session:\n{os_error_text(exc)}")
                return
            self._mark_clean()
            self.window.statusBar().showMessage(
                f"session saved to {path}" + (f" with {_changes(len(held))} held in Prepare, "
                                              "not applied" if held else ""), 5000)

    def _view_state(self) -> dict[str, str]:
        """What a saved session keeps of the view: the chart tab by its panel's name, where it
        is not the one the window shows by itself (`_own_chart`), and the query filter."""
        charts = self.w.charts
        shown = charts.currentWidget()
        chart = next((name for name, panel in charts.panels.items() if panel is shown), "")
        if shown is self._own_chart():
            chart = ""
        return {"chart": chart, "filter": self.w.queries.filter_edit.text()}

    def _own_chart(self) -> QWidget | None:
        """The tab the window shows by itself: the one the model prefers, else the first."""
        charts = self.w.charts
        preferred = charts.preferred_panel()
        if preferred is not None:
            return preferred
        return next((charts.widget(i) for i in range(charts.count())
                     if charts.isTabVisible(i)), None)

    def _restore_view(self, chart: str, query_filter: str) -> None:
        """A session's view back (`_view_state`): its chart tab where this window shows it
        (a later version's panel, or one that does not apply here, gives the window's own),
        and its query filter."""
        charts = self.w.charts
        panel = charts.panels.get(chart)
        if panel is None or not charts.isTabVisible(charts.indexOf(panel)):
            panel = self._own_chart()
        if panel is not None:
            charts.setCurrentWidget(panel)
        self.w.queries.filter_edit.setText(query_filter)

    def ask_load_session(self) -> None:
        if not self.may_replace():
            return
        path, _ = QFileDialog.getOpenFileName(self.window, "Open session", "",
                                              "Workbench session (*.json)")
        if path:
            self.load_session_file(path)

    def load_session_file(self, path: str, dataset_at: str | None = None) -> bool:
        """Open a session file; where its dataset is gone, offer to locate it
        (`locate_dataset`) and open the session with the dataset found there."""
        from workbench.core.engine import Cancelled
        from workbench.core.session_file import DatasetMissing, apply_session, read_session
        from workbench.gui.off_thread import wait_for

        try:
            with self.w.loop.hold():
                # the file, its dataset and its baseline off the window's thread (a large
                # corpus froze the window while read); then the session, changed at once
                loaded = wait_for(self.window, f"Opening {Path(path).name} …",
                                  lambda: read_session(path, dataset_at),
                                  synchronous=self.w.loop.synchronous)
                apply_session(self.w.session, loaded)
                compare = getattr(self.w, "_compare", None)
                if compare is not None:  # the session's own rows, ticked by their roles
                    compare.configs.forget_ticks()
            box = self._prepare_box()
            for name, value in loaded.plan.held.items():  # held again, as when saved
                if box is not None and name in box.editors:
                    box.hold(name, value)
            plan = loaded.plan
            self._restore_view(plan.chart, plan.query_filter)
            self._mark_clean()
            # Open recent and the next launch: the session's dataset
            st.remember_opened(plan.dataset, plan.queries, plan.qrels, plan.split, plan.model)
            self.refresh_recent()
            lines = [self._opened_line(path, loaded)]
            if dataset_at is not None:  # the file still names the old place: a change to save
                self._located = self.w.session.source or ""
                lines.append(f"its dataset found at {dataset_at}: save the session (Ctrl+S) "
                            "to keep the new place")
            gone = loaded.plan.query
            if gone and gone not in loaded.dataset.queries.index:  # said, not silently q01
                lines.append(f"the session's query {gone!r} is not in {loaded.dataset.name} "
                            "any more: the first query is selected")
            self.w.say_opened("; ".join(lines), 15000 if len(lines) > 1 else 10000)
        except Cancelled:
            self.window.statusBar().showMessage(f"opening {path} cancelled: nothing changed",
                                                8000)
            return False
        except DatasetMissing as exc:  # moved where the file could not follow: find it
            found = self.locate_dataset(path, str(exc))
            if found is None:
                self.window.statusBar().showMessage(
                    f"{Path(path).name} not opened: its dataset was not located", 8000)
                return False
            return self.load_session_file(path, found)
        except (FormatError, ValueError, KeyError, OSError) as exc:
            # one line that names the file and says why: the status line shows the first
            # ("Could not open the session /x.json:" ended there, the path said twice)
            said = str(exc) if str(exc).startswith(path) else f"{path}: {exc}"
            self.w.show_error(f"Could not open the session {said}")
            return False
        return True

    def _opened_line(self, path: str, loaded: LoadedSession) -> str:
        """What a session opened: its file, dataset (and split, where the folder has some),
        model, and how many configurations, typed queries and held edits came back with it
        (the status line had said only "prepared")."""
        plan = loaded.plan
        where = loaded.dataset.name + (f" \u00b7 {plan.split}" if self.split_group.actions()
                                       else "")
        n = len(plan.configurations)
        line = (f"opened session {Path(path).name}: {where}, {plan.model}, "
                + (f"{n} configuration{'s' if n != 1 else ''}" if n else "no configurations")
                + (f" (baseline \u201c{plan.baseline}\u201d)" if plan.baseline else ""))
        if plan.typed:
            line += f", {len(plan.typed)} typed quer{'y' if len(plan.typed) == 1 else 'ies'}"
        if plan.held:
            line += f", {_changes(len(plan.held))} held in Prepare"
        return line

    def locate_dataset(self, path: str, why: str) -> str | None:
        """Ask where a session's dataset is now: a folder or a file, or None (cancelled)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Dataset not found",
                          f"The session {Path(path).name} names a dataset that is not there:"
                          f"\n\n{why}\n\nLocate it to open the session with it (the session "
                          "file itself is not changed).", parent=self.window)
        folder = box.addButton("Locate folder…", QMessageBox.ButtonRole.AcceptRole)
        file = box.addButton("Locate file…", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is folder:
            chosen = QFileDialog.getExistingDirectory(self.window, "Where the dataset is now")
        elif box.clickedButton() is file:
            chosen, _ = QFileDialog.getOpenFileName(self.window, "Where the dataset is now")
        else:
            return None
        return chosen or None
