"""Byte counts as people write and read them, and durations as they are said.

Printed in binary units, named as such: 1.5 GiB (1.5 × 1024³ bytes), 340 MiB, 96 KiB (they
were printed "GB", "MB", "KB" while they counted 1024s). Read as GNU coreutils reads them: K,
M, G or T alone or followed by iB is binary (8G = 8GiB = 8 × 1024³ bytes); followed by B it is
decimal (8GB = 8 × 1000³ bytes, a disk maker's gigabyte). Case does not matter.
"""

from __future__ import annotations

import re

UNITS = "a number with K, M, G or T: 8G or 8GiB = 8 × 1024³ bytes, 8GB = 8 × 1000³"
"""What `byte_count` reads, said where a size is asked for or refused."""

_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(?:([KMGT])(IB|B)?|B)?\s*")


def byte_count(text: str) -> int | None:
    """'8G', '8GiB' → 8 × 1024³; '8GB' → 8 × 1000³; '500m', '123456', '10B' → bytes; None
    for what is not a size (or is 2⁶³ bytes or more)."""
    m = _SIZE.fullmatch(text.upper())
    if m is None:
        return None
    power = " KMGT".index(m[2]) if m[2] else 0
    value = float(m[1]) * (1000 if m[3] == "B" else 1024) ** power
    return int(value) if value < 2**63 else None


def bytes_text(n: float) -> str:
    """A byte count for people, in binary units: 1.5 GiB, 340 MiB, 96 KiB."""
    if n >= 2**30:
        return f"{n / 2**30:.1f} GiB"
    return f"{n / 2**20:.0f} MiB" if n >= 2**20 else f"{n / 2**10:.0f} KiB"


def duration_text(seconds: float) -> str:
    """A duration as an estimate is said: "40 s", "3 min", "1.5 h"."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
