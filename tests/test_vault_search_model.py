"""The vault-search model through the engine: prepare, combine, rank, explain."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import padded
from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models import get_model
from workbench.core.models.vault_search import (
    DocumentedParams,
    ScoringWeights,
    VaultSearchModel,
    documented_score,
    extract_matches,
    shipped_score,
)
from workbench.core.models.vault_search.model import early_stop_skipped
from workbench.core.params import Params

VAULT = {
    "inbox.md": "---\ntags: [budget]\n---\n# Inbox\nbudget review on Monday\nmeeting notes",
    "projects/plan.md": "Plan\r\nThe budget plan\r\nbudget budget\r\n",
    "daily/2024-01-01.md": "😀 Budget first\nthen meeting notes\nand the meeting",
    "ref/greek.md": "ΟΔΟΣ and οδος\n\u212a kelvin\nİstanbul",
    "empty.md": "",
    "long.md": "\n".join(["filler line"] * 40 + ["budget at the end", "meeting"]),
    "twin-a.md": "meeting notes\nmeeting notes",
    "twin-b.md": "meeting notes\nmeeting notes",
}
QUERIES = ["budget", "meeting notes", "σ", "k", "i", "", "nothing at all", "MEETING"]


def dataset(texts: dict[str, str] = VAULT, queries: list[str] = QUERIES) -> Dataset:
    return Dataset(
        name="vault",
        corpus=Corpus(Document(id=k, text=v) for k, v in texts.items()),
        queries=QuerySet(Query(id=f"q{i}", text=t) for i, t in enumerate(queries)),
    )


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))


def run(ds: Dataset, overrides: Mapping[str, object]) -> tuple[list[list[str]], list[list[float]]]:
    model = VaultSearchModel()
    params = engine.resolve_params(model, overrides)
    prepared = engine.prepare(model, ds, params)
    scores = model.combine(prepared, params)
    ranking = engine.rank(scores, len(ds.corpus), model.selection_params(params))
    ids, vals = [], []
    for qi in range(len(ds.queries)):
        n = int(ranking.count[qi])
        ids.append([ds.corpus.ids[int(d)] for d in ranking.docs[qi, :n]])
        vals.append([float(v) for v in ranking.scores[qi, :n]])
    return ids, vals


def direct(ds: Dataset, params: Params,
           score: Callable[[str, str], float | None]) -> tuple[list[list[str]], list[list[float]]]:
    """Document by document, as searchVaultWithOptions does: score files with a match in
    file order, filter by minScore when > 0, stable sort, then offset/limit when limit > 0."""
    ids, vals = [], []
    for q in ds.queries:
        results = [(d.id, s) for d in ds.corpus
                   if (s := score(d.text, q.text)) is not None]
        if float(params["min_score"]) > 0:
            results = [r for r in results if r[1] >= float(params["min_score"])]
        results.sort(key=lambda r: -r[1])
        limit, offset = int(params["limit"]), int(params["offset"])
        if limit > 0:
            results = results[offset: offset + limit]
        ids.append([r[0] for r in results])
        vals.append([r[1] for r in results])
    return ids, vals


SETTINGS: list[dict[str, object]] = [
    {},
    {"w_tf": 0.9, "w_position": 0.05, "w_density": 0.6},
    {"min_score": 0.6},
    {"limit": 2, "offset": 1},
    {"w_tf": 1.0, "w_position": 1.0, "w_density": 1.0, "limit": 3},
]


@pytest.mark.parametrize("overrides", SETTINGS)
def test_shipped_ranking_equals_document_by_document(overrides: dict[str, object]) -> None:
    ds = dataset()
    params = engine.resolve_params(VaultSearchModel(), overrides)
    w = ScoringWeights(float(params["w_tf"]), float(params["w_position"]),
                       float(params["w_density"]))

    def score(text: str, query: str) -> float | None:
        return shipped_score(text, query, w) if extract_matches(text, query) else None

    got_ids, got = run(ds, overrides)
    want_ids, want = direct(ds, params, score)
    assert got_ids == want_ids
    for g, x in zip(got, want, strict=True):
        np.testing.assert_allclose(g, x, rtol=1e-12)


@pytest.mark.parametrize("overrides", [*SETTINGS, {"w_proximity": 0.5, "proximity_scale": 1}])
def test_documented_ranking_equals_document_by_document(overrides: dict[str, object]) -> None:
    ds = dataset()
    full = {"variant": "documented", **overrides}
    params = engine.resolve_params(VaultSearchModel(), full)
    p = DocumentedParams(**{k: float(params[k]) for k in DocumentedParams.__dataclass_fields__})

    def score(text: str, query: str) -> float | None:
        b = documented_score(text, query, p)
        return None if b is None else b.total

    got_ids, got = run(ds, full)
    want_ids, want = direct(ds, params, score)
    assert got_ids == want_ids
    for g, x in zip(got, want, strict=True):
        np.testing.assert_allclose(g, x, rtol=1e-12)


def test_prepared_matches_are_extract_matches() -> None:
    ds = dataset()
    model = VaultSearchModel()
    params = engine.resolve_params(model)
    prepared = model.prepare(ds, params)
    for qi, q in enumerate(ds.queries):
        for di, d in enumerate(ds.corpus):
            info = model.explain(prepared, ds, qi, di, params)
            want = [vars(m) for m in extract_matches(d.text, q.text)]
            assert info["matched"] == bool(want)
            if want:
                got = [{k: m[k] for k in ("line", "context", "snippet", "column")}
                       for m in info["matches"]]
                assert got == want
                assert info["score"] == pytest.approx(shipped_score(d.text, q.text), rel=1e-12)


def test_explain_reports_components_weights_and_utf16_column() -> None:
    ds = dataset()
    model = get_model("vault-search")
    params = engine.resolve_params(model, {"context_lines": 1})
    prepared = model.prepare(ds, params)
    info = model.explain(prepared, ds, 0, ds.corpus.index["daily/2024-01-01.md"], params)
    assert info["matches"] == [{"line": 1, "column": 3, "snippet": "😀 **Budget** first",
                                "context": "> 😀 Budget first\n  then meeting notes"}]
    assert info["weights"] == {"w_tf": 0.4, "w_position": 0.3, "w_density": 0.3}
    c = info["components"]
    assert info["contributions"]["tf"] == pytest.approx(0.4 * c["tf"])
    assert info["score"] == pytest.approx(sum(info["contributions"].values()))
    missing = model.explain(prepared, ds, 0, ds.corpus.index["empty.md"], params)
    assert missing["matched"] is False


def test_front_matter_match_makes_a_candidate() -> None:
    ids, _ = run(dataset({"a.md": "---\nstatus: budget\n---\nbody", "b.md": "body"},
                         ["budget"]), {})
    assert ids == [["a.md"]]


def test_case_rules_decide_candidates_and_tf() -> None:
    texts = {"kelvin.md": "100 \u212a", "sigma.md": "ΟΔΟΣ", "dotted.md": "İ", "plain.md": "k i"}
    ds = dataset(texts, ["k", "σ", "i", "ſ"])
    model = VaultSearchModel()
    params = engine.resolve_params(model)
    s = padded(model.combine(model.prepare(ds, params), params))
    names = [[ds.corpus.ids[d] for d in row if d >= 0] for row in s.docs]
    # the Kelvin sign, İ and ſ match only themselves; σ matches Σ
    assert names == [["plain.md"], ["sigma.md"], ["plain.md"], []]
    assert s.contributions[0, 1, 0] == 0.0  # toLowerCase makes the final Σ a ς: tf 0
    assert s.contributions[1, 1, 0] == pytest.approx(0.3)  # position still counts


def test_contributions_sum_to_total_and_clamp_is_negative() -> None:
    ds = dataset()
    model = VaultSearchModel()
    for variant in ("shipped", "documented"):
        params = engine.resolve_params(model, {"variant": variant, "w_tf": 1.0,
                                               "w_position": 1.0, "w_density": 1.0})
        s = model.combine(model.prepare(ds, params), params)
        np.testing.assert_allclose(s.contributions.sum(axis=0), s.total, atol=1e-12)
        clamp = s.contributions[s.signals.index("clamp")]
        assert (clamp <= 0).all() and (clamp < 0).any()
        assert s.total.max() == 1.0


def test_min_score_applies_only_when_positive() -> None:
    ds = dataset()
    zero = {"w_tf": 0.0, "w_position": 0.0, "w_density": 0.0}
    ids, vals = run(ds, zero)
    assert len(ids[0]) == 4 and set(vals[0]) == {0.0}  # 0-score matches are still results
    assert run(ds, {**zero, "min_score": 0.01})[0][0] == []
    model = VaultSearchModel()
    assert model.selection_params(engine.resolve_params(model)).min_score is None
    _, vals = run(ds, {"min_score": 0.7})
    assert all(v >= 0.7 for row in vals for v in row)


def test_ties_keep_file_order() -> None:
    texts = {"b.md": "meeting notes", "a.md": "meeting notes", "c.md": "meeting notes"}
    assert run(dataset(texts, ["meeting"]), {})[0] == [["b.md", "a.md", "c.md"]]
    rev = dict(reversed(list(texts.items())))
    assert run(dataset(rev, ["meeting"]), {})[0] == [["c.md", "a.md", "b.md"]]


def test_offset_and_limit() -> None:
    texts = {f"{i}.md": "x\n" * i + "query" for i in range(6)}  # later line: lower score
    ds = dataset(texts, ["query"])
    assert run(ds, {})[0] == [[f"{i}.md" for i in range(6)]]
    assert run(ds, {"limit": 2, "offset": 1})[0] == [["1.md", "2.md"]]
    assert run(ds, {"limit": 0, "offset": 3})[0] == [[f"{i}.md" for i in range(6)]]
    assert run(ds, {"limit": 10, "offset": 5})[0] == [["5.md"]]


def _early_stop_vault() -> Dataset:
    # files 0..9: weak matches (query on the last of 10 lines); file 3: strong; file 12: best
    texts = {f"{i:02d}.md": "\n".join(["filler words here"] * 9 + ["query"]) for i in range(10)}
    texts["03.md"] = "query and more"  # 0.906
    texts.update({f"{i:02d}.md": "nothing" for i in range(10, 15)})
    texts["12.md"] = "query"
    return dataset(texts, ["query"])


def test_early_stop_is_off_by_default() -> None:
    model = VaultSearchModel()
    assert model.schema["early_stop"].default is False
    ds = _early_stop_vault()
    assert run(ds, {"limit": 1})[0] == [["12.md"]]


def test_early_stop_skips_later_batches_when_on() -> None:
    ds = _early_stop_vault()
    # batch 0 (files 0..9) holds 10 results, one ≥ 0.7: with limit 1 the scan stops there
    assert run(ds, {"limit": 1, "early_stop": True})[0] == [["03.md"]]
    # with batches of 20 the best file is in the first batch
    assert run(ds, {"limit": 1, "early_stop": True, "batch_size": 20})[0] == [["12.md"]]
    # with limit 6 there are not 6 high-quality results: no stop
    assert run(ds, {"limit": 6, "early_stop": True})[0][0][0] == "12.md"
    model = VaultSearchModel()
    params = engine.resolve_params(model, {"limit": 1, "early_stop": True})
    prepared = model.prepare(ds, params)
    s = padded(model.combine(prepared, params))
    col = list(s.docs[0]).index(ds.corpus.index["12.md"])
    assert s.gates[s.gate[0, col] - 1] == "early_stop" and s.total[0, col] == 0
    assert s.contributions[:, 0, col].sum() > 0.9  # what it would have scored
    info = model.explain(prepared, ds, 0, ds.corpus.index["12.md"], params)
    assert info["gate"] == "early_stop"


def _simulate_scan(scored: dict[int, float], n_files: int, limit: int, threshold: float,
                   batch: int, found: int = 2) -> set[int]:
    """searchVaultWithOptions' loop: read batches, stop once shouldStopEarly holds."""
    results: list[float] = []
    seen: set[int] = set()
    for start in range(0, n_files, batch):
        for f in range(start, min(start + batch, n_files)):
            if f in scored:
                results.append(scored[f])
                seen.add(f)
        if sum(r >= threshold for r in results) >= limit and len(results) >= found * limit:
            break
    return seen


def test_vectorised_early_stop_equals_the_scan_loop() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(1, 60))
        rows = []
        for _ in range(5):
            docs = np.sort(rng.choice(n, size=int(rng.integers(0, n + 1)), replace=False))
            rows.append((docs.astype(np.int64), rng.random(len(docs))))
        pair_query = np.concatenate([np.full(len(d), i, np.int64) for i, (d, _) in
                                     enumerate(rows)])
        pair_doc = np.concatenate([d for d, _ in rows])
        total = np.concatenate([s for _, s in rows])
        limit, batch, thr = int(rng.integers(1, 6)), int(rng.integers(1, 12)), 0.7
        found = int(rng.choice([2, 2, 1, 3]))  # the original's 2, and other factors
        skipped = early_stop_skipped(pair_query, pair_doc, total,
                                     np.ones(len(total), np.bool_), limit, thr, batch, found)
        for i, (d, s) in enumerate(rows):
            seen = _simulate_scan(dict(zip(d.tolist(), s.tolist(), strict=True)), n, limit,
                                  thr, batch, found)
            assert set(d[~skipped[pair_query == i]].tolist()) == seen


def test_zero_queries_or_no_candidates() -> None:
    model = VaultSearchModel()
    for variant in ("shipped", "documented"):
        params = engine.resolve_params(model, {"variant": variant, "early_stop": True,
                                               "limit": 3})
        for ds in (dataset(VAULT, []), dataset(VAULT, ["zzz", ""]), dataset({}, ["a"])):
            s = model.combine(model.prepare(ds, params), params)
            assert s.n_queries == len(ds.queries) and s.n_pairs == 0
            assert engine.rank(s, 10, model.selection_params(params)).count.sum() == 0


def test_prepare_is_cached_and_parameters_are_declared() -> None:
    model = get_model("vault-search")
    assert isinstance(model, VaultSearchModel)
    stages = {p.name: p.stage for p in model.schema}
    assert [n for n, s in stages.items() if s == "prepare"] == ["variant"]
    ds = dataset()
    params = engine.resolve_params(model)
    first = engine.prepare(model, ds, params)
    again = engine.prepare(model, ds, params)
    np.testing.assert_array_equal(first.pair_doc, again.pair_doc)
    np.testing.assert_array_equal(first.row_ptr, again.row_ptr)
    assert first is not again  # the second came from the disk cache


TRICKY = ["a", "A", "b", "k", "K", "\u212a", "σ", "ς", "Σ", "İ", "i", "I", "ſ", "s", "S", "ß",
          "ẞ", "😀", "\r", "\n", "\n", " ", " ", "\u00a0", "\u001c", "\ufeff", "*"]


def test_random_texts_agree_with_the_pure_port() -> None:
    rng = np.random.default_rng(11)

    def text(n: int) -> str:
        return "".join(rng.choice(TRICKY, size=n))

    texts = {f"{i}.md": text(int(rng.integers(0, 60))) for i in range(40)}
    queries = [text(int(rng.integers(1, 4))) for _ in range(25)] + ["k", "σ", "ß", "😀a"]
    ds = dataset(texts, queries)
    model = VaultSearchModel()
    for variant in ("shipped", "documented"):
        params = engine.resolve_params(model, {"variant": variant})
        prepared = model.prepare(ds, params)
        s = padded(model.combine(prepared, params))
        for qi, q in enumerate(ds.queries):
            got = {ds.corpus.ids[int(d)]: float(t)
                   for d, t in zip(s.docs[qi], s.total[qi], strict=True) if d >= 0}
            want: dict[str, float] = {}
            for d in ds.corpus:
                if variant == "shipped":
                    if extract_matches(d.text, q.text):
                        want[d.id] = shipped_score(d.text, q.text)
                elif (b := documented_score(d.text, q.text)) is not None:
                    want[d.id] = b.total
            assert list(got) == list(want)
            np.testing.assert_allclose(list(got.values()), list(want.values()), rtol=1e-12)
            if variant == "shipped":
                for doc_id in want:
                    info = model.explain(prepared, ds, qi, ds.corpus.index[doc_id], params)
                    assert [(m["line"], m["column"], m["snippet"]) for m in info["matches"]] \
                        == [(m.line, m.column, m.snippet)
                            for m in extract_matches(texts[doc_id], q.text)]
        assert (s.docs >= 0).sum() > 100  # the random vault does produce matches
