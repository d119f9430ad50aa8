"""The many-tests caution counts what the table shows: the p-values of a difference, and
apart from them the p of 1.000 where no query moved (review rv3, F13: "15 p-values" under a
table of 18 read as a miscount)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_the_caution_counts_every_p_the_table_shows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for name, text in (("lowk1", "k1 = 0.5\n"), ("highk1", "k1 = 2.5\n"), ("b03", "b = 0.3\n")):
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        files += ["-c", str(path)]
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", *files,
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("metric "):out.index("How a report's In short")]
    # the key under the table ("(Δ: …)") is no row
    rows = [line.split() for line in table.splitlines()[2:]
            if line.strip() and not line.startswith("(")]
    # each row: metric, the first's mean, then per configuration mean, Δ, p, ▲/▼
    cells = [(row[0], row[4 + 4 * j], row[5 + 4 * j]) for row in rows for j in range(3)]
    assert len(cells) == 18
    names = ["lowk1", "highk1", "b03"]

    def named(idle: bool) -> str:  # each configuration's metrics, in the table's order
        out = []
        for j, name in enumerate(names):
            ms = [row[0] for row in rows if not row[0].startswith("judged@")
                  and (row[5 + 4 * j] == "0/0") == idle]
            if ms:
                out.append(f"{name}'s " + (ms[0] if len(ms) == 1 else
                                           ", ".join(ms[:-1]) + " and " + ms[-1]))
        return "; ".join(out)

    # judged@10 is coverage, never marked: no test of the family (review dr6, 8)
    tests = [(p, counts) for metric, p, counts in cells if not metric.startswith("judged@")]
    idle = sum(counts == "0/0" for _, counts in tests)
    tested = len(tests) - idle
    assert idle and all(p == "1.000" for p, counts in tests if counts == "0/0")
    said = " ".join(out.split())
    # each count's metrics named, and judged@10 said not counted (rv 7)
    assert (f"All {tested} p-values shown are side looks ({named(False)}): beyond chance only "
            "if below 0.05 after Holm's adjustment for how many are shown; below 0.05 only "
            f"before it, weak evidence. {idle} more, at 1.000 ({named(True)}), test nothing: "
            "no query moved. Not counted: judged@10 (coverage), not a ranking to test.") \
        in said, said


def test_one_idle_p_is_said_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    low = tmp_path / "lowk1.toml"
    low.write_text("k1 = 0.5\n")
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                 str(low), "--metrics", "ndcg@10,mrr@10,p@10,map@100,r@100,ndcg@5,p@5,map@10,"
                 "mrr@5,ndcg@20,r@10", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("metric "):out.index("How a report's In short")]
    rows = [line.split() for line in table.splitlines()[2:]
            if line.strip() and not line.startswith("(")]  # the key under the table: no row
    counts = [row[5] for row in rows]
    assert len(counts) == 11 and counts.count("0/0") == 1  # r@100: no query moved
    said = " ".join(out.split())
    assert ("All 10 p-values shown are side looks (ndcg@10, mrr@10, p@10, map@100, ndcg@5, "
            "p@5, map@10, mrr@5, ndcg@20 and r@10)" in said
            and "1 more, at 1.000 (r@100), tests nothing: no query moved." in said), said


def test_the_report_counts_against_its_own_table(tmp_path: Path) -> None:
    # review dr8 6: the report said "All 3 p-values shown are side looks … 2 more, at 1.000"
    # beside six p-values, four of them 1.000, judged@10's unsaid; it now counts the table's
    # p-values and names those not tested
    pos = tmp_path / "pos07.toml"
    pos.write_text("w_position = 0.7\n")
    md, page = tmp_path / "vr.md", tmp_path / "vr.html"
    for out in (md, page):
        assert main(["report", str(SAMPLES / "vault"), "-m", "vault-search", "--defaults",
                     "-c", str(pos), "-o", str(out)]) == 0
    text = md.read_text()
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("| ") and line.count("|") == 8 and "metric" not in line]
    # metric, defaults, pos07, Δ, CI, p, ▲/▼
    assert [r[0] for r in rows] == ["ndcg@10", "mrr@10", "p@10", "r@100", "map@100", "judged@10"]
    idle = [r[0] for r in rows if r[6] == "0/0" and not r[0].startswith("judged@")]
    assert idle == ["p@10", "r@100"] and all(r[5] for r in rows)
    said = " ".join(text.split())
    assert ("3 of the table's 6 p-values are side looks: beyond chance only if below 0.05 "
            "after Holm's adjustment for how many are shown; below 0.05 only before it, weak "
            "evidence. Untested: p@10 and r@100 (no query moved); judged@10 (coverage)."
            ) in said, said
    assert "All 3 p-values" not in said and "2 more, at 1.000" not in said
    html = " ".join(page.read_text().split())
    assert "3 of the table&#x27;s 6 p-values are side looks" in html
    assert "Untested: p@10 and r@100 (no query moved); judged@10 (coverage)." in html
