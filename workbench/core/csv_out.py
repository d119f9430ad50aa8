"""CSV as the workbench writes it: one writer for every export, with cells that a spreadsheet
would run as a formula made inert.

A cell beginning with `=`, `+`, `-`, `@` (or a tab or carriage return, which some spreadsheets
skip before looking) is read by Excel, LibreOffice and Google Sheets as a formula: a document
title such as `=HYPERLINK("http://…")` would run when the export is opened (OWASP's "CSV
injection"). Such text cells get a leading apostrophe, which those programs show as text;
numbers, negative ones included, are written as they are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """`value`, with a leading apostrophe when it is text a spreadsheet would run."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value  # a number written as text ("-0.5"): read as a number, not a formula


def csv_text(header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """`header` and `rows` as CSV text (quoted where needed, formulas made inert)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([safe_cell(c) for c in header])
    w.writerows([safe_cell(c) for c in row] for row in rows)
    return out.getvalue()
