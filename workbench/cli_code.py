"""CLI subcommands for code repositories: `tasks-from-git` (a task set with ground truth mined
from a repository's own history, without leakage)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from workbench.core.formats.code_tasks import tasks_jsonl, write_tasks
from workbench.core.repo.file_kinds import FILE_KINDS, OPTIONAL_KINDS, SOURCE, parse_kinds
from workbench.core.repo.git import GitError, git
from workbench.core.repo.tasks import DROPPED, SKIPPED, MinedTasks, mine_tasks, pick_snapshot

EXIT_USAGE = 2
DEFAULT_HISTORY_FRACTION = 0.3


def cmd_tasks_from_git(args: argparse.Namespace) -> int:
    """Commits after a snapshot as tasks (JSONL to --out or stdout), a summary on stderr."""
    repo = Path(args.repo)
    try:
        if not repo.is_dir():
            raise GitError(f"{repo}: no such folder")
        _check_top_folder(repo)
        fraction = args.history_fraction or DEFAULT_HISTORY_FRACTION
        snapshot = args.snapshot or pick_snapshot(repo, until=args.until,
                                                  tasks_fraction=fraction)
        mined = mine_tasks(repo, snapshot=snapshot, until=args.until, max_files=args.max_files,
                           min_files=args.min_files, include_tests=not args.no_tests,
                           include=args.include, subject_only=args.subject_only)
        date = git(repo, "show", "-s", "--format=%cs", mined.snapshot).decode().strip()
        if args.out:
            write_tasks(args.out, mined.tasks)
        else:
            sys.stdout.write(tasks_jsonl(mined.tasks))
    except (GitError, ValueError, OSError) as exc:
        print(f"workbench tasks-from-git: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(summary(mined, date, repo, args.out), file=sys.stderr)
    return 0


def _check_top_folder(repo: Path) -> None:
    """A folder inside a repository would give the enclosing repository's history, with paths
    that `eval` on the folder could not find: a GitError naming the top folder."""
    inside = git(repo, "rev-parse", "--show-prefix").decode().strip()
    if inside:
        top = git(repo, "rev-parse", "--show-toplevel").decode().strip()
        raise GitError(f"{repo}: a folder ({inside}) inside the git repository {top}, whose "
                       f"history it would mine: pass --repo {top}")


def summary(mined: MinedTasks, snapshot_date: str, repo: Path, out: str | None) -> str:
    """What a newcomer needs: where the split is, what a task is made of, what became a task,
    what did not and why, and what to run next."""
    n = len(mined.tasks)
    kept = " and ".join([FILE_KINDS[SOURCE], *(["also " + ", ".join(mined.include)]
                                                if mined.include else [])])
    lines = [f"snapshot {mined.snapshot[:10]} ({snapshot_date}): the index is built here; the "
             f"{mined.commits} commit(s) after it, up to {mined.until[:10]}, are the tasks",
             "task text: " + ("the commit subject (without --subject-only: the whole message)"
                              if mined.subject_only else "the whole commit message, trailers "
                              "left out (--subject-only: the subject alone)"),
             f"task files: {kept} changed by the commit that existed at the snapshot"
             + ("" if len(mined.include) == len(OPTIONAL_KINDS)
                else " (--include KINDS or --all-files for more)"),
             f"{n} task(s), {mined.commits - n} commit(s) skipped"
             + (":" if mined.skipped else "")]
    lines += [f"  {mined.skipped[k]:>4}  {text}" for k, text in SKIPPED.items()
              if mined.skipped.get(k)]
    if n:
        sizes = [len(t.files) for t in mined.tasks]
        lines.append(f"files per task: mean {sum(sizes) / n:.1f} (min {min(sizes)}, "
                     f"max {max(sizes)})")
    if mined.dropped:
        lines.append("changed files left out, and why:")
    lines += [f"  {mined.dropped[k]:>4}  {text}" + (f": --include {k}" if k in OPTIONAL_KINDS
                                                    else "")
              for k, text in DROPPED.items() if mined.dropped.get(k)]
    lines += [f"note: {note}" for note in mined.notes]
    return "\n".join(lines + _next_steps(n, repo, out))


def _next_steps(n: int, repo: Path, out: str | None) -> list[str]:
    if not n:
        return ["no tasks: try an earlier --snapshot, a larger --history-fraction or "
                "--all-files"]
    if out:
        return [f"wrote {out}", "next: workbench eval " + shlex.quote(str(repo))
                + " --queries " + shlex.quote(out) + " -m codeledger"]
    return ["next: save them with --out tasks.jsonl, then: workbench eval "
            + shlex.quote(str(repo)) + " --queries tasks.jsonl -m codeledger"]


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, found {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a fraction between 0 and 1, found {text}")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, found {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, found {value}")
    return value


def _kinds(text: str) -> tuple[str, ...]:
    try:
        return parse_kinds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_code_commands(sub: Any) -> None:
    p = sub.add_parser(
        "tasks-from-git",
        help="a task set with ground truth from a repository's history (commits after a "
        "snapshot: message → source files changed)",
        description="Index at a snapshot commit, test on the commits after it: each later "
        "commit becomes a task (its message) with the source and test files it changed that "
        "existed at the snapshot. Merges, bot commits, releases and version or dependency "
        "bumps, and one-word messages make no task. Writes JSON lines; prints a summary on "
        "stderr.")
    p.add_argument("--repo", required=True, help="the git repository")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--snapshot", metavar="REV", help="the commit the index is built at")
    g.add_argument("--history-fraction", type=_fraction, metavar="FRACTION",
                   help="pick the snapshot so this fraction of the history comes after it "
                   f"(default {DEFAULT_HISTORY_FRACTION})")
    p.add_argument("--until", default="HEAD", metavar="REV",
                   help="the last commit to take tasks from (default HEAD)")
    p.add_argument("--max-files", type=_positive, default=20, metavar="N",
                   help="skip commits changing more kept files than this (default 20)")
    p.add_argument("--min-files", type=_positive, default=1, metavar="N",
                   help="skip commits changing fewer kept files than this (default 1)")
    kinds = p.add_mutually_exclusive_group()
    kinds.add_argument("--code-only", dest="include", action="store_const", const=(),
                       help="a task's files are source and tests only (the default)")
    kinds.add_argument("--include", type=_kinds, metavar="KINDS",
                       help="keep these kinds too, comma-separated, or all: "
                       + "; ".join(f"{k} ({FILE_KINDS[k]})" for k in OPTIONAL_KINDS))
    kinds.add_argument("--all-files", dest="include", action="store_const",
                       const=OPTIONAL_KINDS, help="keep every kind of file (--include all)")
    p.set_defaults(include=())
    p.add_argument("--no-tests", action="store_true",
                   help="leave test files out of the files a task needs")
    p.add_argument("--subject-only", action="store_true",
                   help="task text is the commit subject, not the whole message")
    p.add_argument("--out", "-o", metavar="FILE", help="write the tasks here (default stdout)")
    p.set_defaults(func=cmd_tasks_from_git)


# -- explain: what `codeledger bundle --explain` promises ------------------------------------


def print_bundle_explain(pipe: Any, top: int) -> None:
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
    needed = (ds.qrels or {}).get(task.id, {})
    size, count = int(bund.size[0]), int(ranking.count[0])
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
          + f" · scope: {first.get('scope') or 'whole repository'}")
    print(f"confidence: {bund.confidence[0]}" + (" — " + "; ".join(bund.reasons[0])
                                                 if bund.reasons[0] else ""))
    used = float(bund.tokens[0])
    preset = str(params.get("budget_preset", "custom"))
    if preset != "custom":
        print(f"budget preset {preset}: {tokens:,} tokens, {files} files (the max_files and "
              "token_budget parameters apply only with budget_preset=custom)")
    why = _STOP_TEXT.get(bund.stop[0], "").format(sufficiency=float(params["sufficiency"]),
                                                    overshoot=float(params["overshoot"]))
    print(f"bundle: {size} of {count} candidates, {size}/{files} files, "
          f"{used:,.0f}/{tokens:,} tokens ({used / tokens:.0%} of the budget); "
          f"stopped: {bund.stop[0]} ({why})")
    contrib = scores.contributions_of(ranking.pair[0, :count])
    for j in range(min(count, max(top, size))):
        if j == size:
            print(f"\n  — cut here: {bund.stop[0]} —")
        d = int(ranking.docs[0, j])
        info = model.explain(prep, ds, 0, d, params)
        mark = "  needed ✓" if ds.corpus[d].id in needed else ""
        excerpt = info.get("excerpt")
        cost = (f"{info['tokens']:,.0f} tokens"
                + (f" (excerpt: {excerpt['lines']} of {excerpt['of_lines']} lines)"
                   if excerpt else ""))
        gate = f"  [gated: {info['gate']}]" if info.get("gate") else ""
        print(f"\n#{j + 1}  {ds.corpus[d].id}  score {ranking.scores[0, j]:.4f}  {cost}"
              f"{mark}{gate}")
        print(f"    stages: {', '.join(info.get('stages', [])) or '-'}")
        parts = [f"{name} {contrib[i, j]:+.4f}" for i, name in enumerate(scores.signals)
                 if abs(contrib[i, j]) > 5e-5]
        print("    " + (" ".join(parts) if parts else "all signals 0"))
        matched = info.get("matched", {})
        if matched.get("path_or_symbol") or matched.get("content"):
            print(f"    matched: path/symbols {matched.get('path_or_symbol') or '-'}, "
                  f"content {matched.get('content') or '-'}")
        for line in _relevance_lines(info):
            print("    " + line)
    misses = model.near_misses(prep, params, 0, 5)
    if misses and top <= size:
        print("\nnear misses (just below the cut; the bundle's tokens if it also took each one "
              "and those listed above it):")
        for m in misses:
            print(f"  #{m['rank']}  {m['doc']}  score {m['score']:.4f}, {m['tokens']:,.0f} "
                  f"tokens → bundle {m['tokens_if_added']:,.0f} tokens")
    taken = {ds.corpus[int(d)].id for d in ranking.docs[0, :size]}
    missed = [p for p in needed if p not in taken]
    if needed:
        print(f"\nneeded files: {len(needed) - len(missed)} of {len(needed)} in the bundle")
        ranked = [ds.corpus[int(d)].id for d in ranking.docs[0, :count]]
        for p in missed:
            where = (f"ranked #{ranked.index(p) + 1}" if p in ranked
                     else "not a candidate" if p in ds.corpus.index else "not in the index")
            print(f"  missed {p}: {where}")


_STOP_TEXT = {
    "file_limit": "max_files reached",
    "token_budget": "the next file would not fit, even with the {overshoot:.0%} overshoot",
    "sufficiency": "the files taken hold {sufficiency:.0%} of the candidates' score mass",
    "candidates_exhausted": "every candidate was taken",
}


def _relevance_lines(info: dict[str, Any]) -> list[str]:
    """Content BM25 (and the task tokens the file holds), the path the task names it by, the
    neighbours the graph signal takes from."""
    out = []
    c = info.get("content")
    if c and c["bm25"] > 0:
        out.append(f"content: bm25 {c['bm25']:.2f} of the task's best {c['task_best_bm25']:.2f}"
                   f" (tokens held: {', '.join(c['tokens_held'][:12]) or '-'})")
    if info.get("named_as"):
        out.append(f"named in the task as {info['named_as']}")
    for hop, g in info.get("graph_neighbours", {}).items():
        out.append(f"graph {hop}: next to {g['from']} (content relevance {g['relevance']:.2f})")
    return out


def _budget(params: Any) -> tuple[int, int]:
    from workbench.core.models.codeledger.bundle import budget

    return budget(params)


def print_bundle_summary(pipe: Any) -> None:
    """Over every task: why the bundles stopped and how confident they were."""
    from collections import Counter

    from workbench.core.models.codeledger.explain import full_bundles

    _, bund = full_bundles(pipe.prepared, pipe.params)
    tokens, files = _budget(pipe.params)
    stops = Counter(bund.stop)
    conf = Counter(bund.confidence)
    print(f"\nbundles (budget {tokens:,} tokens / {files} files): stopped by "
          + ", ".join(f"{k} ×{n}" for k, n in stops.most_common())
          + "; confidence " + ", ".join(f"{k} ×{conf[k]}" for k in ("HIGH", "MEDIUM", "LOW")
                                        if conf[k]))
