"""The ranked table of the selected query as CSV: one row per document with its rank, rank
change, score, judged relevance, gate and each signal's contribution."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from workbench.core.engine import atomic_write_text
from workbench.core.session import TuningSession

from .ranked_rows import ranked_rows


def ranked_csv(session: TuningSession, limit: int = 1000) -> tuple[str, int]:
    """(CSV text, number of document rows)."""
    rows = ranked_rows(session, limit=limit)
    signals = list(session.result.scores.signals) if session.result is not None else []
    qid = session.dataset.queries[session.query].id if session.dataset is not None else ""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["query_id", "rank", "change", "doc_id", "title", "score", "relevance", "gate",
                *signals])
    for r in rows:
        w.writerow([qid, "" if r.rank is None else r.rank, r.change, r.doc_id, r.title,
                    "" if math.isnan(r.score) else f"{r.score:.6g}",
                    "" if r.relevance is None else r.relevance, r.gate,
                    *(f"{float(v):.6g}" for v in r.contributions)])
    return out.getvalue(), len(rows)


def write_ranked_csv(session: TuningSession, path: Path) -> int:
    text, n = ranked_csv(session)
    atomic_write_text(path, text)
    return n
