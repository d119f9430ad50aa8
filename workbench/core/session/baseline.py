"""The pinned baseline: pinned, computed for a saved configuration, recomputed on new data
or a new k, and compared with the live result over the queries it may count."""

from __future__ import annotations

from workbench.core import engine
from workbench.core.configurations import SavedConfiguration
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.metrics import PairedTest, paired_test
from workbench.core.models import get_model
from workbench.core.pipeline import Result, rescored, run_live
from workbench.core.session.records import Baseline
from workbench.core.session.state import SessionState
from workbench.core.session_work import ComputeRequest, compute
from workbench.core.tuned_on import HeldOut, held_out_of


class BaselineMixin(SessionState):
    """The baseline and the comparison with it."""

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
