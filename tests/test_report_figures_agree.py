"""Two means and their Δ, wherever a row or a sentence shows them, read consistently: the Δ
shown is the difference of the means shown (review rc 6: bundle_files "16.6 | 16.2 | −0.3",
from means 16.583 and 16.25, where 16.6 − 16.2 is 0.4). A count keeps its one decimal in
every table (review rc 8, later: bundle_tokens 5,508.4 in eval beside 5,508.37 in tune's and
compare's tables): its Δ is the difference of the means shown."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

CODE = str(SAMPLES / "code-repo")
ARGS = ["-m", "codeledger", "--defaults", "-p", "w_keyword=2"]
NUMBER = r"[−+-]?[\d,]+\.\d+"


def _number(text: str) -> Decimal:
    return Decimal(text.replace("−", "-").replace(",", ""))


def _agree(first: str, other: str, delta: str) -> None:
    """`delta` is `other` − `first` as shown, all three to the same decimals."""
    places = {len(x.split(".")[1]) for x in (first, other, delta)}
    assert len(places) == 1, (first, other, delta)
    assert _number(delta) == _number(other) - _number(first), (first, other, delta)


def test_the_reviewers_bundle_files_and_a_metric_row() -> None:
    from workbench.report.text import pair_texts

    # bundle_files of the code-repo sample: means 16.583 (199/12) and 16.25 (195/12), the
    # per-query CSVs' figures; to one decimal, as eval prints them, the Δ is the difference
    # of the two as shown (16.6 − 16.2), not the exact −0.333 rounded
    assert pair_texts(199 / 12, 195 / 12, count=True) == ("16.6", "16.2", "−0.4")
    # a metric: 0.61306 → 0.61344 had read 0.6131 → 0.6134 beside +0.0004; a metric keeps its
    # four decimals (a fifth on some rows read as two precisions in one column) and shows
    # the difference of the means shown
    assert pair_texts(0.61306, 0.61344) == ("0.6131", "0.6134", "+0.0003")
    assert pair_texts(0.5, 0.6, 0.1) == ("0.5000", "0.6000", "+0.1000")
    assert pair_texts(2.201 / 3, 1.216 / 3) == ("0.7337", "0.4053", "−0.3284")
    assert pair_texts(200 / 12, 196 / 12, count=True) == ("16.7", "16.3", "−0.4")
    # the ky tokens of rc 8: 6,963.65 → 5,508.37 had read to two decimals in tune and compare
    assert pair_texts(6963.6471, 5508.3725, count=True) == ("6,963.6", "5,508.4", "−1,455.2")
    # a count with thousands, and a difference that rounds to none
    assert pair_texts(1127.25, 1097.55, count=True) == ("1,127.2", "1,097.5", "−29.7")
    assert pair_texts(0.30001, 0.30002) == ("0.3000", "0.3000", "+0.0000")


def test_compare_table_rows_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", CODE, *ARGS]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:4] for line in out.splitlines()
            if re.match(rf"(bundle_|ndcg|map|mrr)\S*\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}\s", line)}
    assert rows["bundle_files"] == ["16.6", "16.2", "-0.4"]
    # bundle_precision and bundle_f1 had read 0.0761 → 0.0781 (+0.0019) and 0.1387 → 0.1420
    # (+0.0032)
    assert {"bundle_precision", "bundle_f1", "ndcg@10", "bundle_tokens"} <= set(rows)
    for first, other, delta in rows.values():
        _agree(first, other, delta)


def test_markdown_and_html_rows_agree(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    md, page = tmp_path / "r.md", tmp_path / "r.html"
    assert main(["report", CODE, *ARGS, "-o", str(md)]) == 0
    assert main(["report", CODE, *ARGS, "-o", str(page)]) == 0
    capsys.readouterr()
    text = md.read_text()
    assert "| bundle_files | 16.6 | 16.2 | −0.4 |" in text
    table = text.split("## Metrics", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ")[1:4] for line in table.splitlines()
            if line.startswith("| ") and re.search(rf"\| {NUMBER} \| {NUMBER} \| {NUMBER}", line)]
    assert len(rows) >= 8
    for first, other, delta in rows:
        _agree(first, other, delta.split()[0])  # a ★ after the Δ
    html = page.read_text()
    row = re.search(r'data-metric="bundle_files">(.*?)</tr>', html)
    assert row is not None
    cells = re.findall(r'<td class="num[^"]*">([^<]*)', row.group(1))
    assert cells[:3] == ["16.6", "16.2", "−0.4"]
    for name in ("bundle_precision", "bundle_f1", "ndcg@10", "map@100"):
        row = re.search(rf'data-metric="{name}">(.*?)</tr>', html)
        assert row is not None
        _agree(*re.findall(r'<td class="num[^"]*">([^<]*)', row.group(1))[:3])


def test_in_short_sentences_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # on tea-beir, k1 3 and b 0.3 move ndcg@10 from 0.61306 by 0.02057: at four decimals the
    # sentence had read "0.6131 → 0.6336 (+0.0206)"
    md = tmp_path / "tea.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-p", "k1=3",
                 "-p", "b=0.3", "-o", str(md)]) == 0
    capsys.readouterr()
    short = md.read_text().split("## In short", 1)[1].split("\n## ", 1)[0]
    said = re.findall(rf"({NUMBER}) → ({NUMBER}) \(({NUMBER})", short)
    assert said
    for first, other, delta in said:
        _agree(first, other, delta)
