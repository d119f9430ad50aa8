"""CLI subcommands for code repositories: `tasks-from-git` (a task set with ground truth mined
from a repository's own history, without leakage)."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from workbench.cli.args import fraction
from workbench.cli.common import EXIT_FAIL, EXIT_USAGE
from workbench.cli.output import check_output, check_outputs_apart, write_outputs
from workbench.core.formats.code_tasks import tasks_jsonl
from workbench.core.repo.file_kinds import FILE_KINDS, OPTIONAL_KINDS, SOURCE, parse_kinds
from workbench.core.repo.git import GitError, git
from workbench.core.repo.tasks import DROPPED, SKIPPED, MinedTasks, mine_tasks, pick_snapshot

DEFAULT_TASK_FRACTION = 0.3
SKIPPED_HEADER = "commit\treason\tsubject"


def cmd_tasks_from_git(args: argparse.Namespace) -> int:
    """Commits after a snapshot as tasks (JSONL to --out or stdout), a summary on stderr."""
    from workbench.core.formats.code_repo import is_sample_stream_folder, sample_repo

    repo = Path(args.repo)
    if is_sample_stream_folder(repo):  # the bundled sample: its history's own repository
        # (a folder inside the workbench's repository, it was told to mine the workbench's)
        repo = sample_repo(repo)
    if args.min_files > args.max_files:  # in the options' own names, before git is asked
        given = "--max-files" in (getattr(args, "argv", None) or [])
        print(f"workbench tasks-from-git: error: --min-files {args.min_files} is above "
              f"--max-files {args.max_files}"
              + ("" if given else " (the default): raise --max-files too"), file=sys.stderr)
        return EXIT_USAGE
    if args.out == "-":  # standard output, as `-` is everywhere: the default
        args.out = None
    try:
        if args.out:  # before the mining: a path that cannot be written is said at once
            check_output(args.out, "--out")
        if args.skipped:
            check_output(args.skipped, "--skipped")
        # not onto the repository's own files (-o README.md had replaced it); a tasks file
        # of an earlier run there, untracked, is replaced
        check_outputs_apart([("--out", Path(args.out) if args.out else None),
                             ("--skipped", Path(args.skipped) if args.skipped else None)],
                            [("--repo", repo)], {"--out": (".jsonl",), "--skipped": (".tsv",)},
                            [Path(repo) / ".codeledger" / "tasks.jsonl"])
        _check_top_folder(repo)  # a missing folder or a file: GitError from `git`
        share = args.task_fraction or DEFAULT_TASK_FRACTION
        snapshot = args.snapshot or pick_snapshot(repo, until=args.until,
                                                  tasks_fraction=share)
        mined = mine_tasks(repo, snapshot=snapshot, until=args.until, max_files=args.max_files,
                           min_files=args.min_files, include_tests=not args.no_tests,
                           include=args.include, subject_only=args.subject_only)
        date = git(repo, "show", "-s", "--format=%cs", mined.snapshot).decode().strip()
        outputs: list[tuple[str, Path | None, str | bytes]] = []
        if args.skipped:  # written with no task too: it says why there is none
            outputs.append(("--skipped", Path(args.skipped), skipped_tsv(mined)))
        if mined.tasks and args.out:  # none: no empty file for `eval --queries` to fail on
            outputs.append(("--out", Path(args.out), tasks_jsonl(mined.tasks)))
        # a full disk: "--out FILE: cannot write (…); nothing was written"
        write_outputs(outputs)
        if mined.tasks and not args.out:
            sys.stdout.write(tasks_jsonl(mined.tasks))
    except (GitError, ValueError, OSError) as exc:
        print(f"workbench tasks-from-git: error: {exc}", file=sys.stderr)
        _say_if_shallow(repo)  # "too few to split" on a shallow clone: why
        return EXIT_USAGE
    print(summary(mined, date, Path(args.repo), args.out, args.skipped),
          file=sys.stderr)  # as given
    _say_if_shallow(repo)
    return 0 if mined.tasks else EXIT_FAIL


def _say_if_shallow(repo: Path) -> None:
    """eval, explain and rank say a shallow clone's history is short; the tasks mined from it
    are few for the same reason, and were said nothing of."""
    from workbench.core.repo.git import history_length, shallow_boundary

    try:
        if not shallow_boundary(repo):
            return
        n = history_length(repo, "HEAD")
    except (GitError, ValueError):
        return
    print(f"warning: {repo} is a shallow clone ({n:,} commit{'' if n == 1 else 's'} of "
          "history): the tasks come from those alone, and churn, co-change and similar past "
          "commits see only them (`git fetch --unshallow` for the rest)", file=sys.stderr)


def _check_top_folder(repo: Path) -> None:
    """A folder inside a repository would give the enclosing repository's history, with paths
    that `eval` on the folder could not find: a GitError naming the top folder."""
    inside = git(repo, "rev-parse", "--show-prefix").decode().strip()
    if inside:
        top = git(repo, "rev-parse", "--show-toplevel").decode().strip()
        raise GitError(f"{repo}: a folder ({inside}) inside the git repository {top}, whose "
                       f"history it would mine: pass --repo {top}")


def skipped_tsv(mined: MinedTasks) -> str:
    """Each skipped commit, oldest first, as a tab-separated line: its full hash, the reason
    (a key of `SKIPPED`, as the summary counts them) and its subject (tabs as spaces)."""
    rows = [f"{sha}\t{why}\t{' '.join(subject.split())}"
            for sha, why, subject in mined.skipped_commits]
    return "\n".join([SKIPPED_HEADER, *rows]) + "\n"


def summary(mined: MinedTasks, snapshot_date: str, repo: Path, out: str | None,
            skipped: str | None = None) -> str:
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
    if mined.skipped_commits:
        lines.append(f"  which ones: written to {skipped}" if skipped
                     else "  which ones: --skipped FILE lists each, with its reason")
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
        return ["no tasks: try an earlier --snapshot, a larger --task-fraction or "
                "--all-files"]
    if out:
        return [f"wrote {out}", "next: workbench eval " + shlex.quote(str(repo))
                + " --queries " + shlex.quote(out) + " -m codeledger"]
    return ["next: save them with --out tasks.jsonl, then: workbench eval "
            + shlex.quote(str(repo)) + " --queries tasks.jsonl -m codeledger"]


class _Renamed(argparse.Action):
    """An option under its old name: stored as the new one, with a note on stderr."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                  values: Any, option_string: str | None = None) -> None:
        print(f"note: {option_string} is now --task-fraction (the newest share of the "
              "commits that become tasks); the old name still works", file=sys.stderr)
        setattr(namespace, self.dest, values)


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


def add_commands(sub: Any) -> None:
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
    g.add_argument("--task-fraction", type=fraction, metavar="FRACTION",
                   help="the newest share of the commits that become tasks, counted from the "
                   "new end: the snapshot is picked so this fraction of the history comes "
                   "after it; 0.3 = the newest 30%% of commits are tasks, the older 70%% the "
                   f"indexed history (default {DEFAULT_TASK_FRACTION})")
    # its name until rv2 5, which read as the share that stays history: still read, said
    g.add_argument("--history-fraction", type=fraction, dest="task_fraction",
                   action=_Renamed, help=argparse.SUPPRESS)
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
                   help="leave test files out of the files a task needs (named as tests — "
                   "x.test.ts, test_x.py, x_test.go — or under a test/, tests/, __tests__/, "
                   "spec/ or specs/ folder)")
    p.add_argument("--subject-only", action="store_true",
                   help="task text is the commit subject, not the whole message")
    p.add_argument("--out", "-o", metavar="FILE", help="write the tasks here (default stdout)")
    p.add_argument("--skipped", metavar="FILE",
                   help="write each commit that made no task here, with its reason (a .tsv: "
                   "commit, reason, subject; the reasons as the summary counts them)")
    p.set_defaults(func=cmd_tasks_from_git)
