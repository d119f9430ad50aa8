"""The bundle panel's budget bar: `BudgetBar` paints the tokens a bundle uses against its
budget, the overshoot zone shaded and the baseline's tokens as a tick."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from ._base import A_COLOR, MUTED

OVER_COLOR = "#e08a1e"


class BudgetBar(QWidget):
    """Tokens used against the budget, the overshoot zone budget…budget·(1+overshoot) shaded;
    the baseline's tokens as a tick."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.used = 0.0
        self.budget = 0.0
        self.limit = 0.0
        self.baseline: float | None = None
        self.setMinimumHeight(18)
        self.setMaximumHeight(18)

    def set_values(self, used: float, budget_: float, limit: float,
                   baseline: float | None) -> None:
        self.used, self.budget, self.limit, self.baseline = used, budget_, limit, baseline
        self.setToolTip(f"{used:,.0f} tokens used · budget {budget_:,.0f} · high-value files "
                        f"may overshoot to {limit:,.0f}"
                        + ("" if baseline is None else f" · baseline {baseline:,.0f}"))
        self.update()

    @property
    def scale(self) -> float:
        return max(self.limit, self.used, self.baseline or 0.0, 1.0) * 1.04

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(240, 18)

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        p = QPainter(self)
        w, h = float(self.width() - 1), float(self.height() - 1)
        x = w / self.scale
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#eaeef2"))
        p.drawRect(QRectF(0, 3, self.budget * x, h - 6))
        over = QColor(OVER_COLOR)
        over.setAlpha(70)
        p.setBrush(QBrush(over, Qt.BrushStyle.BDiagPattern))
        p.drawRect(QRectF(self.budget * x, 3, (self.limit - self.budget) * x, h - 6))
        p.setBrush(QColor(A_COLOR if self.used <= self.budget else OVER_COLOR))
        p.drawRect(QRectF(0, 5, self.used * x, h - 10))
        p.setPen(QPen(QColor("#24292f"), 1.5))
        p.drawLine(int(self.budget * x), 0, int(self.budget * x), int(h))
        if self.baseline is not None:
            p.setPen(QPen(QColor(MUTED), 2, Qt.PenStyle.DotLine))
            bx = int(self.baseline * x)
            p.drawLine(bx, 0, bx, int(h))
        p.end()
