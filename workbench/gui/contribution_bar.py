"""An inline stacked bar of a row's signal contributions, painted by a delegate.

Positive contributions stack rightwards from a zero line, negative ones leftwards (and
hatched), in each signal's palette colour; the zero line sits where the table's most negative
and most positive ranked rows both fit, so bars in one column share one scale (a gated row,
outside the ranking, is clipped to its cell rather than setting the scale).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from .palette import signal_color

CONTRIB_ROLE = Qt.ItemDataRole.UserRole + 2  # the row's S contributions (tuple, NaN as 0)
SCALE_ROLE = Qt.ItemDataRole.UserRole + 3  # (most negative sum, most positive sum) of the table


def bar_extent(contrib: np.ndarray) -> tuple[float, float]:
    """(sum of negatives, sum of positives) of one row, NaN counted as 0."""
    c = np.nan_to_num(np.asarray(contrib, float))
    return float(c[c < 0].sum()), float(c[c > 0].sum())


_COLORS: dict[int, QColor] = {}


def _color(i: int) -> QColor:
    """signal_color, made once per signal rather than per bar painted."""
    c = _COLORS.get(i)
    if c is None:
        c = _COLORS[i] = signal_color(i)
    return c


class ContributionDelegate(QStyledItemDelegate):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(option.rect, option.palette.highlight())
        contrib = index.data(CONTRIB_ROLE)
        scale = index.data(SCALE_ROLE)
        if contrib is None or scale is None:
            return
        lo, hi = scale
        span = (hi - lo) or 1.0
        rect = QRectF(option.rect).adjusted(3, 4, -3, -4)
        zero_x = rect.left() + rect.width() * (-lo / span)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setClipRect(option.rect)  # a gated row's bar may run past the table's scale
        pos_x, neg_x = zero_x, zero_x
        values = contrib if isinstance(contrib, tuple) else np.nan_to_num(
            np.asarray(contrib, float)).tolist()  # the table hands NaN-free Python floats
        for i, v in enumerate(values):
            if v == 0:
                continue
            w = rect.width() * abs(v) / span
            color = _color(i)
            if v > 0:
                painter.fillRect(QRectF(pos_x, rect.top(), w, rect.height()), color)
                pos_x += w
            else:
                neg_x -= w
                r = QRectF(neg_x, rect.top(), w, rect.height())
                painter.fillRect(r, color.lighter(150))
                painter.fillRect(r, QBrush(color.darker(130), Qt.BrushStyle.BDiagPattern))
        if lo < 0:
            painter.setPen(QPen(QColor("#333333"), 1))
            painter.drawLine(int(zero_x), int(rect.top()) - 2, int(zero_x),
                             int(rect.bottom()) + 2)
        painter.restore()
