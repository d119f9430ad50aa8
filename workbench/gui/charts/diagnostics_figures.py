"""What the injection diagnostics panel shows, computed without widgets: the why-stats figures
in their two tables, their formatting and verdict, the turns the current parameters would
inject, the injections log beside the data and the result-count distribution.
`diagnostics.InjectionDiagnostics` draws them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.diagnostics import (
    InjectionStats,
    Turn,
    turns_from_injections,
    turns_from_ranking,
)
from workbench.core.engine import Model
from workbench.core.params import Params
from workbench.core.ranking import Ranking
from workbench.gui.palette import signed

MODEL_ID = "decision-memory"
LOG_FILE = "injections.jsonl"

# (key, label, decimals; 0 prints as %g): the CLI's figures, in two tables of eight rows so
# that they fit the chart area's height; "margin" is tail avg − min score, "verdict" whether
# the threshold is doing real work
FIGURES: tuple[tuple[tuple[str, str, int], ...], ...] = (
    (("turns", "turns", 0),
     ("count_mean", "results/turn mean", 2),
     ("count_p50", "results/turn p50", 0),
     ("count_p95", "results/turn p95", 0),
     ("hit_limit_pct", "hit the limit %", 1),
     ("zero_pct", "no result %", 1),
     ("snippet_mean", "snippet chars (mean)", 1),
     ("tokens_per_turn", "tokens/turn (est.)", 0)),
    (("top_avg", "top score avg", 2),
     ("top_min", "top score min", 0),
     ("top_max", "top score max", 0),
     ("tail_avg", "tail score avg", 2),
     ("min_score", "min score", 0),
     ("limit", "limit", 0),
     ("margin", "tail − min score", 2),
     ("verdict", "threshold decides", 0)),
)


def figure(stats: InjectionStats, key: str) -> float:
    if key == "margin":
        return stats.tail_avg - stats.min_score
    return float(getattr(stats, key))


def fmt(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}" if decimals else f"{value:g}"


def fmt_delta(delta: float, decimals: int) -> str:
    """Signed; a %g figure's delta with two decimals unless it is whole."""
    return signed(delta, decimals or (0 if float(delta).is_integer() else 2))


def verdict(stats: InjectionStats) -> str:
    """The why-stats closing line about the threshold, short."""
    if not stats.turns:
        return "no turns"
    if not stats.answered:
        return "no result"
    return "yes" if stats.threshold_decides else "rarely"


VERDICT_HELP = ("The min score is “doing real work” when the tail average (the last result's "
                "score, over the turns that injected something) is within 3 of it; otherwise "
                "the tail sits well above it and the threshold rarely cuts the last result. "
                "The tail score avg row counts an empty turn as 0, as pi-lodestone's "
                "why-stats does.")


def live_emptied(model: Model, params: Params, dataset: Dataset, result: Any,
                 prepared: Any = None) -> int:
    """Of the turns with no result, how many the min score emptied (each had a match below
    it), as `why-stats --live` counts them."""
    from workbench.core.diagnostics import emptied_by_threshold

    sel = model.selection_params(params)
    min_score = sel.min_score if sel.min_score is not None else float(
        params.get("inject_min_score", 0))
    views = getattr(model, "injections", None)
    if prepared is not None and views is not None:
        empty = [q for q, v in enumerate(views(prepared, dataset, params))
                 if v.logged and not len(v.docs)]
    else:
        empty = [q for q, n in enumerate(result.ranking.count.tolist()) if not n]
    return emptied_by_threshold(result.scores, empty, min_score)


def live_turns(model: Model, params: Params, dataset: Dataset, ranking: Ranking,
               prepared: Any = None) -> list[Turn]:
    """What `params` would inject, one turn per query, held to the selection the CLI uses: the
    model's own, else its injection min score and limit (decision-memory gates per query).
    Given the prepared state of a model that shows its injections, each turn's snippets are
    the real ones and a turn that is not logged (disabled cwd) is left out."""
    sel = model.selection_params(params)
    min_score = sel.min_score if sel.min_score is not None else float(
        params.get("inject_min_score", 0))
    limit = sel.limit if sel.limit is not None else int(
        params.get("inject_limit", 0))
    views = getattr(model, "injections", None)
    if prepared is not None and views is not None:
        return turns_from_injections(dataset.corpus.ids, views(prepared, dataset, params),
                                     min_score, limit)
    texts = [d.text for d in dataset.corpus]
    width = int(ranking.count.max(initial=0))  # only the selected columns become lists
    return turns_from_ranking(dataset.corpus.ids, texts, ranking.docs[:, :width].tolist(),
                              ranking.scores[:, :width].tolist(), ranking.count.tolist(),
                              min_score, limit)


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
