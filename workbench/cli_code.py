"""CLI subcommands for code repositories: `tasks-from-git` (a task set with ground truth mined
from a repository's own history, without leakage)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from workbench.core.formats.code_tasks import tasks_jsonl, write_tasks
from workbench.core.repo.git import GitError, git
from workbench.core.repo.tasks import DROPPED, SKIPPED, MinedTasks, mine_tasks, pick_snapshot

EXIT_USAGE = 2
DEFAULT_SPLIT = 0.3


def cmd_tasks_from_git(args: argparse.Namespace) -> int:
    """Commits after a snapshot as tasks (JSONL to --out or stdout), a summary on stderr."""
    repo = Path(args.repo)
    try:
        if not repo.is_dir():
            raise GitError(f"{repo}: no such folder")
        snapshot = args.snapshot or pick_snapshot(
            repo, until=args.until,
            tasks_fraction=DEFAULT_SPLIT if args.split is None else args.split)
        mined = mine_tasks(repo, snapshot=snapshot, until=args.until, max_files=args.max_files,
                           min_files=args.min_files, include_tests=not args.no_tests,
                           with_body=args.with_body)
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


def summary(mined: MinedTasks, snapshot_date: str, repo: Path, out: str | None) -> str:
    """What a newcomer needs: where the split is, what became a task, what did not and why,
    and what to run next."""
    n = len(mined.tasks)
    lines = [f"snapshot {mined.snapshot[:10]} ({snapshot_date}): the index is built here; the "
             f"{mined.commits} commit(s) after it, up to {mined.until[:10]}, are the tasks"]
    lines.append(f"{n} task(s), {mined.commits - n} commit(s) skipped"
                 + (":" if mined.skipped else ""))
    for key, text in SKIPPED.items():
        if mined.skipped.get(key):
            lines.append(f"  {mined.skipped[key]:>4}  {text}")
    if n:
        sizes = [len(t.files) for t in mined.tasks]
        lines.append(f"files per task: mean {sum(sizes) / n:.1f} (min {min(sizes)}, "
                     f"max {max(sizes)})")
    for key, text in DROPPED.items():
        if mined.dropped.get(key):
            lines.append(f"  {mined.dropped[key]:>4}  changed file(s) left out: {text}")
    if not n:
        lines.append("no tasks: try an earlier --snapshot or a larger --split")
    elif out:
        lines.append(f"wrote {out}")
        lines.append("next: workbench eval " + shlex.quote(str(repo)) + " --queries "
                     + shlex.quote(out) + " -m codeledger")
    else:
        lines.append("next: save them with --out tasks.jsonl, then: workbench eval "
                     + shlex.quote(str(repo)) + " --queries tasks.jsonl -m codeledger")
    return "\n".join(lines)


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


def add_code_commands(sub: Any) -> None:
    p = sub.add_parser(
        "tasks-from-git",
        help="a task set with ground truth from a repository's history (commits after a "
        "snapshot: message → files changed)",
        description="Index at a snapshot commit, test on the commits after it: each later "
        "non-merge commit becomes a task (its subject) with the files it changed that existed "
        "at the snapshot. Writes JSON lines; prints a summary on stderr.")
    p.add_argument("--repo", required=True, help="the git repository")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--snapshot", metavar="REV", help="the commit the index is built at")
    g.add_argument("--split", type=_fraction, metavar="FRACTION",
                   help=f"pick the snapshot so this fraction of the history comes after it "
                   f"(default {DEFAULT_SPLIT})")
    p.add_argument("--until", default="HEAD", metavar="REV",
                   help="the last commit to take tasks from (default HEAD)")
    p.add_argument("--max-files", type=_positive, default=20, metavar="N",
                   help="skip commits changing more code files than this (default 20)")
    p.add_argument("--min-files", type=_positive, default=1, metavar="N",
                   help="skip commits changing fewer code files than this (default 1)")
    p.add_argument("--no-tests", action="store_true",
                   help="leave test files out of the files a task needs")
    p.add_argument("--with-body", action="store_true",
                   help="task text is the whole commit message, not only its subject")
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
