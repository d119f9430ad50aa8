"""What `explain` and `eval` print for a model that selects bundles (codeledger): one task's
bundle, file by file, with why selection stopped, the near misses and the needed files it
missed (what `codeledger bundle --explain` promises); and over every task, why the bundles
stopped and how confident they were."""

from __future__ import annotations

from typing import Any

from workbench.core.models.codeledger.files import file_lines


def _scope_text(scope: object, applied: bool) -> str:
    if not scope:
        return "whole repository"
    if applied:
        return str(scope)
    return (f"whole repository (the task names {scope}; auto_scope off: no gate, only its "
            "most-churned files join the hot zone)")


def print_bundle_explain(pipe: Any, top: int) -> set[str]:
    """The first task of `pipe`'s dataset: its bundle with every file's score, signal
    contributions and the stages that brought it, the budget use and why selection stopped,
    the near misses, and the needed files it missed (when the task is judged)."""
    import numpy as np

    from workbench.core.models.codeledger.explain import full_bundles

    model, prep, params, ds = pipe.model, pipe.prepared, pipe.params, pipe.dataset
    scores, bund = full_bundles(prep, params)
    longest = int(np.diff(scores.row_ptr).max(initial=0))
    from workbench.core.engine import top_k

    ranking = top_k(scores, longest)
    task = ds.queries[0]
    # a grade-0 judgment says the file is not needed (BEIR qrels, graded --qrels): counted
    # as bundle_recall counts, relevant files only
    needed = [p for p, g in (ds.qrels or {}).get(task.id, {}).items() if g > 0]
    size, count, reach = int(bund.size[0]), int(ranking.count[0]), int(bund.reach[0])
    skipped = set(bund.skipped_ranks(0))
    first = model.explain(prep, ds, 0, int(ranking.docs[0, 0]), params) if count else {}
    tokens, files = _budget(params)
    print(f"task: {task.text}")
    print(f"repository: {ds.source} ({len(ds.corpus):,} files)")
    kind = first.get("task_type", "?")
    detected = first.get("detected_task_type", kind)
    mults = {k: v for k, v in first.get("multipliers", {}).items() if v != 1.0}
    print(f"task type: {kind}" + ("" if kind == detected else f" (detected {detected})")
          + (" · multipliers " + ", ".join(f"{k} ×{v:g}" for k, v in mults.items())
             if mults else "")
          + f" · scope: {_scope_text(first.get('scope'), bool(params.get('auto_scope')))}")
    print(f"confidence: {bund.confidence[0]}" + (" — " + "; ".join(bund.reasons[0])
                                                 if bund.reasons[0] else ""))
    unknown = _unknown_paths(task.text, ds.corpus.ids)
    if unknown:  # a stale path, a trace from another version: else an unrelated bundle
        print(f"the task names {', '.join(unknown)}: no file of the repository at this "
              "commit ends with it (renamed, deleted, or from another version)")
    used = float(bund.tokens[0])
    preset = str(params.get("budget_preset", "custom"))
    if preset != "custom":
        print(f"budget preset {preset}: {tokens:,} tokens, {files} files (the max_files and "
              "token_budget parameters apply only with budget_preset=custom)")
    why = _STOP_TEXT.get(bund.stop[0], "").format(sufficiency=float(params["sufficiency"]),
                                                    overshoot=float(params["overshoot"]))
    nxt = ""
    if bund.stop[0] == "token_budget" and reach < count:
        nxt = (f": #{reach + 1} {ds.corpus[int(ranking.docs[0, reach])].id} costs "
               f"{float(prep.cost[int(ranking.pair[0, reach])]):,.0f} tokens"
               + (f", after {len(skipped)} skipped (skip_limit {int(params['skip_limit'])})"
                  if skipped else ""))
    print(f"bundle: {size} of {count} candidates, {size}/{files} files, "
          f"{used:,.0f}/{tokens:,} tokens ({used / tokens:.0%} of the budget); "
          f"stopped: {bund.stop[0]} ({why}{nxt})")
    if skipped:
        print("skipped for the budget (each did not fit; the next file was tried): "
              + ", ".join(f"#{r + 1} {ds.corpus[int(ranking.docs[0, r])].id} "
                          f"{float(prep.cost[int(ranking.pair[0, r])]):,.0f} tokens"
                          for r in sorted(skipped)))
    if size == 0 and bund.stop[0] == "token_budget":
        # the document's rule stops at the first file that does not fit; skip_limit skips
        print("the bundle is empty: "
              + ("its first file alone is over the budget" if not skipped else
                 f"its first {len(skipped) + 1} files are each over the budget")
              + ". Raise token_budget (budget_preset=custom) or pick budget_preset=generous, "
              "raise skip_limit, or narrow the excerpts (excerpt_window) of long files")
    contrib = scores.contributions_of(ranking.pair[0, :count])
    shown = {ds.corpus[int(ranking.docs[0, j])].id for j in range(min(count, max(top, reach)))}
    for j in range(min(count, max(top, reach))):
        if j == reach:
            print(f"\n  — cut here: {bund.stop[0]} —")
        d = int(ranking.docs[0, j])
        info = model.explain(prep, ds, 0, d, params)
        mark = "  needed ✓" if ds.corpus[d].id in needed else ""
        excerpt = info.get("excerpt")
        n_lines = file_lines(ds.corpus[d])
        cost = (f"{info['tokens']:,.0f} tokens"
                + (f" (excerpt: {excerpt['lines']} of {excerpt['of_lines']} lines)"
                   if excerpt else
                   # in the bundle, holding nothing: said (it read as a cheap whole file)
                   f" (excerpt: 0 of {n_lines:,} lines: no signature or task word kept)"
                   if not info["tokens"] and n_lines > 1 else ""))
        gate = f"  [gated: {info['gate']}]" if info.get("gate") else ""
        skip = "  [skipped: over the budget]" if j in skipped else ""
        print(f"\n#{j + 1}  {ds.corpus[d].id}  score {ranking.scores[0, j]:.4f}  {cost}"
              f"{mark}{gate}{skip}")
        print(f"    stages: {', '.join(info.get('stages', [])) or '-'}")
        parts = [f"{name} {contrib[i, j]:+.4f}" for i, name in enumerate(scores.signals)
                 if abs(contrib[i, j]) > 5e-5]
        print("    " + (" ".join(parts) if parts else "all signals 0"))
        matched = info.get("matched", {})
        if matched.get("path_or_symbol") or matched.get("content"):
            # the keyword signal's matches (whole task words), apart from content BM25's
            # stemmed terms below: both said "content"
            print(f"    keyword matches: path/symbols {_words(matched.get('path_or_symbol'))}"
                  f", file keywords {_words(matched.get('content'))}")
        for line in _relevance_lines(info, params):
            print("    " + line)
    misses = model.near_misses(prep, params, 0, 5 + len(skipped))
    misses = [m for m in misses if m["rank"] > reach]  # the skipped ones are listed above
    if misses and top <= reach:
        print("\nnear misses (just below the cut; the bundle's tokens if it also took each one "
              "and those listed above it):")
        for m in misses:
            print(f"  #{m['rank']}  {m['doc']}  score {m['score']:.4f}, {m['tokens']:,.0f} "
                  f"tokens → bundle {m['tokens_if_added']:,.0f} tokens")
    taken = {ds.corpus[d].id for d in bund.files(0)}
    missed = [p for p in needed if p not in taken]
    if needed:
        print(f"\nneeded files: {len(needed) - len(missed)} of {len(needed)} in the bundle")
        ranked = [ds.corpus[int(d)].id for d in ranking.docs[0, :count]]
        for p in missed:
            where = (f"ranked #{ranked.index(p) + 1}" if p in ranked
                     else "not a candidate" if p in ds.corpus.index else "not in the index")
            print(f"  missed {p}: {where}")
    return shown


_STOP_TEXT = {
    "file_limit": "max_files reached",
    "token_budget": "the next file would not fit, even with the {overshoot:.0%} overshoot",
    "sufficiency": "the files taken hold {sufficiency:.0%} of the candidates' score mass",
    "candidates_exhausted": "every candidate was taken",
}


def _unknown_paths(text: str, paths: Any) -> list[str]:
    """The paths with a code extension the task names that no file matches."""
    from workbench.core.models.codeledger.mentions import mentioned_files, path_mentions

    found = set(mentioned_files(text, list(paths)).values())
    return [m for m in path_mentions(text)
            if m not in found and "." in m.rsplit("/", 1)[-1]
            and not mentioned_files(m, list(paths))][:5]


def _words(words: Any) -> str:
    return ", ".join(map(str, words)) if isinstance(words, list | tuple) and words else "-"


def _relevance_lines(info: dict[str, Any], params: Any = None) -> list[str]:
    """Content BM25 (and the task tokens the file holds), the path the task names it by, the
    neighbours the graph signal takes from, the file the co-change signal takes from, the
    past commit the similar signal takes most from — each said not to count where its weight
    is 0 (codeledger-document: they read as reasons for the rank, and added nothing)."""
    def idle(weight: str) -> str:
        if params is None or float(params.get(weight, 1.0)) != 0.0:
            return ""
        return f"  (not counted: {weight} is 0)"

    out = []
    c = info.get("content")
    if c and c["bm25"] > 0:
        out.append(f"content BM25: {c['bm25']:.2f} of the task's best "
                   f"{c['task_best_bm25']:.2f} (task terms in the file, stemmed: "
                   f"{', '.join(c['tokens_held'][:12]) or '-'})" + idle("w_content"))
    if info.get("named_as"):
        out.append(f"named in the task as {info['named_as']}" + idle("w_mention"))
    for hop, g in info.get("graph_neighbours", {}).items():
        out.append(f"graph {hop}: next to {g['from']} (content relevance {g['relevance']:.2f})"
                   + idle("w_graph"))
    if info.get("changed_with"):
        c = info["changed_with"]
        out.append(f"co-change {c['value']:.2f}: changed in past commits with {c['with']} "
                   f"(its content relevance × the share of its commits that changed this file)"
                   + idle("w_cochange"))
    if info.get("similar_commit"):
        c = info["similar_commit"]
        out.append(f"similar commits {c['value']:.2f}: changed by past commits worded like the "
                   f"task, most by {c['commit']}" + idle("w_similar"))
    return out


def _budget(params: Any) -> tuple[int, int]:
    from workbench.core.models.codeledger.bundle import budget

    return budget(params)


STUB_TOKENS = 5  # a bundled file costing this little, of a longer file, holds next to nothing


def _stub_finds(pipe: Any, bund: Any) -> tuple[int, int]:
    """(needed files in the bundles as stub excerpts, needed files in the bundles)."""
    prep, ds = pipe.prepared, pipe.dataset
    stubs = found = 0
    for q, query in enumerate(ds.queries):
        needed = {d for d, g in (ds.qrels or {}).get(query.id, {}).items() if g > 0}
        for doc in bund.files(q):
            if ds.corpus[doc].id not in needed:
                continue
            found += 1
            pair = prep.pair_of(q, doc)
            long = file_lines(ds.corpus[doc]) > STUB_TOKENS
            if pair is not None and long and float(prep.cost[pair]) <= STUB_TOKENS:
                stubs += 1
    return stubs, found


def print_bundle_summary(pipe: Any, counted: Any = None) -> None:
    """Over every task, or the tasks `counted` (bool (Q,): the ones the metrics count — the
    held-out tasks of a tuned file): why the bundles stopped and how confident they were."""
    from collections import Counter

    import numpy as np

    from workbench.core.models.codeledger.explain import full_bundles

    _, bund = full_bundles(pipe.prepared, pipe.params)
    tokens, files = _budget(pipe.params)
    keep = (np.ones(len(bund.stop), bool) if counted is None
            else np.asarray(counted, bool))
    stops = Counter(x for x, k in zip(bund.stop, keep, strict=True) if k)
    conf = Counter(x for x, k in zip(bund.confidence, keep, strict=True) if k)
    over = ("" if keep.all() else
            f" over the {int(keep.sum()):,} task{'' if keep.sum() == 1 else 's'} the metrics "
            "count")
    print(f"\nbundles{over} (budget {tokens:,} tokens / {files} files): stopped by "
          + ", ".join(f"{k} ×{n}" for k, n in stops.most_common())
          + "; confidence " + ", ".join(f"{k} ×{conf[k]}" for k in ("HIGH", "MEDIUM", "LOW")
                                        if conf[k]))
    stubs, found = _stub_finds(pipe, bund)
    if stubs:  # bundle_recall counts a needed file listed, not what of it the agent gets
        print(f"note: {stubs} of the {found} needed files the bundles hold "
              f"{'is' if stubs == 1 else 'are'} in them as excerpts of {STUB_TOKENS} tokens or "
              "fewer (no signature or task word kept): bundle recall counts "
              f"{'it' if stubs == 1 else 'them'} as found")
    per_task = bund.skipped.sum(axis=1)[keep]
    if per_task.any():
        print(f"skipped for the budget: {int(per_task.sum())} files in "
              f"{int((per_task > 0).sum())} of {len(per_task)} tasks (skip_limit "
              f"{int(pipe.params['skip_limit'])}; each a file that did not fit, the next tried)")
