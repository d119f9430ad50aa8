"""What the session keeps besides its live state: the pinned baseline, the undo and redo
steps, and a dataset left for another (kept as data so Undo and a revisit replay them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from workbench.core.configurations import SavedConfiguration
from workbench.core.params import Params
from workbench.core.pipeline import Result
from workbench.core.tuned_on import TunedOn


@dataclass(frozen=True)
class Baseline:
    """A pinned result to compare against: its model, parameters and outcome, and the name
    of the configuration it is."""

    model_id: str
    params: Params
    result: Result
    name: str = "baseline"


@dataclass
class _History:
    # each step: the values and the record of the queries they were tuned on (or None), a
    # step across models (`_Switch`), or a configuration deleted (`_Deleted`)
    undo: list[_Step] = field(default_factory=list)
    redo: list[_Step] = field(default_factory=list)


@dataclass
class _Switch:
    """A step across models ("Switch sliders to" another model's configuration). On the undo
    list of the model switched to: back to `model_id` as it was left, and the model switched
    to as it had been left before (`before`). On the redo list of the model switched from:
    to `model_id` at `params` again, with its undo steps (`history`). Undo had gone to the
    values the other model was left with, or, where they were the configuration's, to an
    older step of that model, and never back to the model the user was on."""

    model_id: str
    name: str  # the configuration switched to
    before: tuple[Params, _History, TunedOn | None] | None = None
    params: Params | None = None
    tuned_on: TunedOn | None = None
    history: _History | None = None
    of_model: bool = False  # a model chosen (Model menu, `switch_model`), not a configuration


@dataclass(frozen=True)
class _Deleted:
    """A configuration deleted (`remove_configuration`): Undo puts it back where it was in
    the list, its tuning record and dataset with it, pinned again where it was the baseline;
    Redo deletes it again. A pinned result comes back as it was while the data and k are the
    ones it was pinned on (`dataset`, `k`); on other data it comes back unpinned."""

    saved: SavedConfiguration
    index: int
    baseline: Baseline | None
    # the Dataset open when it was deleted (weakly: a step kept on a dataset's visit does not
    # keep the corpus it replaced in memory)
    dataset: Callable[[], object] | None
    k: int


@dataclass(frozen=True)
class _Saved:
    """A configuration a tuning run saved (`save_run_configuration`): Undo deletes it, Redo
    puts it back (dr3 9: a kept start's automatic save could not be undone)."""

    saved: SavedConfiguration


@dataclass(frozen=True)
class _Replaced:
    """A saved configuration's record brought up to date by a tuning run that kept it
    (`replace_run_configuration`): Undo puts `old` back, Redo `new` (r51 dr3 1: the rerun had
    swapped the record outside the history, and Undo then named a save it could not take back).
    """

    old: SavedConfiguration
    new: SavedConfiguration


_Step = tuple[Params, TunedOn | None] | _Switch | _Deleted | _Saved | _Replaced


@dataclass
class _Visit:
    """A dataset left for another in this session, as it was: opened again, it comes back so
    (its values and undo steps had been dropped, and the next dataset had taken its values)."""

    model_id: str
    params: Params
    history: _History
    tuned_on: TunedOn | None
    left: dict[str, tuple[Params, _History, TunedOn | None]]  # the other models' (`_left`)
    baseline: str | None  # the name of the configuration pinned as the baseline


def _step_name(step: _Step | None) -> str:
    if isinstance(step, _Switch):
        return (f"switch to model {step.name}" if step.of_model else
                f"switch to \u201c{step.name}\u201d")
    if isinstance(step, _Deleted):
        return f"delete \u201c{step.saved.name}\u201d"
    if isinstance(step, _Saved):
        return f"save \u201c{step.saved.name}\u201d"
    if isinstance(step, _Replaced):
        return f"rerun record of \u201c{step.new.name}\u201d"
    return ""

