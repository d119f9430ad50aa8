"""Keeping freed memory for the next slider tick (glibc only; elsewhere a no-op).

Each live combine allocates and frees tens of MB of arrays (1.5 M candidate pairs on SciFact
are 12 MB per float64 column). By default glibc hands such blocks back to the kernel, in
mmapped chunks or by trimming the heap, so the next tick faults every page in again: with
transparent huge pages (numpy madvises its large arrays) that fault may compact memory
first, and a 12 ms combine took 40–60 ms of kernel time now and then (the p95 of slider →
repaint). Raising the mmap and trim thresholds keeps the pages in the process and reuses
them: the same M_MMAP_THRESHOLD / M_TRIM_THRESHOLD / M_TOP_PAD as the MALLOC_*_ variables.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
MMAP_THRESHOLD = 32 << 20  # glibc's upper limit on 64-bit: larger blocks are mmapped anyway
TRIM_THRESHOLD = 512 << 20  # freed memory kept at the heap's top before it is returned
TOP_PAD = 64 << 20  # each heap growth asks this much more (virtual until touched)


def keep_freed_memory() -> bool:
    """Set the thresholds once for this process; False where there is no glibc mallopt."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others: no mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return all(mallopt(option, value) == 1 for option, value in (
        (_M_MMAP_THRESHOLD, MMAP_THRESHOLD), (_M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (_M_TOP_PAD, TOP_PAD)))
