"""The parameters a tuning run may search, one row each: a tick, the label (elided; a click
on it toggles the tick), and low / high for numbers (else the values a choice takes).

Ticked at first: the parameters the core tunes when none are named (`model_names`: live,
numeric / choice / bool, not a paging or display knob, narrowed to the model's
`tuned_by_default` where it has one), less those no score moves with on the
data (`Model.inert_params`: a weight whose signal is 0 everywhere; its tooltip says why),
and, while the metric is a ranking metric, less the selection cut-offs (a min score, a limit:
`space.cut_offs`), which can only lower it; another metric ticks them again.
Prepare-stage choices may be ticked too: each distinct prepared state is then built once
(which may mean re-embedding).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QGridLayout, QWidget

from workbench.core.params import Param, ParamError

from .param_editors import ElidedLabel, tooltip

MUTED = "color:#57606a"


def _decimals(step: float) -> int:
    text = f"{step:g}"
    return len(text.split(".")[1]) if "." in text else 0


class _TickLabel(ElidedLabel):
    """A parameter's label, elided to the column; a click toggles its tick."""

    def __init__(self, text: str, tick: QCheckBox, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.tick = tick

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override
        self.tick.toggle()
        event.accept()


@dataclass
class ParamRow:
    param: Param
    tick: QCheckBox
    low: QDoubleSpinBox | None  # numeric parameters only
    high: QDoubleSpinBox | None
    label: QWidget | None = None


class ParamChecklist(QWidget):
    """One row per parameter: tick, label, and low / high for numbers (else its choices)."""

    changed = Signal()  # a tick or a range: another search, another study

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: dict[str, ParamRow] = {}
        self.objective = ""  # the metric tuned on (`set_objective`)
        self.cut: dict[str, str] = {}  # the cut-offs it can only lose with, and why
        self._tips: dict[str, str] = {}  # each row's tooltip before the line on cut-offs
        self._ticked: set[str] = set()  # ticked by `build`
        self._cut_unticked: set[str] = set()  # of those, unticked by `set_objective`
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(2, 2, 2, 2)
        self.grid.setHorizontalSpacing(6)
        self.grid.setVerticalSpacing(2)

    def build(self, params: list[Param], ticked: list[str],
              inert: Mapping[str, str] | None = None,
              unshipped: Mapping[str, str] | None = None) -> None:
        """A row per parameter, `ticked` ticked; `inert`: parameters no score moves with on
        the data, and why (said in their tooltip); `unshipped`: those the target system
        cannot take as a setting, and why (marked ⊘, said in their tooltip)."""
        unshipped = unshipped or {}
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows, self._tips = {}, {}
        for i, p in enumerate(params):
            tick = QCheckBox(self)
            tick.setChecked(p.name in ticked)
            label = _TickLabel(p.label + (" (prepare)" if p.stage == "prepare" else "")
                               + (" ⊘" if p.name in unshipped else ""), tick, self)
            label.setToolTip(tooltip(p) + ("\nprepare stage: each value is prepared once "
                                           "(may re-embed)" if p.stage == "prepare" else "")
                             + (f"\nunticked: no score moves with it on this data "
                                f"({(inert or {})[p.name]})" if p.name in (inert or {}) else "")
                             + (f"\n⊘ not shippable: {unshipped[p.name]}"
                                if p.name in unshipped else ""))
            tick.setToolTip(label.toolTip())
            self._tips[p.name] = label.toolTip()
            self.grid.addWidget(tick, i, 0)
            self.grid.addWidget(label, i, 1)
            low = high = None
            if p.kind in ("float", "int") and p.low is not None and p.high is not None:
                low, high = self._spin(p, p.low), self._spin(p, p.high)
                span = f"(its whole range: {low.textFromValue(p.low)} to " \
                       f"{high.textFromValue(p.high)})"
                low.setToolTip(f"low: the least value of {p.label} the search tries {span}")
                high.setToolTip(f"high: the greatest value of {p.label} the search tries "
                                f"{span}")
                self.grid.addWidget(low, i, 2)
                self.grid.addWidget(high, i, 3)
            else:
                text = ", ".join(p.choices) if p.kind == "choice" else "false, true"
                note = ElidedLabel(text, self)
                note.setStyleSheet(MUTED)
                note.setToolTip(text)
                self.grid.addWidget(note, i, 2, 1, 2)
            self.rows[p.name] = ParamRow(p, tick, low, high, label)
            tick.toggled.connect(self.changed)
            for spin in (low, high):
                if spin is not None:
                    spin.valueChanged.connect(self.changed)
        self.grid.setColumnStretch(1, 1)
        self.grid.setRowStretch(len(params), 1)
        self._ticked, self._cut_unticked, self.cut = set(ticked), set(), {}
        self.set_objective(self.objective)
        self.changed.emit()

    def set_objective(self, objective: str) -> None:
        """Untick the cut-offs `build` ticked where `objective` is a ranking metric, which they
        can only lower (said in their tooltip), and tick them again where it is not (cases:
        a cut drops a forbidden id); a tick the person set stays."""
        from workbench.core.tuning.space import cut_offs

        self.objective = objective
        cut = cut_offs(list(self.rows), [objective] if objective else [],
                       {n: row.param for n, row in self.rows.items()})
        for name in self._cut_unticked - set(cut):
            self.rows[name].tick.setChecked(True)
        self._cut_unticked &= set(cut)
        for name in set(cut) - set(self.cut):
            tick = self.rows[name].tick
            if name in self._ticked and tick.isChecked():
                tick.setChecked(False)
                self._cut_unticked.add(name)
        self.cut = cut
        for name, row in self.rows.items():
            base = self._tips.get(name, "")
            new_line = "<br>" if base.startswith("<") else "\n"  # rich text or plain
            # ticked anyway, the run keeps its start (`settle`: the Tune tab has no
            # constraint for another value to meet; dr2 1)
            kept = ("; ticked anyway, the run keeps its start" if row.param.figures_only
                    else "")
            tip = base + (f"{new_line}unticked for this metric: {cut[name]}{kept}"
                          if name in cut else "")
            row.tick.setToolTip(tip)
            if row.label is not None:
                row.label.setToolTip(tip)

    def _spin(self, p: Param, value: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox(self)
        low, high = float(p.low or 0), float(p.high or 0)
        step = p.step or (1.0 if p.kind == "int" else (high - low) / 100)
        spin.setDecimals(_decimals(step))
        spin.setRange(low, high)
        spin.setSingleStep(step)
        spin.setValue(value)
        # as wide as its widest value and the arrows, no wider: the label column gets the rest
        # (expanding spin boxes left "W…" of every "Weight: …" label)
        widest = max(spin.textFromValue(low), spin.textFromValue(high), key=len)
        spin.setFixedWidth(max(64, spin.fontMetrics().horizontalAdvance(widest + "0") + 36))
        return spin

    def starting_ticks(self) -> set[str]:
        """What `build` ticked: the default search on this data, cut-offs included."""
        return set(self._ticked)

    def names(self) -> list[str]:
        return [n for n, r in self.rows.items() if r.tick.isChecked()]

    def untick(self, names: set[str]) -> None:
        for n, r in self.rows.items():
            if n in names:
                r.tick.setChecked(False)

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
