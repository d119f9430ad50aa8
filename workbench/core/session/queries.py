"""The query set as the user changes it: queries typed and removed, and the query and
documents selected."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from workbench.core.data import Query, QuerySet
from workbench.core.metrics import Judgments
from workbench.core.session.state import SessionState

# what a query's context says about its answers, not its situation: not copied to a typed query
_JUDGMENT_KEYS = frozenset(("files", "commit", "expected_top_ids", "must_not_include"))


class QueryMixin(SessionState):
    """Queries typed into the open dataset, and the selection."""

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
