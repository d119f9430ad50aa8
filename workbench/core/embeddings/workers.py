"""`Workers`: a device and a number of processes to encode on, each sentence-transformers
model with one multi-process pool kept across calls and stopped cleanly."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.embeddings.devices import DEVICES, cpu_cores, resolve_device, worker_count
from workbench.core.embeddings.models import EmbeddingError, Encoder
from workbench.core.embeddings.sentence import SentenceTransformerEncoder, _longest_first
from workbench.core.engine import NO_PROGRESS, Progress


class Workers:
    """Where `embed_texts` encodes: a device ('auto': CUDA when torch sees a GPU, else the CPU)
    and a number of worker processes (0: one per CPU core, one per GPU on CUDA).

    Used as a context manager around `embed_texts(..., workers=...)` calls. With more than one
    process each sentence-transformers model gets one multi-process pool, started when texts
    first need encoding (never when every text is cached) and kept for the calls that follow;
    leaving the block stops it, on an error or a cancel too. The vectors are those of one
    process (float32, unit rows, equal to ~1e-7), cached under the same keys. An encoder that
    is not a sentence-transformers model encodes as it always does, in this process."""

    def __init__(self, device: str = "auto", processes: int = 1) -> None:
        if device not in DEVICES:
            raise EmbeddingError(f"device {device!r}: expected one of {', '.join(DEVICES)}")
        if processes < 0:
            raise EmbeddingError(f"processes must be 0 (one per core) or more, got {processes}")
        self.device = device
        self.processes = processes
        self._placed: dict[int, _Placed] = {}

    @cached_property
    def device_used(self) -> str:
        """The device resolved: 'cpu' or 'cuda' (imports torch unless the CPU was asked for)."""
        return resolve_device(self.device)

    @cached_property
    def processes_used(self) -> int:
        """The number of worker processes, 0 resolved."""
        return worker_count(self.processes, self.device_used)

    def encoder(self, encoder: Encoder) -> Encoder:
        """`encoder` on these workers: the same name, identity and dimension."""
        if not isinstance(encoder, SentenceTransformerEncoder):
            if self.processes != 1:
                raise EmbeddingError(f"encoder {encoder.name}: encodes in this process only "
                                     "(worker processes need a sentence-transformers model)")
            return encoder
        placed = self._placed.get(id(encoder))
        if placed is None:
            placed = _Placed(encoder, self.device_used, self.processes_used)
            self._placed[id(encoder)] = placed
        return placed

    def close(self) -> None:
        """Stop every pool started (each one even when stopping another fails)."""
        placed, self._placed = list(self._placed.values()), {}
        with ExitStack() as stack:
            for p in placed:
                stack.callback(p.close)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class _Placed:
    """A sentence-transformers encoder on one device with `processes` processes (see Workers)."""

    def __init__(self, base: SentenceTransformerEncoder, device: str, processes: int) -> None:
        self.base = base
        self.name = base.name
        self.device = device
        self.processes = processes
        self._pool: dict[str, Any] | None = None
        self._home: Any = None  # the model's device before the pool moved it to the CPU

    @property
    def identity(self) -> str:
        return self.base.identity

    @property
    def dim(self) -> int:
        return self.base.dim

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        """As SentenceTransformerEncoder.encode; with a pool each call hands it
        `batch_size * 8` texts per process in chunks of at most one batch, which the workers
        take in turn, so progress and cancel come as often as with one process."""
        model = self.base.model(self.device)
        options = {"batch_size": batch_size, "normalize_embeddings": True,
                   "convert_to_numpy": True, "show_progress_bar": False}
        if self.processes == 1:
            def run(part: list[str]) -> NDArray[np.float32]:
                return np.asarray(model.encode(part, device=self.device, **options))

            # a batch a call: progress (and cancel) every batch_size texts, not every eight
            return _longest_first(texts, self.dim, batch_size, progress, run)
        pool = self._start(model, progress) if texts else None

        def run_pool(part: list[str]) -> NDArray[np.float32]:
            # a small call still reaches every worker: chunks of one batch or less
            chunk = max(1, min(batch_size, -(-len(part) // self.processes)))
            return np.asarray(model.encode(part, pool=pool, chunk_size=chunk, **options))

        return _longest_first(texts, self.dim, batch_size * 8 * self.processes, progress,
                              run_pool)

    def _start(self, model: Any, progress: Progress) -> dict[str, Any]:
        if self._pool is None:
            progress(0.0, f"starting {self.processes} worker processes on {self.device}")
            if self.device == "cuda":
                import torch

                gpus = max(1, int(torch.cuda.device_count()))
                devices = [f"cuda:{i % gpus}" for i in range(self.processes)]
            else:
                devices = ["cpu"] * self.processes
            self._home = model.device
            with _threads_per_worker(self.processes if self.device == "cpu" else 1), \
                    _workers_ignore_ctrl_c():
                self._pool = model.start_multi_process_pool(devices)
        return self._pool

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        model = self.base.model()
        try:
            stop_pool(model, pool)
        finally:
            # starting a pool moves the model to the CPU; put it back where it was
            if self._home is not None and str(self._home) != "cpu":
                model.to(self._home)


class _ExitWorker:
    """Put on a pool's input queue, this ends the worker that takes it: unpickling it raises
    SystemExit there, so the worker leaves through multiprocessing's normal exit, which runs its
    finalizers. sentence-transformers stops a pool with terminate() alone, which leaves each
    worker's tqdm lock (a named semaphore) to the resource tracker, and that one warns about
    'leaked semaphore objects' when the program ends."""

    def __reduce__(self) -> tuple[Callable[[int], object], tuple[int]]:
        return sys.exit, (0,)


def stop_pool(model: Any, pool: dict[str, Any], grace_s: float = 3.0) -> None:
    """Stop a sentence-transformers multi-process pool: each idle worker asked to exit, then
    `stop_multi_process_pool` (terminate, join, close the queues) for all, also those still
    busy after `grace_s` seconds."""
    try:
        for _ in pool["processes"]:
            pool["input"].put(_ExitWorker())
        deadline = time.monotonic() + grace_s
        for process in pool["processes"]:
            process.join(max(0.0, deadline - time.monotonic()))
    finally:
        model.stop_multi_process_pool(pool)


@contextmanager
def _threads_per_worker(workers: int) -> Iterator[None]:
    """While a CPU pool starts, OMP_NUM_THREADS = the cores divided among the workers, which
    each worker's torch reads when it starts (a spawned worker inherits the environment), so
    n workers do not each run a thread per core and fight over the cores. A value the user set
    is left alone; this process's torch read it long before and is not affected."""
    if "OMP_NUM_THREADS" in os.environ:
        yield
        return
    os.environ["OMP_NUM_THREADS"] = str(max(1, cpu_cores() // max(1, workers)))
    try:
        yield
    finally:
        os.environ.pop("OMP_NUM_THREADS", None)


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """While a pool starts, each worker spawned with SIGINT ignored, which it keeps (an
    ignored signal stays ignored across exec, and Python leaves it so): Ctrl+C reaches the
    whole process group, and each worker had printed a KeyboardInterrupt traceback through
    torch before this process's one line. This process stops the workers itself (`close`);
    they are daemons, ended at exit if it stops mid-start.

    Ignored only for the instant of each fork and exec (multiprocessing's
    `util.spawnv_passfds`, wrapped meanwhile), not for the whole start: starting waits
    seconds while each worker imports torch, and a Ctrl+C then must still stop this process.
    (Blocking the signal instead does not reach the workers: the spawn clears the mask.) Only
    the main thread can set a handler; elsewhere (the window's worker threads, where no Ctrl+C
    comes) nothing changes."""
    import signal
    from multiprocessing import util

    real = getattr(util, "spawnv_passfds", None)
    if real is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def spawn(*args: Any, **kwargs: Any) -> Any:
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            return real(*args, **kwargs)
        finally:
            signal.signal(signal.SIGINT, before)

    util.spawnv_passfds = spawn
    try:
        yield
    finally:
        util.spawnv_passfds = real
