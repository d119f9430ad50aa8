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
    clean = to_units(collapse(text))
    n = len(clean)
    if n <= max_chars:
        return from_units(clean)
    terms = sorted(dict.fromkeys(tokenize(query or "")), key=len, reverse=True)[:MAX_TERMS]
    lower = to_units(from_units(clean).lower())
    hits = [i for i in (lower.find(t) for t in terms) if i >= 0]
    if not hits:
        return from_units(clean[:max(0, max_chars)]) + ELLIPSIS
    start = max(0, min(min(hits) - math.floor(max_chars * LEAD), n - max_chars))
    end = min(n, start + max_chars)
    return ((ELLIPSIS if start > 0 else "") + from_units(clean[start:end])
            + (ELLIPSIS if end < n else ""))


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
