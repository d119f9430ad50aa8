"""The sample code repository, rebuilt reproducibly from the fast-import stream the project ships.

`sample_corpora/code-repo/history.fi` is a `git fast-import` stream: 40 commits by four authors
over five months of a tiny URL shortener (Python API, TypeScript client, Go CLI). Every author
and committer date is fixed in the stream, and git runs with no system or user configuration,
so the same stream gives the same commit hashes on every machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["SAMPLE_STREAM", "build_sample_repo", "git_env"]

SAMPLE_STREAM = Path(__file__).resolve().parents[3] / "sample_corpora" / "code-repo" / "history.fi"


def git_env(home: Path) -> dict[str, str]:
    """An environment in which git reads no configuration but the repository's own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", HOME=str(home), XDG_CONFIG_HOME=str(home),
               LC_ALL="C", TZ="UTC")
    return env


def build_sample_repo(dest: Path, stream: Path = SAMPLE_STREAM) -> Path:
    """Build the sample repository (history and checked-out `main`) at `dest`.

    The repository is built in a temporary folder beside `dest` and renamed into place, so
    `dest` is either absent or complete. Raises FileExistsError when `dest` exists and
    subprocess.CalledProcessError when git fails.
    """
    dest = Path(dest)
    if dest.exists():
        raise FileExistsError(f"{dest}: already exists")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}."))
    try:
        home = tmp / "home"
        work = tmp / "repo"
        home.mkdir()
        env = git_env(home)

        def git(*args: str, stdin: bytes | None = None) -> None:
            subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false",
                            *args], cwd=work, env=env, input=stdin, check=True,
                           capture_output=True)

        work.mkdir()
        git("init", "-q")
        git("fast-import", "--done", "--quiet", stdin=stream.read_bytes())
        git("checkout", "-q", "-f", "main")
        os.replace(work, dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest
