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


@pytest.fixture
def _window(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[object, ...]]:
    """`gui.app.run` recorded, not run; the window's remembered settings in `tmp_path`."""
    import workbench.gui.app
    from workbench.gui import settings as st

    st.use_settings_folder(tmp_path / "settings")
    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **kw: seen.append(a) or 0)
    return seen


def test_params_without_a_model_are_checked_against_the_windows(
        _window: list[tuple[object, ...]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Without -m the file had gone to the window unchecked: `k1 = nan` or `nope = 1` opened
    it on an empty dataset, the dialog blaming the sample ("Could not open …/vault: unknown
    parameter 'k1'") and naming neither the file nor its line."""
    nan = tmp_path / "nan.toml"
    nan.write_text("# bm25\n\nk1 = nan\n")
    assert main(["gui", "--params", str(nan)]) == 2  # the default sample: vault-search
    err = capsys.readouterr().err
    assert f"{nan}:3: unknown parameter 'k1'" in err
    assert f"(the window opens vault-search, the model {SAMPLES / 'vault'}'s workbench.toml " \
           "names; the names in it are bm25's" in err and ": give -m bm25" in err
    assert main(["gui", str(SAMPLES / "tea-beir"), "--params", str(nan)]) == 2
    assert f"{nan}:3: field 'k1': must be a number in [0, 3], got nan (the window opens bm25" \
        in capsys.readouterr().err
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("min_score = 0.2\nnope = 1\n")
    assert main(["gui", "--params", str(unknown)]) == 2
    assert f"{unknown}:2: unknown parameter 'nope'" in capsys.readouterr().err
    assert main(["gui", "-p", "k1=1.2"]) == 2  # -p alike
    assert "-p: unknown parameter 'k1'" in capsys.readouterr().err
    assert _window == []
    good = tmp_path / "good.toml"
    good.write_text("min_score = 0.2\n")
    assert main(["gui", "--params", str(good)]) == 0
    assert _window == [(None, None, {"min_score": 0.2}, None, None, None)]


def test_params_are_checked_against_the_model_last_used(
        _window: list[tuple[object, ...]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.gui import settings as st

    folder = tmp_path / "plain"  # a dataset with no workbench.toml: the model last used
    folder.mkdir()
    (folder / "docs.jsonl").write_text('{"id": "d1", "text": "green tea"}\n')
    st.remember_opened(str(folder / "docs.jsonl"), None, None, "test", "importance")
    params = tmp_path / "p.toml"
    params.write_text("k1 = 1.2\nb = 2\n")
    assert main(["gui", "--params", str(params)]) == 2
    err = capsys.readouterr().err
    assert f"{params}:2: field 'b': must be a number in [0, 1], got 2 (the window opens " \
           f"importance, the model last used, on the last dataset {folder / 'docs.jsonl'}" in err


def test_no_display_is_said_in_one_line_not_a_qt_abort(tmp_path: Path) -> None:
    """On Linux with no DISPLAY, no WAYLAND_DISPLAY and no QT_QPA_PLATFORM, Qt aborted
    (exit 134) saying "Reinstalling the application may fix this problem"; `scripts/run.sh`,
    the README's first command, ends there too. Now: exit 1 and what to do instead, for a
    dataset and for a saved session alike. Run as a user runs it, in a process of its own."""
    import os
    import subprocess
    import sys

    from tests.conftest import REPO
    from workbench.core.session import TuningSession

    if not sys.platform.startswith("linux"):
        pytest.skip("the check is Linux's: elsewhere Qt finds the desktop itself")
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    session = tmp_path / "tuning.json"
    s.save(session)
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["WORKBENCH_CACHE_DIR"] = str(tmp_path / "cache")
    for data in (str(SAMPLES / "tea-beir"), str(session)):
        done = subprocess.run([sys.executable, "-m", "workbench.cli", "gui", data], cwd=REPO,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 1, (done.returncode, done.stderr)
        assert done.stderr.splitlines() == [
            "workbench gui: error: no display found (DISPLAY and WAYLAND_DISPLAY are not set): "
            "`workbench demo` prints the tour as text, or set QT_QPA_PLATFORM=offscreen"]
        assert done.stdout == ""


def test_help_names_the_saved_session(capsys: pytest.CaptureFixture[str]) -> None:
    """`gui tuning.json` opens a saved session (the README says so); the help said only
    "dataset folder or file"."""
    with pytest.raises(SystemExit):
        main(["gui", "--help"])
    assert "or a saved session (.json, as File ▸ Save session… writes it;" in " ".join(
        capsys.readouterr().out.split())


def test_a_missing_dataset_is_said_before_a_window_opens(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """rn 6: `gui WRONGPATH` had said nothing here and opened the window on the sample."""
    import workbench.gui.app

    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **kw: seen.append(a) or 0)
    missing = tmp_path / "nonexistent"
    assert main(["gui", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"DATA {missing}: no such file or folder" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert seen == []


@pytest.mark.parametrize("kind", ["toml", "7z-only"])
def test_a_path_that_is_no_dataset_is_said_before_a_window_opens(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path, kind: str) -> None:
    """dr4 3: a .toml, or a folder holding only a .7z, had opened the window with nothing said
    here; rank's line is said instead, before any window."""
    import workbench.gui.app

    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **kw: seen.append(a) or 0)
    if kind == "toml":
        data = tmp_path / "mine.toml"
        data.write_text('model = "bm25"\n\n[params]\nk1 = 0.9\n', encoding="utf-8")
        said = f"{data}: expected a BEIR folder (with corpus.jsonl)"
    else:
        data = tmp_path / "z7"
        data.mkdir()
        (data / "wtx001.7z").write_bytes(b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(24))
        said = "it holds a 7-Zip archive (wtx001.7z), which is not read: unpack it first"
    assert main(["gui", str(data)]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err
    assert seen == []


@pytest.mark.parametrize("sample", [
    *sorted(p.name for p in SAMPLES.iterdir() if p.is_dir()), "story/memories.json",
    "decisions/decisions.jsonl", "decisions-eval/eval.jsonl", "tea-beir/corpus.jsonl"])
def test_every_sample_still_opens(monkeypatch: pytest.MonkeyPatch, sample: str) -> None:
    import workbench.gui.app

    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **kw: seen.append(a) or 0)
    assert main(["gui", str(SAMPLES / sample)]) == 0
    assert seen and seen[0][0] == str(SAMPLES / sample)


@pytest.mark.parametrize("model", [["-m", "bm25"], []])
def test_a_parameter_in_another_case_reaches_the_window_by_its_name(
        monkeypatch: pytest.MonkeyPatch, model: list[str]) -> None:
    """dr4 7: -p K1=2 is k1, with -m and against the model the window opens."""
    import workbench.gui.app

    seen: list[tuple[object, ...]] = []
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **kw: seen.append(a) or 0)
    assert main(["gui", str(SAMPLES / "tea-beir"), *model, "-p", "K1=2", "-p", "B=0.5"]) == 0
    assert seen[0][2] == {"k1": "2", "b": "0.5"}
