"""tune's table and --out file mark a value no score reads beside the others (the schema's
`needs`: vault-search's tf_scale while variant is not shipped) as having no effect: listed
bare, it read as a setting that mattered (rB 9)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_a_value_no_score_reads_is_marked_in_the_table_and_the_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "vs.toml"
    # the documented variant reads no tf_scale: searched as asked, it stays at its start
    assert main(["tune", str(SAMPLES / "vault"), "-m", "vault-search", "-p",
                 "variant=documented", "--tune", "tf_scale,w_tf", "--trials", "4", "--pick",
                 "best", "--folds", "0", "--storage", str(tmp_path / "s.db"), "--out",
                 str(out)]) == 0
    said = capsys.readouterr().out
    written = tomllib.loads(out.read_text(encoding="utf-8"))["params"]
    assert written["variant"] == "documented"
    row = next(line for line in said.splitlines() if line.startswith("tf_scale "))
    assert row.endswith("(no effect: variant is not shipped)"), row
    w_tf = next(line for line in said.splitlines() if line.startswith("w_tf "))
    assert "no effect" not in w_tf
    line = next(x for x in out.read_text(encoding="utf-8").splitlines()
                if x.startswith("tf_scale = "))
    assert line.endswith("  # no effect: variant is not shipped"), line
    assert written["tf_scale"] == 100.0  # the value as it was, read back
