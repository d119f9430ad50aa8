"""What the injection diagnostics panel shows, computed without widgets: the why-stats figures
in their two tables, their formatting and verdict, the injections log beside the data and the
result-count distribution (the turns the current parameters would inject are
`core.diagnostics.live_injection`'s).
`diagnostics.InjectionDiagnostics` draws them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from workbench.core.diagnostics import InjectionStats, min_score_decides_text
from workbench.gui.palette import signed

MODEL_ID = "decision-memory"
LOG_FILE = "injections.jsonl"

# (key, label, decimals; 0 prints as %g): the CLI's figures, in two tables of eight rows so
# that they fit the chart area's height; the top and tail scores count an empty turn as 0, as
# the CLI's "(no result = 0)" rows; "margin" is the last result's score − its turn's own min
# score over the turns that injected (the verdict line's figure: an empty turn has no last
# result to be above anything), "verdict" whether the threshold is doing real work
FIGURES: tuple[tuple[tuple[str, str, int], ...], ...] = (
    (("turns", "turns", 0),
     ("count_mean", "results/turn mean", 2),
     ("count_p50", "results/turn p50", 0),
     ("count_p95", "results/turn p95", 0),
     ("hit_limit_pct", "hit the limit %", 1),
     ("zero_pct", "no result %", 1),
     ("snippet_mean", "snippet chars avg", 1),
     ("tokens_per_turn", "tokens/turn (est.)", 0)),
    (("top_avg", "top score avg (empty = 0)", 2),
     ("top_min", "top score min", 0),
     ("top_max", "top score max", 0),
     ("tail_avg", "tail score avg (empty = 0)", 2),
     ("min_score", "min score", 0),
     ("limit", "limit", 0),
     ("margin", "tail − min, injected turns", 2),
     ("verdict", "threshold decides", 0)),
)


EMPTY_AS_0 = ("an empty turn counts as a score of 0 here, as in pi-lodestone's /memory "
              "why-stats (the CLI's “no result = 0”)")
# a figure's row → its tooltip
ROW_HELP = {
    "top_avg": f"the first result's score, averaged over every turn: {EMPTY_AS_0}",
    "top_min": f"the lowest first-result score: {EMPTY_AS_0}",
    "top_max": "the highest first-result score",
    "tail_avg": f"the last injected result's score, averaged over every turn: {EMPTY_AS_0}",
    "margin": ("the last injected result's score less its turn's own min score, averaged over "
               "the turns that injected something (an empty turn has no last result): the "
               "figure the line above quotes"),
}

SETTINGS = {"min_score": "min_score_range", "limit": "limit_range"}  # row → its range
# row → decision-memory's sliders of that setting (injection, manual search)
SLIDERS = {"min_score": ("inject_min_score", "search_min_score"),
           "limit": ("inject_limit", "search_limit")}


def figure(stats: InjectionStats, key: str) -> float:
    if key == "margin":  # each turn that injected against its own min score
        return stats.tail_margin_answered
    return float(getattr(stats, key))


def varies(stats: InjectionStats, key: str) -> bool:
    """Whether the turns differ in this setting (min score, limit)."""
    lo, hi = getattr(stats, SETTINGS[key])
    return bool(lo != hi)


def setting_text(stats: InjectionStats, key: str) -> str:
    """A turn setting's cell: the one every turn applies, else the range of the turns'
    own ("1–5")."""
    lo, hi = getattr(stats, SETTINGS[key])
    return f"{lo:g}–{hi:g}" if lo != hi else f"{figure(stats, key):g}"


def fmt(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}" if decimals else f"{value:g}"


def fmt_delta(delta: float, decimals: int) -> str:
    """Signed; a %g figure's delta with two decimals unless it is whole."""
    return signed(delta, decimals or (0 if float(delta).is_integer() else 2))


def with_delta(text: str, delta: str | None) -> str:
    """A current figure's cell: the figure, then its change from the baseline where one is
    pinned ("20  +12", "0.95  ±0")."""
    return text if delta is None else f"{text}  {delta}"


def verdict(stats: InjectionStats, emptied: int | None = None) -> str:
    """The why-stats closing line about the threshold, short: the same rule as that line
    (`emptied`: the turns the min score left empty though they matched, known live)."""
    return min_score_decides_text(stats, emptied)


VERDICT_HELP = ("Whether the min score decides what is injected, by the rule of the line above "
                "the tables: yes (“empties N”) where it leaves N turns empty whose best match "
                "scored below it, or "
                "where the last injected result (over the turns that injected something) "
                "averages within 3 of it; otherwise the tail sits well above it and the "
                "threshold rarely cuts the last result. The Log column cannot tell which "
                "empty turns the min score emptied. The tail score avg row counts an empty "
                "turn as 0, as pi-lodestone's why-stats does.")


def log_path(source: str | None) -> Path | None:
    """The injections log beside the opened decisions (a folder, or its decisions file)."""
    if not source:
        return None
    p = Path(source)
    log = p / LOG_FILE if p.is_dir() else p.with_name(LOG_FILE)
    return log if log.is_file() else None


def distribution(counts: tuple[int, ...], size: int) -> NDArray[np.int64]:
    """Turns with 0, 1, 2, … results: int64 (size,)."""
    out: NDArray[np.int64] = np.bincount(np.asarray(counts, np.int64), minlength=size)[:size]
    return out
