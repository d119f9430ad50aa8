"""A study on read-only storage: the error says the folder cannot be written (SQLite writes
its lock and journal beside the file, even to read it) and what to do (review rb 7: it had
said only "unable to open database file")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

ARGS = ["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--folds", "0",
        "--trials", "2"]


def _can_mount_read_only() -> bool:
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    done = subprocess.run([unshare, "-rm", "true"], capture_output=True)
    return done.returncode == 0


@pytest.mark.skipif(not _can_mount_read_only(), reason="needs unshare -rm (a user namespace) "
                    "to mount a folder read-only")
def test_a_study_on_read_only_storage_is_said_to_be_there(tmp_path, capsys):
    folder = tmp_path / "archive"
    folder.mkdir()
    db = folder / "s.db"
    assert main([*ARGS, "--storage", str(db)]) == 0  # a complete study
    capsys.readouterr()
    # the folder bind-mounted read-only over itself, in a mount namespace of the command's own
    command = (f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && "
               f"{sys.executable} -m workbench.cli {' '.join(ARGS)} --storage {db}")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", command], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert done.returncode == 2, done.stderr
    assert " ".join(done.stderr.split()) == (
        f"workbench tune: error: cannot open study storage {db}: its folder {folder} is on "
        "read-only storage, and SQLite writes its lock and journal files beside the study, "
        "even to read it; copy s.db to a writable folder and give the copy as --storage")
    assert db.stat().st_size > 0  # left as it was


@pytest.mark.skipif(not _can_mount_read_only(), reason="needs unshare -rm (a user namespace) "
                    "to mount a folder read-only")
def test_a_new_study_on_read_only_storage_is_not_told_to_copy_it(tmp_path):
    """dr1 6: a study not made yet was told to "copy new.db to a writable folder"."""
    folder = tmp_path / "archive"
    folder.mkdir()
    db = folder / "new.db"
    command = (f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && "
               f"{sys.executable} -m workbench.cli {' '.join(ARGS)} --storage {db}")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", command], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert done.returncode == 2, done.stderr
    assert " ".join(done.stderr.split()) == (
        f"workbench tune: error: cannot make study storage {db}: its folder {folder} is on "
        "read-only storage; give --storage a file in a writable folder")
    assert not db.exists()
