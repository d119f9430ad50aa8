"""A tied best is set against the value in use by the first tied value along the axis, as the
window's Metric vs parameter chart stars it: for a limit the smallest one reaching the best,
its 0 ("all") counted last (review dr3, 10: sweep named 0 where the window named 10)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_a_limit_tied_at_its_best_names_the_smallest_limit_not_all(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "memories"), "-m", "importance", "-s", "limit",
                 "--values", "0,5,10,12", "--metrics", "ndcg@10"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    # every memory of a query fits in 10: 10, 12 and "all" return the same top 10
    assert "tied at limit = 0 (no limit), 10, 12" in out  # as the table writes 0 (dr4 9)
    assert "against the value in use (5), the tied best 10:" in out
