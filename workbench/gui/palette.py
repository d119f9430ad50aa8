"""Colours shared by every panel: one per signal (by its index in the model's signals), and the
better / worse colours of deltas. The chart panels use the same functions, so a signal has one
colour everywhere."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

import numpy as np
from PySide6.QtGui import QColor

# Okabe–Ito, reordered so that the first three (most models' main signals) differ the most,
# readable on white and distinguishable with the common colour-vision deficiencies; then
# darker and lighter companions for models with more signals (importance has 12, codeledger
# 16), so that no two signals of one model share a colour. No black: the total's tick is
# (Okabe–Ito's black became a dark teal, the last dark purple a lavender)
_SIGNAL_HEX = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
               "#999999", "#01665E", "#8C6D31", "#7B3294", "#A6DBA0", "#B2182B", "#5AAE61",
               "#FDB863", "#8073AC")

BETTER = QColor("#1a7f37")
WORSE = QColor("#c0392b")
NEUTRAL = QColor("#6e7781")
GATED = QColor("#8c959f")


def signal_color(index: int) -> QColor:
    """The colour of a model's `index`-th signal."""
    return QColor(_SIGNAL_HEX[index % len(_SIGNAL_HEX)])


def signal_hex(index: int) -> str:
    return _SIGNAL_HEX[index % len(_SIGNAL_HEX)]


def delta_color(delta: float, eps: float = 5e-4) -> QColor:
    """Green for an improvement, red for a loss, grey for none or one too small to print
    (`signed`'s ±0 and +0.000)."""
    if delta > eps:
        return BETTER
    if delta < -eps:
        return WORSE
    return NEUTRAL


def signed(value: float, digits: int = 3) -> str:
    """+0.034 / −0.010 / ±0 (a real minus sign, so columns of deltas line up). ±0 is no
    change; a change too small for `digits` keeps its sign: +<0.001 (a nDCG card read ±0
    while a query had moved it by +0.0005, and "−0.000" read as a zero with a sign)."""
    if abs(value) < 1e-12:  # the same, up to the float noise of two means
        return "±0"
    text = f"{abs(value):.{digits}f}"
    if float(text) == 0:
        text = "<" + f"{10.0 ** -digits:.{digits}f}" if digits else "<1"
    return ("+" if value > 0 else "−") + text


def signed_html(value: float, digits: int = 3) -> str:
    """`signed` for rich text: its "<" escaped ("+<0.001" inside a span had read "+": the
    "<0.001" taken for a tag and dropped)."""
    return html.escape(signed(value, digits))


def number(value: float, places: int) -> str:
    """`value` to `places` decimals with a real minus sign, and none on a value that rounds
    to zero ("0.000", not "-0.000")."""
    text = f"{value:.{places}f}"
    if text.startswith("-"):
        return text[1:] if not text.strip("-0.") else "−" + text[1:]
    return text


def score_decimals(scores: Sequence[float], terms: Sequence[float] | None = None,
                   every: np.ndarray | None = None) -> int:
    """Decimals of a score column, one for all its rows so the digits line up, and for the
    `terms` a score is the sum of, shown beside it: none where every score and term is whole
    and the model's scores are whole numbers (decision-memory's 54): every score of the
    result (`every`, where given, so a query whose scores are 0 and 1 shows them as the
    others do; else `scores`) whole and one past 1. Else about four significant digits of
    the largest score (1.0000, 0.9947, 2.251, 15.32), as the ranked table shows it. Scores
    of 0 and 1 only are a score clamped to [0, 1] (vault-search's): 1.0000, as its other
    scores and `workbench rank` print it (rv52 9: "1" among 0.5735), its clamp −2.0000."""
    finite = [abs(v) for v in scores if not math.isnan(v) and not math.isinf(v)]
    parts = finite + [abs(v) for v in terms or [] if not math.isnan(v) and not math.isinf(v)]
    if not finite:
        return 0
    pool = np.abs(np.asarray(finite if every is None else every, dtype=float))
    pool = pool[np.isfinite(pool)]
    whole = bool(len(pool)) and bool((pool == np.round(pool)).all()) and pool.max() > 1
    if whole and all(v == int(v) for v in parts):
        return 0
    big = max(finite)
    return 4 if big <= 1 else 3 if big < 10 else 2 if big < 100 else 1 if big < 1000 else 0
