"""A folder's workbench.toml read on the command line as the window reads it: `data = FILE`
names the file to read (the command line had answered "expected a BEIR folder …" without a
word of that line), and a value of ours it cannot use is its error there too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def _folder(tmp_path: Path, toml: str) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    docs = [{"id": "d1", "text": "green tea steeped at 80 degrees"},
            {"id": "d2", "text": "espresso pulled for 25 seconds"}]
    (folder / "mydocs.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (folder / "workbench.toml").write_text(toml)
    return folder


def test_data_names_the_file_to_read(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, 'model = "bm25"\ndata = "mydocs.jsonl"\n')
    assert main(["rank", str(folder), "-m", "bm25", "-q", "green tea", "--format", "json"]) == 0
    got = capsys.readouterr()
    assert [r["id"] for r in json.loads(got.out)["results"]] == ["d1"]
    assert f"note: reading {folder / 'mydocs.jsonl'}, the file {folder / 'workbench.toml'} " \
           "names (data = 'mydocs.jsonl')" in " ".join(got.err.split())


def test_data_that_is_not_there_names_the_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, '# ours\nmodel = "bm25"\ndata = "docs.jsonl"\n')
    assert main(["rank", str(folder), "-m", "bm25", "-q", "green tea"]) == 2
    assert f"{folder / 'workbench.toml'}:3: field 'data': names 'docs.jsonl' to read, which " \
           "is not there" in " ".join(capsys.readouterr().err.split())


def test_a_value_the_window_refuses_is_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "decisions"
    shutil.copytree(SAMPLES / "decisions", folder)
    toml = folder / "workbench.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'now = "2026-11-20T12:00:00.000Z"', 'now = "not a date"'), encoding="utf-8")
    assert main(["eval", str(folder), "-m", "decision-memory"]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    assert f"{toml}:" in got.err and "field 'params.now'" in got.err and "'not a date'" in got.err


@pytest.mark.parametrize(("toml", "said"), [
    ('# ours\n\nmodel = "bm52"\n', "workbench.toml:3: field 'model': unknown model 'bm52'"),
    ('# ours\nmodel = "bm25"\nexample_query = 5\n',
     "workbench.toml:3: field 'example_query': expected text, got 5"),
    ('model = "bm25"\n\n[params]\n\nk1 = 9\n', "workbench.toml:5: field 'params.k1'"),
])
def test_a_bad_value_is_named_on_its_own_line(toml: str, said: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # review dr1 (8): the model and example_query had no line, and a blank line above a
    # key had given the line before it
    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    (folder / "workbench.toml").write_text(toml)
    assert main(["eval", str(folder), "-m", "bm25"]) == 2
    assert said in capsys.readouterr().err
