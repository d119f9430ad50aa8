"""pi-lodestone's snippet (`excerpt`) and injected memory block (REFERENCE.md §1), with
hand-worked windows: start = max(0, min(hit − floor(0.35·max), length − max)), `max` UTF-16
units, "…" (U+2026) at a cut end."""

from __future__ import annotations

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.diagnostics import turns_from_injections
from workbench.core.engine import resolve_params
from workbench.core.models.decision_memory import DecisionMemoryModel
from workbench.core.models.decision_memory.excerpt import excerpt, memory_block, units

# "alpha " × 10 fills units 0–59, "needle" 60–65, " omega" × 10 66–125: 126 units
TEXT = "alpha " * 10 + "needle" + " omega" * 10


def test_short_text_is_collapsed_whole() -> None:
    assert excerpt("a  b\n c ", "zzz", 220) == "a b c"
    # JavaScript's \s holds NBSP but not U+001C (Python's str.split() is the other way)
    assert excerpt("a\u00a0\u00a0b\x1cc", None, 220) == "a b\x1cc"


def test_window_around_the_earliest_term() -> None:
    # hit 60, max 20: start = max(0, min(60 − 7, 126 − 20)) = 53, end 73
    assert excerpt(TEXT, "needle", 20) == "\u2026 alpha needle omega \u2026"
    # alpha hits at 0: start 0, the first 20 units and one mark
    assert excerpt(TEXT, "needle alpha", 20) == "alpha alpha alpha al\u2026"
    # no term in the text: the first 20 units and a mark
    assert excerpt(TEXT, "zebra", 20) == "alpha alpha alpha al\u2026"
    # omega first at 67: start 60, end 80
    assert excerpt(TEXT, "omega", 20) == "\u2026needle omega omega o\u2026"
    # near the end (tail at 127 of 131): start = min(120, 111) = 111, the end is not cut
    assert excerpt(TEXT + " tail", "tail", 20) == "\u2026ega omega omega tail"


def test_only_the_twelve_longest_terms_are_looked_up() -> None:
    # eleven absent 8-letter tokens, then needle (6), then alpha (5): alpha is the 13th term,
    # so the window centres on needle although alpha occurs earlier
    absent = " ".join(f"absent{i:02d}" for i in range(11))
    assert excerpt(TEXT, f"alpha {absent} needle", 20) == "\u2026 alpha needle omega \u2026"
    assert excerpt(TEXT, f"alpha {' '.join(absent.split()[:10])} needle", 20) == \
        "alpha alpha alpha al\u2026"


def test_lengths_and_cuts_count_utf16_units() -> None:
    # 50 emoji = units 0–99, " " 100, needle 101–106, " " 107, x 108–207: 208 units
    text = "\U0001F600" * 50 + " needle " + "x" * 100
    # max 20: start = min(101 − 7, 188) = 94 (an emoji boundary), end 114
    out = excerpt(text, "needle", 20)
    assert out == "\u2026" + "\U0001F600" * 3 + " needle " + "x" * 6 + "\u2026"
    assert units(out) == 22 and len(out) == 19
    # max 23: start = 101 − 8 = 93, the low half of an emoji: kept alone, as JavaScript does
    cut = excerpt(text, "needle", 23)
    assert units(cut) == 25 and "\udc00" <= cut[1] <= "\udfff"


def test_memory_block_lines() -> None:
    a = {"id": "a1", "title": "Use blake3", "important": True, "project": "app",
         "createdAt": "2026-02-03T04:05:06.000Z"}
    b = {"id": "b2", "title": "Cache keys", "important": False, "project": "app",
         "createdAt": "2025-12-31T23:59:59.000Z"}
    assert memory_block([a, b], ["s1", "s2"], "/repos/app", False) == (
        "## Pi memory (verify)\n"
        "- [a1] ★ Use blake3 — 2026-02-03: s1\n"
        "- [b2] Cache keys — 2025-12-31: s2")
    other = dict(b, project="lib")  # a result from another project: every line names its own
    assert memory_block([a, other], ["s1", "s2"], "/repos/app", False).splitlines()[1:] == [
        "- [a1] ★ Use blake3 (app) — 2026-02-03: s1",
        "- [b2] Cache keys (lib) — 2025-12-31: s2"]
    assert "(app)" in memory_block([a], ["s1"], "/repos/app", True)  # global injection
    assert memory_block([], [], "/repos/app", False) == ""


NOW = "2026-03-01T00:00:00.000Z"
BODY = "x " * 150 + "git checkpoints are kept" + " y" * 150  # needle far from both ends


def dataset() -> Dataset:
    meta = {"createdAt": NOW, "cwd": "/repos/app", "project": "app", "source": "manual",
            "important": False, "archived": False, "retrievalCount": 0, "injectionCount": 0}
    doc = Document("d1", "Git checkpoints", BODY, ("decision",), meta)
    q = Query("p", "please keep git checkpoints", {"cwd": "/repos/app", "now": NOW,
                                                   "prompt": True, "for_injection": True})
    return Dataset("d", Corpus([doc]), QuerySet([q]))


def test_the_model_shows_the_real_snippet_and_block() -> None:
    ds, model = dataset(), DecisionMemoryModel()
    params = resolve_params(model, {})
    prepared = model.prepare(ds, params)
    # collapsed body: "x " × 150 = units 0–299, so "git" hits at 300 ("checkpoints" at 304;
    # the longer term is looked up first, the earliest hit wins); 180 units: 180 × 0.35 is
    # 62.99999999999999 in binary floating point (in JavaScript too), so the lead is 62 and
    # start = 300 − 62 = 238, end 418
    clean = " ".join(BODY.split())
    want = "\u2026" + clean[238:418] + "\u2026"
    why = model.explain(prepared, ds, 0, 0, params)
    assert why["snippet"] == want and units(want) == 182
    assert why["memory_block"] == f"## Pi memory (verify)\n- [d1] Git checkpoints — " \
                                  f"2026-03-01: {want}"
    views = model.injections(prepared, ds, params)
    assert views[0].snippet_lengths == (182,)
    turns = turns_from_injections(ds.corpus.ids, views, 8, 3)
    assert turns[0].results[0][2] == 182
    # a disabled cwd: the turn is not logged at all
    off = resolve_params(model, {"disabled_projects": '["/repos/app"]'})
    assert turns_from_injections(ds.corpus.ids, model.injections(prepared, ds, off), 8, 3) == []
