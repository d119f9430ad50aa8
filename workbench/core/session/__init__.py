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

from workbench.core.session.records import Baseline
from workbench.core.session.tuning_session import TuningSession
from workbench.core.session_work import compute

__all__ = ["Baseline", "TuningSession", "compute"]
