"""Whether a slider of the session's parameters is held down (a drag in progress).

During a drag only the ranked table and the metric strip follow every result; the panels that
refresh on a throttle (charts, query list, preview, the metric strip's paired test) wait until
the drag pauses (`SETTLE_MS` without a new value) or ends, then catch up with the newest
result. Their refreshes would otherwise run while the next result computes and compete with
the combine worker for the GIL and the machine's two cores (slider → repaint p95).

The session is core and knows nothing of sliders, so the state lives here, one per session;
the parameter panel sets it from its sliders' sliderPressed / sliderReleased.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from PySide6.QtCore import QObject, Signal

from workbench.core.session import TuningSession

SETTLE_MS = 400  # during a drag, throttled panels refresh once the slider rests this long


class DragState(QObject):
    """`dragging` is True between a slider's press and its release; `changed` says when it
    flips (False: the drag ended, panels catch up)."""

    changed = Signal(bool)

    def __init__(self) -> None:
        super().__init__()
        self.dragging = False

    def set_dragging(self, on: bool) -> None:
        if on != self.dragging:
            self.dragging = on
            self.changed.emit(on)


_STATES: WeakKeyDictionary[TuningSession, DragState] = WeakKeyDictionary()


def drag_state(session: TuningSession) -> DragState:
    """The session's drag state (created on first use; lives as long as the session)."""
    state = _STATES.get(session)
    if state is None:
        state = _STATES[session] = DragState()
    return state
