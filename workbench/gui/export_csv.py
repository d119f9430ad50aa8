"""Tables as CSV files, written atomically: the ranked table of the selected query (one row per
document with its rank, rank change as shown and as a number, score, judged relevance, gate
and each signal's contribution), and any panel's rows (`write_rows`); a panel's picture
(`write_grab`, `write_image`, `write_svg_drawing`), drawn in memory and written whole. Cells
a spreadsheet would run as formulas are made inert (`core.csv_out`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QRectF, QSize
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from workbench.core.csv_out import csv_text
from workbench.core.session import TuningSession
from workbench.core.store import atomic_write_bytes, atomic_write_text

from .ranked_rows import RankedRow, ranked_rows


def ranked_csv(session: TuningSession, limit: int = 1000) -> tuple[str, int]:
    """(CSV text, number of document rows); ValueError when there is no query (a corpus
    opened before its queries): a ranked table is a query's."""
    if session.dataset is None or not len(session.dataset.queries):
        raise ValueError("no query to export the ranked table of: type one in the box under "
                         "the query list, or open queries (File \u25b8 Open queries or "
                         "tasks\u2026)")
    if session.result is None:
        raise ValueError("no ranking yet: it is still being computed")
    rows = ranked_rows(session, limit=limit)
    signals = list(session.result.scores.signals)
    qid = session.dataset.queries[session.query].id
    # the change as the table shows it ("▲2", "same", "new") and as a number to sort on
    # (places gained since the baseline; empty where new, gated or without a baseline): "="
    # had been written "'=" (a formula guard), a stray apostrophe in pandas or R
    # the judged grade is "judged_relevance": importance has a signal named "relevance", and
    # two columns of one name became relevance.1 in pandas (review r49, dr4 10); a signal
    # named as another column is "signal_" that name
    fixed = ["query_id", "rank", "change", "rank_change", "doc_id", "title", "score",
             "judged_relevance", "gate"]
    header = fixed + [f"signal_{n}" if n in fixed else n for n in signals]
    table = [[qid, "" if r.rank is None else r.rank, "same" if r.change == "=" else r.change,
              _rank_change(r), r.doc_id, r.title,
              "" if math.isnan(r.score) else _number(r.score),
              "" if r.relevance is None else r.relevance, r.gate,
              *_contributions(r.contributions)] for r in rows]
    return csv_text(header, table), len(rows)


def _number(value: float) -> str:
    """Six significant digits, and no "-0"."""
    return f"{value + 0.0:.6g}"  # -0.0 + 0.0 is 0.0


def _contributions(values: Iterable[float]) -> list[str]:
    """A row's contributions, float noise (1.11022e-16 where a product of weights should give
    0: a millionth of a millionth of the row's largest) written 0 (dr4 10)."""
    parts = [float(v) for v in values]
    noise = 1e-12 * max((abs(v) for v in parts if math.isfinite(v)), default=0.0)
    return [_number(0.0 if abs(v) <= noise else v) for v in parts]


def _rank_change(row: RankedRow) -> int | str:
    """Places gained since the baseline's ranking (0 unchanged, −2 two places down); "" for
    a document new to the top, a gated one, or with no baseline."""
    value = row.change_value
    return int(value) if row.change and math.isfinite(value) else ""


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
    return write_image(widget.grab(), path)


def write_image(image: QImage | QPixmap, path: Path) -> Path:
    """`image` as a PNG at `path`: encoded in memory, then written atomically, so a full disk
    leaves the file that was there (Qt's own save wrote in place, and a full disk gave an empty
    or cut file while the export said it had worked)."""
    if isinstance(image, QPixmap):
        image = image.toImage()
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 takes the format as str; its stubs say bytes, which it refuses at run time
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError(f"{path}: could not encode the PNG")
    atomic_write_bytes(path, bytes(buffer.data().data()))
    return path


def write_svg_drawing(path: Path, size: QSize, title: str, draw: Callable[[QPainter], None],
                      dpi: int | None = None) -> Path:
    """What `draw` paints on a `size` canvas, as SVG vectors at `path`: drawn in memory, then
    written atomically."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buffer)
    gen.setSize(size)
    gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
    gen.setTitle(title)
    if dpi is not None:
        gen.setResolution(dpi)
    painter = QPainter(gen)
    try:
        draw(painter)
    finally:
        painter.end()
    data = bytes(buffer.data().data())
    if not data.rstrip().endswith(b"</svg>"):
        raise OSError(f"{path}: could not draw the SVG")
    atomic_write_bytes(path, data)
    return path
