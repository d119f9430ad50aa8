"""A session saved by the window, given where the command line takes data or parameters: it
had been read as OpenVault memories ("field 'memories': expected a JSON list of memories …")
or as "a JSON file, not a parameter file" with an export's advice; now said to be a session,
with what to do (File ▸ Open session…, Configurations ▸ Export current as params TOML…)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.session import TuningSession


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session as File ▸ Save session… writes it: tea-beir, bm25 with k1 = 0.8."""
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.set_param("k1", 0.8)
    path = tmp_path_factory.mktemp("sess") / "tuning.json"
    s.save(path)
    return path


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    got = capsys.readouterr()
    assert got.out == ""
    return " ".join(got.err.split())


def test_a_session_as_data_is_said_to_be_one(saved: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(saved), "-m", "bm25"]) == 2
    err = _err(capsys)
    assert f"{saved}: a session saved by the window (dataset {SAMPLES / 'tea-beir'}, model " \
           f"bm25, values k1=0.8), not a dataset: open it in the window with `workbench gui " \
           f"{saved}` (or File ▸ Open session…)" in err
    assert "memories" not in err


def test_a_session_as_params_is_said_to_be_one(saved: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--params", str(saved)],
                    ["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                     str(saved)]):
        assert main(command) == 2
        err = _err(capsys)
        assert "a session saved by the window (dataset" in err
        assert (f"not a parameter file: open it in the window (`workbench gui {saved}`, or "
                "File ▸ Open session…) and write its values with Configurations ▸ Export "
                "current as params TOML…") in err
        assert "record of changes" not in err  # an export's advice, which it is not


def test_gui_opens_a_session_and_refuses_what_it_holds_already(
        saved: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import workbench.gui.app

    opened: list[object] = []  # the window, which had shown the memories error
    monkeypatch.setattr(workbench.gui.app, "run", lambda *a, **k: opened.append(k) or 0)
    assert main(["gui", str(saved)]) == 0
    assert opened == [{"session": str(saved)}]
    opened.clear()
    for extra, flag in ((["-m", "bm25"], "--model"), (["-p", "k1=1"], "--param"),
                        (["--split", "test"], "--split")):
        assert main(["gui", str(saved), *extra]) == 2
        assert f"it holds its own dataset, model and values; leave out {flag}" in _err(capsys)
    assert opened == []


def test_memories_with_a_version_are_still_memories(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mem.json"
    path.write_text(json.dumps({"version": 3, "memories": [
        {"id": "m1", "summary": "Mira keeps the lighthouse lamp lit", "importance": 3}]}))
    assert main(["rank", str(path), "-m", "bm25", "-q", "lighthouse"]) == 0
    assert "m1" in capsys.readouterr().out
