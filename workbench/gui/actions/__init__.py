"""The window's menus, actions and shortcuts: File (open, recent, sessions, export, quit),
Edit (undo/redo), View, Model, Tools."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

from workbench.core.data import FormatError
from workbench.core.formats import dataset_splits
from workbench.core.models import get_model, model_ids
from workbench.core.params import ParamValue
from workbench.gui import settings as st
from workbench.gui.actions.escape import _EscStaysInTextFields
from workbench.gui.actions.host import ActionHost
from workbench.gui.errors import os_error_text
from workbench.gui.export_csv import write_ranked_csv
from workbench.gui.export_target import can_export, export_to
from workbench.gui.prepare_box import PrepareBox
from workbench.gui.tasks_dialog import TasksFromGitDialog, repository_of

if TYPE_CHECKING:
    from workbench.core.session_file import LoadedSession


Key = QKeySequence.StandardKey
TUNE_HEIGHT = 440  # the Tune panel's height that Tools ▸ Tune… makes room for
TUNE_MIN_TOP = 150  # … the lists above it keep at least this (their headers and a few rows)
# … and at least this share of the rows: at 1,280 × 800 the panel's whole height had left the
# ranked table two rows, too few to watch what Apply best did; the panel scrolls instead
TUNE_TOP_SHARE = 0.4


class WindowActions:
    def __init__(self, window: QMainWindow, host: ActionHost) -> None:
        """`window`: the Qt window the menus and dialogs belong to; `host`: what they act on
        (the same main window)."""
        self.window, self.w = window, host
        s = host.session
        # the values as the dataset was opened (or the session saved), the configurations
        # as last saved or opened from a session file: opening a session over changes since,
        # or quitting, asks (`unsaved`)
        # (the values, the Prepare box's edits held unapplied), as `_values_state` has them
        self._clean: tuple[str, str] | None = None
        self._clean_kept = self._kept_state()
        self._marks: dict[str, tuple[str, str]] = {}  # each dataset left: its values' mark
        self._left_changed: dict[str, str] = {}  # source → name: left with values unsaved
        self._source: str | None = None  # the dataset whose values `_clean` marks
        # each dataset left with edits held in its Prepare box: (model, edits), held again
        # when it comes back as it was left (they had gone, the status saying "as you left
        # it"); and those waiting for the box of the data just opened (`_hold_again`)
        self._held_left: dict[str, tuple[str, dict[str, ParamValue]]] = {}
        self._hold_later: tuple[str, dict[str, ParamValue]] | None = None
        self._opened = s.opened
        self._mark_later = False
        self._located = ""  # a session's dataset located elsewhere, not saved since
        # (the rows splitter's sizes before the Tune tab took room, those it set): given back
        # on leaving the tab where nobody moved the splitter since
        self._tune_room: tuple[list[int], list[int]] | None = None
        s.dataset_changed.connect(self._on_dataset)
        host.charts.currentChanged.connect(self._on_tab)
        # a drag of the rows splitter is the user's layout: the room is not given back then
        host.v_split.splitterMoved.connect(self._forget_tune_room)
        tune = host.charts.panels.get("TunePanel")
        if tune is not None and hasattr(tune, "open_judgments"):
            tune.open_judgments.connect(self.ask_qrels)  # its folded line's button
        bar = window.menuBar()
        file = bar.addMenu("&File")
        self.open_folder = self._add(file, "Open dataset &folder…", self.ask_folder, Key.Open)
        self.open_file = self._add(file, "Open f&ile…", self.ask_file, "Ctrl+Shift+O")
        self.recent_menu = QMenu("Open &recent", window)
        self.recent_menu.setToolTipsVisible(True)
        # checked when it opens: a folder moved or deleted since is marked then
        self.recent_menu.aboutToShow.connect(self.refresh_recent)
        file.addMenu(self.recent_menu)
        self.open_queries = self._add(file, "Open &queries or tasks…", self.ask_queries)
        self.open_qrels = self._add(file, "Open &judgments…", self.ask_qrels)
        # a BEIR or OpenVault folder's judged splits (qrels/<split>.tsv), one checked
        self.split_menu = QMenu("Sp&lit", window)
        self.split_menu.setToolTip("which of the folder's judged splits (qrels/<split>.tsv) "
                                   "the queries and judgments come from")
        self.split_group = QActionGroup(window)
        file.addMenu(self.split_menu)
        self.mine_tasks = self._add(file, "&Tasks from git history…", self.ask_mine_tasks)
        # the files read again (edited on disk), the model, values and baseline kept
        self.reload = self._add(file, "Relo&ad dataset from disk", host.reload_dataset,
                                "Ctrl+Shift+R")
        self.tasks_dialog: TasksFromGitDialog | None = None
        file.addSeparator()
        self.save_session = self._add(file, "&Save session…", self.ask_save_session, Key.Save)
        self.load_session = self._add(file, "Open sessio&n…", self.ask_load_session,
                                      "Ctrl+Alt+O")
        self.export = self._add(file, "&Export ranked table CSV…", self.ask_export, "Ctrl+E")
        self.export_report = self._add(file, "Export comparison re&port…",
                                       host.ask_export_report)
        self.export_target = self._add(file, "Export settings for the tar&get system…",
                                       self.ask_export_target)
        self.export_box: QMessageBox | None = None  # what an export said, while shown
        file.addSeparator()
        # the platform's Quit key, else Ctrl+Q (some platforms have none)
        self.quit = self._add(file, "Q&uit", self.ask_quit,
                              Key.Quit if not QKeySequence(Key.Quit).isEmpty() else "Ctrl+Q")

        edit = bar.addMenu("&Edit")
        self.undo = self._add(edit, "&Undo", s.undo, Key.Undo)
        self.redo = self._add(edit, "&Redo", s.redo, "Ctrl+Shift+Z")
        self.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addSeparator()
        self.filter = self._add(edit, "&Filter queries", self._filter, Key.Find)

        view = bar.addMenu("&View")
        # the panes' switches first: a shortcut into a hidden pane shows it again (Alt+1 sent
        # the arrow keys to a hidden query list, changing the query out of sight). One
        # access key each, none twice in a menu
        self.pane_shown: dict[str, QAction] = {}
        for title, widget in (("Query &list", host.queries), ("&Parameters", host.params),
                              ("Document pre&view", host.preview), ("&Charts", host.charts)):
            act = QAction(title, self.window)
            act.setCheckable(True)
            act.setChecked(True)
            act.toggled.connect(widget.setVisible)
            self.pane_shown[title.replace("&", "")] = act
        for title, target, pane, key in (
                ("Go to the &query list", host.queries.view, "Query list", "Alt+1"),
                ("Go to the ranked &table", host.ranked.view, None, "Alt+2"),
                ("Go to the p&arameters", host.params, "Parameters", "Alt+3")):
            self._add(view, title, lambda t=target, p=pane: self._go_to(t, p), key)
        view.addSeparator()
        for act in self.pane_shown.values():
            view.addAction(act)

        self.model_menu = bar.addMenu("&Model")
        self.model_group = QActionGroup(window)
        self.model_actions: dict[str, QAction] = {}
        for i, mid in enumerate(model_ids()):  # labelled as the model box labels them
            act = self._add(self.model_menu, f"{mid} \u2014 {get_model(mid).label}",
                            lambda *_, m=mid: self._pick_model(m),
                            f"Ctrl+{i + 1}" if i < 9 else None)  # Ctrl+1 … in its order
            act.setCheckable(True)
            self.model_group.addAction(act)
            self.model_actions[mid] = act

        tools = bar.addMenu("&Tools")
        self.recompute = self._add(tools, "&Recompute / re-embed", self._recompute, "Ctrl+R")
        self.pin = self._add(tools, "&Pin as baseline", s.pin_baseline, "Ctrl+B")
        self.clear = self._add(tools, "&Clear baseline", s.clear_baseline)
        # Esc: on only while a preparation runs, so it takes the key from nobody else then
        # — but a text field's Esc stays the field's (typing a query or a phrase list and
        # pressing Esc had cancelled a long embedding)
        self.cancel = self._add(tools, "C&ancel prepare", host.loop.cancel_prepare, "Esc")
        self._esc_in_text = _EscStaysInTextFields(self.window)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self._esc_in_text)
        # on only while a preparation runs (it was on with nothing to cancel)
        self.cancel.setEnabled(False)
        self.cancel.setToolTip("stop the preparation under way (embedding, indexing)")
        host.loop.prepare_started.connect(lambda *_: self.cancel.setEnabled(True))
        host.loop.prepare_finished.connect(self._update_cancel)
        tools.aboutToShow.connect(self._update_cancel)
        tools.addSeparator()
        self.tune = self._add(tools, "&Tune…", self.show_tune, "Ctrl+T")

        for event in (s.params_changed, s.model_changed, s.dataset_changed,
                      s.baseline_changed):
            event.connect(self._update_enabled)
        s.dataset_changed.connect(self._refresh_splits)
        s.result_changed.connect(self._update_enabled)
        # a configuration deleted is an undo step: Edit ▸ Undo names it
        s.configurations.changed.connect(self._update_enabled)
        window.destroyed.connect(lambda *_: self._disconnect())
        self._update_enabled()
        self.refresh_recent()
        self._refresh_splits()

    def _go_to(self, target: QWidget, pane: str | None) -> None:
        if pane is not None:
            self.pane_shown[pane].setChecked(True)  # shown first, so the keys land in sight
        _focus(target)

    def _filter(self) -> None:
        self.pane_shown["Query list"].setChecked(True)  # typing filtered a hidden list
        self.w.queries.focus_filter()

    def _disconnect(self) -> None:
        s = self.w.session
        for event in (s.params_changed, s.model_changed, s.dataset_changed, s.result_changed,
                      s.baseline_changed):
            event.disconnect(self._update_enabled)
        s.configurations.changed.disconnect(self._update_enabled)
        s.dataset_changed.disconnect(self._refresh_splits)

    def _add(self, menu: QMenu, text: str, slot: object,
             shortcut: QKeySequence.StandardKey | str | None = None) -> QAction:
        act = QAction(text, self.window)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        if callable(slot):
            act.triggered.connect(lambda *_: slot())
        menu.addAction(act)
        return act

    def _update_enabled(self, *_: object) -> None:
        s = self.w.session
        self.undo.setEnabled(s.can_undo)
        self.redo.setEnabled(s.can_redo)
        self.undo.setText(f"&Undo {s.undo_name}".strip())  # "Undo switch to “vs tf .9”"
        self.redo.setText(f"&Redo {s.redo_name}".strip())
        self.pin.setEnabled(s.result is not None)
        self.open_queries.setEnabled(s.dataset is not None)
        self.open_qrels.setEnabled(s.dataset is not None)
        self.reload.setEnabled(s.dataset is not None and s.source is not None)
        self.mine_tasks.setEnabled(repository_of(s.dataset) is not None)
        # a ranked table is a query's: with none (a corpus opened before its queries) the
        # export failed with "IndexError: tuple index out of range"
        has_query = s.dataset is not None and len(s.dataset.queries) > 0
        self.export.setEnabled(s.result is not None and has_query)
        self.export.setToolTip(
            "the selected query's ranked table as CSV" if has_query or s.dataset is None else
            "no query yet: type one in the box under the query list, or File \u25b8 Open "
            "queries or tasks\u2026")
        # nothing to save, recompute, report or tune before a dataset is open; nothing to
        # clear without a baseline (they were enabled and did nothing, or wrote an empty file)
        self.save_session.setEnabled(s.dataset is not None)
        self.export_report.setEnabled(s.result is not None)
        self.export_target.setEnabled(can_export(s))
        self.export_target.setToolTip(
            "write the values in use as the system this model stands for reads them (what "
            "`workbench export --out FOLDER` writes)" if can_export(s) else
            "this model is the workbench's own: its values are a params TOML file "
            "(Configurations \u25b8 Export current as params TOML\u2026)")
        self.recompute.setEnabled(s.dataset is not None and s.model is not None)
        self.tune.setEnabled(s.dataset is not None and s.model is not None)
        self.clear.setEnabled(s.baseline is not None)
        if s.model is not None and s.model.id in self.model_actions:
            self.model_actions[s.model.id].setChecked(True)

    def _update_cancel(self, *_: object) -> None:
        self.cancel.setEnabled(self.w.loop.preparing)

    def _refresh_splits(self, *_: object) -> None:
        """File ▸ Split: the open folder's judged splits, the one read checked; disabled when
        it has fewer than two (or none: another kind of dataset, or judgments given apart)."""
        s = self.w.session
        self.split_menu.clear()
        for act in self.split_group.actions():
            self.split_group.removeAction(act)
        given = s.queries_file is not None or s.qrels_file is not None
        splits = dataset_splits(s.source) if s.source and not given else []
        for name in splits:
            act = self._add(self.split_menu, name, lambda *_, n=name: self._pick_split(n))
            act.setCheckable(True)
            act.setChecked(name == s.split)
            self.split_group.addAction(act)
        self.split_menu.setEnabled(len(splits) > 1)

    def _pick_split(self, name: str) -> None:
        if name != self.w.session.split and not self.w.open_with(split=name):
            self._refresh_splits()  # the check back on the split still open

    def _pick_model(self, mid: str) -> None:
        if self.w.session.model is None or self.w.session.model.id != mid:
            self.w.session.switch_model(mid)  # one undo step

    def show_tune(self) -> None:
        """The Tune tab, brought forward with room for its charts."""
        charts = self.w.charts
        panel = charts.panels.get("TunePanel")
        if panel is None:
            return
        if charts.currentWidget() is panel:
            self._room_for_tune()  # already shown: no tab change to make the room
        else:
            charts.setCurrentWidget(panel)  # the tab change makes the room (`_on_tab`)

    def _on_tab(self, _index: int) -> None:
        """A click on the Tune tab makes room for it as Tools ▸ Tune… does (else its charts
        open 20 px tall, below the fold of its scroll area); another tab gives the room back,
        where nobody moved the splitter since (the ranked table had stayed 2 rows tall)."""
        panel = self.w.charts.panels.get("TunePanel")
        if panel is not None and self.w.charts.currentWidget() is panel:
            self._room_for_tune()
        else:
            self.give_back_tune_room()

    def give_back_tune_room(self) -> None:
        """The rows splitter as it was before the Tune tab took room, in proportion (the
        window may have been resized since), unless someone moved the splitter meanwhile."""
        if self._tune_room is None:
            return
        before, _ = self._tune_room
        self._tune_room = None
        total = sum(self.w.v_split.sizes())
        top = round(total * before[0] / max(1, sum(before)))
        self.w.v_split.setSizes([top, total - top])

    def _forget_tune_room(self, *_: object) -> None:
        self._tune_room = None

    def _room_for_tune(self) -> None:
        """TUNE_HEIGHT for the panel where the window has it, the lists above keeping at least
        TUNE_MIN_TOP and TUNE_TOP_SHARE of the rows; a laptop's window (800 px) gives it what
        it can, and the panel scrolls (in 200 px its settings, legend and result had sat
        below the fold)."""
        if self._tune_room is not None:
            # the room is taken already: taking it again would record the squeezed sizes
            # as the ones to give back (Tools ▸ Tune… left the ranked table 2 rows tall)
            return
        panel = self.w.charts.panels["TunePanel"]
        if not getattr(panel, "needs_room", True):
            # folded to the line saying why no run can start: the lists keep the room
            self.give_back_tune_room()
            return
        top, bottom = self.w.v_split.sizes()
        want = bottom - panel.height() + TUNE_HEIGHT  # the metric strip and tab bar stay
        keep = max(TUNE_MIN_TOP, round(TUNE_TOP_SHARE * (top + bottom)))
        room = min(want, top + bottom - keep)
        if room > bottom:
            self.w.v_split.setSizes([top + bottom - room, room])
            self._tune_room = ([top, bottom], self.w.v_split.sizes())

    # -- recent files -------------------------------------------------------------------------

    def add_recent(self, path: str) -> None:
        st.add_recent(path)
        self.refresh_recent()

    def refresh_recent(self) -> None:
        """The list as it is on disk now (also each time the menu opens): a path moved or
        deleted since is greyed and marked "(missing)", "Remove missing" drops those."""
        self.recent_menu.clear()
        items = st.recent_files()
        missing = [p for p in items if not Path(p).exists()]
        for path in items:
            gone = path in missing
            act = self.recent_menu.addAction(f"{path} (missing)" if gone else path)
            act.setEnabled(not gone)
            if gone:
                act.setToolTip("no longer there: moved, renamed or deleted")
            act.triggered.connect(lambda *_, p=path: self.open_recent(p))
        if items:
            self.recent_menu.addSeparator()
        if missing:
            forget = self.recent_menu.addAction(f"Remove missing ({len(missing)})")
            forget.triggered.connect(lambda *_: self._forget_recent(missing))
        if items:
            clear = self.recent_menu.addAction("Clear list")
            clear.triggered.connect(lambda *_: self._clear_recent())
        self.recent_menu.setEnabled(bool(items))

    def open_recent(self, path: str) -> bool:
        """A Recent entry opened as it was last; one gone since is said to be gone (the
        formats' "no such file or folder; expected a BEIR folder …" read as a format
        error) and left out of the list."""
        if not Path(path).exists():
            self._forget_recent([path])
            self.w.show_error(f"{path} is no longer there: it was moved, renamed or deleted "
                              "since it was opened. It is removed from Open recent.")
            return False
        return self.w.reopen(path)

    def _forget_recent(self, paths: list[str]) -> None:
        st.forget_recent(paths)
        self.refresh_recent()

    def _clear_recent(self) -> None:
        st.clear_recent()
        self.refresh_recent()

    # -- dialogs ------------------------------------------------------------------------------

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

    def _held(self) -> dict[str, ParamValue]:
        """The Prepare box's edits held unapplied, the text of a field not yet left among
        them."""
        box = self._prepare_box()
        if box is None:
            return {}
        box.commit()
        return dict(box.pending)

    def _prepare_box(self) -> PrepareBox | None:
        box = getattr(self.w.params, "prepare_box", None)
        return box if isinstance(box, PrepareBox) else None

    def _recompute(self) -> None:
        """Ctrl+R: as the prepare box's Re-embed button, its held edits applied first (they
        were left held, and the preparation run for the values before them), the text of a
        field the cursor is still in among them."""
        box = self._prepare_box()
        if box is not None:
            box.commit()
        if box is not None and (box.pending or box.refused):
            box.apply()
        else:
            self.w.loop.recompute()

    def _values_state(self) -> tuple[str, str]:
        """What belongs to the dataset open: the model, its values and the queries they were
        tuned on, the baseline chosen, k and the queries typed; and apart, the edits held in
        the Prepare box (a word list typed and not yet re-indexed is work too)."""
        s = self.w.session
        box = self._prepare_box()
        return (repr((s.model.id if s.model is not None else None, sorted(s.params.items()),
                      s.baseline.name if s.baseline is not None else None, s.k,
                      [(q.id, q.text) for q in s.typed], s.tuned_on)),
                repr(sorted(box.pending.items()) if box is not None else []))

    def _kept_state(self) -> tuple[list[str], str]:
        """What outlives the dataset open: each configuration (a baseline pinned and a tuning
        run's result are ones), and where the Tune panel keeps its studies."""
        s = self.w.session
        return ([repr((c.name, c.model_id, sorted(c.params.items()), c.tuned_on, c.dataset))
                 for c in s.configurations], s.study_storage)

    def _mark_clean(self) -> None:
        """Saved, or opened from a session file: all of it, as it is now (not a return to
        the data's earlier mark)."""
        s = self.w.session
        if s.source:
            self._marks.pop(s.source, None)
        # saved or opened: what was left on other datasets is past asking of (the Quit
        # question's Save had never closed the window while it stayed "unsaved")
        self._left_changed.clear()
        self._clean = self._values_state()
        self._source = s.source
        self._mark_later = False
        self._clean_kept = self._kept_state()
        self._located = ""  # a session's dataset located elsewhere, not saved since

    def note_leaving(self) -> None:
        """The open dataset is about to be left for another: whether its values changed
        since opened or saved, kept for Quit (the window keeps them until it closes, and a
        session file holds the dataset open only)."""
        s = self.w.session
        if s.source and s.dataset is not None:
            held = self._held()
            if held and s.model is not None:
                self._held_left[s.source] = (s.model.id, held)
            else:
                self._held_left.pop(s.source, None)
            if self._clean is not None and self._values_state() != self._clean:
                self._left_changed[s.source] = s.dataset.name
            else:
                self._left_changed.pop(s.source, None)

    def _mark_opened(self) -> None:
        """Data opened: its values as opened. Not the configurations: those made on the data
        before are still in no file (opening other data had marked them saved, and Quit
        would have lost them without a word). Data opened again as it was left (`resumed`)
        takes back its mark, so values changed there and never saved still count."""
        s = self.w.session
        # the same data again with its values kept (File ▸ Split, Open queries or judgments,
        # Reload) is a return too: its values as they were saved or opened, not as now
        again = s.resumed or s.source == self._source
        back = self._marks.pop(s.source, None) if again and s.source else None
        self._clean = back if back is not None else self._values_state()
        self._source = s.source
        self._mark_later = False
        if s.source:  # back on it: its values compare with its mark again
            self._left_changed.pop(s.source, None)

    def _on_dataset(self, *_: object) -> None:
        """Data opened: clean once it is set up (its model and values follow the event), by
        whoever comes first, the opening or the event loop; a query typed into it is a
        change like any other. The Tune tab, where shown, unfolds with room for its form
        when judgments come (or folds and gives the room back when they go)."""
        self._on_tab(-1)
        s = self.w.session
        if s.opened != self._opened:
            self._opened = s.opened
            held = self._held_left.pop(s.source, None) if s.source else None
            if held is not None and s.resumed:  # after the box has dropped the last data's
                self._hold_later = held
                QTimer.singleShot(0, self._hold_again)
            if self._source is not None and self._clean is not None:
                self._marks[self._source] = self._clean  # for its return (`_mark_opened`)
            self._mark_later = True
            QTimer.singleShot(0, self._mark_if_later)

    def _hold_again(self) -> None:
        """The edits held in the Prepare box when the data opened again was left, held
        again (its model is the one it was left with)."""
        if self._hold_later is None:
            return
        (model_id, held), self._hold_later = self._hold_later, None
        box, model = self._prepare_box(), self.w.session.model
        if box is None or model is None or model.id != model_id:
            return
        for name, value in held.items():
            if name in box.editors:
                box.hold(name, value)

    def _mark_if_later(self) -> None:
        if self._mark_later:
            self._mark_opened()

    def unsaved(self) -> bool:
        """Whether the values changed since the dataset or session was opened, or the
        configurations since a session was opened or saved (or the window opened). Data
        opened a moment ago (its mark still waiting for the event loop) is as opened."""
        self._hold_again()
        if self._mark_later:
            self._mark_opened()
        located = bool(self._located) and self._located == self.w.session.source
        return located or bool(self._left_changed) or (self._clean is not None and (
            self._values_state() != self._clean or self._kept_state() != self._clean_kept))

    def what_unsaved(self) -> str:
        """What `unsaved()` found, in words: the configurations new or changed by name, the
        values in use, where studies are kept."""
        s = self.w.session
        configs, storage = self._kept_state()
        clean, clean_storage = self._clean_kept
        names = [c.name for c, r in zip(s.configurations, configs, strict=True)
                 if r not in clean]
        parts = []
        if names:
            shown = ", ".join(f"\u201c{n}\u201d" for n in names[:4]) + (
                f" and {len(names) - 4} more" if len(names) > 4 else "")
            parts.append(f"the configuration{'s' if len(names) > 1 else ''} {shown}")
        elif len(configs) < len(clean):
            parts.append("configurations deleted")
        now = self._values_state()
        if self._clean is not None and now[0] != self._clean[0]:
            parts.append("the values in use (or the baseline, k or a query typed)")
        box = self._prepare_box()
        if self._clean is not None and now[1] != self._clean[1] and box is not None \
                and box.pending:
            labels = ", ".join(box.editors[n].param.label for n in box.pending)
            parts.append(f"{_changes(len(box.pending))} held in Prepare, not applied "
                         f"({labels})")
        elif self._clean is not None and now[1] != self._clean[1]:
            parts.append("the changes held in Prepare when it was saved (dropped since)")
        if storage != clean_storage:
            parts.append("where the Tune panel keeps its studies")
        if self._located and self._located == s.source:
            parts.append(f"the dataset's new place ({self._located})")
        if self._left_changed:
            names = sorted(set(self._left_changed.values()))
            parts.append(f"the values changed on {', '.join(names)} (or the baseline, k, a "
                         "query typed or a change held in Prepare; kept in this window only: a "
                         "session file keeps the dataset open)")
        return "; ".join(parts)

    def may_replace(self, title: str = "Open session",
                    doing: str = "Opening a session replaces them, and Undo cannot bring "
                                 "them back.") -> bool:
        """Whether the session may be replaced (or the window closed): nothing unsaved, or
        the user saved it or chose to discard it (asked: the one step Undo cannot take
        back). `doing`: what would lose them. The text of a Prepare field not yet left is
        held first (it is work as an edit held is)."""
        self._held()
        if not self.unsaved():
            return True
        answer = QMessageBox.question(
            self.window, title,
            "The current values or configurations have changed since they were opened "
            f"or saved. {doing}\n\nNot saved: {self.what_unsaved()}.",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        if answer == QMessageBox.StandardButton.Save:
            self.ask_save_session()
            return not self.unsaved()  # not saved: cancelled, or it failed and said so
        return True

    def may_close(self) -> bool:
        """Quit (or the window's close button): asked as Open session asks, since nothing
        of the configurations, a tuned one included, or the values outlives the window."""
        return self.may_replace("Quit", "Quitting loses them: the next launch does not "
                                "remember them (File \u25b8 Save session\u2026 keeps them).")

    def ask_quit(self) -> None:
        """File ▸ Quit: asked first (`may_close`), then closed (a close from code does not
        ask again: `MainWindow.closeEvent`)."""
        if self.may_close():
            self.window.close()

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

    def ask_export_target(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self.window, "Export settings into a folder (the project, or a new one)")
        if folder:
            self.export_target_to(folder)

    def export_target_to(self, folder: str) -> bool:
        """Write the settings into `folder`; what was written in the status line, and what
        to know about it in a box."""
        try:
            done = export_to(self.w.session, folder)
        except ValueError as exc:
            self.w.show_error(f"Could not export the settings:\n{exc}")
            return False
        except OSError as exc:
            self.w.show_error(f"Could not export the settings (nothing was written):\n"
                              f"{os_error_text(exc)}")
            return False
        names = ", ".join(str(p.relative_to(folder)) for p in done.written)
        self.window.statusBar().showMessage(f"wrote {names} in {folder}", 15000)
        if done.notes:
            box = QMessageBox(QMessageBox.Icon.Information, "Settings exported",
                              f"Wrote {names} in {folder}.\n\n" + "\n\n".join(done.notes),
                              QMessageBox.StandardButton.Ok, self.window)
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.open()
            self.export_box = box
        return True

    def ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, "Export ranked table", "ranking.csv",
                                              "CSV (*.csv)")
        if path:
            try:
                n = write_ranked_csv(self.w.session, Path(path))
            except OSError as exc:
                self.w.show_error(f"Could not write {path}:\n{os_error_text(exc)}")
                return
            except ValueError as exc:  # nothing to export (no query): said, nothing written
                self.w.show_error(f"Nothing written to {path}: {exc}")
                return
            self.window.statusBar().showMessage(f"{n} rows written to {path}", 5000)


def _changes(n: int) -> str:
    return f"{n} change{'s' if n > 1 else ''}"


def _focus(widget: QWidget) -> None:
    """Keyboard focus into `widget`: a table itself, else the first control in it that
    takes Tab focus (a panel's first slider)."""
    if isinstance(widget, QAbstractItemView):
        widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return
    for child in widget.findChildren(QWidget):
        if (child.focusPolicy() & Qt.FocusPolicy.TabFocus) and child.isVisible() \
                and child.isEnabled() and not isinstance(child, QAbstractScrollArea):
            child.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
