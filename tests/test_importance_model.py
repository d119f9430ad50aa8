"""The `importance` model through the engine: hand-worked totals, the vectorised combine against a
direct per-memory computation, gates, the budget, live parameters, explain and the sample."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import prepare, rank, resolve_params
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.importance import (
    CATEGORIES,
    ImportanceModel,
    fired_phrases,
    importance,
    importance_table,
    rules_from,
)
from workbench.core.text import Analyzer

NOW = "2026-03-01T00:00:00Z"


def doc(i: str, text: str, accessed: str = NOW, **meta: Any) -> Document:
    return Document(i, "", text, metadata={"last_accessed": accessed, **meta})


def small() -> Dataset:
    docs = [
        # short 0.5 + emphasis 0.3 + decision 0.2 = 1.0 (the document's example)
        doc("a", "Important: decided to pin the migration tool", tier="short"),
        # medium 0.6 + failure 0.2 + outcome failure 0.2 + repetition 0.1 (3 mentions) = 1.1 → 1
        doc("b", "the migration broke staging", tier="medium", outcome="failure", mentions=3),
        # long 0.8, accessed 28 days before now: no decay = 0.8
        doc("c", "migration notes for staging", "2026-02-01T00:00:00Z", tier="long"),
        # short 0.5, 10 days inactive: 0.5 − 0.1·(10 − 7) = 0.2
        doc("d", "staging migration checklist", "2026-02-19T00:00:00Z", tier="short"),
        # medium 0.6, 28 days: no decay yet = 0.6; superseded: − 0.5 = 0.1 → archived
        doc("e", "old migration plan", "2026-02-01T00:00:00Z", tier="medium", superseded_by="a"),
        doc("f", "unrelated memory about lunch", tier="long"),
    ]
    queries = [Query("q1", "migration staging", {"now": NOW}), Query("q2", "lunch")]
    return Dataset("small", Corpus(docs), QuerySet(queries))


def test_registered() -> None:
    assert isinstance(get_model("importance"), ImportanceModel)


def test_hand_worked_importance_through_the_engine() -> None:
    m, ds = ImportanceModel(), small()
    p = resolve_params(m, {"relevance": "coverage", "limit": 0})
    scores = m.combine(prepare(m, ds, p, use_cache=False), p)
    row = scores.row(0)
    got = dict(zip([ds.corpus[int(d)].id for d in scores.docs[row]],
                   scores.total[row].tolist(), strict=True))
    gate = dict(zip([ds.corpus[int(d)].id for d in scores.docs[row]],
                    scores.gate[row].tolist(), strict=True))
    # coverage: share of {migrat, stage} held — a: 1/2, b..d: 2/2, e: 1/2
    assert got["a"] == pytest.approx(0.5 * 1.0)
    assert got["b"] == pytest.approx(1.0 * 1.0)
    assert got["c"] == pytest.approx(1.0 * 0.8)
    assert got["d"] == pytest.approx(1.0 * 0.2)
    assert got["e"] == 0.0 and scores.gates[gate["e"] - 1] == "archived"
    assert "f" not in got  # shares no term: not a candidate


def test_contributions_sum_to_the_total() -> None:
    m, ds = ImportanceModel(), small()
    p = resolve_params(m, {"limit": 0})
    scores = m.combine(prepare(m, ds, p, use_cache=False), p)
    ok = scores.gate == 0
    np.testing.assert_allclose(scores.contributions.sum(axis=0)[ok], scores.total[ok],
                               atol=1e-12)
    assert scores.signals == m.signal_names


def _bm25_max(ds: Dataset, k1: float = 1.2, b: float = 0.75) -> list[dict[int, float]]:
    """Lucene BM25 over title + text, document by document, divided by each query's best."""
    an = Analyzer()
    toks = [an.tokens(f"{d.title} {d.text}" if d.title else d.text) for d in ds.corpus]
    n, avgdl = len(toks), sum(map(len, toks)) / len(toks)
    df = Counter(t for ts in toks for t in set(ts))
    out = []
    for q in ds.queries:
        raw: dict[int, float] = {}
        for i, ts in enumerate(toks):
            tf = Counter(ts)
            s = sum(c * math.log1p((n - df[t] + 0.5) / (df[t] + 0.5))
                    * tf[t] / (tf[t] + k1 * (1 - b + b * len(ts) / avgdl))
                    for t, c in Counter(an.tokens(q.text)).items() if tf[t])
            if s > 0:
                raw[i] = s
        best = max(raw.values(), default=1.0)
        out.append({i: s / best for i, s in raw.items()})
    return out


@pytest.mark.parametrize("overrides", [{}, {"whole_days": False, "boost_emphasis": 0.1,
                                           "stale_short": 0.02, "outcome_fires_failure": True},
                                       {"exclamation_min": 0, "stale_long": 0.01,
                                        "stale_long_days": 3.0}])
def test_engine_equals_direct_per_memory_computation(overrides: dict[str, object]) -> None:
    ds = load_dataset(SAMPLES / "memories")
    m = ImportanceModel()
    p = resolve_params(m, {**overrides, "limit": 0, "prefilter": False,
                           "exclude_archived": False})
    prep = prepare(m, ds, p, use_cache=False)
    scores = m.combine(prep, p)
    rules, rel = rules_from(p), _bm25_max(ds)
    for q in range(len(ds.queries)):
        row = scores.row(q)
        assert sorted(scores.docs[row].tolist()) == sorted(rel[q])
        for d, total in zip(scores.docs[row].tolist(), scores.total[row].tolist(), strict=True):
            mem = prep.memory(d, ds.corpus[d].text, int(prep.query_clock[q]), "short")
            assert total == pytest.approx(rel[q][d] * importance(mem, rules).final, abs=1e-9)


def test_dismissal_cap_and_fractional_days_through_the_engine() -> None:
    """memory-importance.md through the vectorised combine, where the 3-dismissal cap binds and
    the days inactive are not whole (the sample corpus has neither)."""
    docs = [
        # long 0.8 + emphasis 0.3 − 3 dismissals · 0.15 = 0.65; "3 dismissals → reduce
        # importance to 0.3": the cap binds
        doc("g", "Important: migration staging runbook", tier="long", dismissals=3),
        # the same with 2 dismissals: 0.8 + 0.3 − 0.3 = 0.8, not capped
        doc("h", "Important: migration staging runbook", tier="long", dismissals=2),
        # short 0.5, 10.75 days inactive; "−0.1/day after 7 days": whole days 0.5 − 0.1·(10 − 7)
        # = 0.2, fractional days 0.5 − 0.1·(10.75 − 7) = 0.125
        doc("i", "staging migration checklist", "2026-02-18T06:00:00Z", tier="short"),
    ]
    ds = Dataset("cap", Corpus(docs), QuerySet([Query("q", "migration staging", {"now": NOW})]))
    m = ImportanceModel()

    def run(overrides: dict[str, object]) -> tuple[dict[str, float], dict[str, str | None]]:
        p = resolve_params(m, {**overrides, "relevance": "coverage", "limit": 0,
                               "prefilter": False})
        scores = m.combine(prepare(m, ds, p, use_cache=False), p)
        row = scores.row(0)
        ids = [ds.corpus[int(d)].id for d in scores.docs[row]]
        gates = [scores.gates[g - 1] if g else None for g in scores.gate[row].tolist()]
        return (dict(zip(ids, scores.total[row].tolist(), strict=True)),
                dict(zip(ids, gates, strict=True)))

    # coverage 1 (both query terms held): the total is the importance
    got, gates = run({})
    assert got == pytest.approx({"g": 0.3, "h": 0.8, "i": 0.2}, abs=1e-12)
    assert set(gates.values()) == {None}  # 0.2 is not below the archive band's 0.2
    got, _ = run({"whole_days": False, "exclude_archived": False})
    assert got == pytest.approx({"g": 0.3, "h": 0.8, "i": 0.125}, abs=1e-12)
    # "< 0.2: archive or delete": 0.125 is archived, kept out of retrieval
    got, gates = run({"whole_days": False})
    assert got["i"] == 0.0 and gates["i"] == "archived"


def test_long_grace_through_the_engine() -> None:
    m, ds = ImportanceModel(), small()
    p = resolve_params(m, {"relevance": "coverage", "limit": 0, "stale_long": 0.01,
                           "stale_long_days": 20.0})
    scores = m.combine(prepare(m, ds, p, use_cache=False), p)
    row = scores.row(0)
    got = dict(zip([ds.corpus[int(d)].id for d in scores.docs[row]],
                   scores.total[row].tolist(), strict=True))
    assert got["c"] == pytest.approx(1.0 * (0.8 - 0.01 * (28 - 20)))  # long, 28 days inactive


def test_ultra_short_decays_like_short_unless_set_apart() -> None:
    # ultra-short base 0.5, 10 days inactive: by default short's rule, 0.5 − 0.1·(10 − 7) = 0.2;
    # apart at 0.02/day after 2 days: 0.5 − 0.02·8 = 0.34. A short memory is unaffected.
    ds = Dataset("u", Corpus([doc("u", "staging migration", "2026-02-19T00:00:00Z",
                                  tier="ultra-short"),
                              doc("s", "staging migration", "2026-02-19T00:00:00Z",
                                  tier="short")]),
                 QuerySet([Query("q", "migration staging", {"now": NOW})]))
    m = ImportanceModel()

    def totals(**over: object) -> dict[str, float]:
        p = resolve_params(m, {"relevance": "coverage", "limit": 0, **over})
        prep = prepare(m, ds, p, use_cache=False)
        s = m.combine(prep, p)
        row = s.row(0)
        got = dict(zip([ds.corpus[int(d)].id for d in s.docs[row]], s.total[row].tolist(),
                       strict=True))
        for d, total in got.items():  # the per-memory reference agrees
            i = [x.id for x in ds.corpus].index(d)
            mem = prep.memory(i, ds.corpus[i].text, int(prep.query_clock[0]), "short")
            assert total == pytest.approx(importance(mem, rules_from(p)).final, abs=1e-9)
        return got

    assert totals() == pytest.approx({"u": 0.2, "s": 0.2})
    assert totals(stale_ultra_short=0.02, stale_ultra_short_days=2.0) \
        == pytest.approx({"u": 0.2, "s": 0.2})  # not apart: the values do nothing
    assert totals(ultra_short_own_decay=True, stale_ultra_short=0.02,
                  stale_ultra_short_days=2.0) == pytest.approx({"u": 0.34, "s": 0.2})


def test_huge_and_negative_counts_saturate() -> None:
    # 1e20 mentions overflowed int64 (a traceback); a negative dismissal count raised
    # importance. Counts are clamped to [0, 10**9], where every rule has long saturated.
    ds = Dataset("c", Corpus([doc("a", "staging migration", tier="short", mentions=1e20),
                              doc("b", "staging migration", tier="short", dismissals=-3)]),
                 QuerySet([Query("q", "migration staging", {"now": NOW})]))
    m = ImportanceModel()
    p = resolve_params(m, {"relevance": "coverage", "limit": 0})
    s = m.combine(prepare(m, ds, p, use_cache=False), p)
    got = dict(zip([ds.corpus[int(d)].id for d in s.docs[s.row(0)]],
                   s.total[s.row(0)].tolist(), strict=True))
    assert got == pytest.approx({"a": 0.5 + 0.3, "b": 0.5})  # repetition cap; no dismissal


def test_bands_are_not_tuned_unless_named() -> None:
    # they name what explain reports and rank nothing: a search over them wastes its trials
    from workbench.core.tuning.space import default_names

    tuned = default_names(ImportanceModel().schema)
    for name in ("resurface_threshold", "standard_threshold", "short_threshold",
                 "resurface_dismissals"):
        assert name not in tuned
    assert "archive_threshold" in tuned  # this one gates retrieval
    assert "limit" not in tuned  # a budget: a search would only raise it


def test_pre_filter_gate() -> None:
    # medium 0.6, 36 days inactive: 0.6 − 0.05·6 = 0.3. current 0.3 > 0.3 no; 36 < 30 no;
    # stored 0.6 > 0.7 no → pre-filtered. A 0.75 medium base: stored 0.75 > 0.7 passes.
    ds = Dataset("p", Corpus([Document("x", "", "cache notes", metadata={
        "tier": "medium", "last_accessed": "2026-01-24T00:00:00Z"})]),
        QuerySet([Query("q", "cache", {"now": NOW})]))
    m = ImportanceModel()
    p = resolve_params(m, {"exclude_archived": False})
    prep = prepare(m, ds, p, use_cache=False)
    assert m.combine(prep, p).gate.tolist() == [3]  # "pre-filter"
    p2 = resolve_params(m, {"exclude_archived": False, "base_medium": 0.75})
    s2 = m.combine(prep, p2)
    assert s2.gate.tolist() == [0] and s2.total[0] == pytest.approx(0.45)  # 0.75 − 0.3


def test_budget_top_five_by_default() -> None:
    ds = load_dataset(SAMPLES / "memories")
    m = ImportanceModel()
    p = resolve_params(m)
    r = rank(m.combine(prepare(m, ds, p, use_cache=False), p), 100, m.selection_params(p))
    assert int(r.count.max()) == 5
    assert m.selection_params(resolve_params(m, {"limit": 0})).limit is None


def test_live_parameters_need_no_re_prepare() -> None:
    m, ds = ImportanceModel(), load_dataset(SAMPLES / "memories")
    live = [x.name for x in m.schema if x.stage == "live"]
    assert {"boost_emphasis", "stale_short", "limit", "relevance", "k1"} <= set(live)
    assert {x.name for x in m.schema.stage("prepare")} == {
        "now", "fields", "stop_words", "stemmer", "mentions_from_access",
        "not_but_fires_correction", "link_rule", *(f"phrases_{c}" for c in CATEGORIES)}
    base = resolve_params(m)
    prep = prepare(m, ds, base, use_cache=False)
    changed = resolve_params(m, {"boost_failure": 0.05, "base_long": 0.6, "k1": 2.0,
                                 "relevance": "bm25", "dismissal": 0.3})
    assert m.schema.prepare_values(changed) == m.schema.prepare_values(base)
    again = m.combine(prepare(m, ds, changed, use_cache=False), changed)
    np.testing.assert_array_equal(m.combine(prep, changed).total, again.total)


def test_now_from_parameter_when_the_query_has_none() -> None:
    m, ds = ImportanceModel(), small()
    # q2 has no context: the newest timestamp of the corpus (2026-03-01) unless `now` is set
    p = resolve_params(m, {"now": "2026-03-21T00:00:00Z"})
    prep = prepare(m, ds, p, use_cache=False)
    f = ds.corpus.index["f"]
    assert prep.inactive[prep.query_clock[1], f] == pytest.approx(20.0)
    assert prep.inactive[prep.query_clock[0], f] == pytest.approx(0.0)


def test_explain_lists_every_boost_and_decay() -> None:
    ds = load_dataset(SAMPLES / "memories")
    m = ImportanceModel()
    p = resolve_params(m)
    prep = prepare(m, ds, p, use_cache=False)
    d, q = ds.corpus.index["m14"], ds.queries.index["q04"]
    out = m.explain(prep, ds, q, d, p)
    boosts = {b["category"]: b["fired_by"] for b in out["boosts"]}
    assert boosts == {"emotion": ["frustrated"], "failure": ["mistake"]}
    # medium 0.6 + 0.2 + 0.2 + outcome failure 0.2 + repetition (3 mentions) 0.1 = 1.3 → 1
    assert out["clamp"] == pytest.approx(-0.3) and out["importance"] == pytest.approx(1.0)
    assert out["band"] == "resurface" and out["resurface"] is True
    marks = m.explain(prep, ds, ds.queries.index["q05"], ds.corpus.index["m21"], p)
    assert marks["boosts"] == [{"category": "emotion", "boost": 0.2,
                                "fired_by": ["finally!", "3 exclamation marks"]}]
    stale = m.explain(prep, ds, ds.queries.index["q05"], ds.corpus.index["m19"], p)
    # short, accessed 8 days before now: 0.1 · (8 − 7) = 0.1
    assert stale["decays"][0]["decay"] == "staleness"
    assert stale["decays"][0]["value"] == pytest.approx(-0.1)


def test_sample_corpus_loads_and_evaluates(capsys: pytest.CaptureFixture[str]) -> None:
    ds = load_dataset(SAMPLES / "memories")
    assert len(ds.corpus) == 80 and len(ds.queries) == 20 and ds.qrels
    assert ds.corpus[0].metadata["tier"] == "long"
    assert main(["eval", str(SAMPLES / "memories"), "-m", "importance"]) == 0
    assert "ndcg@10" in capsys.readouterr().out


def test_an_access_count_is_no_mention_unless_asked() -> None:
    """The document's repetition boost counts mentions of the concept across sessions; a
    memory retrieved five times whose concept never came up again gets no boost (it got
    +0.3: importance 0.8 for a short-term memory), unless `mentions_from_access` takes
    accesses for mentions."""
    now = "2026-02-01T00:00:00Z"
    docs = [Document("a", "", "deploy stuff", (),
                     {"tier": "short", "last_accessed": now, "access_count": 5}),
            Document("b", "", "deploy stuff", (),
                     {"tier": "short", "last_accessed": now, "mentions": 5})]
    ds = Dataset("m", Corpus(docs), QuerySet([Query("q", "deploy", {"now": now})]))
    m = ImportanceModel()
    for flag, want in ((False, [(1, 0.0, 0.5), (5, 0.3, 0.8)]),
                       (True, [(5, 0.3, 0.8), (5, 0.3, 0.8)])):
        params = resolve_params(m, {"mentions_from_access": flag})
        prep = prepare(m, ds, params, use_cache=False)
        got = [(e["mentions"], e["repetition"], e["importance"])
               for e in (m.explain(prep, ds, 0, d, params) for d in (0, 1))]
        assert [(a, pytest.approx(b), pytest.approx(c)) for a, b, c in got] == want, flag


@pytest.mark.parametrize("model_id", ["importance", "decision-memory"])
def test_a_pinned_clock_that_is_no_time_is_refused(model_id: str) -> None:
    from workbench.core.params import ParamError

    schema = get_model(model_id).schema
    for good in ("", "2026-03-01", "2026-03-01T12:00:00Z", "2026-03-01T12:00:00.250+02:00"):
        assert schema.resolve({"now": good})["now"] == good
    for bad in ("garbage", "2026-13-01", "yesterday"):
        with pytest.raises(ParamError, match="parameter now: expected an ISO 8601 date"):
            schema.resolve({"now": bad})


def test_explain_gives_the_score_as_importance_times_relevance(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The document ranks by relevance × importance; explain showed it as a sum with
    "relevance −0.396", read as a penalty, and "relevance 0" for a fully relevant memory."""
    import re

    from workbench.cli import main

    assert main(["explain", str(SAMPLES / "memories"), "-m", "importance", "--query-id",
                 "q01", "--top", "2"]) == 0
    out = capsys.readouterr().out
    lines = re.findall(r"score ([\d.]+) = importance ([\d.]+) × relevance ([\d.]+)", out)
    assert len(lines) == 2
    for total, imp, rel in lines:
        assert float(total) == pytest.approx(float(imp) * float(rel), abs=2e-6)
    assert "as contributions (the bars; they add up to it): base 0.6" in out


def test_float_noise_in_the_clamp_is_no_clamp() -> None:
    # explain said "clamped by -2.77556e-17" where the sum had stayed inside [0, 1]
    from workbench.core.models.importance.explain import _formula

    quiet = _formula(0.9, 1.0, [0.8, 0.1, 0.0, 0.0, -2.77556e-17], [], [])
    assert "clamped" not in quiet
    assert "clamped by -0.5" in _formula(1.0, 1.0, [0.8, 0.2, 0.2, 0.3, -0.5], [], [])


def test_phrase_lists_are_prepare_parameters() -> None:
    """A user's own phrases fire a category (a memory in another language, an agent that
    writes "pinned"); an emptied list fires nothing; the document's lists are the default.
    Hand count: base short 0.5; emphasis +0.3 → 0.8; explicit +0.4 → 0.9 for m2."""
    docs = [doc("m1", "Пользователь сказал: это важно, pinned for later"),
            doc("m2", "remember this: the deploy key lives in the vault")]
    ds = Dataset("phr", Corpus(docs), QuerySet([Query("q", "deploy", {"now": NOW})]))
    m = ImportanceModel()

    def finals(**over: Any) -> dict[str, float]:
        p = resolve_params(m, {"prefilter": False, "exclude_archived": False, **over})
        prep = prepare(m, ds, p, use_cache=False)
        return {d.id: float(v) for d, v in zip(docs, importance_table(prep, p).final[0],
                                                strict=True)}

    assert finals() == pytest.approx({"m1": 0.5, "m2": 0.8})
    mine = finals(phrases_emphasis="важно, pinned", phrases_explicit="the deploy key")
    assert mine == pytest.approx({"m1": 0.8, "m2": 0.9})  # "remember this" left the list
    assert finals(phrases_emphasis="") == pytest.approx({"m1": 0.5, "m2": 0.5})
    # whole words, case and curly apostrophes aside, blanks and repeats dropped
    assert finals(phrases_emphasis=" REMEMBER  this ,, remember this,")["m2"] == \
        pytest.approx(0.8)
    assert finals(phrases_emphasis="remember th")["m2"] == pytest.approx(0.5)


def test_not_but_pattern_is_a_parameter() -> None:
    docs = [doc("m1", "use uv, not poetry, but keep the lock")]
    ds = Dataset("nb", Corpus(docs), QuerySet([Query("q", "uv", {"now": NOW})]))
    m = ImportanceModel()
    got = []
    for on in (True, False):
        p = resolve_params(m, {"prefilter": False, "not_but_fires_correction": on})
        got.append(float(importance_table(prepare(m, ds, p, use_cache=False), p).final[0, 0]))
    assert got == pytest.approx([0.8, 0.5])  # short 0.5 + correction 0.3, then none


def test_not_but_shows_the_y_word_whole() -> None:
    """rm 7: explain's fired_by ended "but h" for "…, but Home Assistant": the pattern took one
    character of the Y word. The span is lower case, as the phrases are matched."""
    docs = [doc("m1", "Actually, not using node-red anymore, but Home Assistant for it")]
    ds = Dataset("nb", Corpus(docs), QuerySet([Query("q", "home", {"now": NOW})]))
    m = ImportanceModel()
    p = resolve_params(m, {"prefilter": False})
    out = m.explain(prepare(m, ds, p, use_cache=False), ds, 0, 0, p)
    fired = {b["category"]: b["fired_by"] for b in out["boosts"]}
    assert fired["correction"] == ["actually", "not using node-red anymore, but home"]


# dr3 6: "not X, but Y" texts, the document's own among them ("not X, but Y"), with whether
# the pattern fires, worked out by hand from the rule `not <1–4 words>[,] but <word>`
NOT_BUT_TEXTS = [
    ("not X, but Y", True),
    ("Not mosquitto but node-red for the flows", True),
    ("not python, but c++ there", True),
    ("not npm but node.js itself", True),
    ("not pip, but yarn.", True),
    ("not one two three four, but five", True),
    ("not one two three four five, but six", False),  # five words of X: too many
    ("not this but -", False),  # no word after but
    ("not this, but ...", False),
    ("but not this", False),
    ("knot tied but loose", False),  # "not" inside a word
    ("nothing, but x", False),
]


@pytest.mark.parametrize(("text", "fires"), NOT_BUT_TEXTS)
def test_not_but_fires_where_it_did(text: str, fires: bool) -> None:
    """dr3 6: the Y word shown grew to the whole token; which texts fire must not change. The
    pattern before the change is written out here as the second reference."""
    before = re.compile(r"(?<!\w)not\s+[\w.+#/-]+(?:\s+[\w.+#/-]+){0,3}\s*,?\s+but\s+\w+")
    got = bool(fired_phrases(text)["correction"])
    assert got is fires
    assert got is bool(before.search(text.lower()))


@pytest.mark.parametrize(("text", "span"), [
    ("Not mosquitto but node-red for the flows", "not mosquitto but node-red"),
    ("not python, but c++ there", "not python, but c++"),
    ("not npm but node.js itself", "not npm but node.js"),
    ("not pip, but yarn.", "not pip, but yarn"),
    ("not pip, but C#/F# here", "not pip, but c#/f#"),
])
def test_not_but_shows_the_whole_y_token(text: str, span: str) -> None:
    """dr3 6: fired_by stopped at a hyphen or dot ("but node" for "node-red"); the Y token is
    now read as the X words are, a trailing dot left out."""
    docs = [doc("m1", text)]
    ds = Dataset("nb", Corpus(docs), QuerySet([Query("q", "zzz", {"now": NOW})]))
    m = ImportanceModel()
    p = resolve_params(m, {"prefilter": False})
    out = m.explain(prepare(m, ds, p, use_cache=False), ds, 0, 0, p)
    assert {b["category"]: b["fired_by"] for b in out["boosts"]}["correction"] == [span]


def test_phrase_list_reads_lines_as_commas() -> None:
    # a list pasted one per line (it was refused: "one line of phrases")
    assert resolve_params(ImportanceModel(), {"phrases_emphasis": "a\nb"})[
        "phrases_emphasis"] == "a, b"
