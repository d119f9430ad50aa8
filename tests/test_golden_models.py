"""The originals' own cases run through the vectorised models, not only the ported functions
(test_hybrid_golden, test_vault_search_golden): OpenVault's `scoreMemories` cases through
`hybrid` (prepare, combine, rank), obsidian-mcp's `calculateScore` cases through
`vault-search`. A case whose input the model cannot be given as data is left out, and the
count run is asserted, so a change that skips them all fails."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tests.conftest import SHARED
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import prepare, rank, resolve_params
from workbench.core.models import get_model
from workbench.core.models.hybrid.tokenizer import Tokenizer
from workbench.core.models.vault_search import extract_matches

EXAMPLES = SHARED / "specs" / "examples"


def _cases(name: str, kind: str) -> list[dict[str, Any]]:
    path = EXAMPLES / name
    if not path.exists():
        pytest.skip(f"{path} absent")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [r["input"] | {"expected": r["expected"]} for r in rows if r["kind"] == kind]


def _ranked(model_id: str, docs: list[Document], query: Query,
            params: dict[str, Any]) -> list[tuple[int, float]]:
    model = get_model(model_id)
    ds = Dataset("golden", Corpus(docs), QuerySet([query]))
    p = resolve_params(model, params)
    scores = model.combine(prepare(model, ds, p, use_cache=False), p)
    r = rank(scores, len(docs), model.selection_params(p))
    return [(int(r.docs[0, i]), float(r.scores[0, i])) for i in range(int(r.count[0]))]


def _words(tokens: list[str]) -> str | None:
    """Query text whose tokens are `tokens` (stems) under the model's tokenizer: each stem
    as a word that stems to it (suzi ← suzy); None when one has no such word here."""
    tok = Tokenizer(3)
    out = []
    for t in tokens:
        word = next((w for w in (t, t[:-1] + "y", t + "e") if tok.tokens(w) == [t]), None)
        if word is None:
            return None
        out.append(word)
    return " ".join(out)


def test_openvault_score_memories_through_the_model() -> None:
    ran = 0
    for case in _cases("openvault.jsonl", "ov_score_memories"):
        tokens = case["queryTokens"]
        text = "" if not tokens else tokens if isinstance(tokens, str) else _words(tokens)
        if text is None:
            continue
        docs = [Document(f"m{j}", "", m.get("summary", ""), (),
                         {k: v for k, v in m.items() if k != "summary"})
                for j, m in enumerate(case["memories"])]
        context: dict[str, Any] = {"chat_length": case["chatLength"]}
        if case["contextEmbedding"] is not None:
            context["embedding"] = case["contextEmbedding"]
        settings, constants = case["settings"] or {}, case["constants"] or {}
        params: dict[str, Any] = {"embeddings": "stored"}
        for key, name in (("alpha", "alpha"), ("combinedBoostWeight", "combined_boost_weight"),
                          ("vectorSimilarityThreshold", "vector_threshold")):
            if settings.get(key):
                params[name] = settings[key]
        for key, name in (("BASE_LAMBDA", "base_lambda"),
                          ("IMPORTANCE_5_FLOOR", "importance5_floor")):
            if key in constants:
                params[name] = constants[key]
        got = _ranked("hybrid", docs, Query("q", text, context), params)
        want = case["expected"]
        assert [d for d, _ in got] == want["order"], case
        scores = dict(got)
        for row in want["results"]:
            assert math.isclose(scores[row["index"]], row["score"], rel_tol=1e-9), row
        ran += 1
    assert ran == 7  # every case: each token has a word that stems to it


def test_obsidian_calculate_score_through_the_model() -> None:
    ran = 0
    for case in _cases("vault_search.jsonl", "vs_score"):
        content, query = case["content"] or "", case["query"] or ""
        real = [m.line for m in extract_matches(content, query)] if content and query else []
        # cases with hand-made match lists or custom weights test the function, not a search
        if case["weights"] or real != [m["line"] for m in case["matches"]]:
            continue
        got = _ranked("vault-search", [Document("d", "", content)], Query("q", query), {})
        score = got[0][1] if got else 0.0
        want = case["expected"]["score"]
        assert score == want or math.isclose(score, want, rel_tol=1e-9), case
        ran += 1
    assert ran == 5  # of the 12: the others give hand-made matches or weights
