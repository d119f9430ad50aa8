"""The report's notes with those of the query file gathered into one (dr5 12: a Note box for
each unread key, seven above In short, the list of the keys read among them)."""

from __future__ import annotations

from workbench.core.comparison import Comparison

Note = str | list[str]


def grouped_notes(comp: Comparison) -> list[Note]:
    """`comp.notes` in order, where two or more are the query file's (each begins with its
    place, "FILE:LINE: …", or is the list of the keys a model reads), those as one list at
    the first one's place."""
    queries = comp.dataset.queries
    files = {place.rsplit(":", 1)[0]
             for place in (*queries.at.values(), *queries.keys_at.values())}

    def of_file(note: str) -> bool:
        # a compare of several models names each warning's model first ("decision-memory: …")
        for text in (note, note.partition(": ")[2]):
            if text.startswith("the query keys ") or any(
                    text.startswith(f"{f}:") for f in files):
                return True
        return False

    ours = [n for n in comp.notes if of_file(n)]
    if len(ours) < 2:
        return list(comp.notes)
    out: list[Note] = []
    for note in comp.notes:
        if note not in ours:
            out.append(note)
        elif not any(isinstance(x, list) for x in out):
            out.append(ours)
    return out
