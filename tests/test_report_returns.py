"""A report carries what each configuration returns (results, empty, injected tokens), as
`workbench compare` prints it: on unjudged data the only figures a decision has; and
`report --metrics results,…` writes them instead of refusing (review rv3, F7)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES
from workbench.cli import main

DECISIONS = str(SAMPLES / "decisions")


def test_an_unjudged_report_says_what_each_returns(tmp_path: Path) -> None:
    md = tmp_path / "dec.md"
    assert main(["report", DECISIONS, "-m", "decision-memory", "--defaults", "-p",
                 "inject_min_score=40", "-o", str(md)]) == 0
    text = md.read_text()
    # 21 queries: 20 results in all under the defaults (7 empty), 15 at 40 (9 empty) —
    # 20/21 = 0.95, 15/21 = 0.71; 7/21 = 33.3 %, 9/21 = 42.9 %
    assert "## What each returns" in text
    # Δ with a real minus, as the report's other tables (rc 7)
    assert "| results | 0.95 | 0.71 | −0.24 | 0.062 | 0/5 |" in text
    # one decimal, as eval prints it (rv52 rc 8), and the Δ of the figures shown: 42.9 − 33.3
    # is 9.6, not the 9.5 of 9.52 (rc 6)
    assert "| empty | 33.3 | 42.9 | +9.6 | 0.500 | 2/0 |" in text
    assert "| injected_tokens | 33.8 | 24.5 |" in text
    short = text.split("## In short", 1)[1].split("##", 1)[0]
    assert "injected tokens 33.8 → 24.5 (p 0.062)" in short
    html = tmp_path / "dec.html"
    assert main(["report", DECISIONS, "-m", "decision-memory", "--defaults", "-p",
                 "inject_min_score=40", "-o", str(html)]) == 0
    page = html.read_text()
    assert '<section id="returns"><h2>What each returns</h2>' in page
    returns = page.split('<section id="returns">', 1)[1].split("</section>", 1)[0]
    assert "−0.24" in returns and "-0.24" not in returns
    assert '<a href="#returns">' in page


def test_report_takes_the_returns_as_metrics(tmp_path: Path) -> None:
    md = tmp_path / "v.md"
    assert main(["report", str(SAMPLES / "vault"), "-m", "vault-search", "--defaults", "-p",
                 "min_score=0.3", "--metrics", "ndcg@10,results,injected_tokens", "-o",
                 str(md)]) == 0
    text = md.read_text()
    assert "| results | " in text and "| injected_tokens | " in text
    assert "| ndcg@10 | " in text
