"""The start as a candidate however the run keeps values (rv53 a–d): a moved sufficiency is a
change from a --params file (c)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.models import get_model

REPO = str(SAMPLES / "code-repo")
WHY = "held-out ndcg@10 0.6098 → 0.4798"


def _flagged_without_values(path: Path) -> Path:
    """A codeledger file whose run advised against it, its record written without a `values`
    key (by hand, or before records kept one)."""
    path.write_text(
        '[params]\nw_keyword = 4.6\nw_graph = 0.4\n\n[tuned]\n'
        f'verdict = "keep the starting values (the model\'s defaults); {WHY}"\n'
        'verdict_owner = "the model\'s defaults"\ndataset = "code-repo"\n'
        'validation = "time split (by date): 6 older tasks tune, 6 newer held out"\n'
        'metric = "ndcg@10"\nheld_out_default = 0.6098\nheld_out_tuned = 0.4798\n'
        'held_out_p = 0.25\nheld_out_queries = 6\nmodel = "codeledger"\ntrained_on = []\n',
        encoding="utf-8")
    return path


def test_a_start_kept_with_a_moved_sufficiency_is_not_said_unchanged(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    start = _flagged_without_values(tmp_path / "c1.toml")
    out = tmp_path / "c2.toml"
    assert main(["tune", REPO, "-m", "codeledger", "--params", str(start), "--metric",
                 "ndcg@10", "--constraint", "bundle_tokens<=700", "--trials", "6",
                 "--storage", str(tmp_path / "s.db"), "--out", str(out)]) == 0
    written = tomllib.loads(out.read_text(encoding="utf-8"))
    default = get_model("codeledger").schema.by_name["sufficiency"].default
    # sufficiency moved off the file's (the default, 0.95) to meet the constraint
    assert written["params"]["sufficiency"] != pytest.approx(default)
    verdict = written["tuned"]["verdict"]
    assert "kept them unchanged" not in verdict
    assert verdict.startswith("started from c1.toml's values, which the run that tuned them "
                              f"advised against: {WHY}")
