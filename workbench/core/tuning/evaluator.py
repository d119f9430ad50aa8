"""A trial is a live tick: parameters in, every objective's per-query values out.

The evaluator holds the prepared state for each distinct set of prepare-stage values a study
has asked for (built once — from the disk cache when it is there — and kept, the newest few in
memory), so that a trial over live parameters costs one combine + rank + metrics, the path a
slider takes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core import engine
from workbench.core.data import Dataset
from workbench.core.diagnostics import counted_queries
from workbench.core.engine import NO_PROGRESS, Model, Progress
from workbench.core.metrics import Judgments
from workbench.core.params import Params, ParamValue
from workbench.core.pipeline import Result, metric_depth, run_live
from workbench.core.selection_figures import FIGURES
from workbench.core.tuning.objectives import ObjectiveContext, per_query, ranking_metrics

KEPT_STATES = 3  # prepared states held in memory (each can be hundreds of MB)


class Evaluator:
    """`model` over `dataset`, the fixed parameters `base`, computing `names` per query."""

    def __init__(self, model: Model, dataset: Dataset, base: Mapping[str, object],
                 names: Sequence[str], *, prepared: Any = None,
                 progress: Progress = NO_PROGRESS) -> None:
        self.model = model
        self.dataset = dataset
        self.base: Params = model.schema.resolve(base)
        self.names = list(dict.fromkeys(names))
        self.judgments = (Judgments.build(dataset.qrels, dataset.queries.ids,
                                          dataset.corpus.index) if dataset.qrels else None)
        # the model's own figures (bundle recall …) come with the metric step: it needs one
        self.metrics = ranking_metrics(self.names) or (["ndcg@10"] if self.judgments else [])
        self.context = ObjectiveContext.build(dataset, self.names)
        case_k = max((k for _, k, _, _ in self.context.case_rows), default=0)
        self.depth = max(metric_depth(self.metrics) if self.metrics else 10, case_k)
        self._states: OrderedDict[str, Any] = OrderedDict()
        self._hints: dict[str, NDArray[np.int64]] = {}
        self._report_contexts: dict[tuple[str, ...], ObjectiveContext] = {}
        self.progress = progress
        if prepared is not None:
            self._states[self._key(self.base)] = prepared

    @property
    def n_queries(self) -> int:
        return len(self.dataset.queries)

    def counted(self) -> NDArray[np.bool_]:
        """Queries that count for the objectives: judged, or eval cases."""
        mask = np.zeros(self.n_queries, bool)
        if self.judgments is not None:
            mask |= self.judgments.judged_mask
        for qi, *_ in self.context.case_rows:
            mask[qi] = True
        return mask

    def params(self, values: Mapping[str, ParamValue]) -> Params:
        return self.model.schema.resolve({**self.base, **values})

    def prepared(self, params: Params) -> Any:
        key = self._key(params)
        state = self._states.get(key)
        if state is None:
            state = engine.prepare(self.model, self.dataset, params, self.progress)
            self._states[key] = state
            while len(self._states) > KEPT_STATES:
                old, _ = self._states.popitem(last=False)
                self._hints.pop(old, None)
        else:
            self._states.move_to_end(key)
        return state

    def run(self, values: Mapping[str, ParamValue]) -> Result:
        """One trial's combine + rank + metrics."""
        params = self.params(values)
        key = self._key(params)
        prepared = self.prepared(params)
        result = run_live(self.model, prepared, params, self.judgments, self.metrics,
                          self.depth, hint=self._hints.get(key))
        self._hints[key] = result.ranking.pair
        return result

    def report(self, values: Mapping[str, ParamValue],
               names: Sequence[str]) -> dict[str, NDArray[np.float64]]:
        """Per-query values of other measures (the closing report's): a separate, deeper run
        than a trial's, not used to tune."""
        params = self.params(values)
        metrics = list(dict.fromkeys([*self.metrics, *ranking_metrics(names)]))
        depth = max(self.depth, metric_depth(metrics) if metrics else 0)
        result = run_live(self.model, self.prepared(params), params, self.judgments, metrics,
                          depth)
        missing = [n for n in names if n not in self.names]
        context = self.context
        if missing:  # what the trials never needed (eval cases, snippet lengths): gathered now
            key = tuple(missing)
            if key not in self._report_contexts:
                self._report_contexts[key] = ObjectiveContext.build(self.dataset, missing)
            extra = self._report_contexts[key]
            context = ObjectiveContext(self.context.n_queries,
                                       self.context.case_rows or extra.case_rows,
                                       self.context.snippet_chars if
                                       self.context.snippet_chars.size else extra.snippet_chars)
        return self._over_turns(params, {n: per_query(n, result, context) for n in names
                                         if n in result.per_query or n not in metrics})

    def evaluate(self, values: Mapping[str, ParamValue]) -> dict[str, NDArray[np.float64]]:
        """Each objective's per-query values, float64 (Q,), NaN where a query does not count."""
        result = self.run(values)
        return self._over_turns(self.params(values),
                                {name: per_query(name, result, self.context)
                                 for name in self.names})

    def _over_turns(self, params: Params, values: dict[str, NDArray[np.float64]]
                    ) -> dict[str, NDArray[np.float64]]:
        """`values` with the selection figures (results, empty, injected_tokens) NaN on the
        queries that are no turn at `params` (`diagnostics.counted_queries`: a manual search
        beside injections, a disabled project's turn), so that every mean over a fold counts
        the turns eval, sweep and why-stats --live count (rv51 3, 6); the relevance metrics
        stay over every judged query."""
        if not any(n in FIGURES for n in values):
            return values
        found = counted_queries(self.model, self.prepared(params), params)
        if found is None:
            return values
        turn = np.asarray(found[0], np.bool_)
        return {n: np.where(turn, v, np.nan) if n in FIGURES else v for n, v in values.items()}

    def _key(self, params: Params) -> str:
        return repr(sorted(self.model.schema.prepare_values(params).items()))
