"""The excerpt policy (codeledger-scoring.md, "Excerpt Policy"), computed in prepare.

A file longer than `excerpt_threshold_lines` enters a bundle as an excerpt: its export
signature lines plus ± `excerpt_window` lines around every line holding a task term (plural
key, as the keyword stage matches). The excerpt costs ceil(excerpt lines · tokens per line)
tokens, tokens per line = the file's token estimate / its line count.

Signature lines: unindented lines opening a definition — `export`, `def`, `async def`,
`class`, `func`, `type`, `public`, `interface`, `function`.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.codeledger.text import plural_key, words

__all__ = ["FileLines", "excerpt_mask", "excerpt_ranges", "excerpt_tokens"]

_SIGNATURE = re.compile(
    r"^(?:export\b|(?:async\s+)?def\s|class\s|func\s|type\s|public\s|interface\s|function\s)")


class FileLines:
    """One file's lines indexed once: signature lines and plural key → lines holding it."""

    def __init__(self, text: str) -> None:
        lines = text.splitlines()
        self.n = len(lines)
        self.signatures = [i for i, ln in enumerate(lines) if _SIGNATURE.match(ln)]
        self.hits: dict[str, list[int]] = defaultdict(list)
        for i, ln in enumerate(lines):
            for k in {plural_key(w) for w in words(ln)}:
                self.hits[k].append(i)


def excerpt_mask(lines: FileLines, keys: Iterable[str], window: int,
                 cited: Iterable[int] = ()) -> NDArray[np.bool_]:
    """bool (n lines,): the lines an excerpt keeps. `cited`: 1-based lines the task cites
    (`client.py:88`, a stack trace), kept with the same window as a keyword hit: the line a
    trace points at was cut from the excerpt of the very file it names."""
    keep = np.zeros(lines.n + 1, np.int64)  # a difference array of the windows
    for i in lines.signatures:
        keep[i] += 1
        keep[i + 1] -= 1
    hits = [i for k in keys for i in lines.hits.get(k, ())]
    hits += [c - 1 for c in cited if 1 <= c <= lines.n]
    for i in hits:
        keep[max(0, i - window)] += 1
        keep[min(lines.n, i + window + 1)] -= 1
    out: NDArray[np.bool_] = np.cumsum(keep)[: lines.n] > 0
    return out


def excerpt_tokens(n_kept: int, tokens: float, n_lines: int) -> float:
    return float(math.ceil(n_kept * tokens / n_lines)) if n_lines else 0.0


def excerpt_ranges(mask: NDArray[np.bool_]) -> list[tuple[int, int]]:
    """1-based inclusive line ranges of the kept lines."""
    edges = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    starts = np.flatnonzero(edges == 1)
    stops = np.flatnonzero(edges == -1)
    return [(int(a) + 1, int(b)) for a, b in zip(starts, stops, strict=True)]
