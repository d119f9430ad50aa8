"""One name per signal wherever the window shows it: the model's label for it, as its weight's
slider says it. The rule lives in the core (`workbench.core.signal_labels`), where the report
and the mover sentences use it too; this module keeps the window's imports working, and says
which signals the window leaves out (`idle_signals`)."""

from __future__ import annotations

from workbench.core.session import TuningSession
from workbench.core.signal_labels import shown_label, signal_labels

__all__ = ["idle_signals", "shown_label", "signal_labels"]


def idle_signals(session: TuningSession) -> frozenset[str]:
    """The signals the session's model says are 0 for every pair at its values
    (`Model.idle_signals`: vault-search's proximity when shipped), which the legend, the
    bars' tooltips and the breakdown leave out; none before a result."""
    s = session
    if s.model is None or s.prepared is None or s.result is None:
        return frozenset()
    return s.model.idle_signals(s.prepared, s.params)
