"""The named configurations through the session: saved, applied, renamed and deleted as
undo steps, and those the compare view and the report put side by side."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from workbench.core.comparison import Configuration
from workbench.core.configurations import SavedConfiguration
from workbench.core.engine import Model
from workbench.core.models import get_model, model_ids
from workbench.core.params import Params
from workbench.core.session.records import (
    Baseline,
    _Deleted,
    _History,
    _Replaced,
    _Saved,
    _Step,
    _Switch,
)
from workbench.core.session.state import SessionState
from workbench.core.tuned_on import TunedOn


class ConfigurationsMixin(SessionState):
    """Saved configurations, each change an undo step."""

    if TYPE_CHECKING:  # from the other parts of TuningSession
        def set_model(self, model_id: str,
                      params: Mapping[str, object] | None = None) -> None: ...

        def _switch(self, model: Model, params: Params, history: _History,
                    tuned: TunedOn | None) -> None: ...

        def set_params(self, values: Mapping[str, object], *, record: bool = True,
                       tuned_on: TunedOn | bool | None = True) -> None: ...

        def clear_baseline(self) -> None: ...

        def _rescore_baseline(self) -> None: ...

    def save_configuration(self, name: str, *, replace: bool = False) -> SavedConfiguration:
        """The current model and values under `name` (ValueError when taken, unless
        `replace`)."""
        if self.model is None:
            raise ValueError("choose a model first")
        return self.configurations.save(name, self.model.id, self.params, replace=replace,
                                        tuned_on=self.tuned_on)

    def save_run_configuration(self, name: str, model_id: str, params: Params,
                               tuned_on: TunedOn | None) -> SavedConfiguration:
        """A tuning run's values saved under `name`, one undo step: Edit ▸ Undo deletes it
        (dr3 9: the Tune tab's automatic save could not be undone, and Undo took back the
        slider move before it)."""
        resolved = get_model(model_id).schema.resolve(params)
        step = _Saved(SavedConfiguration(name, model_id, resolved, tuned_on,
                                         self.configurations.dataset))
        # kept before the save, whose event finds Edit ▸ Undo naming it
        self._history.redo.clear()
        self._history.undo.append(step)
        try:
            saved = self.configurations.save(name, model_id, params, tuned_on=tuned_on)
        except Exception:  # a taken name, a bad value: no step kept either
            self._history.undo.remove(step)
            raise
        if saved != step.saved:  # as `save` made it (a value resolved otherwise)
            self._history.undo[self._history.undo.index(step)] = _Saved(saved)
        return saved

    def replace_run_configuration(self, saved: SavedConfiguration,
                                  tuned_on: TunedOn) -> SavedConfiguration:
        """`saved` (a configuration a tuning run kept as it is) with the run's `tuned_on`
        record, in place, one undo step: Edit ▸ Undo puts the record before it back (r51 dr3 1).
        """
        new = replace(saved, tuned_on=tuned_on)
        step = _Replaced(saved, new)
        self._history.redo.clear()
        self._history.undo.append(step)  # before the swap, whose event finds Undo naming it
        if not self.configurations.swap(saved, new):
            self._history.undo.remove(step)
            raise ValueError(f"the configuration {saved.name!r} changed before the run saved")
        return new

    def apply_configuration(self, name: str) -> None:
        """The live sliders (and model) set to a saved configuration, one undo step: on
        another model, Undo goes back to the model the user was on, as it was (`_Switch`);
        the values and undo steps the configuration's model was left with are kept for when
        it is chosen again (Model menu)."""
        saved = self.configurations.get(name)
        self.configurations.used(name)  # Export current names it among others alike (rt 3)
        if self.model is None:
            self.set_model(saved.model_id, saved.params)
            self.tuned_on = saved.tuned_on
        elif self.model.id != saved.model_id:
            model = get_model(saved.model_id)
            params = model.schema.resolve(saved.params)  # before anything changes
            history = _History(undo=[_Switch(self.model.id, name,
                                             before=self._left.get(saved.model_id))])
            self._switch(model, params, history, saved.tuned_on)
        else:
            self.set_params(saved.params, tuned_on=saved.tuned_on)

    def rename_configuration(self, old: str, new: str) -> None:
        renamed = self.configurations.rename(old, new)
        if self.baseline is not None and self.baseline.name == old:
            b = self.baseline
            self.baseline = Baseline(b.model_id, b.params, b.result, renamed.name)
            self.baseline_changed.emit(self.baseline)

    def remove_configuration(self, name: str) -> None:
        """Delete a configuration, one undo step (Undo puts it back with its tuning record,
        pinned again where it was the baseline); deleting the baseline's clears the baseline."""
        self.configurations.get(name)  # KeyError before any step is kept
        self._history.redo.clear()
        self._delete(name, self._history.undo)

    def _delete(self, name: str, steps: list[_Step]) -> None:
        """`name` deleted, the step that puts it back kept on `steps` first (the events of
        the deletion find Edit ▸ Undo naming it)."""
        saved = self.configurations.get(name)
        pinned = self.baseline if self.baseline is not None and self.baseline.name == name \
            else None
        data = weakref.ref(self.dataset) if self.dataset is not None else None
        steps.append(_Deleted(saved, self.configurations.names.index(name), pinned, data,
                              self.k))
        self.configurations.remove(name)
        if pinned is not None:
            self.clear_baseline()

    def _undelete(self, step: _Deleted) -> None:
        """`step`'s configuration back in its place (under a free name where one saved since
        took its own), pinned again where it was the baseline and none is pinned now; the
        step that deletes it again kept on the redo list first."""
        saved = step.saved
        if saved.name in self.configurations:
            saved = replace(saved, name=self.configurations.unique_name(saved.name))
        self._history.redo.append(replace(step, saved=saved))
        self.configurations.insert(step.index, saved)
        b = step.baseline
        if b is not None and self.baseline is None and step.dataset is not None \
                and step.dataset() is self.dataset:
            self.baseline = Baseline(b.model_id, b.params, b.result, saved.name)
            if self.k != step.k:  # its metrics at the k of now (`set_k` had rescored it)
                self._rescore_baseline()
            else:
                self.baseline_changed.emit(self.baseline)

    def comparable(self) -> list[Configuration]:
        """What the compare view and the report can put side by side: the baseline's first,
        whatever its model (everything is compared against it), then the configurations of
        the current model, then those of other models made on this dataset (each compared
        with its own model: bm25 against codeledger). Each carries its model."""
        if self.model is None:
            return []
        mine = [c for c in self.configurations if c.model_id == self.model.id]
        here = self.configurations.dataset
        others = [c for c in self.configurations if c.model_id != self.model.id
                  and here and c.dataset == here and c.model_id in model_ids()]
        base = self.baseline.name if self.baseline is not None else None
        # stable: the rest keep their order (a baseline pinned on bm25 had stayed among the
        # others, the view comparing against the first of the current model's)
        shown = sorted([*mine, *others], key=lambda c: c.name != base)
        return [c.as_configuration() for c in shown]
