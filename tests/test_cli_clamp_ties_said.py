"""`sweep` and `compare` say where results tied at 1 (clamped) take places within the first
metric's cut-off, with what orders them, as `rank` says it of one query: vault-search's best
weights often win through such ties, ordered by file path here, which obsidian-mcp may order
otherwise (rv 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main

ORDER = ("ordered by file path here; obsidian-mcp keeps tied notes in the order it meets them "
         "(a stable sort by score), which may not be this one")


def _vault(tmp_path: Path) -> Path:
    """"budget" alone in a/b.md, and first of three lines in z.md (judged relevant to q1): at
    the default weights a/b.md scores 0.4 + 0.3 + 0.3 = 1 exactly, no clamp, and z.md less
    (its tf and density below 1), so z.md ranks second; with w_position = 1 both sum past 1
    and are clamped to 1, tied, and the metrics read z.md first (trec_eval's tie order, by
    document id descending): q1's ndcg@10 goes from 0.6309 to 1 through the tie. q2
    ("nothing") matches other.md alone."""
    root = tmp_path / "v"
    notes = root / "notes"
    (notes / "a").mkdir(parents=True)
    (notes / "z.md").write_text("budget\nfoo bar baz\nqux quux", encoding="utf-8")
    (notes / "a" / "b.md").write_text("budget", encoding="utf-8")
    (notes / "other.md").write_text("nothing here", encoding="utf-8")
    (root / "queries.jsonl").write_text('{"_id": "q1", "text": "budget"}\n'
                                        '{"_id": "q2", "text": "nothing"}\n', encoding="utf-8")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\tz.md\t1\nq2\tother.md\t1\n", encoding="utf-8")
    return root


def _said(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr()
    return " ".join((out.out + out.err).split())


def test_sweep_says_a_clamp_tie_at_the_best_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(_vault(tmp_path)), "-m", "vault-search", "-s", "w_position",
                 "--values", "0.3,1", "--metrics", "ndcg@10"]) == 0
    said = _said(capsys)
    assert ("note: at w_position = 1.0 (best), on 1 of the 2 judged queries results "
            "tied at 1 (clamped) take places within the first 10, where ndcg@10 reads them in "
            f"trec_eval's tie order (document id descending), not a score's; {ORDER}") in said


def test_sweep_says_nothing_where_no_clamp_made_the_tie(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # w_tf 0.2 / 0.4 beside w_position 0.3, w_density 0.3: sums of 0.8 and 1, never clamped
    assert main(["sweep", str(_vault(tmp_path)), "-m", "vault-search", "-s", "w_tf",
                 "--values", "0.2,0.4", "--metrics", "ndcg@10"]) == 0
    assert "tied at 1" not in _said(capsys)


def test_compare_says_a_clamp_tie_of_a_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(_vault(tmp_path)), "-m", "vault-search", "--defaults",
                 "-p", "w_position=1", "--movers", "0", "--metrics", "ndcg@10"]) == 0
    said = _said(capsys)
    assert ("note: w_position=1 on 1 of the 2 judged queries: results tied at 1 (clamped) take "
            "places within the first 10, where ndcg@10 reads them in trec_eval's tie order "
            f"(document id descending), not a score's; {ORDER}") in said
    assert said.count("tied at 1") == 1  # the defaults': no tie
