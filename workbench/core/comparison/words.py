"""How numbers, places and moves are written in the sentences that explain a move, one style
for a move within one model and one between two."""

from __future__ import annotations

import numpy as np


def _number(x: float) -> str:
    """_plain with a real minus, as the signals' differences are written."""
    return _plain(x).replace("-", "−")


def _alnum(name: str) -> str:
    """"pre-filter" and "exclude_archived" as "prefilter" and "excludearchived"."""
    return "".join(c for c in name.lower() if c.isalnum())


def _floor_text(floor: tuple[str, float]) -> str:
    """"min_score 0.3"; the name alone where its value is not known here (a model's min
    score of each query's mode)."""
    return floor[0] if np.isnan(floor[1]) else f"{floor[0]} {_plain(floor[1])}"


def _plain(x: float) -> str:
    """A value in three significant digits: 0.3, 0.239."""
    return f"{x:.3g}"


def _move_words(a: int | None, b: int | None, below_a: str | None = None,
                below_b: str | None = None) -> str:
    if a is None and b is None:
        return "ranked by neither"
    if a is None:
        return f"moved from {below_a} to {b}" if below_a else f"entered at {b}"
    if b is None:
        return f"moved from {a} to {below_b}" if below_b else f"dropped out from {a}"
    if a == b:
        return f"stayed at {a}"
    return f"moved from {a} to {b}"


def _signed(x: float) -> str:
    """+1.9, −0.3; three significant digits, kept where rounding leaves a whole number that
    is not one (−3.997 read as an integer, "−4"; it is −4.00)."""
    text = f"{abs(x):.3g}"
    if "." not in text and "e" not in text and abs(x) != round(abs(x)):
        text = f"{abs(x):.{max(0, 3 - len(text))}f}"
    return f"{'+' if x >= 0 else '−'}{text}"
