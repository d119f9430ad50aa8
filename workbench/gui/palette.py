"""Colours shared by every panel: one per signal (by its index in the model's signals), and the
better / worse colours of deltas. The chart panels use the same functions, so a signal has one
colour everywhere."""

from __future__ import annotations

import html

from PySide6.QtGui import QColor

# one rule for the window and `workbench rank` (core): the panels import it from here
from workbench.core.score_places import score_decimals as score_decimals

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
