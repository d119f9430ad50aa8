"""Undo and redo over the session's steps: values, switches across models, configurations
deleted, saved and brought up to date by a tuning run."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from workbench.core.session.records import _Deleted, _Replaced, _Saved, _Step, _step_name, _Switch
from workbench.core.session.state import SessionState
from workbench.core.tuned_on import TunedOn


class UndoMixin(SessionState):
    """Edit ▸ Undo and Redo."""

    if TYPE_CHECKING:  # from the other parts of TuningSession
        def _switch_step(self, step: _Switch, *, undoing: bool) -> None: ...

        def set_params(self, values: Mapping[str, object], *, record: bool = True,
                       tuned_on: TunedOn | bool | None = True) -> None: ...

        def _undelete(self, step: _Deleted) -> None: ...

        def _delete(self, name: str, steps: list[_Step]) -> None: ...

        def clear_baseline(self) -> None: ...

    @property
    def undo_name(self) -> str:
        """What Undo would take back, where it is more than values: "switch to 'NAME'",
        "delete 'NAME'"."""
        return _step_name(self._history.undo[-1] if self._history.undo else None)

    @property
    def redo_name(self) -> str:
        return _step_name(self._history.redo[-1] if self._history.redo else None)

    @property
    def can_undo(self) -> bool:
        return bool(self._history.undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._history.redo)

    def undo(self) -> None:
        if self._history.undo:
            step = self._history.undo.pop()
            if isinstance(step, _Switch):
                self._switch_step(step, undoing=True)
                return
            if isinstance(step, _Deleted):
                self._undelete(step)
                return
            if isinstance(step, _Saved):  # renamed or replaced since: nothing to take back
                if self.configurations.find_saved(step.saved):
                    self._history.redo.append(step)
                    if self.baseline is not None and self.baseline.name == step.saved.name:
                        self.clear_baseline()
                    self.configurations.remove(step.saved.name)
                return
            if isinstance(step, _Replaced):  # renamed or changed since: nothing to take back
                if self.configurations.swap(step.new, step.old):
                    self._history.redo.append(step)
                return
            self._history.redo.append((dict(self.params), self.tuned_on))
            self.set_params(step[0], record=False, tuned_on=step[1])

    def redo(self) -> None:
        if self._history.redo:
            step = self._history.redo.pop()
            if isinstance(step, _Switch):
                self._switch_step(step, undoing=False)
                return
            if isinstance(step, _Deleted):
                # renamed or replaced since it came back: nothing of it to delete
                if self.configurations.find_saved(step.saved):
                    self._delete(step.saved.name, self._history.undo)
                return
            if isinstance(step, _Saved):  # back, under a free name where one took its own
                saved = step.saved
                if saved.name in self.configurations:
                    saved = replace(saved, name=self.configurations.unique_name(saved.name))
                self._history.undo.append(_Saved(saved))
                self.configurations.insert(len(self.configurations), saved)
                return
            if isinstance(step, _Replaced):
                if self.configurations.swap(step.old, step.new):
                    self._history.undo.append(step)
                return
            self._history.undo.append((dict(self.params), self.tuned_on))
            self.set_params(step[0], record=False, tuned_on=step[1])
