"""A note's encoding flaw, where it explains why a query finds nothing in it: the loader reads
a note that is not UTF-8 with U+FFFD for each bad byte, as obsidian-mcp (Node's
`readFile(…, 'utf-8')`) does, so a query with non-ASCII characters ("café") cannot match the
word it was written as ("Caf\\xe9" in Latin-1, read as "Caf\\ufffd") (rv52 5)."""

from __future__ import annotations

from pathlib import Path

from workbench.core.data import Dataset

REPLACEMENT = "\ufffd"
_SPACE = b" \t\r\n"
_MOST = 40  # bytes of a word shown around its first bad byte


def _word_at(raw: bytes, start: int, end: int) -> bytes:
    """The whitespace-delimited word of `raw` holding bytes [start, end), at most `_MOST`."""
    lo = max([raw.rfind(c, 0, start) for c in (b" ", b"\t", b"\n")] + [-1]) + 1
    his = [i for i in (raw.find(c, end) for c in (b" ", b"\t", b"\r", b"\n")) if i >= 0]
    hi = min(his) if his else len(raw)
    return raw[max(lo, start - _MOST // 2):min(hi, end + _MOST // 2)]


def _raw(dataset: Dataset, doc: int) -> bytes | None:
    """The note's bytes as on disk, where the dataset is a vault folder holding it."""
    rel = dataset.corpus[doc].metadata.get("path") if hasattr(
        dataset.corpus[doc].metadata, "get") else None
    if not dataset.source or not isinstance(rel, str):
        return None
    from workbench.core.formats.vault import vault_layout

    try:
        return (vault_layout(dataset.source)[0] / Path(rel)).read_bytes()
    except (OSError, ValueError):
        return None


def encoding_flaw(dataset: Dataset, doc: int, query: str) -> str:
    """"not UTF-8: 'Caf\\xe9' read as 'Caf�'; re-save it as UTF-8" where note `doc` was read
    with U+FFFD and `query` has a character outside ASCII (which such a note's bytes could
    have held); "" otherwise. Said only where the file's bytes fail to decode as UTF-8: a
    UTF-8 note may hold U+FFFD itself (text lost before it was saved), which re-saving does
    not mend, and a JSON-lines corpus has no note file (r52 dr7 2)."""
    if query.isascii() or REPLACEMENT not in dataset.corpus[doc].text:
        return ""
    raw = _raw(dataset, doc)
    if raw is None:
        return ""
    try:
        raw.decode("utf-8")
        return ""
    except UnicodeDecodeError as err:
        word = _word_at(raw, err.start, err.end)
    return (f"not UTF-8: {repr(word)[1:]} read as {word.decode('utf-8', 'replace')!r}; a "
            "query with characters outside ASCII cannot match what those bytes held: re-save "
            "it as UTF-8")
