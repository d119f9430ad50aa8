"""The `vault-search` model: obsidian-mcp's search_vault scoring, as shipped or as documented.

prepare scans the vault once per query (see `scan`) and keeps, for every (query, matching
document) pair, the raw quantities the score is a curve of; combine applies the weights, the
curve constants, the clamp and the early-stop scan as a few numpy expressions over all pairs.

Shipped (REFERENCE.md §5, every golden case of `vault_search.jsonl`):

    score = clamp₀¹( w_tf · min(1, ln(1 + tf_scale·r) / ln(1 + tf_scale))
                   + w_position · exp(−position_decay · (first line − 1) / lines)
                   + w_density · min(1, ln(1 + density_scale · matched lines / lines)
                                       / ln(1 + density_cap)) )

with r = occurrences (after toLowerCase) / words. Documented: see `documented`.

Candidates (see `prepared`) are the documents with a match, in file order. min score, offset
and limit are applied by the engine's selection with the original's rules
(`selection_params`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Model, PartsFn, Progress, Scores, Selection
from workbench.core.models.vault_search.documented import (
    density_part,
    position_part,
    proximity_part,
    tf_part,
)
from workbench.core.models.vault_search.explain import explain_documented, explain_shipped
from workbench.core.models.vault_search.flaws import encoding_flaw
from workbench.core.models.vault_search.jsstring import split_words
from workbench.core.models.vault_search.original import (
    ExtractorConfig,
    density_curve,
    position_curve,
    tf_curve,
)
from workbench.core.models.vault_search.params import GATE_LABELS, GATES, GROUPS, SCHEMA, SIGNALS
from workbench.core.models.vault_search.prepared import (
    VaultSearchPrepared,
    documented_arrays,
    prepare_vault,
)
from workbench.core.models.vault_search.spans import phrase_spans
from workbench.core.params import Params

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


def early_stop_skipped(pair_query: I64, pair_doc: I64, total: F64, eligible: NDArray[np.bool_],
                       limit: int, threshold: float, batch_size: int,
                       found: int = 2) -> NDArray[np.bool_]:
    """bool (P,): pairs whose document the original never scans with its early stop.

    searchVaultWithOptions reads files in batches of `batch_size` (file order) and, after each
    batch, stops once `limit` results score ≥ `threshold` and at least `found`·limit (2) were
    found. The
    counts only grow along file order, so the stop batch is the batch of the first candidate at
    which both running counts hold; everything in later batches goes unscanned. Pairs come
    query-major in file order, so the running counts per query are one cumulative sum each,
    less its value where the query's row begins.
    """
    if len(pair_query) == 0:
        return np.zeros(0, np.bool_)
    good = eligible & (total >= threshold)
    row_start = np.flatnonzero(np.diff(pair_query, prepend=-1))
    row_of = np.cumsum(np.diff(pair_query, prepend=-1) != 0) - 1  # row index of each pair

    def running(x: NDArray[np.bool_]) -> I64:
        c = np.cumsum(x, dtype=np.int64)
        before = (c - x)[row_start]  # count before each row's first pair
        out: I64 = c - before[row_of]
        return out

    hit = eligible & (running(good) >= limit) & (running(eligible) >= found * limit)
    first = np.flatnonzero(hit)
    rows, at = np.unique(row_of[first], return_index=True)
    batch = pair_doc // batch_size
    stop = np.full(len(row_start), np.iinfo(np.int64).max)
    stop[rows] = batch[first[at]]
    out: NDArray[np.bool_] = eligible & (batch > stop[row_of])
    return out


def _pair_parts(per_pair: tuple[F64, ...]) -> PartsFn:
    """Contributions read off the per-pair signal arrays, only where asked."""
    def parts(pairs: NDArray[np.intp]) -> F64:
        out: F64 = np.stack([values[pairs] for values in per_pair])
        return out
    return parts


class VaultSearchModel(Model):
    id = "vault-search"
    label = "Vault search (obsidian-mcp)"
    description = ("obsidian-mcp's search_vault: phrase match per line scored by term "
                   "frequency, position and density — as shipped, or as its document says.")
    version = "1"
    schema = SCHEMA
    signals = SIGNALS
    # signal → the prepare-stage values it is computed from (a mover's settings name them
    # where that signal moved and undoing them cannot be scored live)
    prepare_signals: ClassVar[dict[str, tuple[str, ...]]] = {
        s: ("variant",) for s in ("tf", "position", "density", "proximity", "clamp")}
    gates = GATES
    gate_labels = GATE_LABELS
    headline = ("min_score",)
    param_groups = GROUPS  # the parameter panel's groups, by meaning
    # what orders results tied at a score (those clamped to 1) in the ranking shown: the
    # candidates' order, the vault's files by relative path (`find_notes`); the metrics read
    # them in trec_eval's tie order (`pipeline._evaluate_ranking`), and obsidian-mcp sorts by
    # score with a stable sort (REFERENCE.md §5: "sort stable by score"), so it keeps them in
    # the order it met them, which neither spec gives (r52 dr7 4: not said to be a directory
    # listing); `core.clamp_ties` says all three apart (rv2 1)
    clamp_tie_order = "file path"
    clamp_tie_original = ("obsidian-mcp keeps tied notes in the order it meets them (a stable "
                          "sort by score)")

    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        return prepare_vault(dataset, str(params["variant"]), progress)

    def parts(self, prep: VaultSearchPrepared, params: Params) -> tuple[F64, F64, F64, F64]:
        """float64 (P,) each: every pair's weighted tf, position, density and proximity."""
        w_tf, w_pos = float(params["w_tf"]), float(params["w_position"])
        w_den = float(params["w_density"])
        if prep.shipped is not None:
            sh = prep.shipped
            tf = tf_curve(sh.tf_ratio, float(params["tf_scale"])) * w_tf
            pos = position_curve(sh.first_ratio, float(params["position_decay"])) * w_pos
            den = density_curve(sh.line_ratio, float(params["density_scale"]),
                                float(params["density_cap"])) * w_den
            return tf, pos, den, np.zeros(len(tf))
        dm = documented_arrays(prep)
        n = len(prep.pair_doc)
        k = np.maximum(dm.n_qwords[prep.pair_query], 1).astype(np.float64)

        def mean(values: F64) -> F64:
            out: F64 = np.bincount(dm.e_pair, weights=values, minlength=n) / k
            return out

        # the document weighs each word's parts, then averages: w · mean(part)
        tf = w_tf * mean(tf_part(dm.e_ratio, float(params["tf_multiplier"])))
        pos = w_pos * mean(position_part(dm.e_avg))
        den = w_den * mean(density_part(dm.e_ratio, float(params["density_multiplier"])))
        prox = float(params["w_proximity"]) * proximity_part(
            dm.found, k, dm.gap, float(params["proximity_scale"]))
        return tf, pos, den, prox

    def combine(self, prepared: Any, params: Params) -> Scores:
        prep: VaultSearchPrepared = prepared
        tf, pos, den, prox = self.parts(prep, params)
        raw = tf + pos + den + prox  # left to right, as the original sums (+ 0.0 is exact)
        total = np.clip(raw, 0.0, 1.0)
        gate = np.zeros(len(total), np.int8)
        if prep.documented is not None and bool(params["require_all_words"]):
            missing = prep.documented.found < prep.documented.n_qwords[prep.pair_query]
            gate[missing] = 1 + GATES.index("missing_word")
        limit = int(params["limit"])
        if bool(params["early_stop"]) and limit > 0:
            skipped = early_stop_skipped(prep.pair_query, prep.pair_doc, total, gate == 0,
                                         limit, float(params["early_stop_threshold"]),
                                         int(params["batch_size"]),
                                         int(params["early_stop_found"]))
            gate[skipped] = 1 + GATES.index("early_stop")
        return Scores(row_ptr=prep.row_ptr, docs=prep.pair_doc.astype(np.int32),
                      total=np.where(gate == 0, total, 0.0), gate=gate,
                      signals=self.signal_names,
                      parts=_pair_parts((tf, pos, den, prox, total - raw)), gates=self.gates)

    def idle_signals(self, prepared: Any, params: Params) -> frozenset[str]:
        """Proximity where the prepared variant is the shipped one (it has no such term) or
        its weight is 0; the clamp where the weights in use sum to 1 at most: every part is a
        weight times a curve in [0, 1] (the documented parts are means of such), so the sum
        never leaves [0, 1] and the clamp removes nothing."""
        prep: VaultSearchPrepared = prepared
        shipped = prep.shipped is not None
        weights = [float(params[k]) for k in ("w_tf", "w_position", "w_density")]
        if not shipped:
            weights.append(float(params["w_proximity"]))
        idle = set()
        if shipped or float(params["w_proximity"]) == 0:
            idle.add("proximity")
        if min(weights) >= 0 and sum(weights) <= 1 + 1e-9:  # (a sum of floats: 1 + ε)
            idle.add("clamp")
        return frozenset(idle)

    def selection_params(self, params: Params) -> Selection:
        """processResults: minScore only when > 0; offset and limit only when limit > 0 (a
        search without limit returns every result and ignores offset)."""
        min_score, limit = float(params["min_score"]), int(params["limit"])
        return Selection(min_score=min_score if min_score > 0 else None,
                         limit=limit if limit > 0 else None,
                         offset=int(params["offset"]) if limit > 0 else 0)

    def not_a_candidate(self, prepared: Any, dataset: Dataset, query: int, doc: int | None,
                        params: Params) -> str:
        """The shipped variant's phrase rule, where the query matched no line (of `doc`, or
        of any note): the cause of a natural-language question's empty result."""
        prep: VaultSearchPrepared = prepared
        if doc is None and prep.row_ptr[query + 1] > prep.row_ptr[query]:
            return ""  # lines matched; they scored 0, were gated or fell below the min score
        text = dataset.queries[query].text
        flaws = self._flaws(dataset, query, doc)
        if prep.variant != "shipped":
            return flaws
        where = "no line of any note" if doc is None else "no line of it"
        if len(split_words(text)) < 2:  # one word: no shorter phrase, no words to match apart
            return f"{where} contains {text!r}" + (f"; {flaws}" if flaws else "")
        return (f"{where} contains the phrase {text!r}: vault-search matches the whole query "
                "as one phrase within a line, as obsidian-mcp does (search a shorter phrase; "
                "variant=documented matches the words apart, but is not what obsidian-mcp "
                "runs)" + (f"; {flaws}" if flaws else ""))

    @staticmethod
    def _flaws(dataset: Dataset, query: int, doc: int | None) -> str:
        """The encoding flaw of `doc`, or (None) of each note judged relevant to `query`
        that has one, where the query has characters outside ASCII (`encoding_flaw`)."""
        text = dataset.queries[query].text
        if doc is not None:
            flaw = encoding_flaw(dataset, doc, text)
            return f"it is {flaw}" if flaw else ""
        judged = (dataset.qrels or {}).get(dataset.queries[query].id, {})
        index = dataset.corpus.index
        said = [f"judged {doc_id} is {flaw}" for doc_id, grade in judged.items()
                if grade > 0 and doc_id in index
                and (flaw := encoding_flaw(dataset, index[doc_id], text))]
        return "; ".join(said)

    def highlight_spans(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                        params: Params) -> list[tuple[int, int]] | None:
        """What a preview marks in the note's text, as (start, end) characters: in the
        shipped variant every occurrence of the whole query on the lines it matched ([]
        where it matched none); None in the documented one, which matches the words apart
        (a preview marks each word)."""
        prep: VaultSearchPrepared = prepared
        if prep.shipped is None:
            return None
        p = prep.pair(query, doc)
        if p is None:
            return []
        lines = prep.shipped.hit_line[prep.shipped.hit_pair == p]
        return phrase_spans(dataset.corpus[doc].text, dataset.queries[query].text,
                            lines.tolist())

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        prep: VaultSearchPrepared = prepared
        qtext, text = dataset.queries[query].text, dataset.corpus[doc].text
        out: dict[str, Any] = {"variant": prep.variant, "query": qtext,
                               "doc": dataset.corpus[doc].id,
                               "total_lines": int(prep.n_lines[doc]),
                               "total_words": int(prep.n_words[doc])}
        p = prep.pair(query, doc)
        if p is None:
            reason = "no line holds the query" if prep.variant == "shipped" else \
                "no query word occurs"
            flaw = encoding_flaw(dataset, doc, qtext)
            out.update(matched=False, reason=reason + (f"; it is {flaw}" if flaw else ""))
            return out
        scores = self.combine(prep, params)
        shares = scores.contributions_of(np.array([p]))[:, 0]
        g = int(scores.gate[p])
        score = float(scores.total[p])
        min_score = float(params["min_score"])
        out.update(
            matched=True,
            score=score,
            raw_score=float(sum(float(v) for v in shares[:-1])),  # before the clamp
            contributions={s: float(v) for s, v in zip(self.signal_names, shares, strict=True)},
            gate=self.gates[g - 1] if g else None,
            below_min_score=bool(min_score > 0 and score < min_score),
            weights={k: float(params[k]) for k in ("w_tf", "w_position", "w_density")},
        )
        cfg = ExtractorConfig(context_lines=int(params["context_lines"]),
                              max_snippet_length=int(params["max_snippet_length"]),
                              highlight_start=str(params["highlight_start"]),
                              highlight_end=str(params["highlight_end"]))
        if prep.shipped is not None:
            out.update(explain_shipped(prep.shipped, p, text, qtext, cfg, params))
        else:
            out.update(explain_documented(documented_arrays(prep), query, p, text, cfg, params))
        return out


