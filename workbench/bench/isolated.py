"""One model prepared and its live path timed in a child process of its own, so that its peak
memory is its own (the dataset, prepare, then the live path) and a run that would take too
much stops at a cap instead of taking the machine.

The parent sends a JSON request (`python -m workbench.bench.isolated REQUEST`):

    {"dataset": {"synthetic" | "synthetic_memories": [n_docs, n_queries, seed]}
                | {"data": DATA or null},
     "model": id, "params": {...}, "repeats": n, "memory_cap_mb": m}

and reads one JSON line back: prepare_s, live_ms, pairs, rss_dataset_mb (peak before
prepare), rss_prepared_mb (peak once prepared), rss_live_mb (peak after the live runs), or
error. Peaks are the child's own resident high-water mark (`_peak_mb`). The prepare cache is
not used (prepare really runs, and nothing of its size is written). The cap is on address
space (RLIMIT_AS), which is at least the resident size: an allocation past it raises
MemoryError, reported as such; before that, prepare's own memory estimate is held to the cap
($WORKBENCH_MEMORY_LIMIT, unless set already) and refuses with its reason.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

MEMORY_CAP_MB = 6144


@dataclass(frozen=True)
class ChildResult:
    prepare_s: float = float("nan")
    live_ms: float = float("nan")
    pairs: int = 0
    rss_dataset_mb: float = float("nan")
    rss_prepared_mb: float = float("nan")
    rss_live_mb: float = float("nan")
    error: str = ""


def run_isolated(dataset: dict[str, Any], model: str, params: dict[str, object], *,
                 repeats: int, memory_cap_mb: int = MEMORY_CAP_MB,
                 timeout: float = 3600) -> ChildResult:
    """Prepare and time `model` on `dataset` (see the module doc) in a child process."""
    from workbench.core.engine import MEMORY_LIMIT_ENV, available_memory

    users = bool(os.environ.get(MEMORY_LIMIT_ENV, "").strip())
    if users:  # the user's limit is the cap (the hard one too: else it only lifted the estimate)
        memory_cap_mb = int((available_memory() or memory_cap_mb * 2**20) // 2**20)
    request = json.dumps({"dataset": dataset, "model": model, "params": params,
                          "repeats": repeats, "memory_cap_mb": memory_cap_mb,
                          "users_cap": users})
    # prepare's own memory estimate refuses first, with its reason, where it exceeds the cap
    env = {MEMORY_LIMIT_ENV: f"{memory_cap_mb}M", **os.environ}
    try:
        done = subprocess.run([sys.executable, "-m", "workbench.bench.isolated", request],
                              capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return ChildResult(error=f"stopped after {timeout:.0f} s")
    last = done.stdout.strip().splitlines()[-1:] or [""]
    try:
        answer = json.loads(last[0])
    except ValueError:
        tail = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return ChildResult(error=f"child failed: {tail}")
    return ChildResult(**answer)


def _peak_mb() -> float:
    """The process's peak resident set in MB: Linux's VmHWM, which starts afresh at exec.
    (Not ru_maxrss: Linux carries it across fork and exec, so a child would report at least
    the parent's size when it was started.) ru_maxrss where there is no /proc."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _dataset(spec: dict[str, Any]) -> Any:
    if "synthetic_memories" in spec:
        from workbench.bench.synthetic import synthetic_memories

        n_docs, n_queries, seed = spec["synthetic_memories"]
        return synthetic_memories(int(n_docs), int(n_queries), seed=int(seed))
    if "synthetic" in spec:
        from workbench.bench.synthetic import synthetic_dataset

        n_docs, n_queries, seed = spec["synthetic"]
        return synthetic_dataset(int(n_docs), int(n_queries), seed=int(seed))
    from workbench.bench.datasets import load_bench_data

    ds, what = load_bench_data(spec.get("data"))
    if ds is None:
        raise ValueError(what)
    return ds


def child(request: dict[str, Any]) -> dict[str, Any]:
    from workbench.bench.harness import candidate_pairs, time_live
    from workbench.core.engine import MemoryEstimateError
    from workbench.core.models import get_model
    from workbench.core.pipeline import Pipeline

    cap = int(request["memory_cap_mb"]) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    out: dict[str, Any] = {}
    try:
        ds = _dataset(request["dataset"])
        out["rss_dataset_mb"] = _peak_mb()
        t0 = time.perf_counter()
        pipe = Pipeline(get_model(request["model"]), ds, request["params"], use_cache=False)
        out["prepare_s"] = time.perf_counter() - t0
        out["rss_prepared_mb"] = _peak_mb()
        out["live_ms"] = time_live(pipe, int(request["repeats"]))
        out["rss_live_mb"] = _peak_mb()
        try:  # after the peaks are read: a full combine may hold more than a tick does
            out["pairs"] = candidate_pairs(pipe)
        except MemoryError:
            out["pairs"] = len(ds.corpus) * len(ds.queries)  # the most there can be
    except MemoryError:
        out["error"] = f"over the {_cap_text(request)} memory cap"
    except MemoryEstimateError as exc:
        out["error"] = over_cap(str(exc), request)
    return out


def over_cap(message: str, request: dict[str, Any]) -> str:
    """prepare's refusal in a timed child: against the bench's own cap (not the machine's
    memory, which prepare's words name) unless the user's $WORKBENCH_MEMORY_LIMIT set it."""
    from workbench.core.engine import MEMORY_LIMIT_ENV

    if request.get("users_cap") or " of memory and " not in message:
        return message
    need = message.split(" of memory and ", 1)[0]
    return (f"{need}, over the bench's own {_cap_text(request)} cap on each timed child "
            "process; not timed. Not this machine's memory: eval and the window use what is "
            f"free (${MEMORY_LIMIT_ENV}=SIZE sets the bench's cap)")


def _cap_text(request: dict[str, Any]) -> str:
    return f"{request['memory_cap_mb'] / 1024:.1f} GiB"


if __name__ == "__main__":
    print(json.dumps(child(json.loads(sys.argv[1]))), flush=True)
