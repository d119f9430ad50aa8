"""One name per signal wherever the window shows it: the model's label for it, the name its
weight's slider says ("named in the task", not codeledger's id `mention`; "term frequency",
not vault-search's `tf`), in the ranked table's legend and bars, the preview's breakdown, the
Contributions chart and the movers. The id stays what the code, the CLI's figures and the
exported CSV key on."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.core.engine import Model
from workbench.core.session import TuningSession


def shown_label(label: str) -> str:
    """A label as it reads inside a line: its first letter lower case ("keyword match", as the
    weight's slider under "Weight"), an acronym kept ("BM25 bonus", "KB note")."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label


def signal_labels(model: Model | None, names: Sequence[str]) -> list[str]:
    """The shown name of each signal id in `names` (the id itself where the model does not
    declare it)."""
    known = {s.name: s.label for s in model.signals} if model is not None else {}
    return [shown_label(known[n]) if n in known else n for n in names]


def idle_signals(session: TuningSession) -> frozenset[str]:
    """The signals the session's model says are 0 for every pair at its values
    (`Model.idle_signals`: vault-search's proximity when shipped), which the legend, the
    bars' tooltips and the breakdown leave out; none before a result."""
    s = session
    if s.model is None or s.prepared is None or s.result is None:
        return frozenset()
    return s.model.idle_signals(s.prepared, s.params)
