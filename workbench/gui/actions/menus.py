"""What the menus do themselves: their items added, enabled and named as the session
changes (Undo names its step), the View keys, the split and model picked, Recompute."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QAbstractScrollArea, QMenu, QWidget

from workbench.core.formats import dataset_splits
from workbench.gui.actions.state import ActionsState
from workbench.gui.export_target import can_export
from workbench.gui.prepare_box import PrepareBox
from workbench.gui.tasks_dialog import repository_of


class MenusMixin(ActionsState):
    """The menus' items: added, kept enabled and named, and the small ones' slots."""

    if TYPE_CHECKING:  # from the other parts of WindowActions
        def _prepare_box(self) -> PrepareBox | None: ...

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
