"""The session's fields, their events and the figures they imply, which each part of
`TuningSession` (a mixin a module) declares itself on, so mypy sees one set of attributes."""

from __future__ import annotations

from typing import Any

from workbench.core.configurations import Configurations
from workbench.core.data import DEFAULT_SPLIT, Dataset, Query
from workbench.core.engine import Model
from workbench.core.events import Event
from workbench.core.metrics import Judgments
from workbench.core.params import Params
from workbench.core.pipeline import Result
from workbench.core.session.records import Baseline, _History, _Visit
from workbench.core.tuned_on import HeldOut, TunedOn


class SessionState:
    """The fields every part of the session reads, and what they show."""

    def __init__(self, *, k: int = 10) -> None:
        self.dataset: Dataset | None = None
        self.source: str | None = None
        # query and judgment files given apart from the dataset (None: its own)
        self.queries_file: str | None = None
        self.qrels_file: str | None = None
        self.split = DEFAULT_SPLIT  # the BEIR / OpenVault split read
        self.model: Model | None = None
        self.params: Params = {}
        # the queries the live values were tuned on (Tune's Apply best, or a configuration
        # tune saved); kept while the sliders move on from them, since values near tuned ones
        # still score their training queries well
        self.tuned_on: TunedOn | None = None
        self._held_out: tuple[tuple[object, ...], HeldOut] | None = None
        self.prepared: Any = None
        self.prepared_params: Params | None = None
        self.judgments: Judgments | None = None
        self.result: Result | None = None
        self.last_seconds = 0.0
        self.baseline: Baseline | None = None
        self.configurations = Configurations()  # named model + values; the baseline is one
        self.query = 0
        self.docs: tuple[int, ...] = ()
        self.typed: list[Query] = []  # the queries typed into this dataset (add_query)
        self.k = k
        self.study_storage = ""  # where the Tune panel keeps its studies ("" = cache folder)
        self._generation = 0
        self._prepare_generation = 0
        # counts the datasets opened (`set_dataset`), not the queries typed into one
        # (`add_query`), which announce dataset_changed too: what is held for the data opened
        # (an unapplied prepare edit, the values as opened) goes only with the first
        self.opened = 0
        self.resumed = False  # the dataset opened last came back as it was left (`resume`)
        self._history = _History()
        # each model left on this dataset: its values, undo steps and tuned-on record
        self._left: dict[str, tuple[Params, _History, TunedOn | None]] = {}
        # each dataset left for another (`leave_dataset`), by the path it was read from
        self._visited: dict[str, _Visit] = {}
        self.resume_lost = ""  # what a dataset resumed could not get back (its baseline)
        # a baseline to recompute on the new query set once it is prepared (add_query)
        self._rebase: tuple[str, Params, str] | None = None
        self.dataset_changed = Event("dataset_changed")
        self.model_changed = Event("model_changed")
        self.params_changed = Event("params_changed")  # (name or None for many)
        self.prepare_needed = Event("prepare_needed")
        self.result_changed = Event("result_changed")
        self.baseline_changed = Event("baseline_changed")
        self.query_changed = Event("query_changed")
        self.docs_changed = Event("docs_changed")
        self.k_changed = Event("k_changed")

    @property
    def metric_names(self) -> tuple[str, ...]:
        k = self.k
        return (f"ndcg@{k}", f"mrr@{k}", f"p@{k}", f"r@{k}", "r@100")

    @property
    def depth(self) -> int:
        return max(100, self.k)

    @property
    def needs_prepare(self) -> bool:
        if self.model is None or self.dataset is None:
            return False
        if self.prepared is None or self.prepared_params is None:
            return True
        schema = self.model.schema
        return schema.prepare_values(self.params) != schema.prepare_values(self.prepared_params)
