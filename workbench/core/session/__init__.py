"""The tuning session: the one object between the core and every face.

It holds the dataset, the model, the parameters (with undo and redo; a configuration deleted
is a step too), the prepared arrays, the latest result, the named configurations and the
pinned baseline (one of them), and the selection, and announces each change with an `Event`
(`dataset_changed`, `params_changed`, `result_changed`, …). Widgets subscribe and update
themselves; they never reach into each other.

Work is request → result: `request()` captures an immutable `ComputeRequest` with a generation
number on the caller's thread, `compute(request)` may run on a worker, and `apply(result)` takes
it only if it is still the newest (stale results are dropped). Prepare-stage changes go the same
way through `prepare_request()` / `run_prepare()` / `apply_prepared()`, with progress and cancel.
`recompute()` does all of it inline (the CLI, tests, and the window's synchronous mode). The
requests, results and the functions a worker runs are in `session_work`.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.core import engine
from workbench.core.comparison import Configuration
from workbench.core.configurations import Configurations, SavedConfiguration
from workbench.core.data import DEFAULT_SPLIT, Dataset, Query, QuerySet
from workbench.core.engine import NO_PROGRESS, Model, Progress
from workbench.core.events import Event
from workbench.core.metrics import Judgments, PairedTest, paired_test
from workbench.core.models import get_model, model_ids
from workbench.core.params import ParamError, Params
from workbench.core.pipeline import Result, rescored, run_live
from workbench.core.session.records import (
    Baseline,
    _Deleted,
    _History,
    _Replaced,
    _Saved,
    _Step,
    _step_name,
    _Switch,
    _Visit,
)
from workbench.core.session_file import load_session, session_dict, write_session_file
from workbench.core.session_work import (
    ComputeRequest,
    ComputeResult,
    PrepareRequest,
    PrepareResult,
    compute,
    run_prepare,
)
from workbench.core.tuned_on import HeldOut, TunedOn, held_out_of

# what a query's context says about its answers, not its situation: not copied to a typed query
_JUDGMENT_KEYS = frozenset(("files", "commit", "expected_top_ids", "must_not_include"))

__all__ = ["Baseline", "TuningSession", "compute"]


class TuningSession:
    """Dataset, model, parameters, baseline and selection, each announcing its changes."""

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

    # -- what is shown --------------------------------------------------------------------

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

    # -- changing it ----------------------------------------------------------------------

    def open(self, path: str | Path, *, queries: str | Path | None = None,
             qrels: str | Path | None = None, split: str = DEFAULT_SPLIT) -> None:
        """Load a dataset from disk, with its queries (or tasks) and judgments from these
        files when given (a BEIR or OpenVault folder's from `split`). On bad input raises
        FormatError and keeps the previous dataset, model and results untouched."""
        from workbench.core.formats import load_dataset

        # raises before any change
        dataset = load_dataset(path, queries=queries, qrels=qrels, split=split)
        self.set_dataset(dataset, str(path), queries=None if queries is None else str(queries),
                         qrels=None if qrels is None else str(qrels), split=split)

    def set_dataset(self, dataset: Dataset, source: str | None = None, *,
                    queries: str | None = None, qrels: str | None = None,
                    split: str = DEFAULT_SPLIT, typed: Sequence[str] = (),
                    reloaded: bool = False, resume: bool = False) -> None:
        """`source`: the path it was read from; `queries`, `qrels`: the query (or task) and
        judgment files read with it, when they were given apart from it; `split`: the split
        of a BEIR or OpenVault folder it was read at; `typed`: the ids of its queries that
        were typed (`add_query`), not read (a session file's). `reloaded`: the same data read
        again from disk (File ▸ Reload dataset), so what belongs to the session stays: the
        undo steps, the tuned-on record, the typed queries (appended again), the query shown
        (by id, where it still exists) and the baseline, computed again on the new data once
        the live result is (where it prepares alike, as after `add_query`). `resume`: a
        dataset left earlier (`leave_dataset`) comes back with its model, values, undo steps
        and baseline (computed again, where it prepares alike)."""
        self.configurations.dataset = dataset.name  # what a configuration is made on now
        if reloaded and self.dataset is not None:
            shown = (self.dataset.queries[self.query].id if len(self.dataset.queries)
                     else None)
            again = [q for q in self.typed if q.id not in dataset.queries.index]
            if again:
                dataset = replace(dataset, queries=QuerySet([*dataset.queries, *again],
                                                            name=dataset.queries.name))
            b = self.baseline
            rebase = ((b.model_id, dict(b.params), b.name) if b is not None
                      and self.model is not None and b.model_id == self.model.id else None)
            self._reload(dataset, source, queries, qrels, split, shown, rebase)
            return
        # what it was left with goes whether or not it comes back: opened anew, it is new
        visit = self._visited.pop(source, None) if source is not None else None
        if not resume:
            visit = None
        if visit is not None:  # the model first, as the window sets it before the dataset
            self.set_model(visit.model_id, visit.params)
        self.dataset = dataset
        self.source = source
        self.queries_file, self.qrels_file = queries, qrels
        self.split = split
        self.judgments = (Judgments.build(dataset.qrels, dataset.queries.ids, dataset.corpus.index)
                          if dataset.qrels else None)
        self.prepared = self.prepared_params = self.result = None
        self._generation += 1  # a result still computing for the old dataset is now stale
        self._prepare_generation += 1
        self.baseline = None
        self._rebase = None
        self.query, self.docs = 0, ()
        self._history = _History()
        self._left = {}
        self.tuned_on = None
        self.typed = [q for q in dataset.queries if q.id in typed]
        if visit is not None:
            self._resume(visit)
        self.resumed = visit is not None
        self.opened += 1
        self.dataset_changed.emit(dataset)
        self.baseline_changed.emit(None)
        self.query_changed.emit(0)
        self.prepare_needed.emit()

    def leave_dataset(self) -> None:
        """Keep what the open dataset has — its model, values, undo steps, the values each
        model was left with and the pinned baseline's name — for when it is opened again in
        this session (`set_dataset(resume=True)`; `visited` says whether it was)."""
        if self.dataset is None or self.source is None or self.model is None:
            return
        base = self.baseline.name if self.baseline is not None else None
        self._visited[self.source] = _Visit(self.model.id, dict(self.params), self._history,
                                            self.tuned_on, dict(self._left), base)

    def baseline_to_restore(self) -> str | None:
        """The name of the baseline to compute again with the next result (after a reload,
        a query typed or a dataset resumed), if any."""
        return self._rebase[2] if self._rebase is not None else None

    def visited(self, source: str) -> bool:
        """Whether the dataset read from `source` was left earlier in this session."""
        return source in self._visited

    def _resume(self, visit: _Visit) -> None:
        """`set_dataset(resume=True)`'s return to a dataset left before: its undo steps, the
        values each model was left with, and its baseline, computed again with the first
        result where it prepares alike (as after `add_query`; else it stays cleared)."""
        self._history, self.tuned_on, self._left = visit.history, visit.tuned_on, \
            dict(visit.left)
        self.resume_lost = ""
        if visit.baseline is None:
            return
        if visit.baseline not in self.configurations:
            self.resume_lost = (f"its baseline \u201c{visit.baseline}\u201d is gone (deleted "
                                "or renamed meanwhile)")
            return
        saved = self.configurations.get(visit.baseline)
        if saved.model_id == visit.model_id:
            self._rebase = (saved.model_id, dict(saved.params), saved.name)
        else:  # another model's: not computed again here; said (it had gone without a word)
            self.resume_lost = (f"its baseline \u201c{saved.name}\u201d ({saved.model_id}) "
                                f"is another model's than {visit.model_id}: pin it again "
                                "from Configurations ▸ Use as baseline")

    def _reload(self, dataset: Dataset, source: str | None, queries: str | None,
                qrels: str | None, split: str, shown: str | None,
                rebase: tuple[str, dict[str, Any], str] | None) -> None:
        """`set_dataset(reloaded=True)`'s swap: the data and its judgments new, the results
        and prepared state gone, the session's own state kept (`opened` too: the values
        held for the data opened stay held)."""
        self.dataset, self.source = dataset, source
        self.queries_file, self.qrels_file, self.split = queries, qrels, split
        self.judgments = (Judgments.build(dataset.qrels, dataset.queries.ids, dataset.corpus.index)
                          if dataset.qrels else None)
        self.prepared = self.prepared_params = self.result = None
        self._generation += 1
        self._prepare_generation += 1
        self.baseline, self._rebase = None, rebase
        self.query = int(dataset.queries.index.get(shown, 0)) if shown is not None else 0
        self.docs = ()
        self.dataset_changed.emit(dataset)
        self.baseline_changed.emit(None)
        self.query_changed.emit(self.query)
        self.prepare_needed.emit()

    def add_query(self, text: str) -> int:
        """A query typed by the user, appended to the query set (unjudged) and selected; its
        context (cwd, clock, a fixture case's own corpus …) is the selected query's, so it
        asks the same situation a new question. Queries are prepared, so the model prepares
        again; a pinned baseline is recomputed at its parameters on the new query set (when
        they prepare alike; else it is cleared), so comparisons stay row for row."""
        text = text.strip()
        if self.dataset is None or not text:
            raise ValueError("open a dataset and type a query first")
        again = self.typed_index(text)
        if again is not None:  # typed before: that one selected, not a second copy
            self.select_query(again)
            return again
        ds = self.dataset
        taken = set(ds.queries.ids)
        n = 1
        while f"typed-{n}" in taken:
            n += 1
        context: dict[str, Any] = {}
        if len(ds.queries):
            context = {k: v for k, v in ds.queries[self.query].context.items()
                       if k not in _JUDGMENT_KEYS}
        query = Query(f"typed-{n}", text, context)
        self.typed.append(query)
        self._set_queries([*ds.queries, query], len(ds.queries))
        return self.query

    def typed_index(self, text: str) -> int | None:
        """The index of the query typed with this text (spaces aside), if one was."""
        words = text.split()
        ids = {q.id for q in self.typed if q.text.split() == words}
        if self.dataset is None or not ids:
            return None
        return next(i for i, q in enumerate(self.dataset.queries) if q.id in ids)

    def is_typed(self, index: int) -> bool:
        """Whether the query at `index` was typed (`add_query`), not read with the data."""
        ds = self.dataset
        return ds is not None and 0 <= index < len(ds.queries) and \
            any(q.id == ds.queries[index].id for q in self.typed)

    def remove_query(self, index: int) -> None:
        """A typed query taken out of the set (ValueError for one read with the data); the
        query shown stays (the one before, where it was this one). The model prepares again
        and the baseline is recomputed on the new set, as after `add_query`."""
        if self.dataset is None or not self.is_typed(index):
            raise ValueError("only a query typed in this window can be removed")
        gone = self.dataset.queries[index].id
        self.typed = [q for q in self.typed if q.id != gone]
        shown = self.query - (1 if self.query >= index and self.query > 0 else 0)
        self._set_queries([q for q in self.dataset.queries if q.id != gone], shown)

    def _set_queries(self, queries: list[Query], shown: int) -> None:
        """The query set now `queries` (a query typed or removed), `shown` selected."""
        ds = self.dataset
        assert ds is not None
        self.dataset = replace(ds, queries=QuerySet(queries, name=ds.queries.name))
        self.judgments = (Judgments.build(ds.qrels, self.dataset.queries.ids,
                                          ds.corpus.index) if ds.qrels else None)
        self._rebase = None
        if self.baseline is not None and self.model is not None \
                and self.baseline.model_id == self.model.id:
            self._rebase = (self.baseline.model_id, dict(self.baseline.params),
                            self.baseline.name)
        self.prepared = self.prepared_params = self.result = None
        self._generation += 1
        self._prepare_generation += 1
        self.baseline = None
        self.query, self.docs = shown, ()
        self.dataset_changed.emit(self.dataset)
        self.baseline_changed.emit(None)
        self.query_changed.emit(self.query)
        self.prepare_needed.emit()

    def _restore_baseline(self) -> None:
        """After add_query: the baseline's parameters combined on the new query set."""
        if self._rebase is None or self.model is None or self.prepared_params is None:
            return
        model_id, params, name = self._rebase
        self._rebase = None
        schema = self.model.schema
        if model_id != self.model.id or \
                schema.prepare_values(params) != schema.prepare_values(self.prepared_params):
            return  # it would need its own prepare: cleared, as a new dataset clears it
        done = compute(ComputeRequest(0, self.model, self.prepared, params, self.judgments,
                                      self.metric_names, self.depth))
        self.baseline = Baseline(model_id, params, done.result, name)
        self.baseline_changed.emit(self.baseline)

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

    @property
    def undo_name(self) -> str:
        """What Undo would take back, where it is more than values: "switch to 'NAME'",
        "delete 'NAME'"."""
        return _step_name(self._history.undo[-1] if self._history.undo else None)

    @property
    def redo_name(self) -> str:
        return _step_name(self._history.redo[-1] if self._history.redo else None)

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

    def set_k(self, k: int) -> None:
        if k != self.k and k > 0:
            self.k = k
            self._rescore_baseline()
            self.k_changed.emit(k)

    def _rescore_baseline(self) -> None:
        """The pinned baseline's metrics at the new k: read from its ranking when that reaches
        the new depth (k ≤ 100), else computed again at its values."""
        b = self.baseline
        if b is None or self.judgments is None or self.dataset is None:
            return
        if b.result.ranking.docs.shape[1] >= self.depth:
            result = rescored(b.result, self.judgments, self.metric_names)
        else:
            saved = (self.configurations.get(b.name) if b.name in self.configurations
                     else SavedConfiguration(b.name, b.model_id, b.params))
            result = self.result_of(saved)
        self.baseline = Baseline(b.model_id, b.params, result, b.name)
        self.baseline_changed.emit(self.baseline)

    def select_query(self, index: int) -> None:
        if index != self.query:
            self.query = index
            self.docs = ()
            self.query_changed.emit(index)
            self.docs_changed.emit(())

    def select_docs(self, docs: Sequence[int]) -> None:
        picked = tuple(docs)[-2:]
        if picked != self.docs:
            self.docs = picked
            self.docs_changed.emit(picked)

    # -- computing ------------------------------------------------------------------------

    def prepare_request(self) -> PrepareRequest | None:
        if self.model is None or self.dataset is None:
            return None
        self._prepare_generation += 1
        return PrepareRequest(self._prepare_generation, self.model, self.dataset,
                              dict(self.params))

    def apply_prepared(self, done: PrepareResult) -> bool:
        if done.generation != self._prepare_generation:
            return False
        self.prepared, self.prepared_params = done.prepared, done.params
        return True

    @property
    def prepare_generation(self) -> int:
        """The newest preparation asked for (a new dataset or model asks for another)."""
        return self._prepare_generation

    def request(self, *, stale: bool = False) -> ComputeRequest | None:
        """An immutable snapshot to compute, or None when nothing can be computed yet. With
        `stale`, while prepare-stage values wait for their preparation, the live values on
        the previous one (its prepare-stage values): what the window says it shows."""
        if self.model is None or self.dataset is None or self.prepared is None \
                or self.prepared_params is None or (self.needs_prepare and not stale):
            return None
        params = dict(self.params)
        if self.needs_prepare:
            params.update(self.model.schema.prepare_values(self.prepared_params))
        self._generation += 1
        hint = self.result.ranking.pair if self.result is not None else None
        return ComputeRequest(self._generation, self.model, self.prepared, params,
                              self.judgments, self.metric_names, self.depth, hint)

    def apply(self, done: ComputeResult) -> bool:
        """Take a result if it answers the newest request; say whether it was taken."""
        if done.generation != self._generation:
            return False
        self.result, self.last_seconds = done.result, done.seconds
        self.result_changed.emit(done.result)
        if self._rebase is not None:
            self._restore_baseline()
        return True

    def recompute(self, progress: Progress = NO_PROGRESS) -> None:
        """Prepare if needed, then compute and apply, all on this thread."""
        if self.needs_prepare:
            req = self.prepare_request()
            if req is None:
                return
            self.apply_prepared(run_prepare(req, progress))
        request = self.request()
        if request is not None:
            self.apply(compute(request))

    # -- baseline -------------------------------------------------------------------------

    def pin_baseline(self) -> None:
        """The current result as the baseline; the current values become a configuration
        ("baseline", or the saved one they already are)."""
        if self.result is None or self.model is None:
            return
        # the values the result was computed with: while prepare-stage edits wait for their
        # preparation (or after its Cancel), those of the preparation shown, not the edits
        values = dict(self.params)
        if self.needs_prepare and self.prepared_params is not None:
            values.update(self.model.schema.prepare_values(self.prepared_params))
        saved = self.configurations.find(self.model.id, values)
        if saved is None:
            saved = self.configurations.save(self.configurations.unique_name("baseline"),
                                             self.model.id, values,
                                             tuned_on=self.tuned_on)
        self.baseline = Baseline(self.model.id, values, self.result, saved.name)
        self.baseline_changed.emit(self.baseline)

    def set_baseline(self, name: str, progress: Progress = NO_PROGRESS) -> None:
        """A saved configuration as the baseline, computed on the current dataset (on this
        thread: with the current prepared state when it prepares alike, else prepared aside,
        which the prepare cache usually answers)."""
        saved = self.configurations.get(name)
        if self.dataset is None:
            raise ValueError("open a dataset first")
        self.set_baseline_result(saved, self.result_of(saved, progress))

    def set_baseline_result(self, saved: SavedConfiguration, result: Result) -> None:
        """`saved`'s result, computed elsewhere (a worker), as the baseline."""
        self.baseline = Baseline(saved.model_id, dict(saved.params), result, saved.name)
        self.baseline_changed.emit(self.baseline)

    def prepares_alike(self, saved: SavedConfiguration) -> bool:
        """Whether `saved` can combine on the current prepared state (no prepare of its own)."""
        if self.model is None or self.model.id != saved.model_id or \
                self.prepared_params is None:
            return False
        schema = self.model.schema
        return schema.prepare_values(saved.params) == schema.prepare_values(self.prepared_params)

    def result_of(self, saved: SavedConfiguration, progress: Progress = NO_PROGRESS) -> Result:
        """`saved` run on the current dataset, with the same metrics and depth as the live
        result."""
        assert self.dataset is not None
        model = get_model(saved.model_id)
        prepared = self.prepared if self.prepares_alike(saved) else None
        if prepared is None:
            prepared = engine.prepare(model, self.dataset, saved.params, progress)
        return run_live(model, prepared, dict(saved.params), self.judgments,
                        self.metric_names, self.depth)

    def clear_baseline(self) -> None:
        if self.baseline is not None:
            self.baseline = None
            self.baseline_changed.emit(None)

    # -- named configurations -------------------------------------------------------------

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

    def comparison(self, metric: str | None = None) -> PairedTest | None:
        """Baseline against current on one metric (default nDCG@k), over judged queries."""
        if self.baseline is None or self.result is None or self.judgments is None:
            return None
        name = metric or self.metric_names[0]
        a = self.baseline.result.per_query.get(name)
        b = self.result.per_query.get(name)
        if a is None or b is None:
            return None
        held = self.held_out().mask
        mask = self.judgments.judged_mask if held is None else held
        return paired_test(a[mask], b[mask])

    def held_out(self) -> HeldOut:
        """The judged queries the live figures should count: all of them, or, where the live
        values or the baseline's were tuned on some of this dataset's queries, the others
        (`HeldOut.note` says which)."""
        if self.dataset is None or self.judgments is None:
            return HeldOut(None, "", 0)
        base = (self.configurations.get(self.baseline.name) if self.baseline is not None
                and self.baseline.name in self.configurations else None)
        notes = [(n, t) for n, t in (("the live values", self.tuned_on),
                                     (f"the baseline {base.name!r}" if base else "",
                                      base.tuned_on if base else None))
                 if t is not None]
        key = (id(self.dataset), id(self.judgments), *(id(t) for _, t in notes),
               *(n for n, _ in notes))
        if self._held_out is None or self._held_out[0] != key:
            self._held_out = (key, held_out_of(self.dataset, self.judgments.judged_mask, notes))
        return self._held_out[1]

    # -- saving ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return session_dict(self)

    def save(self, path: str | Path) -> None:
        """The session as a file (temporary + rename), its data's paths beneath the file's
        folder also kept relative to it, so a moved project folder opens."""
        write_session_file(self, path)

    def load(self, path: str | Path) -> None:
        """Open a saved session: its dataset, model, parameters, configurations, k, query and
        baseline — all of it or, on any bad field, none of it (FormatError, the session
        untouched)."""
        load_session(self, path)
