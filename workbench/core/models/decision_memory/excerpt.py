"""What pi-lodestone shows of a decision: the query-aware snippet (`excerpt`) and the memory
block the injection hook puts before the agent's turn (REFERENCE.md §1).

excerpt(text, query, max): whitespace runs (JavaScript's `\\s`) collapsed to one space and the
ends trimmed; a text of at most `max` UTF-16 units is returned whole. Otherwise the query's
distinct tokens, longest first (stable), the first 12 of them, are looked up in the
lowercased text; at the earliest hit b the window starts at
max(0, min(b − floor(0.35·max), length − max)) and ends `max` units later (or at the end);
a cut end is marked with "…" (U+2026). No hit: the first `max` units and "…". Lengths,
indices and cuts are UTF-16 units (a cut may split a surrogate pair, as in JavaScript).

The block: "## Pi memory (verify)" and one line per injected result,
`- [id] ` + `★ ` when important + title + ` (project)` when injecting globally or any result is
from another project than the cwd's + ` — ` + createdAt[:10] + `: ` + snippet.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from workbench.core.models.decision_memory.project import project_name
from workbench.core.models.decision_memory.text import tokenize
from workbench.core.models.vault_search.jsstring import JS_WHITESPACE, from_units, to_units

ELLIPSIS = "\u2026"
SEARCH_SNIPPET_CHARS = 220  # PI_MEMORY_SEARCH_SNIPPET_CHARS
INJECT_SNIPPET_CHARS = 180  # PI_MEMORY_INJECT_SNIPPET_CHARS
MAX_TERMS = 12
LEAD = 0.35  # the share of the window before the hit
BLOCK_HEADER = "## Pi memory (verify)"
_WS_RUN = re.compile("[" + re.escape(JS_WHITESPACE) + "]+")


def collapse(text: str) -> str:
    """`text.replace(/\\s+/g, " ").trim()`."""
    return _WS_RUN.sub(" ", text).strip(JS_WHITESPACE)


def excerpt(text: str, query: str | None, max_chars: int) -> str:
    """pi-lodestone's `excerpt` (see the module doc)."""
    clean = clean_units(text)
    n = len(clean)
    if n <= max_chars:
        return from_units(clean)
    hit = first_hit(text, query or "")
    if hit < 0:
        return from_units(clean[:max(0, max_chars)]) + ELLIPSIS
    start, end = window(n, hit, max_chars)
    return ((ELLIPSIS if start > 0 else "") + from_units(clean[start:end])
            + (ELLIPSIS if end < n else ""))


def excerpt_length(text: str, query: str | None, max_chars: int) -> int:
    """`units(excerpt(text, query, max_chars))` without building the snippet: the figures
    ask for thousands a tick (dr4 6: building each, the query tokenized and the text
    collapsed again for every pair, cost 2-3 times the whole combine). The text's collapsed
    units, the query's terms and the earliest hit of a (text, query) are cached, none of
    them depending on `max_chars`, so a sweep of the snippet lengths reuses them too."""
    n = len(clean_units(text))
    if n <= max_chars:
        return n
    hit = first_hit(text, query or "")
    if hit < 0:
        return max(0, max_chars) + 1
    start, end = window(n, hit, max_chars)
    # clean[start:end] as slicing takes it (a range's slice counts the same), and the marks
    return len(range(n)[start:end]) + (start > 0) + (end < n)


def window(n: int, hit: int, max_chars: int) -> tuple[int, int]:
    """(start, end) in units of the snippet of a text `n` units long whose earliest hit is at
    `hit`: `max_chars` wide, ⌊0.35 max_chars⌋ of it before the hit where the text allows."""
    start = max(0, min(hit - math.floor(max_chars * LEAD), n - max_chars))
    return start, min(n, start + max_chars)


# caches of pure functions of the strings they are given (the same text in another
# prepared state, or another tick, is the same entry); bounded for a long-open window
@lru_cache(maxsize=1 << 14)
def clean_units(text: str) -> str:
    """`text` whitespace-collapsed, as UTF-16 units (`to_units`)."""
    return to_units(collapse(text))


@lru_cache(maxsize=1 << 14)
def _lower_units(text: str) -> str:
    """The collapsed text lowercased (its length may differ, as in JavaScript), as units."""
    return to_units(from_units(clean_units(text)).lower())


@lru_cache(maxsize=1 << 12)
def query_terms(query: str) -> tuple[str, ...]:
    """The query's distinct tokens, longest first (stable), the first MAX_TERMS."""
    return tuple(sorted(dict.fromkeys(tokenize(query)), key=len, reverse=True)[:MAX_TERMS])


@lru_cache(maxsize=1 << 16)
def first_hit(text: str, query: str) -> int:
    """Where in the lowercased collapsed text the query's earliest term is (units); −1 for
    none."""
    lower = _lower_units(text)
    hits = [i for i in (lower.find(t) for t in query_terms(query)) if i >= 0]
    return min(hits) if hits else -1


def units(text: str) -> int:
    """`text.length`: UTF-16 units."""
    return len(to_units(text))


def block_line(record: Mapping[str, Any], snippet: str, show_project: bool) -> str:
    created = from_units(to_units(str(record.get("createdAt") or ""))[:10])
    star = "★ " if record.get("important") else ""
    project = f" ({record.get('project') or ''})" if show_project else ""
    return f"- [{record['id']}] {star}{record.get('title') or ''}{project} — {created}: {snippet}"


def memory_block(records: Sequence[Mapping[str, Any]], snippets: Sequence[str],
                 cwd: str | None, global_inject: bool) -> str:
    """The block the agent receives for these injected results ("" when there are none: the
    hook injects nothing)."""
    if not records:
        return ""
    here = project_name(cwd or "")
    show = global_inject or any((r.get("project") or "") != here for r in records)
    return "\n".join([BLOCK_HEADER, *(block_line(r, s, show)
                                      for r, s in zip(records, snippets, strict=True))])
