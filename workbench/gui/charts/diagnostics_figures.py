"""What the injection diagnostics panel shows, computed without widgets: the why-stats figures
in their two tables, their formatting and verdict, the injections log beside the data and the
result-count distribution (the turns the current parameters would inject are
`core.diagnostics.live_injection`'s).
`diagnostics.InjectionDiagnostics` draws them."""

from __future__ import annotations

import math
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
     ("count_mean", "results / query", 2),
     ("count_p50", "results p50", 0),
     ("count_p95", "results p95", 0),
     ("hit_limit_pct", "hit the limit %", 1),
     ("zero_pct", "empty queries %", 1),
     ("snippet_mean", "snippet chars avg", 1),
     ("tokens_per_turn", "tokens / query", 0)),
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
# the figures the metric cards show too (no judgments) are named as the cards name them
# ("results / query", "empty queries"): "results/turn mean" and "no result %" beside the cards'
# "results / query" and "empty queries" read as other figures (rA 8). Each query is one turn.
ONE_TURN = ("each query is one turn here; the Log column counts the log's turns")
# a figure's row → its tooltip (every row has one: "p95", "hit the limit" and "threshold
# decides" were said nowhere on screen)
ROW_HELP = {
    "turns": f"the turns counted: {ONE_TURN}",
    "count_mean": ("the results injected a turn, averaged over every turn (the “results / "
                   f"query” card): {ONE_TURN}"),
    "count_p50": "the median of the results injected a turn",
    "count_p95": "the 95th percentile of the results injected a turn",
    "hit_limit_pct": "the share of turns that injected as many results as their limit allows",
    "zero_pct": ("the share of turns that injected nothing (the “empty queries” card): "
                 f"{ONE_TURN}"),
    "snippet_mean": ("the injected snippets' length in characters, averaged over the snippets; "
                     "“—” where no turn injected anything, as there is no snippet to average"),
    "tokens_per_turn": ("the tokens injected a turn, estimated from the snippets' characters, "
                        "averaged over every turn (the “tokens / query” card)"),
    "min_score": "the min score the turns apply",
    "limit": "the most results a turn injects",
    "top_avg": f"the first result's score, averaged over every turn: {EMPTY_AS_0}",
    "top_min": f"the lowest first-result score: {EMPTY_AS_0}",
    "top_max": "the highest first-result score",
    "tail_avg": f"the last injected result's score, averaged over every turn: {EMPTY_AS_0}",
    "margin": ("the last injected result's score less its turn's own min score, averaged over "
               "the turns that injected something (an empty turn has no last result): the "
               "figure the line above quotes; “—” where no turn injected anything, as it "
               "has no last result to measure"),
}
NO_MARGIN = ("no turn injected anything: there is no last injected result to measure against "
             "the min score")
# a figure that needs an injected result → why it is "—" where no turn injected anything (the
# snippets' average had read a made-up 0.0 there, dG 3); the other figures stay defined: an
# empty turn injects 0 tokens and counts as a score of 0, as the CLI's rows say
UNDEFINED = {
    "margin": NO_MARGIN,
    "snippet_mean": "no turn injected anything: there is no snippet to average the length of",
}

SETTINGS = {"min_score": "min_score_range", "limit": "limit_range"}  # row → its range
# row → decision-memory's sliders of that setting (injection, manual search)
SLIDERS = {"min_score": ("inject_min_score", "search_min_score"),
           "limit": ("inject_limit", "search_limit")}


def figure(stats: InjectionStats, key: str) -> float:
    """A figure's value; NaN where it is undefined (`UNDEFINED`'s, with no turn injected: the
    margin had read 0.00, "the last results sit right at the min score", rA 7)."""
    if key in UNDEFINED and not stats.answered:
        return float("nan")
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
    """The figure at its decimals (0: as %g); "—" where it is undefined (NaN)."""
    if math.isnan(value):
        return "—"
    return f"{value:.{decimals}f}" if decimals else f"{value:g}"


def fmt_delta(delta: float, decimals: int) -> str | None:
    """Signed; a %g figure's delta with two decimals unless it is whole; None where either
    figure is undefined (no change to say)."""
    if math.isnan(delta):
        return None
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
