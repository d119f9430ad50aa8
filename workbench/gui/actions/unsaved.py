"""What changed since the data or session was opened or saved (values, configurations, edits
held in Prepare, on this dataset and those left), and asking before it is lost."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from workbench.core.params import ParamValue
from workbench.gui.actions.state import ActionsState
from workbench.gui.prepare_box import PrepareBox


class UnsavedMixin(ActionsState):
    """The marks of what was saved, what differs from them, and the questions it asks."""

    if TYPE_CHECKING:  # from the other parts of WindowActions
        def ask_save_session(self) -> None: ...

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


def _changes(n: int) -> str:
    return f"{n} change{'s' if n > 1 else ''}"
