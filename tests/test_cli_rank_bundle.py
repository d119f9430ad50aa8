"""`rank -m codeledger` marks the files of the bundle (and those skipped for the budget), as
`explain` lists them, and prints no -0.0000 (review G, 8)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TASK = "Fix stats crash when store is empty"


def test_rank_marks_the_bundle_as_explain_counts_it(capsys: pytest.CaptureFixture[str]) -> None:
    repo = str(SAMPLES / "code-repo")
    assert main(["rank", repo, "-m", "codeledger", "--task", TASK, "--top", "30"]) == 0
    out = capsys.readouterr().out
    assert "-0.0000" not in out  # fail_prior and non_code's nothing, on every row
    header = next(line for line in out.splitlines() if line.startswith("rank "))
    assert "  bundle  " in header
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    marked = [r.split()[1] for r in rows if "  in  " in r]  # the rel column may be blank
    assert main(["explain", repo, "-m", "codeledger", "--task", TASK]) == 0
    said = re.search(r"^bundle: (\d+) of \d+ candidates", capsys.readouterr().out, re.M)
    assert said is not None
    assert len(marked) == int(said.group(1))
    assert f"codeledger hands the agent {said.group(1)} files" in out
