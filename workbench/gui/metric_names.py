"""One name for a metric wherever the window shows it: nDCG@10 on the metric cards, in the Tune
form, Metric vs parameter, the compare view and every chart and verdict, while the code (and
the CLI, where it is typed) keeps the id, `ndcg@10`. A combo box shows the label and carries
the id as its item data, so nothing reads a label back as an id."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox

from workbench.core.metrics import metric_label

__all__ = ["combo_metric", "fill_metric_combo", "metric_label", "select_metric"]


def fill_metric_combo(combo: QComboBox, names: Sequence[str], keep: str | None = None) -> None:
    """Replace the combo's items with `names` (labels shown, ids as data), its signals held;
    `keep` is selected where it is one of them, else the first."""
    combo.blockSignals(True)
    combo.clear()
    for name in names:
        combo.addItem(metric_label(name), name)
    at = combo.findData(keep) if keep is not None else -1
    combo.setCurrentIndex(at if at >= 0 else (0 if names else -1))
    combo.blockSignals(False)


def combo_metric(combo: QComboBox) -> str:
    """The id of the metric selected ("" when there is none)."""
    data = combo.currentData()
    return data if isinstance(data, str) else ""


def select_metric(combo: QComboBox, name: str) -> bool:
    """Select the metric with this id; False (nothing changed) where the combo lacks it."""
    at = combo.findData(name)
    if at >= 0:
        combo.setCurrentIndex(at)
    return at >= 0
