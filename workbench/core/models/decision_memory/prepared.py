"""The prepare stage of `decision-memory`: everything no live parameter touches.

Pairs are (query, candidate decision), query-major. A query's candidates are the decisions of
its corpus (all, or its context's `candidates`) that share a token with it, strongly or
partially (any other decision scores 0 whatever the parameters); archived ones and ones outside
the project stay, to be gated live. Within a query they are in descending createdAt order
(unparsable dates last, ties in corpus order), so that the engine's stable top-k reproduces
the original's sort: score descending, then newer createdAt. An eval case's candidates keep
its corpus order instead: pi-lodestone's eval harness sorts by score alone (a stable sort).

Per (pair, query token) that matches, E entries, pair-major and in token order: the location
class the token hits (title, tags, body or partial; a token matching nowhere adds nothing and
has no entry). Per query token: the
two IDF logs ln((N+1)/(df+1)) over the query's non-archived candidates, all of them or only
the cwd's project (NaN: no candidate holds the token), and the generic flag. Per pair: the
strong and meaningful match counts, locality class, project membership, age in days.

For the live gates, each pair's static gate profile: what scoreDecision's gates read that no
live parameter changes (the decision's flags, project membership, whether any query token
matches it, the strong and meaningful counts, the query's token count), packed into one int64
(`profiles`); the pairs share few distinct profiles, so the live stage decides each gate
per distinct profile and spreads the verdicts over the pairs with one `np.take`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import Progress
from workbench.core.formats.pi_memory_settings import disabled_projects
from workbench.core.models.decision_memory.constants import Constants
from workbench.core.models.decision_memory.facts import CwdCache, DocFacts, doc_facts
from workbench.core.models.decision_memory.index import (
    TokenIndex,
    build_index,
    decision_token_sets,
)
from workbench.core.models.decision_memory.profiles import group_pairs, pair_profiles
from workbench.core.models.decision_memory.project import DAY_MS
from workbench.core.models.decision_memory.queries import (
    QuerySpec,
    default_now,
    query_spec,
    record_of,
)
from workbench.core.models.decision_memory.scoring import BODY, NONE, PARTIAL, TAGS, TITLE
from workbench.core.models.decision_memory.text import is_generic, tokenize
from workbench.core.params import Params

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
B = NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class DecisionMemoryPrepared:
    """row_ptr int64 (Q+1,); pair_doc int32, pair_query int64 (P,).
    Per query (Q,): specs, tokens (the scored tokens), n_tokens int64.
    Per query token, flat (T,): qt_ptr int64 (Q+1,), qt_log_all / qt_log_project float64,
    qt_generic bool.
    Per matching (pair, token), pair-major (E,): e_pair, e_qt int64, e_loc int8.
    Per pair (P,): strong, meaningful int64; locality int8; in_project bool; age float64;
    flags uint16 (the decision's DocFacts.flags); e_ptr int64 (P+1,): the pair's entries are
    e_ptr[p]:e_ptr[p + 1]; profile intp: index into `profiles` (U,) int64, the
    distinct static gate profiles (see `profiles`); by_profile intp (P,), profile_ptr int64
    (U+1,): the pairs of profile u, ascending, are by_profile[profile_ptr[u]:profile_ptr[u+1]].
    Per query (Q,), from the specs: q_mode, q_project_only int8; q_min_score float64;
    q_limit int64. disabled_file: the cwds the dataset's settings.json disables.
    For searches that keep score-0 candidates (`floor`): doc_order intp (N,), the decisions in
    candidate order; q_cwd int64 (Q,), each query's row of cwd_member bool (C, N), the
    project membership of every decision for each distinct query cwd."""

    n_docs: int
    docs: DocFacts
    specs: list[QuerySpec]
    tokens: list[list[str]]
    n_tokens: I64
    row_ptr: I64
    pair_doc: NDArray[np.int32]
    pair_query: I64
    qt_ptr: I64
    qt_log_all: F64
    qt_log_project: F64
    qt_generic: B
    e_pair: I64
    e_qt: I64
    e_loc: NDArray[np.int8]
    strong: I64
    meaningful: I64
    locality: NDArray[np.int8]
    in_project: B
    age: F64
    flags: NDArray[np.uint16]
    e_ptr: I64
    profile: NDArray[np.intp]
    profiles: I64
    by_profile: NDArray[np.intp]
    profile_ptr: I64
    q_mode: NDArray[np.int8]
    q_project_only: NDArray[np.int8]
    q_min_score: F64
    q_limit: I64
    doc_order: NDArray[np.intp]
    q_cwd: I64
    cwd_member: B
    disabled_file: tuple[str, ...] = ()  # the folder's settings.json disabledProjects
    texts: tuple[str, ...] = ()  # each decision's text, whole: what its snippet is cut from

    def pair(self, query: int, doc: int) -> int | None:
        lo, hi = int(self.row_ptr[query]), int(self.row_ptr[query + 1])
        hit = np.flatnonzero(self.pair_doc[lo:hi] == doc)
        return lo + int(hit[0]) if len(hit) else None


def _log_idf(n: int, df: int) -> float:
    # ln((N + 1)/(df + 1)) with math.log, as the pure port; NaN = absent from the map
    return math.log((n + 1) / (df + 1)) if df > 0 else math.nan


class _Builder:
    def __init__(self, index: TokenIndex, facts: DocFacts, cwds: CwdCache,
                 generic: frozenset[str]) -> None:
        self.ix, self.facts, self.cwds, self.generic = index, facts, cwds, generic
        self.active = ~facts.archived
        self.order = candidate_order(facts.created)
        self.rank = np.empty(len(self.order), np.int64)
        self.rank[self.order] = np.arange(len(self.order))
        self.parts: dict[str, list[Any]] = {k: [] for k in (
            "pair_doc", "log_all", "log_project", "generic", "e_loc", "e_pair", "e_qt",
            "strong", "meaningful", "locality", "in_project", "age")}
        self.n_pairs = self.n_qt = 0

    def add(self, spec: QuerySpec, tokens: list[str]) -> int:
        """Append query `spec`'s pairs and tokens; returns its pair count."""
        ix, facts, out = self.ix, self.facts, self.parts
        n = len(facts.archived)
        mine = np.ones(n, np.bool_) if spec.candidates is None else np.zeros(n, np.bool_)
        if spec.candidates is not None:
            mine[list(spec.candidates)] = True
        if spec.as_of:  # the store as the logged turn searched it: nothing created after
            mine &= ~(facts.created > spec.now_ms)  # (an unreadable createdAt: kept)
        loc_class, member = self.cwds.get(spec.cwd)
        pool_all = mine & self.active
        pool_proj = pool_all & member
        n_all, n_proj = int(pool_all.sum()), int(pool_proj.sum())
        distinct = list(dict.fromkeys(tokens))
        lists = []
        for tok in distinct:
            v = ix.exact(tok)
            any_docs = ix.any.of(v) if v >= 0 else np.zeros(0, np.int64)
            lists.append((v, any_docs, ix.any.of_many(ix.partial(tok))))
        logs = {tok: (_log_idf(n_all, int(pool_all[a].sum())),
                      _log_idf(n_proj, int(pool_proj[a].sum())))
                for tok, (_, a, _) in zip(distinct, lists, strict=True)}
        for tok in tokens:
            out["log_all"].append(logs[tok][0])
            out["log_project"].append(logs[tok][1])
            out["generic"].append(is_generic(tok, self.generic))
        hits = np.unique(np.concatenate([p for _, _, p in lists])) if lists \
            else np.zeros(0, np.int64)
        cand = hits[mine[hits]]
        if spec.candidates is None:
            cand = cand[np.argsort(self.rank[cand])]
        else:  # an eval case: the harness sorts by score alone, ties in the case's corpus order
            cand = cand[np.argsort(case_rank(spec.candidates, n)[cand], kind="stable")]
        # location class per (candidate, distinct token): lowest priority written first
        cls = np.full((len(cand), len(distinct)), NONE, np.int8)
        for j, (v, _, partial_docs) in enumerate(lists):
            cls[np.isin(cand, partial_docs), j] = PARTIAL
            if v >= 0:
                for where, inv in ((BODY, ix.body), (TAGS, ix.tags), (TITLE, ix.title)):
                    cls[np.isin(cand, inv.of(v)), j] = where
        col = np.asarray([distinct.index(t) for t in tokens], np.int64)
        per = cls[:, col] if len(tokens) else np.zeros((len(cand), 0), np.int8)
        strong = per <= BODY
        generic = np.asarray([is_generic(t, self.generic) for t in tokens], np.bool_)
        out["pair_doc"].append(cand)
        # only the matching entries: a token that matches nowhere adds nothing
        rows, cols = np.nonzero(per != NONE)  # row-major: token order within each pair
        out["e_loc"].append(per[rows, cols])
        out["e_pair"].append(rows + self.n_pairs)
        out["e_qt"].append(cols + self.n_qt)
        self.n_pairs += len(cand)
        self.n_qt += len(tokens)
        out["strong"].append(strong.sum(axis=1))
        out["meaningful"].append((strong & ~generic[None, :]).sum(axis=1))
        out["locality"].append(loc_class[cand])
        out["in_project"].append(member[cand])
        out["age"].append((spec.now_ms - facts.created[cand]) / DAY_MS)
        return len(cand)


def case_rank(candidates: tuple[int, ...], n_docs: int) -> NDArray[np.int64]:
    """int64 (N,): each decision's place in an eval case's own corpus (its first, where the
    case lists one twice), n_docs for one outside it: the case's candidate order."""
    out = np.full(n_docs, n_docs, np.int64)
    first = list(dict.fromkeys(candidates))
    out[first] = np.arange(len(first))
    return out


def candidate_order(created: F64) -> NDArray[np.intp]:
    """The decisions newest first (ties in corpus order): the order the original's stable
    sort leaves equal scores in. An unparsable createdAt goes last, this port's choice: the
    original's comparator gives NaN there, which V8 reads as "equal" to every neighbour, so
    where such a decision ends up depends on the sort's own steps (no order reproduces it
    in general; with dated neighbours of equal score it mostly keeps its input place)."""
    key = np.where(np.isnan(created), np.inf, -created)
    out: NDArray[np.intp] = np.lexsort((np.arange(len(created)), key))
    return out


def _cat(parts: list[Any], dtype: Any) -> Any:
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


def prepare_decisions(dataset: Dataset, params: Params, progress: Progress
                      ) -> DecisionMemoryPrepared:
    records = [record_of(d) for d in dataset.corpus]
    progress(0.0, "indexing decisions")
    min_length = int(params["min_token_length"])
    index = build_index([decision_token_sets(r.get("title") or "", r.get("tags") or (),
                                             r.get("text") or "", min_length)
                         for r in records], min_length)
    consts = Constants.from_params(params)
    facts = doc_facts(records, consts)
    now = default_now(params, records)
    specs = [query_spec(q, params, now, len(records)) for q in dataset.queries]
    tokens = [tokenize(s.text, min_length) for s in specs]
    builder = _Builder(index, facts, CwdCache(records), frozenset(consts.generic_terms))
    sizes, qt_sizes = [], []
    for qi, (spec, toks) in enumerate(zip(specs, tokens, strict=True)):
        if qi % 64 == 0:
            progress(0.1 + 0.85 * qi / max(1, len(specs)), f"query {qi + 1:,}/{len(specs):,}")
        sizes.append(builder.add(spec, toks))
        qt_sizes.append(len(toks))
    p = builder.parts
    row_ptr = np.zeros(len(specs) + 1, np.int64)
    np.cumsum(sizes, out=row_ptr[1:])
    qt_ptr = np.zeros(len(specs) + 1, np.int64)
    np.cumsum(qt_sizes, out=qt_ptr[1:])
    pair_query = np.repeat(np.arange(len(specs), dtype=np.int64), sizes)
    n_tok = np.asarray(qt_sizes, np.int64)
    pair_doc = _cat(p["pair_doc"], np.int32)
    e_pair = _cat(p["e_pair"], np.int64)
    e_ptr = np.zeros(len(pair_doc) + 1, np.int64)
    np.cumsum(np.bincount(e_pair, minlength=len(pair_doc)), out=e_ptr[1:])
    strong, meaningful = _cat(p["strong"], np.int64), _cat(p["meaningful"], np.int64)
    in_proj, flags = _cat(p["in_project"], np.bool_), facts.flags[pair_doc]
    profile, profiles = pair_profiles(flags, in_proj, np.diff(e_ptr) > 0, strong, meaningful,
                                      n_tok[pair_query])
    by_profile, profile_ptr = group_pairs(profile, len(profiles))
    cwds = {c: i for i, c in enumerate(dict.fromkeys(s.cwd for s in specs))}
    member = (np.stack([builder.cwds.get(c)[1] for c in cwds]) if cwds
              else np.zeros((0, len(records)), np.bool_))
    progress(1.0, "prepared")
    return DecisionMemoryPrepared(
        n_docs=len(records), docs=facts, specs=specs, tokens=tokens, n_tokens=n_tok,
        row_ptr=row_ptr, pair_doc=pair_doc, pair_query=pair_query,
        qt_ptr=qt_ptr, qt_log_all=np.asarray(p["log_all"], np.float64),
        qt_log_project=np.asarray(p["log_project"], np.float64),
        qt_generic=np.asarray(p["generic"], np.bool_), e_pair=e_pair,
        e_qt=_cat(p["e_qt"], np.int64), e_loc=_cat(p["e_loc"], np.int8),
        strong=strong, meaningful=meaningful,
        locality=_cat(p["locality"], np.int8), in_project=in_proj,
        age=_cat(p["age"], np.float64), flags=flags, e_ptr=e_ptr, profile=profile,
        profiles=profiles, by_profile=by_profile, profile_ptr=profile_ptr,
        q_mode=np.asarray([s.mode for s in specs], np.int8),
        q_project_only=np.asarray([s.project_only for s in specs], np.int8),
        q_min_score=np.asarray([s.min_score for s in specs], np.float64),
        q_limit=np.asarray([s.limit for s in specs], np.int64),
        doc_order=builder.order, q_cwd=np.asarray([cwds[s.cwd] for s in specs], np.int64),
        cwd_member=member,
        disabled_file=disabled_projects(dict(dataset.settings)),
        texts=tuple(d.text for d in dataset.corpus))
