"""The actions' fields and the menus built over them, which each part of `WindowActions`
(a mixin a module) declares itself on, so mypy sees one set of attributes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QMessageBox, QWidget

from workbench.core.models import get_model, model_ids
from workbench.core.params import ParamValue
from workbench.gui.actions.escape import _EscStaysInTextFields
from workbench.gui.actions.host import ActionHost
from workbench.gui.tasks_dialog import TasksFromGitDialog

Key = QKeySequence.StandardKey


class ActionsState:
    """The window's menus and actions, and what they remember between events."""

    if TYPE_CHECKING:  # from the other parts of WindowActions
        def _kept_state(self) -> tuple[list[str], str]: ...
        def _on_dataset(self, *_: object) -> None: ...
        def _on_tab(self, _index: int) -> None: ...
        def _forget_tune_room(self, *_: object) -> None: ...
        def room_for_run(self) -> None: ...
        def _add(self, menu: QMenu, text: str, slot: object,
                 shortcut: QKeySequence.StandardKey | str | None = None) -> QAction: ...
        def ask_folder(self) -> None: ...
        def ask_file(self) -> None: ...
        def ask_queries(self) -> None: ...
        def ask_qrels(self) -> None: ...
        def ask_mine_tasks(self) -> None: ...
        def refresh_recent(self) -> None: ...
        def ask_save_session(self) -> None: ...
        def ask_load_session(self) -> None: ...
        def ask_export(self) -> None: ...
        def ask_export_target(self) -> None: ...
        def ask_quit(self) -> None: ...
        def _filter(self) -> None: ...
        def _go_to(self, target: QWidget, pane: str | None) -> None: ...
        def _pick_model(self, mid: str) -> None: ...
        def _recompute(self) -> None: ...
        def _update_cancel(self, *_: object) -> None: ...
        def _update_enabled(self, *_: object) -> None: ...
        def _refresh_splits(self, *_: object) -> None: ...
        def _disconnect(self) -> None: ...
        def show_tune(self) -> None: ...

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
            start = getattr(tune, "start_button", None)
            if start is not None:  # a run takes Tools ▸ Tune…'s room (dD 1)
                start.clicked.connect(self.room_for_run)
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
