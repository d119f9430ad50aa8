"""Prepare: per task its terms, type, scope and candidates; per (task, candidate) pair the
stage bitmask, the keyword IDF masses, the token cost (excerpted or whole), the test pairing
and the scope flags. Per file the facts (`files`). Nothing here depends on a live parameter.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.models.codeledger import candidates as cg
from workbench.core.models.codeledger.cochange import cochange
from workbench.core.models.codeledger.content import build_content_index, task_tokens
from workbench.core.models.codeledger.excerpt import FileLines, excerpt_mask, excerpt_tokens
from workbench.core.models.codeledger.files import FileFacts, read_files
from workbench.core.models.codeledger.graph import neighbours
from workbench.core.models.codeledger.mentions import cited_lines, mentioned_files
from workbench.core.models.codeledger.params import TOKEN_RATE_LANGUAGES
from workbench.core.models.codeledger.similar import past_commits
from workbench.core.models.codeledger.text import TASK_TYPES, detect_task_type, term_keys
from workbench.core.params import Params

__all__ = ["CodeLedgerPrepared", "prepare_codeledger"]

# languages of source code (`repo.lang`); any other file is documentation, configuration or data
SOURCE_LANGUAGES = frozenset(("python", "typescript", "javascript", "go", "java", "rust", "ruby",
                              "c", "cpp", "csharp", "kotlin", "swift", "shell", "html", "css",
                              "sql"))
CHUNK = 256  # tasks scored against every file at once (a CHUNK × N array)


_PAIR_QUERY: weakref.WeakKeyDictionary[CodeLedgerPrepared, NDArray[np.int64]]
_PAIR_QUERY = weakref.WeakKeyDictionary()


@dataclass(frozen=True, eq=False)
class CodeLedgerPrepared:
    """Q tasks, P (task, candidate) pairs, query-major, candidates in corpus order. Compared
    and hashed by identity, so the live path can keep what it derives from one in a weak map.

    row_ptr:       int64 (Q + 1,)
    docs:          int32 (P,)    the candidate file
    stages:        uint16 (P,)   bitmask of `candidates.STAGES`
    strong:        float64 (P,)  IDF mass of task terms in path or symbols
    content:       float64 (P,)  IDF mass of task terms only in content keywords
    cost:          float64 (P,)  tokens the file costs a bundle (excerpt tokens if excerpted)
    excerpt_lines: int64 (P,)    lines of its excerpt; 0 = whole file
    test_pair:     bool (P,)     one of its tests (or sources) was brought by stages 1–4
    scope_ok:      bool (P,)     inside the task's scope (or no scope)
    partner_ok:    bool (P,)     a test/source of it is inside the scope
    task_type:     int64 (Q,)    detected, index into TASK_TYPES
    mass:          float64 (Q,)  Σ IDF of the task's informative terms (df > 0)
    n_keyword:     int64 (Q,)    keyword-stage candidates (before the cap)
    terms:         per task, plural key → the word of the task that gave it
    term_df:       per task, df of each term (same order)
    scopes:        per task, the auto-scope directory or None
    hot_churn:     float64 (N,)  churn at REFERENCE's defaults (hot-zone ranking)
    age_keys:      float64 (C,)  file · age_span + age, ascending: window counts live
    relevance:     float64 (P,)  content BM25 ÷ the task's best over every file (`content`)
    named:         bool (P,)     the task names the file's path (`mentions`)
    graph1/graph2: float64 (P,)  the best relevance among its hop-1 / hop-2 neighbours
    from1/from2:   int32 (P,)    that neighbour (−1: none relevant)
    cochange:      float64 (P,)  the best relevance(g) · p(f | g) over files g (`cochange`)
    cochange_from: int32 (P,)    that g (−1: none)
    similar:       float64 (P,)  the votes of similar past commits (`similar`)
    similar_from:  int32 (P,)    the commit that gave the most (−1: none), into `commits`
    commits:       per past commit, its short hash and subject
    bm25_best:     float64 (Q,)  the task's best content BM25
    named_as:      per task, file → the mention that names it
    non_code:      bool (N,)     not source code (`SOURCE_LANGUAGES`)
    """

    files: FileFacts
    row_ptr: NDArray[np.int64]
    docs: NDArray[np.int32]
    stages: NDArray[np.uint16]
    strong: NDArray[np.float64]
    content: NDArray[np.float64]
    cost: NDArray[np.float64]
    excerpt_lines: NDArray[np.int64]
    test_pair: NDArray[np.bool_]
    scope_ok: NDArray[np.bool_]
    partner_ok: NDArray[np.bool_]
    task_type: NDArray[np.int64]
    mass: NDArray[np.float64]
    n_keyword: NDArray[np.int64]
    terms: tuple[dict[str, str], ...]
    term_df: tuple[tuple[int, ...], ...]
    scopes: tuple[str | None, ...]
    hot_churn: NDArray[np.float64]
    age_keys: NDArray[np.float64]
    age_span: float
    excerpt_window: int
    excerpt_threshold: int
    relevance: NDArray[np.float64]
    named: NDArray[np.bool_]
    graph1: NDArray[np.float64]
    graph2: NDArray[np.float64]
    from1: NDArray[np.int32]
    from2: NDArray[np.int32]
    cochange: NDArray[np.float64]
    cochange_from: NDArray[np.int32]
    bm25_best: NDArray[np.float64]
    named_as: tuple[dict[int, str], ...]
    non_code: NDArray[np.bool_]
    similar: NDArray[np.float64]
    similar_from: NDArray[np.int32]
    commits: tuple[str, ...]

    def pair_query(self) -> NDArray[np.int64]:
        """int64 (P,), read-only: the task of each pair (made once per prepared state)."""
        out = _PAIR_QUERY.get(self)
        if out is None:
            out = np.repeat(np.arange(len(self.row_ptr) - 1, dtype=np.int64),
                            np.diff(self.row_ptr))
            out.flags.writeable = False
            _PAIR_QUERY[self] = out
        return out

    def pair_of(self, query: int, doc: int) -> int | None:
        lo, hi = int(self.row_ptr[query]), int(self.row_ptr[query + 1])
        at = lo + int(np.searchsorted(self.docs[lo:hi], doc))
        return at if at < hi and int(self.docs[at]) == doc else None


def token_rates(params: Params) -> dict[str, float]:
    return {lang: float(params[f"tokens_per_line_{lang}"]) for lang in TOKEN_RATE_LANGUAGES}


def prepare_codeledger(dataset: Dataset, params: Params,
                       progress: Progress = NO_PROGRESS) -> CodeLedgerPrepared:
    docs = dataset.corpus.documents
    files = read_files(docs, token_rates(params), float(params["ledger_half_life_days"]),
                       (int(params["max_keywords"]), int(params["keyword_head_lines"]),
                        int(params["keyword_min_chars"])), int(params["max_commit_files"]),
                       bool(params["tokens_long_lines_by_size"]))
    progress(0.3, "file facts read")
    inv = cg.Inverted(files)
    churn = cg.default_churn(files)
    # files the repository marks binary (`repo.binary`), left out: never a candidate, and no
    # relevance of theirs reaches a neighbour, a co-changed file or the hot zone
    left_out = (np.array([bool(m) for m in files.binary_mark], bool)
                if params["skip_marked_binary"] and any(files.binary_mark)
                else np.zeros(files.n, bool))
    allowed = ~left_out if left_out.any() else None
    dropped = frozenset(np.flatnonzero(left_out).tolist())
    hot = cg.hot_files(churn, int(params["hot_zone_files"]), allowed)
    threshold, window = int(params["excerpt_threshold_lines"]), int(params["excerpt_window"])
    cap = int(params["keyword_max_candidates"])
    line_cache: dict[int, FileLines] = {}
    inside_of: dict[str | None, NDArray[np.bool_]] = {}
    cols: dict[str, list[object]] = {k: [] for k in (
        "docs", "stages", "strong", "content", "cost", "excerpt", "pair", "scope", "partner",
        "relevance", "named", "graph1", "graph2", "from1", "from2", "cochange",
        "cochange_from", "similar", "similar_from")}
    row_ptr = [0]
    types, masses, n_kw, terms, term_df, scopes = [], [], [], [], [], []
    best, named_as = [], []
    n_q = len(dataset.queries)
    content_ix = build_content_index(files.paths, [d.text for d in docs],
                                     k1=float(params["content_k1"]),
                                     b=float(params["content_b"]),
                                     path_weight=float(params["path_weight"]))
    progress(0.4, "content index built")
    near = neighbours((files.imports, files.dependents, files.tests), files.n)
    n_content = int(params["content_max_candidates"])
    n_cochange = int(params["cochange_max_candidates"])
    together = cochange(files)
    own = {str(q.context.get("commit", "")) for q in dataset.queries}
    past = past_commits(dataset.settings, files.paths, own, int(params["max_commit_files"]))
    n_similar = int(params["similar_max_candidates"])
    bm25 = np.zeros((0, files.n))
    votes = past.votes([], 0)
    for qi, query in enumerate(dataset.queries):
        if qi % CHUNK == 0:
            progress(0.4 + 0.6 * qi / max(1, n_q), "generating candidates")
            chunk = [q.text for q in dataset.queries.queries[qi:qi + CHUNK]]
            bm25 = content_ix.scores([task_tokens(t) for t in chunk])
            votes = past.votes(chunk, int(params["similar_commits"]))
        raw = bm25[qi % CHUNK]
        if allowed is not None:
            raw = np.where(allowed, raw, 0.0)
        top = float(raw.max(initial=0.0))
        rel = raw / top if top > 0 else np.zeros(files.n)
        hop1, hop2 = near.best(rel, 1), near.best(rel, 2)
        content_top = [f for f in np.argsort(-raw, kind="stable")[:n_content].tolist()
                       if raw[f] > 0]
        co, co_from = together.best(rel)
        if allowed is not None:
            co = np.where(allowed, co, 0.0)
        co_top = ([f for f in np.argsort(-co, kind="stable")[:n_cochange].tolist() if co[f] > 0]
                  if n_cochange else [])
        similar = votes[qi % CHUNK]
        sim_value = similar.value if allowed is None else np.where(allowed, similar.value, 0.0)
        similar_top = ([f for f in np.argsort(-sim_value, kind="stable")[:n_similar].tolist()
                        if sim_value[f] > 0] if n_similar else [])
        named = mentioned_files(query.text, files.paths)
        if allowed is not None:
            named = {f: how for f, how in named.items() if allowed[f]}
        cited = cited_lines(query.text, files.paths) if params["excerpt_cited_lines"] else {}
        keys = term_keys(query.text)
        idf = {k: files.idf(k) for k in keys}
        informative = [k for k in keys if idf[k] > 0]
        strong, content = cg.keyword_masses(informative, idf, inv)
        matched = sorted((set(strong) | set(content)) - dropped,
                         key=lambda f: (-strong.get(f, 0.0), -content.get(f, 0.0), f))
        scope = cg.find_scope(query.text, files)
        inside = inside_of.get(scope)
        if inside is None:
            inside = inside_of[scope] = np.array([cg.in_scope(p, scope) for p in files.paths],
                                                 bool)
        scope_hot = (cg.hot_files(churn, int(params["hot_zone_files"]),
                                  inside if allowed is None else inside & allowed)
                     if scope is not None else np.zeros(0, np.int64))
        mask = cg.generate(files, matched[:cap], hot, scope_hot, int(params["dep_depth"]),
                           int(params["fanout_min"]), int(params["fanout_max"]), content_top,
                           named if params["mention_stage"] else (), co_top,
                           int(params["dep_max_candidates"]), np.maximum(hop1, 0.5 * hop2),
                           int(params["tests_max_per_file"]), similar_top)
        for f in sorted(mask):
            if left_out[f]:
                continue
            cols["relevance"].append(float(rel[f]))
            cols["named"].append(f in named)
            cols["graph1"].append(float(hop1[f]))
            cols["graph2"].append(float(hop2[f]))
            cols["from1"].append(near.source(rel, f, 1) if hop1[f] > 0 else -1)
            cols["from2"].append(near.source(rel, f, 2) if hop2[f] > 0 else -1)
            cols["cochange"].append(float(co[f]))
            cols["cochange_from"].append(int(co_from[f]))
            cols["similar"].append(float(similar.value[f]))
            cols["similar_from"].append(int(similar.source[f]))
            cols["docs"].append(f)
            cols["stages"].append(mask[f])
            cols["strong"].append(strong.get(f, 0.0))
            cols["content"].append(content.get(f, 0.0))
            n_lines, tokens = int(files.lines[f]), float(files.tokens[f])
            kept = 0
            if n_lines > threshold:
                lines = line_cache.get(f)
                if lines is None:
                    lines = line_cache[f] = FileLines(docs[f].text)
                kept = int(excerpt_mask(lines, informative, window, cited.get(f, ())).sum())
                tokens = excerpt_tokens(kept, tokens, n_lines)
            cols["cost"].append(tokens)
            cols["excerpt"].append(kept if n_lines > threshold else 0)
            cols["pair"].append(any(mask.get(t, 0) & ~cg.TEST for t in files.tests[f]))
            cols["scope"].append(bool(inside[f]))
            cols["partner"].append(any(bool(inside[t]) for t in files.tests[f]))
        row_ptr.append(len(cols["docs"]))
        types.append(TASK_TYPES.index(detect_task_type(query.text)))
        masses.append(sum(idf[k] for k in informative))
        n_kw.append(len(matched))
        terms.append(keys)
        term_df.append(tuple(files.df.get(k, 0) for k in keys))
        scopes.append(scope)
        best.append(top)
        named_as.append(named)
    span = float(files.ages.max(initial=0.0)) + 3651.0
    owner = np.repeat(np.arange(files.n, dtype=np.float64), np.diff(files.age_ptr))
    progress(1.0, "candidates ready")
    return CodeLedgerPrepared(
        files=files, row_ptr=np.asarray(row_ptr, np.int64),
        docs=np.asarray(cols["docs"], np.int32), stages=np.asarray(cols["stages"], np.uint16),
        strong=np.asarray(cols["strong"], np.float64),
        content=np.asarray(cols["content"], np.float64),
        cost=np.asarray(cols["cost"], np.float64),
        excerpt_lines=np.asarray(cols["excerpt"], np.int64),
        test_pair=np.asarray(cols["pair"], bool), scope_ok=np.asarray(cols["scope"], bool),
        partner_ok=np.asarray(cols["partner"], bool),
        task_type=np.asarray(types, np.int64), mass=np.asarray(masses, np.float64),
        n_keyword=np.asarray(n_kw, np.int64), terms=tuple(terms), term_df=tuple(term_df),
        scopes=tuple(scopes), hot_churn=churn, age_keys=owner * span + files.ages,
        age_span=span, excerpt_window=window, excerpt_threshold=threshold,
        relevance=np.asarray(cols["relevance"], np.float64),
        named=np.asarray(cols["named"], bool), graph1=np.asarray(cols["graph1"], np.float64),
        graph2=np.asarray(cols["graph2"], np.float64),
        from1=np.asarray(cols["from1"], np.int32), from2=np.asarray(cols["from2"], np.int32),
        cochange=np.asarray(cols["cochange"], np.float64),
        cochange_from=np.asarray(cols["cochange_from"], np.int32),
        bm25_best=np.asarray(best, np.float64),
        named_as=tuple(named_as),
        non_code=np.asarray([lang not in SOURCE_LANGUAGES for lang in files.languages], bool),
        similar=np.asarray(cols["similar"], np.float64),
        similar_from=np.asarray(cols["similar_from"], np.int32),
        commits=tuple(f"{sha[:10]} {past.subject(c)}" for c, sha in enumerate(past.shas)),
    )
