"""`workbench gui DATA --queries FILE --qrels FILE`: checked before a window opens, then handed
to the window as given."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

CODE = str(SAMPLES / "code-repo")


def test_queries_need_their_dataset_and_must_exist(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text((SAMPLES / "code-repo" / "tasks.jsonl").read_text())
    assert main(["gui", "--queries", str(tasks)]) == 2
    assert "--queries and --qrels belong to a DATA" in capsys.readouterr().err
    assert main(["gui", CODE, "--qrels", str(tmp_path / "none.tsv")]) == 2
    assert f"--qrels {tmp_path / 'none.tsv'}: no such file" in capsys.readouterr().err


def test_the_window_gets_them(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import workbench.gui.app

    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **kw: seen.append(a) or 0)
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text((SAMPLES / "code-repo" / "tasks.jsonl").read_text())
    assert main(["gui", CODE, "-m", "codeledger", "--queries", str(tasks)]) == 0
    assert seen == [(CODE, "codeledger", None, str(tasks), None, None)]
    seen.clear()
    assert main(["gui", str(SAMPLES / "tea-beir"), "--split", "train"]) == 0
    assert seen == [(str(SAMPLES / "tea-beir"), None, None, None, None, "train")]
