"""Where texts are encoded: the device (CUDA when torch sees a GPU, else the CPU) and
how many worker processes a number asks for."""

from __future__ import annotations

import os

from workbench.core.embeddings.models import EmbeddingError

DEVICES = ("auto", "cpu", "cuda")


def pick_device() -> str:
    """CUDA when torch sees a GPU, else CPU."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def resolve_device(device: str = "auto") -> str:
    """'auto' → 'cuda' when torch sees a GPU, else 'cpu'; 'cpu' as it is; 'cuda' only when
    torch sees a GPU (an EmbeddingError otherwise, never a silent fall back to the CPU)."""
    if device not in DEVICES:
        raise EmbeddingError(f"device {device!r}: expected one of {', '.join(DEVICES)}")
    if device == "cpu":
        return "cpu"
    found = pick_device()
    if device == "cuda" and found != "cuda":
        import torch

        raise EmbeddingError(f"device 'cuda': torch {torch.__version__} sees no CUDA GPU "
                             "('auto' encodes on the CPU then)")
    return found


def cpu_cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(processes: int, device: str) -> int:
    """Worker processes for `processes` on a resolved device: as given when 1 or more; 0 is one
    per CPU core on the CPU, one per GPU on CUDA."""
    if processes < 0:
        raise EmbeddingError(f"processes must be 0 (one per core) or more, got {processes}")
    if processes:
        return processes
    if device == "cuda":
        import torch

        return max(1, int(torch.cuda.device_count()))
    return cpu_cores()
