"""Explain one (query, memory) pair of the hybrid model: calculateScore's breakdown, the query's
entities with their weights and repeats, and the matched BM25 terms with their counts."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from workbench.core.models.hybrid.combine import Blend, query_term_counts
from workbench.core.models.hybrid.query import entity_repeats
from workbench.core.params import Params


def _pair_terms(blend: Blend, query: int, doc: int, params: Params) -> list[dict[str, Any]]:
    prep, ix = blend.prep, blend.prep.index
    flat = query * prep.n_docs + doc
    at = int(np.searchsorted(ix.cand_flat, flat))
    if at >= len(ix.cand_flat) or int(ix.cand_flat[at]) != flat:
        return []
    ebw = float(params["entity_boost_weight"])
    k1, b = float(params["k1"]), float(params["b"])
    entity_part = np.bincount(
        ix.link_qterm, weights=np.maximum(np.ceil(ix.ent_weight * ebw), 0)[ix.link_ent]
        * ix.link_mult, minlength=len(ix.qt_msg))
    adjusted = query_term_counts(ix, ebw)
    rows: list[dict[str, Any]] = []
    stop = int(ix.cand_post[at + 1]) if at + 1 < len(ix.cand_post) else len(ix.post_cand)
    for p in range(int(ix.cand_post[at]), stop):
        t, tf = int(ix.post_qterm[p]), float(ix.post_tf[p])
        sat = tf * (k1 + 1) / (tf + k1 * (1 - b + b * float(ix.post_dlr[p])))
        rows.append({
            "term": ix.qt_term[t],
            "message_count": int(ix.qt_msg[t]),
            "entity_count": int(entity_part[t]),
            "adjusted_count": int(adjusted[t]),
            "idf_ratio": float(ix.qt_ratio[t]),
            "df": int(ix.qt_df[t]),
            "idf": float(ix.qt_idf[t]),
            "tf": int(tf),
            "score": float(adjusted[t] * ix.qt_idf[t] * sat),
        })
    rows.sort(key=lambda r: -float(r["score"]))
    return rows


def explain_pair(blend: Blend, query: int, doc: int, params: Params) -> dict[str, Any]:
    prep = blend.prep
    plan = prep.plans[query]
    pos = blend.pairs.find(query, doc)
    if pos < 0 and blend.pairs.bound is not None:  # left out, but bounded: scored whole
        blend = blend.whole(query)
        pos = blend.pairs.find(query, doc)
    if pos < 0:
        kept = prep.pairs.kept
        return {"candidate": f"not scored: no BM25 term of this query, and outside its top "
                             f"{kept:,} by cosine and its first {kept:,} memories "
                             f"(vector_candidates = {kept:,}); it ranks below every "
                             f"scored memory to that depth"}
    at = np.array([pos], np.int64)
    base_after, vector_bonus, bm25_bonus = (float(v) for v in blend.parts(at)[:, 0])
    curve = bool(prep.chat[query] or prep.memory[doc])
    importance = float(prep.importance[doc])
    q, d = np.array([query], np.int64), np.array([doc], np.int64)
    distance = float(prep.distance(q, d)[0]) if curve else 0.0
    # a query without a chat counts from chat length 0: a memory is at distance 0 and the
    # curve takes nothing off (rm 3: it said forgetting_curve: true); `[]` stays infinite
    idle = curve and not prep.chat[query] and distance == 0
    base = 0.0
    if curve:
        lam = float(params["base_lambda"]) / (importance * importance)
        exponent = -lam * distance
        base = importance * math.exp(0.0 if math.isnan(exponent) else exponent)
    sim = float(blend.pairs.sim[pos])
    post = int(blend.pairs.post[pos])
    ebw = float(params["entity_boost_weight"])
    lift = base_after - base
    return {
        "total": base_after + vector_bonus + bm25_bonus,
        "base": base,
        "base_after_floor": base_after,
        "recency_penalty": lift,
        # OpenVault's name for the floor's lift reads as a deduction: said where it acts
        **({"recency_penalty_is": f"added, not taken off: the importance-5 floor lifted the "
                                  f"decayed base {base:.4g} to {base_after:.4g}"}
           if lift > 0 else {}),
        "vector_bonus": vector_bonus,
        "vector_similarity": sim if math.isfinite(sim) else 0.0,
        "has_embeddings": math.isfinite(sim),
        "threshold": blend.threshold,
        "bm25_bonus": bm25_bonus,
        "bm25_raw": float(blend.raw[post]) if post >= 0 else 0.0,
        "bm25_normalised": float(blend.g[post]) if post >= 0 else float(blend.g_zero[query]),
        "normalization": str(params["normalization"]),
        "distance": distance,
        "importance": importance,
        "forgetting_curve": curve and not idle,
        **({"forgetting_curve_is": "off: no chat (chat length 0), so distance 0 and the base "
                                   "is the full importance"} if idle else {}),
        "chat_length": 0 if curve and plan.chat_length is None else plan.chat_length,
        # with stored embeddings nothing is embedded (and the embedding settings are idle:
        # the plan may hold another setting's text, from a preparation shared with it)
        **({} if str(params["embeddings"]) == "stored" else
           {"embedding_query": plan.embedding_text}),
        "bm25_query_text": plan.user_text,
        "entities": [
            {"name": name, "weight": float(plan.entities.weights.get(name) or 0.0),
             "repeats": entity_repeats(plan.entities.weights.get(name), ebw),
             "tokens": " ".join(tokens)}
            for name, tokens in zip(plan.entities.entities, plan.entity_tokens, strict=True)],
        "matched_terms": _pair_terms(blend, query, doc, params),
    }
