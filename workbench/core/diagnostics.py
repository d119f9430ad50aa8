"""Injection diagnostics: pi-lodestone's `/memory why-stats` figures (REFERENCE.md §1).

The same statistics come from two sources: a real `injections.jsonl` log (what was injected),
or a ranking the workbench just computed for the current parameters (what would be injected) —
so moving the min-score or limit slider shows how many memories each turn gets and what that
costs in tokens.

Conventions, as the original computes them:
- percentile p of n sorted values = sorted[min(n − 1, floor(p/100 · n))];
- top score = the first result's score, tail score = the last result's, 0 for a turn that
  injected nothing (averaged over all turns);
- estimated tokens per turn = round(mean snippet length × mean result count / 4), halves up;
- the threshold "is doing real work" when tail average − min score < 3.

Each turn carries the min score and limit its search applied: a log's as logged, a live
turn's as the model applies them — in decision-memory's mode "query" an eval case's own
(topK, minScore), whatever the sliders say (`turn_settings`). Figures that compare against them
(hit the limit, tail − min score) take each turn's own; "min score" and "limit" are the last
turn's, as the original prints them, with their range over the turns beside.

Beside them, the same averages over the turns that injected something (`answered`): with
many empty turns the original's averages fall below the min score itself (every empty turn
counts 0), and its verdict says "doing real work" for a gap of −40. `threshold_decides` is
the verdict on those; `threshold_doing_real_work` stays the original's.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from workbench.core.formats.pi_memory_injections import InjectionRecord

if TYPE_CHECKING:
    from workbench.core.data import Dataset
    from workbench.core.engine import Model
    from workbench.core.params import Params

DEFAULT_LAST, MIN_LAST, MAX_LAST = 500, 10, 10_000
REAL_WORK_MARGIN = 3.0
TOP_IDS = 8


@dataclass(frozen=True)
class Turn:
    """One injection: its results (id, score, snippet length), best first, and its settings."""

    results: tuple[tuple[str, float, int], ...]
    min_score: float
    limit: int
    ts: str = ""


@dataclass(frozen=True)
class InjectionStats:
    turns: int
    first_ts: str
    last_ts: str
    count_mean: float
    count_p50: float
    count_p95: float
    hit_limit_pct: float
    zero_pct: float
    top_avg: float
    top_min: float
    top_max: float
    tail_avg: float
    min_score: float
    limit: int
    snippet_mean: float
    tokens_per_turn: int
    most_injected: tuple[tuple[str, int, float], ...]  # id, times, average score
    counts: tuple[int, ...]  # results per turn, for the distribution chart
    answered: int = 0  # turns with at least one result
    top_avg_answered: float = 0.0  # top and tail averages over those turns alone
    tail_avg_answered: float = 0.0
    # over those turns, the mean of each last result's score less that turn's own min score
    # (a log's min score may have changed along the way)
    tail_margin_answered: float = 0.0
    # each turn's min score and limit, lowest and highest (a log's may have changed along the
    # way; live, an eval case sets its own): "min score" and "limit" are the last turn's
    min_score_range: tuple[float, float] = (0.0, 0.0)
    limit_range: tuple[int, int] = (0, 0)
    # over every turn, its last result's score (0 for a turn with none) less its own min
    # score: the original's tail average − min score where every turn has the same one
    tail_margin: float = 0.0

    @property
    def threshold_doing_real_work(self) -> bool:
        """pi-lodestone's verdict, on averages that count an empty turn as 0."""
        return self.turns > 0 and self.tail_avg - self.min_score < REAL_WORK_MARGIN

    @property
    def threshold_decides(self) -> bool:
        """The verdict on the turns that injected something: their last result's score
        averages within the margin of the min score."""
        return self.answered > 0 and self.tail_margin_answered < REAL_WORK_MARGIN


def clamp_last(n: int | None) -> int:
    """why-stats reads the log's last n lines: default 500, clamped to 10..10000."""
    return DEFAULT_LAST if n is None else max(MIN_LAST, min(MAX_LAST, n))


def percentile(sorted_values: Sequence[float], p: float) -> float:
    if not sorted_values:
        return 0.0
    n = len(sorted_values)
    return float(sorted_values[min(n - 1, math.floor(p / 100 * n))])


def js_round(x: float) -> int:
    return math.floor(x + 0.5)


def injection_stats(turns: Sequence[Turn]) -> InjectionStats:
    """Every why-stats figure over the given turns (oldest first)."""
    n = len(turns)
    counts = [len(t.results) for t in turns]
    ordered = sorted(counts)
    tops = [t.results[0][1] if t.results else 0.0 for t in turns]
    tails = [t.results[-1][1] if t.results else 0.0 for t in turns]
    hit_tops = [t.results[0][1] for t in turns if t.results]
    hit_tails = [t.results[-1][1] for t in turns if t.results]
    margins = [t.results[-1][1] - t.min_score for t in turns if t.results]
    mins = [t.min_score for t in turns]
    limits = [t.limit for t in turns]
    snippets = [r[2] for t in turns for r in t.results]
    seen: Counter[str] = Counter()
    score_sum: defaultdict[str, float] = defaultdict(float)
    for t in turns:
        for rid, score, _ in t.results:
            seen[rid] += 1
            score_sum[rid] += score
    most = tuple((rid, c, score_sum[rid] / c) for rid, c in seen.most_common(TOP_IDS))
    count_mean = sum(counts) / n if n else 0.0
    snippet_mean = sum(snippets) / len(snippets) if snippets else 0.0
    last = turns[-1] if turns else None
    # the time span over the turns whose ts is a date: "… yesterday" had been its end (ra 8)
    dated = [t.ts for t in turns if t.ts and is_date(t.ts)]
    return InjectionStats(
        turns=n,
        first_ts=dated[0] if dated else "",
        last_ts=dated[-1] if dated else "",
        count_mean=count_mean,
        count_p50=percentile(ordered, 50),
        count_p95=percentile(ordered, 95),
        hit_limit_pct=100 * sum(1 for t in turns if len(t.results) >= t.limit > 0) / n if n
        else 0.0,
        zero_pct=100 * counts.count(0) / n if n else 0.0,
        top_avg=sum(tops) / n if n else 0.0,
        top_min=min(tops, default=0.0),
        top_max=max(tops, default=0.0),
        tail_avg=sum(tails) / n if n else 0.0,
        min_score=last.min_score if last else 0.0,
        limit=last.limit if last else 0,
        snippet_mean=snippet_mean,
        tokens_per_turn=js_round(snippet_mean * count_mean / 4),
        most_injected=most,
        counts=tuple(counts),
        answered=len(hit_tops),
        top_avg_answered=sum(hit_tops) / len(hit_tops) if hit_tops else 0.0,
        tail_avg_answered=sum(hit_tails) / len(hit_tails) if hit_tails else 0.0,
        tail_margin_answered=sum(margins) / len(margins) if margins else 0.0,
        min_score_range=(min(mins), max(mins)) if mins else (0.0, 0.0),
        limit_range=(min(limits), max(limits)) if limits else (0, 0),
        tail_margin=sum(t - m for t, m in zip(tails, mins, strict=True)) / n if n else 0.0,
    )


def is_date(ts: str) -> bool:
    """Whether a logged `ts` is a date as pi-lodestone reads one (`Date.parse`)."""
    from workbench.core.models.decision_memory.project import parse_time

    return not math.isnan(parse_time(ts))


def excerpt_length(text: str, limit: int = 180) -> int:
    """An estimate of a snippet's length for a model that shows none of its own: whitespace
    collapsed, cut to `limit` characters with one ellipsis. decision-memory's turns take
    the real snippets instead (`turns_from_injections`)."""
    collapsed = " ".join(text.split())
    return len(collapsed) if len(collapsed) <= limit else limit + 1


def turns_from_log(records: Sequence[InjectionRecord], last: int | None = None) -> list[Turn]:
    """Turns of an injections log, the last n (clamped as why-stats clamps it)."""
    return logged_turns(list(records)[-clamp_last(last):])


def logged_turns(records: Sequence[InjectionRecord]) -> list[Turn]:
    """A turn for each of these log records, as logged."""
    return [Turn(tuple((m.id, m.score, m.snippet_length) for m in r.results), r.min_score,
                 r.limit, r.ts) for r in records]


def replayed_records(records: Sequence[InjectionRecord],
                     query_ids: Sequence[str]) -> list[InjectionRecord]:
    """The log's records that are among these queries: a pi-memory folder's queries are its
    logged turns that kept their prompt, each named `turn-<line>` (`injection_queries`), so
    that the log's figures over them are over the turns a live replay computes."""
    wanted = set(query_ids)
    return [r for r in records if r.prompt_preview and f"turn-{r.line}" in wanted]


def _each(value: Any, q: int) -> Any:
    """Query q's setting: `value` itself, or its q-th entry where it is given per query."""
    return value[q] if isinstance(value, Sequence) else value


def turns_from_ranking(doc_ids: Sequence[str], texts: Sequence[str], docs: Sequence[Sequence[int]],
                       scores: Sequence[Sequence[float]], counts: Sequence[int],
                       min_score: float | Sequence[float],
                       limit: int | Sequence[int]) -> list[Turn]:
    """Turns the current parameters would inject: one per query, its selected results; the
    min score and limit one for all, or each query's."""
    turns = []
    for q, n in enumerate(counts):
        results = tuple((doc_ids[int(docs[q][j])], float(scores[q][j]),
                         excerpt_length(texts[int(docs[q][j])])) for j in range(int(n)))
        turns.append(Turn(results, float(_each(min_score, q)), int(_each(limit, q))))
    return turns


class InjectionView(Protocol):
    """A query's injection as a model shows it (decision_memory.inject.Injection)."""

    docs: tuple[int, ...]
    scores: tuple[float, ...]
    injection: bool
    logged: bool

    @property
    def snippet_lengths(self) -> tuple[int, ...]: ...


def turns_from_injections(doc_ids: Sequence[str], views: Sequence[InjectionView],
                          min_score: float | Sequence[float],
                          limit: int | Sequence[int]) -> list[Turn]:
    """Turns the current parameters would log: one per query whose turn is logged at all (a
    disabled cwd logs nothing), each result's snippet length from its real snippet; the min
    score and limit one for all, or each query's (one per view)."""
    return [Turn(tuple((doc_ids[d], s, n) for d, s, n in zip(
        v.docs, v.scores, v.snippet_lengths, strict=True)), float(_each(min_score, q)),
        int(_each(limit, q))) for q, v in enumerate(views) if v.logged]


def turn_settings(model: Model, params: Params, n_queries: int, prepared: Any = None,
                  default_limit: int = 0) -> tuple[list[float], list[int]]:
    """The min score and limit each query's search applies, one per query. The model's
    selection where it states one for every query; else each query's own as the model's tick
    holds them (decision-memory in mode "query": an eval case's topK and minScore replace the
    sliders, the other queries take those of their mode), given the prepared state; else the
    injection sliders, `default_limit` for a model without one."""
    sel = model.selection_params(params)
    live = getattr(model, "live", None)
    if (sel.min_score is None or sel.limit is None) and prepared is not None \
            and hasattr(model, "injections") and live is not None:
        tick = live(prepared, params)
        mins, limits = getattr(tick, "q_min_score", None), getattr(tick, "q_limit", None)
        if mins is not None and limits is not None and len(mins) == n_queries:
            return [float(x) for x in mins], [int(x) for x in limits]
    min_score = sel.min_score if sel.min_score is not None else float(
        params.get("inject_min_score", 0))
    limit = sel.limit if sel.limit is not None else int(
        params.get("inject_limit", default_limit))
    return [min_score] * n_queries, [limit] * n_queries


@dataclass(frozen=True)
class LeftOut:
    """The queries a live injection leaves out of its turns (`counted_turns`): manual
    searches where some query injects (a search injects nothing: its results, up to the
    search limit, had been counted as an injected turn's, rv51 3), and turns from a disabled
    project (pi-lodestone logs nothing for them, rv51 6). `searches_only`: no query injects,
    so the turns are what each search returns."""

    searches: int = 0
    disabled: int = 0
    searches_only: bool = False

    def lines(self) -> list[str]:
        """What is left out, a line each ("" none): why-stats --live, the Injection tab and
        eval or sweep beside their selection figures say the same."""
        out = []
        if self.searches:
            out.append(f"{self.searches:,} manual search{'' if self.searches == 1 else 'es'} "
                       "left out: a search injects nothing (the figures are of the injections)")
        if self.searches_only:
            out.append("every query is a manual search: the figures are of what each search "
                       "returns; none is injected")
        if self.disabled:
            out.append(f"{self.disabled:,} quer{'y' if self.disabled == 1 else 'ies'} from a "
                       "disabled project (settings.json) not counted: pi-lodestone logs "
                       "nothing for "
                       + ("it" if self.disabled == 1 else "them"))
        return out


def counted_turns(injection: Sequence[bool], logged: Sequence[bool]
                  ) -> tuple[list[bool], LeftOut]:
    """Which queries are turns of the injection figures, one flag per query, given each
    query's mode (`injection`) and whether its turn is logged (`logged`: not from a disabled
    project): the logged injections where any query injects, else every logged query."""
    inject = any(injection)
    mode = [bool(i) or not inject for i in injection]
    counted = [m and bool(g) for m, g in zip(mode, logged, strict=True)]
    return counted, LeftOut(searches=sum(not m for m in mode),
                            disabled=sum(m and not g for m, g in zip(mode, logged, strict=True)),
                            searches_only=bool(len(mode)) and not inject)


def counted_queries(model: Model, prepared: Any, params: Params
                    ) -> tuple[list[bool], LeftOut] | None:
    """`counted_turns` from a model that holds each query's mode and disabled flag in its
    live state (decision-memory); None for another model (each query is a turn). For eval
    and sweep's selection figures (results, empty, injected_tokens), so that they count the
    turns why-stats --live and the Injection tab count."""
    live = getattr(model, "live", None)
    if prepared is None or live is None or not hasattr(model, "injections"):
        return None
    tick = live(prepared, params)
    injection, disabled = getattr(tick, "q_injection", None), getattr(tick, "q_disabled", None)
    if injection is None or disabled is None:
        return None
    return counted_turns([bool(x) for x in injection], [not bool(x) for x in disabled])


@dataclass(frozen=True)
class LiveInjection:
    """What `params` would inject, one turn per query counted (`live_injection`), and of the
    turns with no result how many the min score emptied though they matched; `left_out`: the
    queries that are no turn (`counted_turns`)."""

    turns: list[Turn]
    emptied: int
    left_out: LeftOut = LeftOut()


def live_injection(model: Model, params: Params, dataset: Dataset, result: Any,
                   prepared: Any = None, default_limit: int = 0) -> LiveInjection:
    """The turns `params` would inject (why-stats --live, the window's Injection tab), each
    held to its own query's min score and limit (`turn_settings`). Given the prepared state of
    a model that shows its injections, each turn's snippets are the real ones, and a query
    that injects nothing is left out (a manual search beside injections, a disabled
    project's turn: `counted_turns`); else a turn is the ranking's selected results
    (`result`: its ranking and scores)."""
    n = len(dataset.queries)
    mins, limits = turn_settings(model, params, n, prepared, default_limit)
    views = getattr(model, "injections", None)
    left_out = LeftOut()
    if prepared is not None and views is not None:
        shown = views(prepared, dataset, params)
        counted, left_out = counted_turns([v.injection for v in shown],
                                          [v.logged for v in shown])
        kept = [q for q in range(len(shown)) if counted[q]]
        turns = turns_from_injections(dataset.corpus.ids, [shown[q] for q in kept],
                                      [mins[q] for q in kept], [limits[q] for q in kept])
        empty = [q for q in kept if not len(shown[q].docs)]
    else:
        ranking = result.ranking
        texts = [d.text for d in dataset.corpus]
        width = int(ranking.count.max(initial=0))  # only the selected columns become lists
        turns = turns_from_ranking(dataset.corpus.ids, texts, ranking.docs[:, :width].tolist(),
                                   ranking.scores[:, :width].tolist(), ranking.count.tolist(),
                                   mins, limits)
        empty = [q for q, c in enumerate(ranking.count.tolist()) if not c]
    # a turn left empty with a match below its min score was emptied by the threshold
    return LiveInjection(turns, emptied_by_threshold(result.scores, empty, mins), left_out)


def emptied_by_threshold(scores: Any, empty: Sequence[int],
                         min_score: float | Sequence[float]) -> int:
    """Of the queries `empty` (turns with no result), how many the min score (one for all, or
    each query's) emptied: their best ungated score lies between 0 and the min score, or a
    match was gated as below it (decision-memory applies its min score as a gate) — not for
    want of a match."""
    below = (scores.gates.index("below_min_score") + 1 if "below_min_score" in scores.gates
             else -1)
    n = 0
    for q in empty:
        row = scores.row(q)
        live = scores.total[row][scores.gate[row] == 0]
        top = float(live.max()) if live.size else 0.0
        n += bool(0 < top < _each(min_score, q) or (scores.gate[row] == below).any())
    return n


def turns_text(n: int) -> str:
    return f"{n:,} turn" + ("" if n == 1 else "s")


def min_score_decides(st: InjectionStats, emptied: int | None = None) -> bool:
    """`verdict_line`'s rule, as a yes or no: a min score is set and it either empties turns
    that matched (`emptied`, known live) or the last injected results sit within
    `REAL_WORK_MARGIN` of it."""
    return st.min_score_range[1] > 0 and (bool(emptied) or st.threshold_decides)


def min_score_decides_text(st: InjectionStats, emptied: int | None = None) -> str:
    """`verdict_line` in a few words, for a table cell: "empties 10" (turns), "yes",
    "rarely", "no min score", "no result" or "no turns"."""
    if not st.turns:
        return "no turns"
    if st.min_score_range[1] <= 0:
        return "no min score"
    if emptied:
        return f"empties {emptied:,}"  # yes: it leaves that many turns empty
    if not st.answered:
        return "no result"
    return "yes" if min_score_decides(st, emptied) else "rarely"


def verdict_line(st: InjectionStats, emptied: int | None = None,
                 returns_unmatched: bool = True, searches: bool = False) -> str:
    """Whether the min score decides, on the turns that injected something (each against its
    own turn's min score) and, live (`emptied`), on the turns it left empty though they
    matched; and where pi-lodestone's verdict (its averages count a turn with no result as
    0) differs for that reason, that. `returns_unmatched`: with no min score a turn returns
    its score-0 results too (pi-lodestone's; a model injecting nothing itself is not said
    to: what it ranks depends on the model). `searches`: every turn a manual search, whose
    results are returned, not injected (dr5 9)."""
    inj = "returned" if searches else "injected"
    did = "returned something" if searches else "injected"
    empty = st.turns - st.answered
    if st.min_score_range[1] <= 0:  # no threshold (bm25, vault-search at 0): it decides nothing
        if not st.answered:
            return "no turn returned anything: no query matched (no min score removes any)"
        # decision-memory at 0 returns score-0 decisions (gated, unmatched) too, as the
        # original does (`returns_unmatched`); bm25 ranks its matches, hybrid every memory
        return ("no min score: each turn returns what it ranks, up to the limit"
                + (", whatever its score" if returns_unmatched and not empty else "")
                + (f"; {turns_text(empty)} returned nothing" if empty else ""))
    if not st.answered:  # why, as far as it is known (a log does not say)
        if emptied is None:
            return (f"no turn {inj} anything: below the min score, gated, no match, or a "
                    "prompt too short (the log does not say which)")
        if emptied == empty:
            return (f"no turn {inj} anything: every turn's best match scored below the min "
                    "score")
        if not emptied:
            return (f"no turn {inj} anything: no match, or every match gated (the min score "
                    "removed none)")
        return (f"no turn {inj} anything: the min score left {turns_text(emptied)} empty "
                f"whose best match scored below it; {turns_text(empty - emptied)} had no "
                "match, or every match gated")
    margin = st.tail_margin_answered
    # the margin counts only the turns that injected (as the GUI's "tail − min, injected
    # turns"); the tail average counts an empty one as 0, so say which turns where they differ
    over = f" over the {turns_text(st.answered)} that {did}" if empty else ""
    if emptied:  # live: turns that matched, every match below the min score
        nothing = empty - emptied
        return (f"the min score is doing real work: it leaves {turns_text(emptied)} empty whose "
                f"best match scored below it"
                + (f" ({turns_text(nothing)} had no match, or every match gated)" if nothing
                   else "")
                + f"; the last {inj} result scores {margin:.2f} above its turn's min "
                f"score on average{over}")
    if st.threshold_decides:
        out = (f"the min score is doing real work: the last {inj} result scores "
               f"{margin:.2f} above its turn's min score on average{over} (within "
               f"{REAL_WORK_MARGIN:g})")
    else:
        out = (f"the last {inj} results score well above the min score ({margin:.2f} above "
               f"it on average{over})"
               + (": the threshold rarely decides" if not empty else
                  f"; {turns_text(empty)} {inj} nothing ("
                  + ("no match, or every match gated" if emptied == 0
                     else "below the min score, or no match")
                  + ")"))
    if empty and st.threshold_doing_real_work != st.threshold_decides:
        out += ("\n(pi-lodestone's /memory why-stats says "
                + ("'doing real work'" if st.threshold_doing_real_work else "'rarely decides'")
                + f" here: its average {st.tail_avg:.2f} counts the "
                f"{turns_text(empty)} with no result as 0)")
    return out
