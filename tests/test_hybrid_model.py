"""The `hybrid` model through the engine, against a direct per-memory computation with the
ported pure functions (OpenVault's own call chain, written out here), on small datasets.

Embeddings come from a FAKE encoder (a hashing bag of words), registered under
"fake-bag-of-words": these tests are about scoring, not about embeddings.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.embeddings import embed_texts, register_encoder
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.models import get_model
from workbench.core.models.hybrid import (
    HybridModel,
    QueryConfig,
    build_bm25_tokens,
    build_embedding_query,
    calculate_score,
    extract_query_context,
    parse_recent_messages,
    score_memories,
    tokenize,
)
from workbench.core.models.hybrid.params import OPENVAULT_PROMPT
from workbench.core.params import Params
from workbench.core.pipeline import Pipeline

FAKE = "fake-bag-of-words"


class FakeBagOfWords:
    """NOT a language model: each word hashes to one of 32 dimensions with a sign."""

    name = FAKE
    identity = "fake-bag-of-words-v1"
    dim = 32

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                h = zlib.crc32(word.encode())
                out[i, h % self.dim] += 1.0 if (h >> 8) & 1 else -1.0
            norm = float(np.linalg.norm(out[i]))
            if norm:
                out[i] /= norm
        return out


register_encoder(FAKE, FakeBagOfWords())

MEMORIES: list[dict[str, Any]] = [
    {"summary": "Marta found the old lighthouse key", "importance": 4, "message_ids": [3]},
    {"summary": "Ivo and Marta argued about the boat", "importance": 5, "message_ids": []},
    {"summary": "The dragon burned the village", "importance": 2, "message_ids": [10, 12]},
    {"summary": "Olga sold apples at the market", "message_ids": [20]},
    {"summary": "Ivo repaired the boat engine near the lighthouse", "importance": 3,
     "message_ids": [25]},
    {"summary": "A storm hit the lighthouse at night", "importance": 0},
    {"summary": "Marta and Olga walked to the market", "importance": 1, "message_ids": [30]},
    {"summary": "Nothing happened", "importance": 3, "message_ids": [31]},
]


def _msg(text: str, user: bool, system: bool = False) -> dict[str, Any]:
    return {"name": "You" if user else "Narrator", "is_user": user, "is_system": system,
            "mes": text}


CHATS: list[tuple[list[dict[str, Any]], int, list[str]]] = [
    ([_msg("Hidden start", True, True), _msg("Where did Marta put the key?", True),
      _msg("Marta smiled at the Lighthouse.", False), _msg("Ask Olga about the market", True),
      _msg("Then fix the boat\nwith Ivo", True)], 40, ["Ivo"]),
    ([_msg("The dragon came back", True), _msg("Fire everywhere in the village", False),
      _msg("Run to the lighthouse!", True)], 35, []),
    ([_msg("Olga walks alone.", False), _msg("Nothing moves.", False)], 33, ["Marta"]),
]


def memory_dataset() -> Dataset:
    docs = [Document(id=f"m{i}", text=m["summary"],
                     metadata={k: v for k, v in m.items() if k != "summary"})
            for i, m in enumerate(MEMORIES)]
    queries = []
    for i, (messages, length, active) in enumerate(CHATS):
        newest = next((m["mes"] for m in reversed(messages) if m["is_user"]), "")
        queries.append(Query(id=f"c{i}", text=newest, context={
            "messages": messages, "chat_length": length, "active_characters": active}))
    return Dataset("ov", Corpus(docs), QuerySet(queries))


PARAMS: Params = {"embedding_model": FAKE, "vector_threshold": 0.2}


def pure_scores(ds: Dataset, qi: int, params: Mapping[str, Any]) -> list[tuple[int, Any]]:
    """OpenVault's retrieval for query `qi`, function by function (retrieve.js →
    scoring.js → math.js), with embeddings from the same encoder: [(memory index,
    breakdown)] in the original's result order."""
    messages, chat_length, active = CHATS[qi]
    visible = [m for m in messages if not m["is_system"]]
    recent = parse_recent_messages("\n".join(m["mes"] for m in visible), 10)
    entities = extract_query_context(recent, active)
    user_text = "\n".join([m["mes"] for m in visible if m["is_user"]][-3:])[-1000:]
    cfg = QueryConfig(entity_boost_weight=float(params["entity_boost_weight"]))
    tokens = build_bm25_tokens(user_text, entities, cfg)
    emb_query = build_embedding_query(parse_recent_messages(user_text, 3), entities)
    context = None
    if emb_query:
        context = [float(x) for x in embed_texts([emb_query], model=FAKE,
                                                 prompt=OPENVAULT_PROMPT)[0]]
    vectors = embed_texts([m["summary"] for m in MEMORIES], model=FAKE, prompt=OPENVAULT_PROMPT)
    memories = [{**m, "embedding": [float(x) for x in v]} for m, v in
                zip(MEMORIES, vectors, strict=True)]
    settings = {"alpha": params["alpha"], "combinedBoostWeight": params["combined_boost_weight"],
                "vectorSimilarityThreshold": params["vector_threshold"]}
    constants = {"BASE_LAMBDA": params["base_lambda"],
                 "IMPORTANCE_5_FLOOR": params["importance5_floor"]}
    scored, _ = score_memories(memories, context, chat_length, constants, settings, tokens,
                               k1=float(params["k1"]), b=float(params["b"]))
    return [(s.index, s.breakdown) for s in scored]


def check_against_pure(pipe: Pipeline) -> None:
    scores = pipe.model.combine(pipe.prepared, pipe.params)
    n = len(pipe.dataset.corpus)
    ranking = engine.rank(scores, n)
    contrib = scores.contributions
    for qi in range(len(pipe.dataset.queries)):
        expected = pure_scores(pipe.dataset, qi, pipe.params)
        assert ranking.docs[qi].tolist() == [i for i, _ in expected], f"query {qi}"
        for i, bd in expected:
            pair = qi * n + i
            assert scores.total[pair] == pytest.approx(bd.total, rel=1e-9, abs=1e-12)
            want = (bd.base_after_floor, bd.vector_bonus, bd.bm25_bonus)
            assert contrib[:, pair] == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.fixture(scope="module")
def pipe() -> Pipeline:
    return Pipeline(get_model("hybrid"), memory_dataset(), PARAMS)


def test_registered() -> None:
    model = get_model("hybrid")
    assert isinstance(model, HybridModel) and model.signal_names == ("base", "vector", "bm25")


def test_engine_equals_the_original_computation(pipe: Pipeline) -> None:
    check_against_pure(pipe)
    # the data exercise what they should: a vector bonus, a BM25 bonus, the 5-floor on []
    contrib = pipe.model.combine(pipe.prepared, pipe.params).contributions
    assert (contrib[1] > 0).any() and (contrib[2] > 0).any()
    assert contrib[0, 1] == 5.0  # memory 1: importance 5, message_ids [] → base 0, floor 5


def test_contributions_sum_to_totals(pipe: Pipeline) -> None:
    scores = pipe.model.combine(pipe.prepared, pipe.params)
    assert scores.contributions.sum(axis=0) == pytest.approx(scores.total, rel=1e-12)
    assert scores.n_pairs == len(pipe.dataset.queries) * len(pipe.dataset.corpus)


@pytest.mark.parametrize("change", [
    {"alpha": 0.3}, {"alpha": 1.0}, {"alpha": 0.0}, {"combined_boost_weight": 27.0},
    {"vector_threshold": 0.0}, {"vector_threshold": 0.05}, {"entity_boost_weight": 0.0},
    {"entity_boost_weight": 12.5}, {"k1": 2.0, "b": 0.3}, {"base_lambda": 0.2},
    {"importance5_floor": 1.0},
])
def test_live_parameters_need_no_prepare(pipe: Pipeline, change: dict[str, float]) -> None:
    before = pipe.prepared
    old = dict(pipe.params)
    try:
        pipe.update(change)
        assert pipe.prepared is before
        check_against_pure(pipe)
    finally:
        pipe.update(old)


def test_explain_shows_the_breakdown(pipe: Pipeline) -> None:
    qi = 0
    for doc, bd in pure_scores(pipe.dataset, qi, pipe.params)[:4]:
        out = pipe.model.explain(pipe.prepared, pipe.dataset, qi, doc, pipe.params)
        for key, value in (("total", bd.total), ("base", bd.base),
                           ("base_after_floor", bd.base_after_floor),
                           ("vector_bonus", bd.vector_bonus),
                           ("vector_similarity", bd.vector_similarity),
                           ("bm25_bonus", bd.bm25_bonus), ("bm25_normalised", bd.bm25_score),
                           ("distance", bd.distance), ("importance", bd.importance)):
            assert out[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
        assert sum(t["score"] for t in out["matched_terms"]) == \
            pytest.approx(out["bm25_raw"], rel=1e-9)
    out = pipe.model.explain(pipe.prepared, pipe.dataset, qi, 4, pipe.params)
    # lines newest first: 0 "with Ivo", 1 "Then fix the boat", ...: Ivo weighs 1.0 + 3.0
    # (an active character) = 4.0 → ceil(4.0 · 5) = 20 copies of its token "ivo"
    assert {"name": "Ivo", "weight": 4.0, "repeats": 20, "tokens": "ivo"} in out["entities"]
    ivo = next(t for t in out["matched_terms"] if t["term"] == "ivo")
    # "ivo" is also in the user text once: count 1 + 20 = 21; it is in 2 of 8 memories:
    # idf = ln((8 − 2 + 0.5)/2.5 + 1) = ln(3.6), ratio ln(3.6)/ln(9) = 0.583,
    # 21 · 0.583 = 12.24 → 12
    assert (ivo["message_count"], ivo["entity_count"], ivo["adjusted_count"]) == (1, 20, 12)
    assert ivo["idf"] == pytest.approx(math.log(3.6), rel=1e-12)


def test_prepared_arrays_survive_the_disk_cache() -> None:
    model, ds = get_model("hybrid"), memory_dataset()
    params = model.schema.resolve(PARAMS)
    first = engine.prepare(model, ds, params)
    again = engine.prepare(model, ds, params)  # unpickled from the cache
    assert again is not first
    a, b = model.combine(first, params), model.combine(again, params)
    assert np.array_equal(a.total, b.total)


def beir_dataset() -> Dataset:
    docs = [Document(id=f"d{i}", title=f"T{i}", text=t) for i, t in enumerate([
        "Dragons breathe fire over mountains", "Fire safety in old villages",
        "Mountain goats climb", "A quiet lake"])]
    queries = [Query("q0", "fire breathing dragons"), Query("q1", "lake"), Query("q2", "xyz")]
    return Dataset("beir", Corpus(docs), QuerySet(queries))


def test_plain_beir_data_has_no_forgetting_curve() -> None:
    ds = beir_dataset()
    pipe = Pipeline(get_model("hybrid"), ds, PARAMS)
    scores = pipe.model.combine(pipe.prepared, pipe.params)
    contrib = scores.contributions
    assert (contrib[0] == 0).all()
    vectors = embed_texts([d.text for d in ds.corpus], model=FAKE, prompt=OPENVAULT_PROMPT)
    settings = {"alpha": 0.7, "combinedBoostWeight": 15, "vectorSimilarityThreshold": 0.2}
    for qi, q in enumerate(ds.queries):
        # the BM25 query is the text's tokens, the embedding query the text itself
        context = [float(x) for x in embed_texts([q.text], model=FAKE,
                                                 prompt=OPENVAULT_PROMPT)[0]]
        mems = [{"summary": d.text, "embedding": [float(x) for x in v]}
                for d, v in zip(ds.corpus, vectors, strict=True)]
        scored, _ = score_memories(mems, context, 0, None, settings, tokenize(q.text))
        for s in scored:
            want = s.breakdown.vector_bonus + s.breakdown.bm25_bonus  # base dropped
            assert scores.total[qi * 4 + s.index] == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_lambda_zero_means_no_decay(pipe: Pipeline) -> None:
    old = dict(pipe.params)
    try:
        pipe.update({"base_lambda": 0.0})
        contrib = pipe.model.combine(pipe.prepared, pipe.params).contributions
        # importance as the base, even at an infinite distance (memory 1: [] and 5 → 5)
        assert contrib[0, :8].tolist() == [4.0, 5.0, 2.0, 3.0, 3.0, 3.0, 1.0, 3.0]
    finally:
        pipe.update(old)


def test_the_default_importance_is_a_parameter() -> None:
    """`importance || 3`: memories 3 (none) and 5 (0) take the default importance, which is a
    (prepare-stage) parameter whose default is the original's 3."""
    assert get_model("hybrid").schema["default_importance"].default == 3.0
    p = Pipeline(get_model("hybrid"), memory_dataset(),
                 {**PARAMS, "base_lambda": 0.0, "default_importance": 4.5})
    contrib = p.model.combine(p.prepared, p.params).contributions
    assert contrib[0, :8].tolist() == [4.0, 5.0, 2.0, 4.5, 3.0, 4.5, 1.0, 3.0]


def test_normalisation_is_live(pipe: Pipeline) -> None:
    prep, old = pipe.prepared, dict(pipe.params)
    try:
        for mode in ("min-max", "z-score", "rrf", "batch-max"):
            pipe.update({"normalization": mode, "rrf_k": 10})
            assert pipe.prepared is prep
            scores = pipe.model.combine(prep, pipe.params)
            assert scores.contributions.sum(axis=0) == pytest.approx(scores.total, rel=1e-9)
    finally:
        pipe.update(old)
    check_against_pure(pipe)


def test_schema_matches_the_original() -> None:
    schema = get_model("hybrid").schema
    alpha, w, t = schema["alpha"], schema["combined_boost_weight"], schema["vector_threshold"]
    assert (alpha.default, alpha.low, alpha.high, alpha.step) == (0.7, 0, 1, 0.05)
    assert (w.default, w.low, w.high, w.step) == (15, 0, 30, 1)  # 0 is a valid setting
    assert (t.default, t.low, t.high, t.step) == (0.5, 0, 1, 0.05)
    assert "1 = vector only" in alpha.help and "0 = keyword only" in alpha.help
    assert schema["entity_boost_weight"].default == 5.0 and schema["k1"].default == 1.2
    assert schema["b"].default == 0.75 and schema["base_lambda"].default == 0.05
    assert schema["importance5_floor"].default == 5.0
    assert schema["normalization"].default == "batch-max"
    assert schema["query_prompt"].default == schema["document_prompt"].default == \
        "task: sentence similarity | query: "
    live = {p.name for p in schema.stage("live")}
    assert {"alpha", "combined_boost_weight", "vector_threshold", "k1", "b",
            "entity_boost_weight", "normalization", "rrf_k"} <= live


def test_calculate_score_is_what_the_engine_blends() -> None:
    # one memory, one query, no chat: the engine's total is the pure vector + BM25 bonus
    bd = calculate_score({"embedding": [1.0, 0.0]}, [1.0, 0.0], 0, None, None, 1.0)
    assert math.isclose(bd.vector_bonus + bd.bm25_bonus, 10.5 + 4.5)


def test_cli_eval_and_explain_on_a_beir_folder(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    data = str(Path(__file__).resolve().parents[1] / "sample_corpora" / "tea-beir")
    assert main(["eval", data, "-m", "hybrid", "--param", "embeddings=stored"]) == 0
    assert "ndcg@10" in capsys.readouterr().out
    assert main(["explain", data, "-m", "hybrid", "--param", f"embedding_model={FAKE}",
                 "-q", "green tea brewing"]) == 0
    out = capsys.readouterr().out
    assert "matched_terms:" in out and "bm25_raw" in out


def test_a_new_query_reuses_the_documents_postings(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """The documents' side is cached by the corpus alone (`engine.corpus_stage`): a chat
    that was not prepared before tokenises no memory again, and scores as an uncached run."""
    import workbench.core.models.hybrid.prepared as hp

    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    built: list[int] = []
    real = hp.doc_postings

    def counting(*args: Any) -> Any:
        built.append(1)
        return real(*args)

    monkeypatch.setattr(hp, "doc_postings", counting)
    model, ds = get_model("hybrid"), memory_dataset()
    params = model.schema.resolve(PARAMS)
    engine.prepare(model, ds, params)
    fewer = Dataset(ds.name, ds.corpus, QuerySet(list(ds.queries)[1:]))
    cached = engine.prepare(model, fewer, params)
    assert len(built) == 1, "the memories were tokenised again for another set of chats"
    fresh = engine.prepare(model, fewer, params, use_cache=False)
    assert len(built) == 2
    a, b = model.combine(cached, params), model.combine(fresh, params)
    assert np.array_equal(a.total, b.total) and a.total.size > 0
    assert np.array_equal(a.contributions, b.contributions)
    # a query-side prepare value does not make the postings again (each kept another copy)
    engine.prepare(model, fewer, model.schema.resolve({**PARAMS, "entity_window": 5}))
    assert len(built) == 2
    engine.prepare(model, fewer, model.schema.resolve({**PARAMS, "min_token_length": 4}))
    assert len(built) == 3  # one the documents' tokens read


def test_explain_says_the_recency_penalty_is_the_floors_lift(pipe: Pipeline) -> None:
    """OpenVault's name for the importance-5 floor's lift (base after the floor − base) read
    as 3.56 taken off."""
    model = pipe.model
    for q in range(len(pipe.dataset.queries)):
        for d in range(len(pipe.dataset.corpus)):
            info = model.explain(pipe.prepared, pipe.dataset, q, d, pipe.params)
            if info.get("recency_penalty", 0) > 0:
                assert info["recency_penalty_is"].startswith("added, not taken off")
                return
            assert "recency_penalty_is" not in info
    pytest.fail("no pair with the floor's lift in the fixture")


def test_the_progress_bar_gives_the_embedding_most_of_its_length(tmp_path: Path,
                                                                 monkeypatch: Any) -> None:
    """Embedding takes minutes where tokenising took a second: the bar had stood at 30 %
    beside "embedding 0/5,183 documents". The fake encoder (named as such) stands in: this
    is about the bar, not the vectors."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    seen: list[tuple[float, str]] = []
    model = get_model("hybrid")
    params = model.schema.resolve(PARAMS)
    engine.prepare(model, memory_dataset(), params,
                   Progress(on_progress=lambda f, m: seen.append((f, m))), use_cache=False)
    first = next(f for f, m in seen if m.startswith("embedding") or m == "embedding")
    assert first <= 0.1
    assert seen[-1][0] == 1.0
