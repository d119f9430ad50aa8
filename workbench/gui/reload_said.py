"""What File ▸ Reload dataset changed, said in its status line: the judgments added, removed
and regraded, then the documents and queries added, removed and edited (by id). Counting net
rows alone said "+0" for an edited text, a renamed id or a changed grade (review r49, rg 2);
the judgments, said last, were cut off a 1,280 px status bar, and a query left out for having
no judgments any more was said to be removed (dr4 3, 4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from workbench.core.data import Dataset

NAMED = 3  # ids named up to this many a kind; more are counted only
LEFT_OUT = "left out (no judgments now)"


def _ids(ids: Sequence[str]) -> str:
    return ": " + ", ".join(ids) if len(ids) <= NAMED else ""


def _kinds(kinds: Sequence[tuple[str, Sequence[str]]], named: bool = True) -> str:
    """"1 edited: m14, 1 added: m81, 1 removed: m80" (the kinds with ids), or ""; without
    `named`, counts alone ("1 edited, 1 added")."""
    return ", ".join(f"{len(ids):,} {what}{_ids(ids) if named else ''}"
                     for what, ids in kinds if ids)


def _diff(before: Mapping[str, object], now: Mapping[str, object]
          ) -> tuple[list[str], list[str], list[str]]:
    """Ids added, removed, and kept with another value (each in the order read)."""
    added = [k for k in now if k not in before]
    removed = [k for k in before if k not in now]
    edited = [k for k in now if k in before and before[k] != now[k]]
    return added, removed, edited


def judgments_changed(before: Mapping[str, Mapping[str, int]] | None,
                      now: Mapping[str, Mapping[str, int]] | None
                      ) -> tuple[list[str], list[str], list[str]]:
    """The (query, document) pairs judged, unjudged and graded anew: "q04/m14"."""
    def flat(qrels: Mapping[str, Mapping[str, int]] | None) -> dict[str, int]:
        return {f"{q}/{d}": g for q, docs in (qrels or {}).items() for d, g in docs.items()}
    return _diff(flat(before), flat(now))


def _queries(before: Dataset, now: Dataset) -> str:
    """"20 queries (2 edited: q02, q03, 1 added: q21, 1 left out (no judgments now): q01)".
    A query gone from the set whose judgments went too, where the query file now has
    unjudged queries left out, was left out, not removed: the dataset counts those it left
    out, not which (a deleted query line with its judgments reads as left out only when
    the count allows no other reading)."""
    added, gone, edited = _diff({q.id: q for q in before.queries},
                                {q.id: q for q in now.queries})
    unjudged = [q for q in gone if (before.qrels or {}).get(q) and not (now.qrels or {}).get(q)]
    left_out: list[str] = []
    maybe: list[str] = []
    if unjudged and now.unjudged_left_out >= len(unjudged) + before.unjudged_left_out:
        left_out = unjudged
    elif unjudged and now.unjudged_left_out > before.unjudged_left_out:
        maybe = unjudged  # some of them: which, the count does not say
    removed = [q for q in gone if q not in left_out and q not in maybe]
    kinds = _kinds((("edited", edited), ("added", added), ("removed", removed),
                    (LEFT_OUT, left_out), (f"removed or {LEFT_OUT}", maybe)))
    return f"{len(now.queries):,} queries ({kinds or 'unchanged'})"


def judgments_said(before: Dataset, now: Dataset, named: bool = True) -> str:
    """"judgments 3 added, 5 removed, 1 regraded: q04/m14", "judgments unchanged", or ""
    where neither side has judgments; without `named`, counts alone."""
    if not (before.qrels or now.qrels):
        return ""
    kinds = _kinds(_judged_kinds(before, now), named)
    return f"judgments {kinds}" if kinds else "judgments unchanged"


def _judged_kinds(before: Dataset, now: Dataset) -> list[tuple[str, list[str]]]:
    added, removed, regraded = judgments_changed(before.qrels, now.qrels)
    return [("added", added), ("removed", removed), ("regraded", regraded)]


def reload_changes(before: Dataset, now: Dataset) -> tuple[str, str]:
    """(what changed in the judgments, counted — said first: it moves every metric —, the
    documents and queries, then the judgments' ids): ("judgments 1 regraded", "80 documents
    (1 edited: m14, 1 added: m81, 1 removed: m80), 20 queries (unchanged); judgments regraded:
    q04/m14"). The ids come last (dr7 5: at 1,280 px they had pushed the baseline's clause
    past the bar's edge). Judgments unchanged go with the rest."""
    docs = _diff({d.id: d for d in before.corpus}, {d.id: d for d in now.corpus})
    added, removed, edited = docs
    kinds = _kinds((("edited", edited), ("added", added), ("removed", removed)))
    rest = f"{len(now.corpus):,} documents ({kinds or 'unchanged'}), {_queries(before, now)}"
    judged = judgments_said(before, now, named=False)
    if judged == "judgments unchanged":
        return "", f"{rest}, {judged}"
    ids = "; ".join(f"{what}: {', '.join(pairs)}" for what, pairs in _judged_kinds(before, now)
                    if pairs and len(pairs) <= NAMED)
    return judged, rest + (f"; judgments {ids}" if ids else "")
