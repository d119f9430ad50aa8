"""A memory folder whose injections.jsonl gives no query (missing, empty, no line with a
promptPreview): eval and sweep had printed tables of "—" with exit 0, and compare, report and
tune had blamed the judgments; each now says why there is no query and to give --queries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def _folder(tmp_path: Path, log: str | None) -> Path:
    """The decisions sample with its injections.jsonl replaced by `log` (None: removed)."""
    folder = tmp_path / "mem"
    shutil.copytree(SAMPLES / "decisions", folder)
    if log is None:
        (folder / "injections.jsonl").unlink()
    else:
        (folder / "injections.jsonl").write_text(log, encoding="utf-8")
    return folder


def _without_previews() -> str:
    lines = (SAMPLES / "decisions" / "injections.jsonl").read_text(encoding="utf-8").split("\n")
    rows = [json.loads(line) for line in lines if line.strip()]
    for row in rows:
        row.pop("promptPreview", None)
    return "".join(json.dumps(r) + "\n" for r in rows)


def _lines() -> int:
    text = (SAMPLES / "decisions" / "injections.jsonl").read_text(encoding="utf-8")
    return sum(1 for line in text.split("\n") if line.strip())


@pytest.mark.parametrize("command", [
    ["eval"], ["sweep", "--sweep", "inject_limit"], ["compare", "--defaults", "-p",
                                                      "inject_limit=5"],
    ["tune", "--trials", "2"]])
@pytest.mark.parametrize("log", ["missing", "empty", "no preview", "no record"])
def test_no_query_is_said_with_its_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          command: list[str], log: str) -> None:
    text = {"missing": None, "empty": "", "no preview": _without_previews(),
            "no record": '{"ts": "2026-11-01T10:00:00.000Z"}\n'}[log]
    folder = _folder(tmp_path, text)
    assert main([command[0], str(folder), "-m", "decision-memory", *command[1:]]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    err = " ".join(got.err.split())
    assert "no judgments" not in err
    assert f"`workbench {command[0]}` has no query to run: give --queries FILE" in err
    why = {"missing": f"{folder}: no injections.jsonl",
           "empty": f"{folder / 'injections.jsonl'}: empty (no turn logged)",
           "no preview": f"{folder / 'injections.jsonl'}: none of its {_lines()} records has "
                         "a promptPreview",
           "no record": f"{folder / 'injections.jsonl'}: its one line is no usable record "
                        "(line 1: field 'results': missing)"}[log]
    assert why in err


def test_a_decisions_file_names_its_folder(capsys: pytest.CaptureFixture[str]) -> None:
    path = SAMPLES / "decisions" / "decisions.jsonl"
    assert main(["eval", str(path), "-m", "decision-memory"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{path}: a decisions file holds no queries" in err
    assert f"give its folder {SAMPLES / 'decisions'} for the turns logged there" in err


def test_queries_given_and_the_sample_still_run(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, None)
    queries = tmp_path / "q.csv"
    queries.write_text("id,text,cwd\nq1,release checklist,/home/mira/repos/quillmark\n")
    assert main(["eval", str(folder), "-m", "decision-memory", "--queries", str(queries)]) == 0
    assert "1 query (no judgments)" in capsys.readouterr().out
    assert main(["eval", str(SAMPLES / "decisions"), "-m", "decision-memory"]) == 0
    assert "21 queries (no judgments)" in capsys.readouterr().out
    # a typed query needs no query set
    assert main(["rank", str(folder), "-m", "decision-memory", "-q", "release checklist"]) == 0
