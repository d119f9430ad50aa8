"""eval --run: the ids a TREC run cannot hold refused before the work, named where they
were read."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from workbench.cli.common import UsageError
from workbench.cli.output import input_files
from workbench.core.data import Dataset


def check_run_file_ids(args: argparse.Namespace, dataset: Dataset) -> None:
    """A query or document id a TREC run cannot hold (empty, or holding whitespace: the format
    splits on it) refused before the work, every document's alike (a full table had been
    printed, then the run refused for a document it ranked), named where it was read: the
    JSON-lines file, line and field, or a vault's note."""
    from workbench.core.formats.trec import check_run_ids

    try:
        check_run_ids(dataset.queries.ids, dataset.corpus.ids)
    except ValueError as exc:
        # the id it names, one at a time in its order, to say where it was read
        for what, value in [*(("query id", q) for q in dataset.queries.ids),
                            *(("document id", d) for d in dataset.corpus.ids)]:
            try:
                check_run_ids(*(((value,), ()) if what == "query id" else ((), (value,))))
            except ValueError:
                break
        where, change = _id_source(args, value, what)
        raise UsageError(f"{where}{exc} (--run {args.run}): {change}, or leave out --run"
                         ) from None


def _id_source(args: argparse.Namespace, value: str, what: str) -> tuple[str, str]:
    """("FILE:LINE: field '_id': " of the JSON-lines record whose id is `value`, among the
    files the command reads (a document's in the corpus files, a query's in the query files
    first), "NOTE: " for a vault's note (its path is its id), "" where none is found; what to
    do: change the id, or rename the note)."""
    from workbench.core.formats.vault import vault_layout

    folder = Path(args.data)
    note = vault_layout(folder)[0] / value if folder.is_dir() else None
    if what == "document id" and note is not None and note.is_file():
        return f"{note}: ", "rename the note"
    queryish = ("queries", "tasks", "contexts")
    files = [(arg, p) for arg, p in input_files(args)
             if arg in ("DATA", "--queries") and p.suffix.lower() == ".jsonl" and p.is_file()]
    if what == "query id":  # --queries first, then the data's own query files
        files.sort(key=lambda f: (f[0] != "--queries", not f[1].name.startswith(queryish)))
    else:
        files = [f for f in files if f[0] == "DATA" and not f[1].name.startswith(queryish)]
    for _, path in files:
        try:
            with path.open(encoding="utf-8-sig", errors="replace") as lines:
                for n, line in enumerate(lines, start=1):
                    try:
                        record = json.loads(line)
                    except ValueError:
                        continue
                    if not isinstance(record, dict):
                        continue
                    field = next((k for k in ("_id", "id") if record.get(k) == value), None)
                    if field is not None:
                        return f"{path}:{n}: field '{field}': ", "change the id"
        except OSError:
            continue
    return "", "change the id"
