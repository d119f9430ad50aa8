"""A throw-away PostgreSQL server for tests: `initdb` in a temporary folder, `pg_ctl start` on
127.0.0.1 and a free port, stopped (immediately) at the end. Never assumes a running server.

As root (CI here) the server runs as the `postgres` system user, since PostgreSQL refuses to
run as root. Skips with the reason where the server binaries (Debian's postgresql-NN) or that
user are absent. Its files are then in a folder of their own under the system's temporary
folder, not under pytest's: pytest takes the group and other bits off its `pytest-of-USER`
folder whenever another pytest process or xdist worker starts, which had locked the server
out of its own data mid-`initdb` ("could not open file …/pg_control: Permission denied").
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _binaries() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def postgres(folder: Path) -> Iterator[str]:
    """A running server's URL (user `wb`, database `postgres`, no password)."""
    bin_dir = _binaries()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    prefix: list[str] = []
    own_folder = os.geteuid() == 0
    if own_folder:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run the server")
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser to start the server as postgres")
        prefix = [runuser, "-u", "postgres", "--"]
        folder = Path(tempfile.mkdtemp(prefix="wb-pg-"))  # removed at the end
        folder.chmod(0o711)  # the server user must reach its folder (the temporary folder can)
    folder.mkdir(parents=True, exist_ok=True)
    data, sock = folder / "data", folder / "sock"
    data.mkdir()
    sock.mkdir()
    if prefix:
        shutil.chown(data, "postgres", "postgres")
        shutil.chown(sock, "postgres", "postgres")
        shutil.chown(folder, "postgres", "postgres")
    port = _free_port()
    log = folder / "server.log"

    def run(*cmd: str) -> None:
        done = subprocess.run([*prefix, *cmd], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            if own_folder:
                shutil.rmtree(folder, ignore_errors=True)
            pytest.skip(f"could not start a PostgreSQL server: {' '.join(cmd[:2])}: "
                        f"{(done.stderr or done.stdout).strip()[:300]}")

    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "wb", "-A", "trust", "--no-sync",
        "-E", "UTF8")
    options = (f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c max_connections=50")
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w",
        "-t", "60", "start")
    try:
        yield f"postgresql://wb@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "-w", "stop"], capture_output=True, timeout=120)
        if own_folder:
            shutil.rmtree(folder, ignore_errors=True)
