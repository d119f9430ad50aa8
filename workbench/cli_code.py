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
