"""`tune --out` that cannot be written at the end of a run: one error as every other writer
gives it (`--out PATH: cannot write (…); nothing was written`, exit 2), the file already there
unchanged, and what to do without losing the run (ra 4: a bare OS error, exit 1)."""

from __future__ import annotations

import errno
import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

import workbench.core.store as store
from workbench.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def test_a_full_disk_at_the_end_is_one_error_and_leaves_the_old_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "best.toml"
    out.write_text("k1 = 0.9\n", encoding="utf-8")
    before = hashlib.sha256(out.read_bytes()).hexdigest()

    def full_disk(path: Any, text: str, **_: Any) -> None:  # a simulated full disk
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(store, "atomic_write_text", full_disk)
    storage = tmp_path / "s.db"
    code = main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--folds",
                 "0", "--trials", "3", "--storage", str(storage), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert (f"--out {out}: cannot write (No space left on device); nothing was written"
            in err)
    assert "the same command (without --fresh)" in err and "Traceback" not in err
    assert hashlib.sha256(out.read_bytes()).hexdigest() == before
    monkeypatch.undo()  # the disk has room again: the same command writes, no trial run anew
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--folds",
                 "0", "--trials", "3", "--storage", str(storage), "--out", str(out)]) == 0
    assert "none will run new" in capsys.readouterr().out
    assert "[tuned]" in out.read_text(encoding="utf-8")


def test_after_a_timeout_run_the_way_to_write_runs_no_new_trials(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """dr1 7: a --timeout run was told the same command writes the values without running
    trials again; it ran for its time again. It is told --trials N and no --timeout, which
    runs none new."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "best.toml"

    def full_disk(path: Any, text: str, **_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(store, "atomic_write_text", full_disk)
    args = ["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--folds", "3",
            "--storage", str(tmp_path / "s.db"), "--out", str(out)]
    assert main([*args, "--timeout", "1.5"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    said = re.search(r"the same command with --trials (\d+) and no --timeout \(and without "
                     r"--fresh\) and a writable --out writes them without running new trials",
                     err)
    assert said, err
    monkeypatch.undo()  # the disk has room again
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    assert main([*args, "--trials", said.group(1)]) == 0
    assert "none will run new" in " ".join(capsys.readouterr().out.split())
    assert out.is_file()
