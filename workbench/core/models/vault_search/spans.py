"""Where the shipped variant matches a note, as character spans of its text: what a preview
marks. The shipped code matches the whole query as one phrase within a line (JavaScript `/gi`
on UTF-16 units, see `jsstring`), and its snippet wraps every occurrence on a matching line;
single query words it never matches, so a preview marking them shows matches that are not
there (rv52 1: "Backups", "restic" and "Backup retention" marked where tf counted the one
"restic backup")."""

from __future__ import annotations

from collections.abc import Iterable

from workbench.core.models.vault_search.jsstring import (
    canonicalize,
    find_all,
    from_units,
    to_units,
)


def phrase_spans(text: str, query: str, lines: Iterable[int]) -> list[tuple[int, int]]:
    """(start, end) character offsets into `text` of every non-overlapping occurrence of
    `query` on each of `lines` (1-indexed, split on `\\n` as the original splits), matched
    as the original matches it; in text order."""
    needle = canonicalize(to_units(query))
    if not needle:
        return []
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    rows = text.split("\n")
    out: list[tuple[int, int]] = []
    for n in sorted(set(int(x) for x in lines)):
        if not 1 <= n <= len(rows):
            continue
        units = to_units(rows[n - 1])
        for i in find_all(canonicalize(units), needle):
            # unit offsets back to characters: an astral character is two units, one char
            a = len(from_units(units[:i]))
            b = a + len(from_units(units[i:i + len(needle)]))
            out.append((starts[n - 1] + a, starts[n - 1] + b))
    return out
