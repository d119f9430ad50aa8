"""Opening, reloading, leaving and coming back to a dataset: what the session keeps of
each and what goes when the data changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.core.data import DEFAULT_SPLIT, Dataset, QuerySet
from workbench.core.metrics import Judgments
from workbench.core.session.records import _History, _Visit
from workbench.core.session.state import SessionState


class DatasetMixin(SessionState):
    """The dataset opened, read again, left and resumed."""

    if TYPE_CHECKING:  # from the other parts of TuningSession
        def set_model(self, model_id: str,
                      params: Mapping[str, object] | None = None) -> None: ...

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
