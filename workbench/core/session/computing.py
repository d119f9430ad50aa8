"""Work as request → result: the requests a worker runs and the results taken only when
they are still the newest (`session_work` holds the requests and the functions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.session.state import SessionState
from workbench.core.session_work import (
    ComputeRequest,
    ComputeResult,
    PrepareRequest,
    PrepareResult,
    compute,
    run_prepare,
)


class ComputeMixin(SessionState):
    """Prepare and compute, inline or on a worker."""

    if TYPE_CHECKING:  # from the other parts of TuningSession
        def _restore_baseline(self) -> None: ...

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
