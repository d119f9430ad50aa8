"""The delta chart's words fitted to its width: the caption above the bars and the line under
them. Beside a wide metric table the chart is narrow (180 px presenting eight configurations
at 1,920 × 1,080), where the whole caption took six lines over the bars and the line under
them lost "(click a bar)" (r53 5)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF

CAPTION_LINES = 3  # a caption wrapped to more is worded shorter, where a shorter one exists
CLICK = "(click a bar)"


def lines_of(fm: QFontMetricsF, width: float, text: str) -> int:
    """How many lines `text` wraps to at `width` in `fm`'s type."""
    box = fm.boundingRect(QRectF(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap), text)
    return max(1, round(box.height() / fm.lineSpacing()))


def fitted_caption(fm: QFontMetricsF, width: float, wordings: list[str]) -> str:
    """The first of `wordings` (longest first) that wraps to CAPTION_LINES lines or fewer at
    `width`, else the shortest."""
    return next((t for t in wordings if lines_of(fm, width, t) <= CAPTION_LINES), wordings[-1])


def below_lines(fm: QFontMetricsF, width: float, n: int) -> list[str]:
    """The line under the bars, as wide as `width`: the whole wording where it fits, then
    shorter ones; "(click a bar)" on a line of its own rather than left out."""
    whole = f"{n} judged queries, sorted by Δ {CLICK}"
    short = f"{n} queries by Δ"
    for option in ([whole], [f"{short} {CLICK}"], [short, CLICK]):
        if all(fm.horizontalAdvance(t) <= width for t in option):
            return option
    return [short]
