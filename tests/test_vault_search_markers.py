"""obsidian-mcp's highlight markers as parameters (issue 14, item 7): snippets built with the
markers a user configured (`MatchExtractor` config highlightStart / highlightEnd), cut as
truncateSnippet cuts them (REFERENCE.md §5: the markers count toward the length)."""

from __future__ import annotations

import json

from tests.conftest import SHARED
from tests.test_vault_search_model import dataset
from workbench.core import engine
from workbench.core.models import get_model


def snippets(text: str, query: str, overrides: dict[str, object]) -> list[str]:
    ds = dataset({"a.md": text}, [query])
    model = get_model("vault-search")
    params = engine.resolve_params(model, overrides)
    info = model.explain(model.prepare(ds, params), ds, 0, 0, params)
    return [m["snippet"] for m in info["matches"]]


def test_default_markers_are_the_originals() -> None:
    schema = get_model("vault-search").schema
    for name in ("highlight_start", "highlight_end"):
        assert schema[name].default == "**" and schema[name].tunable is False
    assert snippets("text with query here", "query", {}) == ["text with **query** here"]


def test_the_originals_custom_marker_case() -> None:
    path = SHARED / "specs" / "examples" / "vault_search.jsonl"
    case = next(c for c in map(json.loads, path.read_text().splitlines())
                if c["kind"] == "vs_highlight" and (c["input"]["config"] or {}).get(
                    "highlightStart") == "<em>")
    cfg, line, query = case["input"]["config"], case["input"]["line"], case["input"]["query"]
    got = snippets(line, query, {"highlight_start": cfg["highlightStart"],
                                 "highlight_end": cfg["highlightEnd"]})
    assert got == [case["expected"]["snippet"]] == ["text with <em>query</em>"]


def test_long_markers_count_toward_the_cut() -> None:
    # 'a'·150 + ' <mark>query</mark> ' + 'b'·150: the first marker at 151, a 20-unit window
    # from 151 − 10 = 141 to 161: 9 a's, the space, '<mark>', 'quer'; cut both ends
    line = "a" * 150 + " query " + "b" * 150
    got = snippets(line, "query", {"highlight_start": "<mark>", "highlight_end": "</mark>",
                                   "max_snippet_length": 20})
    assert got == ["..." + "a" * 9 + " <mark>quer..."]
    # every occurrence is wrapped, on one line
    assert snippets("Query and query", "query", {"highlight_start": "[",
                                                 "highlight_end": "]"}) == ["[Query] and [query]"]
