"""tune's helper processes (--workers): started, stopped, and ending with the run that
started them."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

PARENT_ENV = "WORKBENCH_TUNE_PARENT"  # a helper's run's pid


def _end_with_parent(poll_s: float = 1.0) -> None:
    """A helper whose run was killed (SIGKILL: no chance to stop it) ends as on Ctrl-C —
    its trials stored — once its parent is gone, instead of tuning on, unseen, to the whole
    budget while the next run is refused as "being tuned by another". A daemon thread
    watches the parent's pid (the process is re-parented when it dies)."""
    import os
    import signal
    import threading
    import time

    # the pid of the run that started it, from its environment: a parent dead before this
    # line ran has left the helper re-parented already, and getppid() would name the new one
    named = os.environ.get(PARENT_ENV, "")
    parent = int(named) if named.isdigit() else os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_s)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _start_workers(args: argparse.Namespace, spec: Any, evaluator: Any,
                   validation: Any) -> list[subprocess.Popen[bytes]]:
    """N − 1 more processes on the same studies (each prepares from the warm cache)."""
    if args.workers <= 1:
        return []
    from workbench.core.tuning.runner import study_name

    base = study_name(spec, evaluator, validation)
    argv = [a for a in args.argv if a != "--fresh"]
    helpers = []
    for i in range(1, args.workers):
        cmd = [sys.executable, "-m", "workbench.cli", *argv, "--worker-index", str(i),
               "--study", base]
        helpers.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                        env={**os.environ, PARENT_ENV: str(os.getpid())}))
    return helpers


def _stop_workers(helpers: list[subprocess.Popen[bytes]], grace_s: float = 30.0) -> None:
    """Interrupt the helpers of a run that stopped (a SIGTERM reaches this process only, not
    its process group as Ctrl-C does): they store the trials done and end, instead of tuning
    on to the budget; one that has not ended after `grace_s` is killed."""
    for h in helpers:
        if h.poll() is None:
            h.terminate()  # SIGTERM: the helper's command ends as on Ctrl-C
    for h in helpers:
        try:
            h.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            h.kill()
