"""The model and its parameter values: switching model (each model's values kept to come
back to) and setting, validating and resetting values, each an undo step."""

from __future__ import annotations

from collections.abc import Mapping

from workbench.core.engine import Model
from workbench.core.models import get_model
from workbench.core.params import ParamError, Params
from workbench.core.session.records import _History, _Switch
from workbench.core.session.state import SessionState
from workbench.core.tuned_on import TunedOn


class ValuesMixin(SessionState):
    """The model chosen and its live values."""

    def set_model(self, model_id: str, params: Mapping[str, object] | None = None) -> None:
        """Switch to `model_id` at `params`; with none, at the values (and undo steps) it had
        when the user last left it on this dataset, else its defaults."""
        model = get_model(model_id)
        kept = self._left.get(model_id)
        # resolved before anything changes: bad values leave the session and what it
        # remembers of each model as they were
        if params is None and kept is not None:
            resolved, history, tuned = model.schema.resolve(kept[0]), kept[1], kept[2]
        else:
            resolved, history, tuned = model.schema.resolve(params), _History(), None
        self._switch(model, resolved, history, tuned)

    def switch_model(self, model_id: str) -> None:
        """`set_model(model_id)` as one undo step (the Model menu): Undo goes back to the model
        left, as it was, as after a switch to another model's configuration; its values and
        undo steps there are kept for when it is chosen again. Ctrl+Z had stopped at the
        switch (review r49, rg 7)."""
        if self.model is None or self.model.id == model_id:
            self.set_model(model_id)
            return
        model = get_model(model_id)
        kept = self._left.get(model_id)
        if kept is not None:  # a copy: the model as left stays as left, for Undo to put back
            params, tuned = model.schema.resolve(kept[0]), kept[2]
            history = _History(undo=list(kept[1].undo), redo=list(kept[1].redo))
        else:
            params, history, tuned = model.schema.resolve(None), _History(), None
        history.undo.append(_Switch(self.model.id, model_id, before=kept, of_model=True))
        history.redo.clear()
        self._switch(model, params, history, tuned)

    def _switch(self, model: Model, params: Params, history: _History,
                tuned: TunedOn | None) -> None:
        """The model, its values, undo steps and tuned-on record set; the model left kept
        as it is, to come back to."""
        if self.model is not None:
            self._left[self.model.id] = (dict(self.params), self._history, self.tuned_on)
        self._left.pop(model.id, None)
        self.model = model
        self.params = params
        self.prepared = self.prepared_params = self.result = None
        self._generation += 1  # a result still computing for the old model is now stale
        self._prepare_generation += 1
        self._history = history
        self.tuned_on = tuned
        self.model_changed.emit(model)
        # the last model's rankings and figures are no longer shown as this one's
        self.result_changed.emit(None)
        self.params_changed.emit(None)
        self.prepare_needed.emit()

    def _switch_step(self, step: _Switch, *, undoing: bool) -> None:
        """Undo or redo a `_Switch`: Undo back to the model left (as it was left, its redo
        list taking the way forward again), Redo to the configuration's model again."""
        assert self.model is not None
        here = self.model.id
        if undoing:
            forward = _Switch(here, step.name, params=dict(self.params),
                              tuned_on=self.tuned_on, history=self._history,
                              of_model=step.of_model)
            kept = self._left.get(step.model_id)
            model = get_model(step.model_id)
            if kept is not None:
                params, history, tuned = model.schema.resolve(kept[0]), kept[1], kept[2]
            else:
                params, history, tuned = model.schema.resolve(None), _History(), None
            history.redo.append(forward)
            self._switch(model, params, history, tuned)
            # the configuration's model as it had been left before the switch
            if step.before is None:
                self._left.pop(here, None)
            else:
                self._left[here] = step.before
            return
        assert step.params is not None and step.history is not None
        step.history.undo.append(_Switch(here, step.name, before=self._left.get(step.model_id),
                                         of_model=step.of_model))
        self._switch(get_model(step.model_id), dict(step.params), step.history, step.tuned_on)

    def set_param(self, name: str, value: object) -> None:
        self.set_params({name: value})

    def set_params(self, values: Mapping[str, object], *, record: bool = True,
                   tuned_on: TunedOn | bool | None = True) -> None:
        """Validate and apply; raises ParamError and changes nothing on a bad value.
        `tuned_on`: the record of the queries the new values were tuned on, None for values
        that were not, True (a slider) to keep the current one."""
        if self.model is None:
            raise ParamError("choose a model first")
        schema = self.model.schema
        new = dict(self.params)
        for name, value in values.items():
            new[name] = schema[name].validate(value)
        tuned = self.tuned_on if tuned_on is True else tuned_on or None
        if new == self.params and tuned is self.tuned_on:
            return
        if record:
            self._history.undo.append((dict(self.params), self.tuned_on))
            self._history.redo.clear()
        was_stale = self.needs_prepare
        self.params = new
        self.tuned_on = tuned
        changed = [n for n in values if n in new]
        self.params_changed.emit(changed[0] if len(changed) == 1 else None)
        if self.needs_prepare and not was_stale:
            self.prepare_needed.emit()

    def reset_param(self, name: str | None = None) -> None:
        """One parameter (or all, with None) back to its default."""
        if self.model is None:
            return
        defaults = self.model.schema.defaults()
        if name is None:  # every default: no longer values anything was tuned to
            self.set_params(defaults, tuned_on=None)
        else:
            self.set_params({name: defaults[name]})
