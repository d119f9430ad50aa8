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


def test_a_params_file_that_names_its_model_opens_with_it(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """`gui DATA --params vault-search.changes.json` (an export's record) or a file `models ID
    --toml` wrote opens with the model the file is for (its values had gone to the dataset's
    own model, or been refused as unknown there)."""
    import workbench.gui.app
    from workbench.core.export import changes_path, export_params, write_export

    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **kw: seen.append(a) or 0)
    export = export_params("vault-search", {"limit": 10, "min_score": 0.3})
    write_export(export, tmp_path)
    record = tmp_path / changes_path(export)
    vault = str(SAMPLES / "vault")
    assert main(["gui", vault, "--params", str(record)]) == 0
    assert seen[-1][1] == "vault-search" and seen[-1][2] == {"limit": 10, "min_score": 0.3}
    toml = tmp_path / "bm25.toml"
    toml.write_text("# the defaults of bm25 (BM25)\n[params]\nk1 = 1.5\n")  # as models writes
    assert main(["gui", vault, "--params", str(toml)]) == 0
    assert seen[-1][1] == "bm25" and seen[-1][2] == {"k1": 1.5}
