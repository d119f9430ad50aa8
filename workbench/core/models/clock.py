"""The implicit clock of the models that age their records (decision-memory, importance):
with no `now` set, a query without its own clock is scored as of the newest timestamp in the
corpus. One record dated in the future — a typo, a machine with a wrong clock — then moves
every age: the others look older than they are (archived, or past an age bonus) and nothing
says why. `future_clock_warning` says so, naming the record."""

from __future__ import annotations

import datetime as dt
import math
import time
from collections.abc import Iterable

from workbench.core.data import Dataset

DAY_MS = 86_400_000.0


def when(ms: float) -> str:
    """A time in ms since the epoch as ISO 8601 UTC, to the second."""
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def future_clock_warning(dataset: Dataset, now_param: str, stamps: Iterable[tuple[str, float]],
                         field: str, *, wall_ms: float | None = None) -> list[str]:
    """One line when the clock a query without its own `now` gets — the newest of `stamps`
    ((record id, ms), NaN for none), used where `now_param` is empty — lies more than a day
    after this machine's clock (`wall_ms`, by default the time now); else none."""
    if now_param.strip():
        return []
    if all(not math.isnan(_own(q.context.get("now"))) for q in dataset.queries):
        return []  # every query carries its own clock
    dated = sorted(((ms, rid) for rid, ms in stamps if not math.isnan(ms)), reverse=True)
    if not dated:
        return []
    wall = time.time() * 1000 if wall_ms is None else wall_ms
    newest, rid = dated[0]
    if newest <= wall + DAY_MS:
        return []
    later = len({r for ms, r in dated if ms > wall + DAY_MS} - {rid})  # other records
    past = next((ms for ms, _ in dated if ms <= wall + DAY_MS), math.nan)
    before = (f"; the newest before today is {when(past)}, "
              f"{(newest - past) / DAY_MS:,.0f} days earlier" if not math.isnan(past) else "")
    return [f"the clock of queries without their own `now` is the newest {field} in the corpus, "
            f"{when(newest)} ({rid!r}), which is after today ({when(wall)[:10]})"
            + (f", as {'is' if later == 1 else 'are'} {later:,} more record"
               f"{'' if later == 1 else 's'}" if later else "") + before
            + ": every age is counted from it, so the other records look that much older. "
            "Set the now parameter, or correct that record"]


def _own(value: object) -> float:
    from workbench.core.models.decision_memory.project import parse_time

    return parse_time(value)
