"""TREC qrels (`qid 0 docno rel`) and run files (`qid Q0 docno rank score tag`).

Whitespace separated, as trec_eval reads them. trec_eval ignores the rank column: it orders a
query's documents by score descending, ties by docno descending (strcmp), and `write_trec_run`
writes ranks in that same order so the file reads the same to a person and to trec_eval.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from pathlib import Path

from workbench.core.data import FormatError, Qrels, Run
from workbench.core.formats._common import (
    MAX_GRADE,
    StrPath,
    empty_file,
    numbered_lines,
    parse_grade,
    read_text,
)
from workbench.core.store import atomic_write_text

QRELS_COLUMNS = ("qid", "iter", "docno", "rel")
RUN_COLUMNS = ("qid", "Q0", "docno", "rank", "score", "tag")


def _columns(path: Path, line: int, text: str, names: tuple[str, ...]) -> list[str]:
    cols = text.split()
    if len(cols) != len(names):
        raise FormatError(path, f"expected {len(names)} whitespace-separated columns "
                          f"({' '.join(names)}), found {len(cols)}", line=line, field="columns")
    return cols


def _is_a_name(text: str) -> bool:
    """A header's column name (rel, score), not a grade written wrong (1.5, +-1)."""
    return bool(text) and not any(c.isdigit() for c in text) and text.lower() not in (
        "nan", "inf", "infinity", "-inf")


def looks_like_run(cols: Sequence[str]) -> bool:
    """`qid Q0 docno rank score tag`: a TREC run's line (an integer rank, a numeric score)."""
    if len(cols) != len(RUN_COLUMNS):
        return False
    try:
        int(cols[3])
        float(cols[4])
    except ValueError:
        return False
    return True


def read_trec_qrels(path: StrPath, query_ids: Collection[str] | None = None) -> Qrels:
    """Graded judgments from a TREC qrels file; with `query_ids`, other queries are errors.

    Documents need not be in any corpus: trec_eval counts them as relevant-but-unretrievable.
    """
    path = Path(path)
    qrels: Qrels = {}
    seen: dict[tuple[str, str], int] = {}
    for line, text in numbered_lines(read_text(path)):
        qid, _iter, docno, rel = _columns(path, line, text, QRELS_COLUMNS)
        try:
            grade = parse_grade(rel)
        except ValueError:
            if not seen and _is_a_name(rel):  # `qid iter docno rel`: a header, not a bad grade
                # the position is said once, by the error's FILE:LINE (dr4 11)
                # and the header said once, by the field (dr7 8)
                raise FormatError(path, f"column names ({', '.join(text.split())}), not a "
                                  "judgment: TREC qrels name no columns; delete the line",
                                  line=line, field="header") from None
            raise FormatError(path, f"expected an integer grade (within ±{MAX_GRADE:,}), found "
                              f"{rel!r}",
                              line=line, field="rel") from None
        if query_ids is not None and qid not in query_ids:
            unpadded = str(int(qid)) if qid.isascii() and qid.isdigit() else qid
            raise FormatError(path, f"unknown query id {qid!r}"
                              + (f" (a topic file's {qid} is read as {unpadded}, as Anserini "
                                 f"reads it: write {unpadded} here)"
                                 if unpadded != qid and unpadded in query_ids else ""),
                              line=line, field="qid")
        first = seen.setdefault((qid, docno), line)
        if first != line:
            raise FormatError(path, f"duplicate judgment for ({qid!r}, {docno!r}) "
                              f"(first on line {first})", line=line, field="docno")
        qrels.setdefault(qid, {})[docno] = grade
    if not qrels:
        raise empty_file(path, "judgment", "qid")
    return qrels


def read_trec_run(path: StrPath) -> Run:
    """A run (query id → document id → score) from a TREC run file.

    Documents keep file order within a query; ranks are checked to be integers, not used.
    """
    path = Path(path)
    run: Run = {}
    seen: dict[tuple[str, str], int] = {}
    for line, text in numbered_lines(read_text(path)):
        qid, _q0, docno, rank, score_text, _tag = _columns(path, line, text, RUN_COLUMNS)
        try:
            int(rank)
        except ValueError:
            raise FormatError(path, f"expected an integer rank, found {rank!r}",
                              line=line, field="rank") from None
        try:
            score = float(score_text)
        except ValueError:
            score = math.nan
        if math.isnan(score):
            raise FormatError(path, f"expected a number, found {score_text!r}",
                              line=line, field="score")
        first = seen.setdefault((qid, docno), line)
        if first != line:
            raise FormatError(path, f"duplicate document {docno!r} for query {qid!r} "
                              f"(first on line {first})", line=line, field="docno")
        run.setdefault(qid, {})[docno] = score
    if not run:
        raise empty_file(path, "result", "qid")
    return run


def trec_order(scores: dict[str, float]) -> list[tuple[str, float]]:
    """(docno, score) as trec_eval ranks them: score descending, ties docno descending.

    Python compares str by code point, which is the byte order of UTF-8, i.e. strcmp's.
    """
    return sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)


def format_trec_run(run: Run, tag: str = "workbench") -> str:
    """The text of a TREC run file; raises ValueError for ids or a tag holding whitespace."""
    _check_token(tag, "tag")
    lines: list[str] = []
    for qid, scores in run.items():
        _check_token(qid, "query id")
        for rank, (docno, score) in enumerate(trec_order(scores), start=1):
            _check_token(docno, "document id")
            if math.isnan(score):
                raise ValueError(f"score of {docno!r} for query {qid!r} is NaN")
            lines.append(f"{qid} Q0 {docno} {rank} {float(score)!r} {tag}\n")
    return "".join(lines)


def write_trec_run(path: StrPath, run: Run, tag: str = "workbench") -> None:
    """Write `run` as a TREC run file, atomically (readers see the old file or the new one)."""
    atomic_write_text(Path(path), format_trec_run(run, tag))


def check_run_ids(query_ids: Sequence[str], doc_ids: Sequence[str]) -> None:
    """ValueError naming the first query or document id a run file cannot hold (empty, or
    holding whitespace: the format splits on it), before a run is made."""
    for ids, what in ((query_ids, "query id"), (doc_ids, "document id")):
        for value in ids:
            _check_token(value, what)


def _check_token(value: str, what: str) -> None:
    if not value or value != "".join(value.split()):
        raise ValueError(f"{what} {value!r} cannot be written to a TREC file: "
                         "empty or holding whitespace")
