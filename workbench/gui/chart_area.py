"""The place in the bottom of the window where the chart panels plug in.

The chart panels live in `workbench.gui.charts` (written separately): each is a QWidget class
constructed as `Panel(session, parent=None)` that subscribes to the session itself. They are
imported lazily, one by one, so the window works before (or without) any of them.

A panel that offers `applies() -> bool` (injection diagnostics: the decision-memory model; eval
cases: a dataset with cases) has its tab hidden while it does not apply, so that users of other
models and datasets do not see tabs that would only hold a note. A panel that names
`preferred_models` (the bundle: codeledger; injection figures and eval cases: decision-memory)
becomes the shown tab when one of those models is
chosen, since it is that model's main view.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from workbench.core.session import TuningSession
from workbench.gui.bind import subscribe

log = logging.getLogger(__name__)

# (class name in workbench.gui.charts, tab title)
CHART_PANELS = (
    ("ContributionChart", "Contributions"),
    ("ScoreDistribution", "Score distribution"),
    ("MetricCurve", "Metric vs parameter"),
    ("MoversList", "Movers"),
    ("InjectionDiagnostics", "Injection"),
    ("EvalCases", "Eval cases"),
    ("ContextBundle", "Bundle"),
    ("TunePanel", "Tune"),
)
# panels that live outside workbench.gui.charts: class name → module
PANEL_MODULES = {"TunePanel": "workbench.gui.tune_panel"}


def load_chart_class(name: str) -> type[QWidget] | None:
    """`workbench.gui.charts.<name>`, or None while that panel does not exist yet."""
    try:
        module = importlib.import_module(PANEL_MODULES.get(name, "workbench.gui.charts"))
    except ImportError as exc:
        log.debug("chart panels not available: %s", exc)
        return None
    cls = getattr(module, name, None)
    return cls if isinstance(cls, type) and issubclass(cls, QWidget) else None


class ChartArea(QTabWidget):
    """One tab per chart panel that exists; a placeholder tab when none does."""

    def __init__(self, session: TuningSession, parent: QWidget | None = None, *,
                 load: bool = True, throttle_ms: int = 0) -> None:
        super().__init__(parent)
        self.session = session
        self.setDocumentMode(True)
        self.panels: dict[str, QWidget] = {}
        for name, title in CHART_PANELS if load else ():
            cls = load_chart_class(name)
            if cls is None:
                continue
            try:
                factory: Any = cls  # Panel(session, parent=None), by the charts' contract
                panel = factory(session, parent=self)
            except Exception as exc:  # a broken chart must not take the window down
                log.warning("chart panel %s failed to start: %s", name, exc)
                continue
            if hasattr(panel, "throttle_ms"):
                panel.throttle_ms = throttle_ms
            self.panels[name] = panel
            self.addTab(panel, title)
        if not self.panels and load:
            note = QLabel("Charts (contributions, score distribution, metric vs parameter, "
                          "movers) appear here once workbench.gui.charts is installed.", self)
            note.setAlignment(Qt.AlignmentFlag.AlignCenter)
            note.setStyleSheet("color:#8c959f")
            self.addTab(note, "Charts")
        self._shown_for: tuple[str | None, int] | None = None
        subscribe(self, session.model_changed, self.update_tabs)
        subscribe(self, session.dataset_changed, self.update_tabs)
        self.update_tabs()

    def update_tabs(self, *_: object) -> None:
        """Show the tabs of the panels that apply to the session's model and dataset; on a
        change of model, bring forward the panel that prefers it."""
        for panel in self.panels.values():
            applies = getattr(panel, "applies", None)
            if callable(applies):
                self.setTabVisible(self.indexOf(panel), bool(applies()))
        model_id = self.session.model.id if self.session.model is not None else None
        key = (model_id, id(self.session.dataset))
        if key != self._shown_for:
            self._shown_for = key
            preferred = self.preferred_panel()
            if preferred is not None:
                self.setCurrentWidget(preferred)

    def preferred_panel(self) -> QWidget | None:
        """The most specific panel that prefers the session's model and applies: the last one
        listed (eval cases over the injection figures when the dataset has cases), or None."""
        model_id = self.session.model.id if self.session.model is not None else None
        for panel in reversed(self.panels.values()):
            applies = getattr(panel, "applies", None)
            if model_id in getattr(panel, "preferred_models", ()) and (
                    not callable(applies) or applies()):
                return panel
        return None

    def tab_shown(self, name: str) -> bool:
        """Whether the panel `name` (a class name in CHART_PANELS) has a visible tab."""
        panel = self.panels.get(name)
        return panel is not None and self.isTabVisible(self.indexOf(panel))

    def shutdown(self) -> None:
        """Stop the panels' background work (a panel may offer `shutdown()`), so that no
        worker outlives the window."""
        for panel in self.panels.values():
            stop = getattr(panel, "shutdown", None)
            if callable(stop):
                stop()
