"""Project scope and time, as pi-lodestone computes them (REFERENCE.md §1).

Project root of a path: if a segment equals `repos` (any case) and another follows, the root
ends at that next segment, else it is the whole path; the project name is the root's last
segment; two paths share a scope when their roots or their names are equal. Locality of a
decision for a query's cwd is the first of: same cwd, same scope, stored `project` equal to the
cwd's project name.

Times are `Date.parse` of ISO strings, in milliseconds; age is in fractional days.
"""

from __future__ import annotations

import calendar
import math
import re

# locality classes, in the order of the chain
NO_LOCALITY, SAME_CWD, SAME_SCOPE, SAME_NAME = 0, 1, 2, 3
DAY_MS = 86_400_000.0

_ISO = re.compile(
    r"(?P<y>[+-]\d{6}|\d{4})(?:-(?P<mo>\d{2})(?:-(?P<d>\d{2}))?)?"
    r"(?:[T ](?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.(?P<f>\d+))?)?)?"
    r"(?P<z>Z|[+-]\d{2}:\d{2})?", re.ASCII)


def _segments(path: str) -> list[str]:
    return [p for p in path.split("/") if p]


def project_root(cwd: str) -> str:
    parts = _segments(cwd)
    at = next((i for i, p in enumerate(parts) if p.lower() == "repos"), -1)
    if at >= 0 and at + 1 < len(parts):
        return "/" + "/".join(parts[: at + 2])
    return cwd


def project_name(cwd: str) -> str:
    parts = _segments(project_root(cwd))
    return parts[-1] if parts else cwd


def same_project_scope(a: str, b: str) -> bool:
    return project_root(a) == project_root(b) or project_name(a) == project_name(b)


def locality(decision_cwd: str, decision_project: str, cwd: str | None) -> int:
    """The locality class of a decision for the query's cwd (NO_LOCALITY without a cwd: the
    original tests `cwd &&` first)."""
    if not cwd:
        return NO_LOCALITY
    if decision_cwd == cwd:
        return SAME_CWD
    if same_project_scope(decision_cwd, cwd):
        return SAME_SCOPE
    if decision_project == project_name(cwd):
        return SAME_NAME
    return NO_LOCALITY


def in_project(decision_cwd: str, cwd: str | None) -> bool:
    """The project-only candidate filter: no cwd filters nothing (`!options.cwd`)."""
    return not cwd or same_project_scope(decision_cwd, cwd)


def check_time(text: str) -> str:
    """What is wrong with `text` as a pinned clock (a parameter's `check`): "" when it is
    empty or a time `parse_time` reads."""
    if not text.strip() or not math.isnan(parse_time(text)):
        return ""
    return "expected an ISO 8601 date or date-time, such as 2026-03-01T12:00:00Z, or nothing"


def parse_time(value: object) -> float:
    """`Date.parse` of an ISO 8601 date or date-time, in ms; NaN when it is not one.

    Date-only and offset forms are exact; a date-time without an offset is read as UTC (the
    original reads it in the machine's zone, which no test may depend on). Fractions of a
    millisecond are cut, as V8 does.
    """
    if not isinstance(value, str):
        return math.nan
    m = _ISO.fullmatch(value.strip())
    if m is None:
        return math.nan
    year = int(m["y"])
    month, day = int(m["mo"] or 1), int(m["d"] or 1)
    hour, minute, sec = int(m["h"] or 0), int(m["mi"] or 0), int(m["s"] or 0)
    if not (1 <= month <= 12 and 1 <= day <= _days_in(year, month)):
        return math.nan
    if hour > 24 or minute > 59 or sec > 59 or (hour == 24 and (minute or sec or m["f"])):
        return math.nan
    ms = int((m["f"] or "0").ljust(3, "0")[:3])
    days = _days_from_civil(year, month, day)
    total = ((days * 24 + hour) * 60 + minute) * 60_000 + sec * 1000 + ms
    z = m["z"]
    if z and z != "Z":
        sign = 1 if z[0] == "+" else -1
        oh, om = int(z[1:3]), int(z[4:6])
        if oh > 23 or om > 59:
            return math.nan
        total -= sign * (oh * 60 + om) * 60_000
    return float(total)


def _days_in(year: int, month: int) -> int:
    if month == 2:
        return 29 if calendar.isleap(year) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def age_days(now_ms: float, created_at: object) -> float:
    """(now − Date.parse(createdAt)) / 86,400,000: fractional days, NaN when unparsable."""
    return (now_ms - parse_time(created_at)) / DAY_MS
