"""`tune --workers N` with an input through a pipe: refused before anything runs, since the
helper processes read the command's files again and a pipe gives its content once (dr3 6: the
helpers failed on `/dev/fd/63: no such file` and the run went on alone, exit 0)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def test_workers_refuse_a_piped_qrels_before_running(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    fifo = tmp_path / "qrels"
    os.mkfifo(fifo)  # nothing writes to it: reading it would block, stat does not
    storage = tmp_path / "s.db"
    code = main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--trials", "2",
                 "--storage", str(storage), "--workers", "2", "--qrels", str(fifo)])
    assert code == 2
    assert (f"--workers 2: the helper processes open --qrels {fifo} again, and it is a pipe"
            in capsys.readouterr().err)
    assert not storage.exists()  # nothing ran
