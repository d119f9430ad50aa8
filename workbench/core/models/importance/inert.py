"""Which importance parameters cannot change any score on the data prepared, whatever the other
live values (`Model.inert_params`): the tune leaves them out of a default search, the window
greys their labels and says why.

- the bands and the resurfacing rule: explain reports them; they rank nothing.
- `default_tier` where every memory has a tier; a tier's base (and its staleness) where no
  memory has that tier and every memory has one.
- an outcome's boost where no memory has that outcome (`outcome_fires_failure`: no failure).
- a category's boost where nothing can fire it (no phrase; emotion: no '!' either; failure: no
  failure outcome either; correction: no contradiction either); `exclamation_min` with no '!'.
- the dismissal rules with no memory dismissed; the superseded rules with none superseded.
- every staleness setting where no memory was accessed before its query's clock and every
  memory has a date; `undated_days` where every memory has one.
"""

from __future__ import annotations

import numpy as np

from workbench.core.models.importance.prepared import ImportancePrepared
from workbench.core.models.importance.rules import CATEGORIES, OUTCOMES, TIERS

EXPLAIN_ONLY = ("resurface_threshold", "standard_threshold", "short_threshold",
                "resurface_dismissals")
# each tier's own staleness settings (short's also serve ultra-short unless set apart)
_STALE = {"ultra-short": ("stale_ultra_short", "stale_ultra_short_days", "ultra_short_own_decay"),
          "short": ("stale_short", "stale_short_days"),
          "medium": ("stale_medium", "stale_medium_days"),
          "long": ("stale_long", "stale_long_days")}


def inert(prep: ImportancePrepared) -> dict[str, str]:
    """Parameter → why no score moves with it on `prep`."""
    out = {n: "shown in explain only; it ranks nothing" for n in EXPLAIN_ONLY}
    if not prep.n_docs:
        return out
    tiered = bool((prep.tier >= 0).all())
    if tiered:
        out["default_tier"] = "every memory has a tier"
        held = {TIERS[int(t)] for t in np.unique(prep.tier)}
        for t in TIERS:
            if t not in held:
                why = f"no memory is {t} (and every memory has a tier)"
                out[f"base_{t.replace('-', '_')}"] = why
                if t != "short" or "ultra-short" not in held:  # short's rate serves both
                    out.update(dict.fromkeys(_STALE[t], why))
    have = {OUTCOMES[int(o)] for o in np.unique(prep.outcome) if o >= 0}
    for o in OUTCOMES:
        if o not in have:
            out[f"outcome_{o}"] = f"no memory has the outcome {o}"
    if "failure" not in have:
        out["outcome_fires_failure"] = "no memory has the outcome failure"
    marks = int(prep.exclaim.max())
    if not marks:
        out["exclamation_min"] = "no memory has an exclamation mark"
    fires = {c: bool(prep.fired[i].any()) for i, c in enumerate(CATEGORIES)}
    fires["emotion"] |= marks > 0
    fires["failure"] |= "failure" in have
    fires["correction"] |= bool(prep.contradicts.any())
    for c, fired in fires.items():
        if not fired:
            out[f"boost_{c}"] = f"nothing in the memories fires the {c} category"
    if not prep.dismissals.any():
        out.update(dict.fromkeys(("dismissal", "dismiss_cap_count", "dismiss_cap"),
                                 "no memory was dismissed"))
    if not prep.superseded.any():
        out.update(dict.fromkeys(("superseded_decay", "superseded_archive"),
                                 "no memory is superseded"))
    if not prep.undated.any():
        out["undated_days"] = "every memory has a readable created_at or last_accessed"
    # a grace of 0 decays any part of a day; with no query there is no clock yet, so nothing
    # is said; a memory with no date is as stale as undated_days makes it
    if prep.inactive.size and not (prep.inactive > 0).any() and not prep.undated.any():
        out.update(dict.fromkeys((*(n for names in _STALE.values() for n in names),
                                  "whole_days"), "no memory was accessed before its clock"))
    return out
