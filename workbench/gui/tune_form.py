"""What a tuning run searches and how: the model's parameters with a tick and a range each, and
the run's settings (metric, budget, validation, sampler, seed, storage). `choices()` gives
the keyword arguments of `job_from_session`.

Ticked at first: the parameters the core tunes when none are named (`default_names`: live,
numeric / choice / bool, not a paging or display knob). Prepare-stage choices may be ticked
too: each distinct prepared state is then built once (which may mean re-embedding).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from workbench.core.cases import has_cases
from workbench.core.params import Param, ParamError
from workbench.core.session import TuningSession

from .param_editors import tooltip

RANKING_METRICS = ("ndcg@10", "mrr@10", "r@100", "map@100")
VALIDATIONS = (("auto", "auto"), ("k-fold", "kfold"), ("time split", "time"), ("none", "none"))
MUTED = "color:#57606a"


def metric_choices(session: TuningSession) -> list[str]:
    """The objectives this dataset and model can be tuned on, the most fitting first."""
    ds, model = session.dataset, session.model
    out = list(RANKING_METRICS) if ds is not None and ds.qrels else []
    if ds is not None and has_cases(ds):
        out.insert(0, "cases")  # pi-lodestone's own measure of success
    if model is not None and model.id == "codeledger":
        out.append("bundle_recall")
    return out or list(RANKING_METRICS)


def _decimals(step: float) -> int:
    text = f"{step:g}"
    return len(text.split(".")[1]) if "." in text else 0


@dataclass
class ParamRow:
    param: Param
    tick: QCheckBox
    low: QDoubleSpinBox | None  # numeric parameters only
    high: QDoubleSpinBox | None


class ParamChecklist(QWidget):
    """One row per parameter: tick, label, and low / high for numbers (else its choices)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: dict[str, ParamRow] = {}
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(2, 2, 2, 2)
        self.grid.setHorizontalSpacing(6)
        self.grid.setVerticalSpacing(2)

    def build(self, params: list[Param], ticked: list[str]) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows = {}
        for i, p in enumerate(params):
            tick = QCheckBox(p.label + (" (prepare)" if p.stage == "prepare" else ""), self)
            tick.setToolTip(tooltip(p) + ("\nprepare stage: each value is prepared once (may "
                                          "re-embed)" if p.stage == "prepare" else ""))
            tick.setChecked(p.name in ticked)
            self.grid.addWidget(tick, i, 0)
            low = high = None
            if p.kind in ("float", "int") and p.low is not None and p.high is not None:
                low, high = self._spin(p, p.low), self._spin(p, p.high)
                self.grid.addWidget(low, i, 1)
                self.grid.addWidget(high, i, 2)
            else:
                text = ", ".join(p.choices) if p.kind == "choice" else "false, true"
                note = QLabel(text, self)
                note.setStyleSheet(MUTED)
                note.setToolTip(text)
                self.grid.addWidget(note, i, 1, 1, 2)
            self.rows[p.name] = ParamRow(p, tick, low, high)
        self.grid.setColumnStretch(0, 1)
        self.grid.setRowStretch(len(params), 1)

    def _spin(self, p: Param, value: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(self)
        low, high = float(p.low or 0), float(p.high or 0)
        step = p.step or (1.0 if p.kind == "int" else (high - low) / 100)
        spin.setDecimals(_decimals(step))
        spin.setRange(low, high)
        spin.setSingleStep(step)
        spin.setValue(value)
        spin.setMinimumWidth(64)
        return spin

    def names(self) -> list[str]:
        return [n for n, r in self.rows.items() if r.tick.isChecked()]

    def ranges(self) -> dict[str, tuple[float, float]]:
        """The ticked numeric parameters whose range was narrowed."""
        out = {}
        for n, r in self.rows.items():
            if r.tick.isChecked() and r.low is not None and r.high is not None:
                low, high = r.low.value(), r.high.value()
                if (low, high) != (r.param.low, r.param.high):
                    if low > high:
                        raise ParamError(f"{r.param.label}: low {low:g} is above high {high:g}")
                    out[n] = (low, high)
        return out


class TuneSettings(QWidget):
    """Metric, budget, validation, sampler, seed, storage and "pin the baseline first"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(3)
        self.objective = QComboBox(self)
        self.budget = QSpinBox(self)
        self.budget.setRange(1, 1_000_000)
        self.budget.setValue(100)
        self.budget_kind = QComboBox(self)
        self.budget_kind.addItems(["trials", "seconds"])
        self.budget_kind.setToolTip("per study (each fold has its own), or seconds in all")
        self.validation = QComboBox(self)
        for text, key in VALIDATIONS:
            self.validation.addItem(text, key)
        self.validation.setToolTip("auto: the data's own split, a time split for repository "
                                   "tasks, else 5-fold over queries")
        self.folds = QSpinBox(self)
        self.folds.setRange(2, 20)
        self.folds.setValue(5)
        self.folds.setPrefix("k = ")
        self.sampler = QComboBox(self)  # filled by `set_choices`
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setPrefix("seed ")
        self.storage = QLineEdit(self)
        self.storage.setPlaceholderText("studies.db in the cache folder")
        self.storage.setToolTip("an SQLite file or a postgresql:// URL; starting the same run "
                                "again continues its stored trials")
        self.pin_first = QCheckBox("Pin current as baseline first", self)
        self.pin_first.setChecked(True)
        self.pin_first.setToolTip("before Apply best moves the sliders, pin the current "
                                  "settings, so the movers and metrics show what tuning changed")
        rows: list[tuple[str, list[QWidget]]] = [
            ("Metric", [self.objective]), ("Budget", [self.budget, self.budget_kind]),
            ("Validation", [self.validation, self.folds]),
            ("Sampler", [self.sampler, self.seed]), ("Storage", [self.storage])]
        for i, (label, widgets) in enumerate(rows):
            grid.addWidget(QLabel(label, self), i, 0)
            line = QHBoxLayout()
            for w in widgets:
                line.addWidget(w, 1)
            grid.addLayout(line, i, 1)
        grid.addWidget(self.pin_first, len(rows), 0, 1, 2)
        grid.setColumnStretch(1, 1)
        self.validation.currentIndexChanged.connect(self._on_validation)
        self._on_validation()

    def _on_validation(self, *_: object) -> None:
        self.folds.setEnabled(self.validation.currentData() == "kfold")

    def set_choices(self, metrics: list[str], samplers: tuple[str, ...]) -> None:
        if self.sampler.count() == 0:
            self.sampler.addItems(list(samplers))
        names = metrics
        current = self.objective.currentText()
        self.objective.clear()
        self.objective.addItems(names)
        if current in names:
            self.objective.setCurrentText(current)

    def choices(self) -> dict[str, Any]:
        seconds = self.budget_kind.currentText() == "seconds"
        return {"objective": self.objective.currentText(),
                "trials": None if seconds else self.budget.value(),
                "timeout": float(self.budget.value()) if seconds else None,
                "validation": str(self.validation.currentData()),
                "folds": self.folds.value(), "sampler": self.sampler.currentText(),
                "seed": self.seed.value(), "storage": self.storage.text().strip()}
