"""`workbench bench --code-scale N`: codeledger's index, prepare and live path on a repository
of N files — timings only.

The repository is made in a temporary folder and removed afterwards. Its files are real code:
the first N Python files (sorted by path, at most 60 KB each) of the packages installed beside
the workbench (numpy, scipy, optuna, …), committed once. Its history is synthetic and seeded:
`commits` commits, six hours apart, each appending a comment line to one to four files of one
directory, with the message "Fix <a function of the first file> in <its module>". The history
gives churn, co-change and tasks the shape of a real one; it says nothing of quality, so no
quality figure is printed.

Measured: the repository index without the cache; prepare (no cache) of `codeledger-document`
and of `codeledger` (content index, co-change and the rest) on the tasks the commits after
the snapshot give (`tasks-from-git`'s defaults), the first `tasks` of them; and the live path
(combine, rank, metrics, bundles) on those tasks, median of 20.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path

import numpy as np

from workbench.bench.code_selection import _live_ms, _prepare_s, _subset
from workbench.core.formats.code_repo import read_code_repo
from workbench.core.formats.code_tasks import write_tasks
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.repo import index_repository
from workbench.core.repo.sample import git_env
from workbench.core.repo.tasks import mine_tasks, pick_snapshot

__all__ = ["make_code_repo", "run_code_scale_bench"]

_DEF = re.compile(rb"^def ([A-Za-z_][A-Za-z0-9_]{3,})\(", re.M)
START = 1_700_000_000  # the first commit's time (seconds since the epoch)


def source_files(n: int, max_bytes: int = 60_000) -> list[tuple[str, bytes]]:
    """(repository path, content) of the first n Python files of the installed packages."""
    root = Path(sysconfig.get_paths()["purelib"])
    out: list[tuple[str, bytes]] = []
    for pkg in ("numpy", "scipy", "optuna", "sklearn", "pandas", "sqlalchemy", "snowballstemmer",
                "pyqtgraph", "transformers", "torch"):
        for p in sorted((root / pkg).rglob("*.py")):
            if len(out) >= n:
                return out
            try:
                data = p.read_bytes()
            except OSError:
                continue
            if 0 < len(data) <= max_bytes:
                out.append((p.relative_to(root).as_posix(), data))
    return out


def make_code_repo(dest: Path, n_files: int, commits: int, seed: int = 0) -> int:
    """A git repository at `dest` (absent before) of `n_files` real files and a seeded
    synthetic history of `commits` commits after the first; returns the files committed."""
    files = source_files(n_files)
    rng = np.random.default_rng(seed)
    by_dir: dict[str, list[int]] = {}
    for i, (path, _) in enumerate(files):
        by_dir.setdefault(path.rsplit("/", 1)[0], []).append(i)
    dirs = sorted(by_dir)
    stream = bytearray()

    def blob_commit(when: int, message: str, changes: list[tuple[str, bytes]]) -> None:
        msg = message.encode()
        stream.extend(b"commit refs/heads/main\n")
        stream.extend(f"committer Bench <bench@example.com> {when} +0000\n".encode())
        stream.extend(b"data %d\n%s\n" % (len(msg), msg))
        for path, data in changes:
            stream.extend(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data),
                                                                 data))

    content = [data for _, data in files]
    blob_commit(START, "Import the sources", list(files))
    for c in range(commits):
        d = dirs[int(rng.integers(len(dirs)))]
        members = by_dir[d]
        k = min(len(members), int(rng.integers(1, 5)))
        picked = [members[int(i)] for i in rng.choice(len(members), size=k, replace=False)]
        for i in picked:
            content[i] = content[i] + f"# change {c}\n".encode()
        first = files[picked[0]][0]
        names = _DEF.findall(content[picked[0]])
        name = names[int(rng.integers(len(names)))].decode() if names else "setup"
        module = first.rsplit("/", 1)[-1].removesuffix(".py")
        blob_commit(START + (c + 1) * 6 * 3600, f"Fix {name} in {module}",
                    [(files[i][0], content[i]) for i in picked])
    stream.extend(b"done\n")
    home = Path(tempfile.mkdtemp(prefix="wb-git-home-"))
    try:
        dest.mkdir(parents=True)
        env = git_env(home)
        for args, stdin in ((["init", "-q"], None),
                            (["fast-import", "--done", "--quiet"], bytes(stream)),
                            (["checkout", "-q", "-f", "main"], None)):
            subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=dest, env=env,
                           input=stdin, check=True, capture_output=True)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return len(files)


def run_code_scale_bench(n_files: int = 1500, commits: int = 500, tasks: int = 200) -> int:
    with tempfile.TemporaryDirectory(prefix="wb-code-scale-") as tmp:
        root = Path(tmp) / "repo"
        t0 = time.perf_counter()
        made = make_code_repo(root, n_files, commits)
        build_s = time.perf_counter() - t0
        if made < n_files:
            print(f"only {made} Python files installed beside the workbench (asked {n_files})")
        snapshot = pick_snapshot(root, tasks_fraction=0.5)
        mined = mine_tasks(root, snapshot=snapshot, max_files=20)
        t0 = time.perf_counter()
        index_repository(root, rev=snapshot, use_cache=False)
        index_s = time.perf_counter() - t0
        path = Path(tmp) / "tasks.jsonl"
        write_tasks(path, mined.tasks)
        ds = read_code_repo(root, tasks=path)
        ds = _subset(ds, ds.queries.ids[:tasks])
        print(f"synthetic repository: {len(ds.corpus):,} real Python files, {commits} "
              f"synthetic commits (made in {build_s:.1f} s); snapshot at half the history, "
              f"{len(ds.queries)} tasks")
        print(f"index (no cache): {index_s:.2f} s")
        doc = _prepare_s(ds, "codeledger-document")
        new = _prepare_s(ds, "codeledger")
        print(f"prepare (no cache): codeledger-document {doc:.2f} s, codeledger {new:.2f} s "
              f"({new / doc:.2f}×); index + prepare {(index_s + new) / (index_s + doc):.2f}× "
              f"the document's")
        ms, pairs = _live_ms(Pipeline(get_model("codeledger"), ds, {}))
        print(f"live combine + rank + metrics + bundles: {ms:.2f} ms median over "
              f"{len(ds.queries)} tasks ({pairs:,} task-file pairs)")
    return 0
