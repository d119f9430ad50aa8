"""Tables as CSV files, written atomically: the ranked table of the selected query (one row per
document with its rank, rank change, score, judged relevance, gate and each signal's
contribution), and any panel's rows (`write_rows`); a panel's picture (`write_grab`). Cells a
spreadsheet would run as formulas are made inert (`core.csv_out`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path

from PySide6.QtWidgets import QWidget

from workbench.core.csv_out import csv_text
from workbench.core.session import TuningSession
from workbench.core.store import atomic_write_text

from .ranked_rows import ranked_rows


def ranked_csv(session: TuningSession, limit: int = 1000) -> tuple[str, int]:
    """(CSV text, number of document rows)."""
    rows = ranked_rows(session, limit=limit)
    signals = list(session.result.scores.signals) if session.result is not None else []
    qid = session.dataset.queries[session.query].id if session.dataset is not None else ""
    header = ["query_id", "rank", "change", "doc_id", "title", "score", "relevance", "gate",
              *signals]
    table = [[qid, "" if r.rank is None else r.rank, r.change, r.doc_id, r.title,
              "" if math.isnan(r.score) else f"{r.score:.6g}",
              "" if r.relevance is None else r.relevance, r.gate,
              *(f"{float(v):.6g}" for v in r.contributions)] for r in rows]
    return csv_text(header, table), len(rows)


def write_ranked_csv(session: TuningSession, path: Path) -> int:
    text, n = ranked_csv(session)
    atomic_write_text(path, text)
    return n


def write_rows(path: Path, header: Sequence[object], rows: Iterable[Sequence[object]]) -> Path:
    """`header` and `rows` as CSV at `path`, atomically (a reader never sees half a file)."""
    atomic_write_text(path, csv_text(header, rows))
    return path


def write_grab(widget: QWidget, path: Path) -> Path:
    """The widget as it is on screen, as a PNG."""
    if not widget.grab().save(str(path)):
        raise OSError(f"{path}: could not write the PNG")
    return path
