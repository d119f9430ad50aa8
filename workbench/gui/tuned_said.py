"""What the metric strip says of live values a tuning run wrote: its held-out figures and, where
it advised against them, that it did — kept in sight while the values are in use (rt 4: after
switching to an imported "not recommended" file, only a passing status message had said so,
and the cards showed a green training gain)."""

from __future__ import annotations

import math

from workbench.core.session import TuningSession
from workbench.report.text import pair_texts


def tuned_line(session: TuningSession) -> tuple[str, str]:
    """("tuned held-out: 0.6131 → 0.6074 · not recommended", its tooltip: tune's figures and
    verdict in full), or ("", "") where the live values carry no run's figures or verdict for
    this data — or no longer hold those it tuned (edited since: `TunedOn.applies_to`)."""
    s = session
    record = s.tuned_on
    if record is None or s.model is None or s.dataset is None:
        return "", ""
    record, _ = record.applies_to(s.model.id, s.params)
    if record is None or not record.same_data(s.dataset):
        return "", ""
    parts = []
    if record.held_n and not math.isnan(record.held_default + record.held_tuned):
        if record.metric == "cases":
            a, b = (f"{round(x * record.held_n)}/{record.held_n}"
                    for x in (record.held_default, record.held_tuned))
        else:
            a, b, _ = pair_texts(record.held_default, record.held_tuned)
        parts.append(f"tuned held-out: {a} → {b}")
    if record.verdict:
        parts.append(record.lead())
    if not parts:
        return "", ""
    tip = "\n".join(t for t in (record.held_out_text(), record.verdict_text()) if t)
    return " · ".join(parts), tip
