"""tune's tables print each Δ as compare does (`report.text.row_digits`): the difference of the
means shown beside it (dr5 2: tea-beir's 0.6131 → 0.6380 read +0.0250 in tune and +0.0249 in
compare; scifact's held-out 0.6442 → 0.6458 read +0.0015 and +0.0016)."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")
ROW = re.compile(r"^(?P<name>\S.*?)\s{2,}(?P<a>-?[\d,]+\.\d+)\s+(?P<b>-?[\d,]+\.\d+)\s+"
                 r"(?P<d>[+-][\d,]+\.\d+)(\s|$)")


def test_every_delta_in_tunes_tables_is_the_difference_of_the_means_shown(
        capsys, tmp_path: Path) -> None:
    # the run dr5 2 found it in: k-fold, all three parameters, seed 2
    code = main(["tune", TEA, "-m", "bm25", "--folds", "5", "--seed", "2", "--trials", "12",
                 "--storage", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0
    rows = [m for line in out.splitlines() if (m := ROW.match(line))]
    assert any(m["name"].startswith("ndcg@10 training") for m in rows)
    assert any(m["name"] == "mrr@10" for m in rows)  # the other measures' table
    assert sum(m["name"].startswith("fold") for m in rows) == 5  # per fold
    for m in rows:
        a, b, d = (Decimal(m[k].replace(",", "")) for k in ("a", "b", "d"))
        assert b - a == d, m.group(0)
    # the row dr5 2 quotes, as compare prints it
    assert re.search(r"ndcg@10 training \(all queries\)\s+0\.6131\s+0\.6380\s+\+0\.0249", out)
