"""Why the selected query ranks no document, as the CLI's `explain` says it: the model's own
reason where it knows one (vault-search's phrase rule, with its hint), else what can leave a
query empty. The ranked table showed a blank grid and the preview "Select a document to
preview it." with nothing to select (review r49, rg 4)."""

from __future__ import annotations

from workbench.core.session import TuningSession


def ranks_nothing(session: TuningSession) -> bool:
    """Whether the live result ranks no document for the selected query."""
    s, res = session, session.result
    return (res is not None and s.dataset is not None and len(s.dataset.queries) > 0
            and s.query < len(res.ranking.count) and int(res.ranking.count[s.query]) == 0)


def nothing_ranked(session: TuningSession) -> str:
    """"no result: <why>" for a query the live result ranks nothing for ("" otherwise)."""
    s = session
    if not ranks_nothing(s) or s.model is None or s.dataset is None:
        return ""
    why = ""
    if s.prepared is not None and not s.needs_prepare:
        why = s.model.not_a_candidate(s.prepared, s.dataset, s.query, None, s.params)
    if not why:  # the CLI's words where the model knows no reason of its own
        floor = any(part in p.name.lower() for p in s.model.schema
                    for part in ("min_score", "min_similarity", "minscore"))
        why = ("every candidate scored 0"
               + (", was gated, or fell below the min score" if floor else " or was gated"))
    return f"no result: {why}"


def empty_preview(session: TuningSession) -> str:
    """The preview's line with no document to show: where the query ranks nothing, that no
    document matched (or, where gated documents are listed, that one may be picked)."""
    from .ranked_rows import ranked_rows

    if session.docs or not ranks_nothing(session):
        return "Select a document to preview it."
    if ranked_rows(session):  # gated or cut documents listed with no rank
        return "No document is returned for this query: select a listed one to preview it."
    return "No document matched this query."
