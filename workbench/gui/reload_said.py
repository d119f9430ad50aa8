"""What File ▸ Reload dataset changed, said in its status line: the documents and queries
added, removed and edited (by id) and the judgments changed. Counting net rows alone said
"+0" for an edited text, a renamed id or a changed grade (review r49, rg 2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from workbench.core.data import Dataset

NAMED = 3  # ids named up to this many a kind; more are counted only


def _ids(ids: Sequence[str]) -> str:
    return ": " + ", ".join(ids) if len(ids) <= NAMED else ""


def _kinds(added: Sequence[str], removed: Sequence[str], edited: Sequence[str]) -> str:
    """"1 edited: m14, 1 added: m81, 1 removed: m80", or "unchanged"."""
    parts = [f"{len(ids):,} {what}{_ids(ids)}" for what, ids in
             (("edited", edited), ("added", added), ("removed", removed)) if ids]
    return ", ".join(parts) if parts else "unchanged"


def _diff(before: Mapping[str, object], now: Mapping[str, object]
          ) -> tuple[list[str], list[str], list[str]]:
    """Ids added, removed, and kept with another value (each in the order read)."""
    added = [k for k in now if k not in before]
    removed = [k for k in before if k not in now]
    edited = [k for k in now if k in before and before[k] != now[k]]
    return added, removed, edited


def judgments_changed(before: Mapping[str, Mapping[str, int]] | None,
                      now: Mapping[str, Mapping[str, int]] | None) -> list[str]:
    """The (query, document) pairs judged, unjudged or graded anew: "q04/m14"."""
    def flat(qrels: Mapping[str, Mapping[str, int]] | None) -> dict[str, int]:
        return {f"{q}/{d}": g for q, docs in (qrels or {}).items() for d, g in docs.items()}
    a, r, e = _diff(flat(before), flat(now))
    return [*e, *a, *r]


def reload_changes(before: Dataset, now: Dataset) -> str:
    """"80 documents (1 edited: m14, 1 added: m81, 1 removed: m80), 20 queries (unchanged),
    1 judgment changed: q04/m14"."""
    docs = _diff({d.id: d for d in before.corpus}, {d.id: d for d in now.corpus})
    queries = _diff({q.id: q for q in before.queries}, {q.id: q for q in now.queries})
    out = (f"{len(now.corpus):,} documents ({_kinds(*docs)}), "
           f"{len(now.queries):,} queries ({_kinds(*queries)})")
    if before.qrels or now.qrels:
        judged = judgments_changed(before.qrels, now.qrels)
        out += (f", {len(judged):,} judgment{'' if len(judged) == 1 else 's'} changed"
                f"{_ids(judged)}" if judged else ", judgments unchanged")
    return out
