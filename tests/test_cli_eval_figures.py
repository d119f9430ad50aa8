"""`eval` of what a selection returns (results, empty, injected_tokens) on data without
judgments, as sweep counts them (reviewer e, F1). Expected values counted by hand from the
notes written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main


def _vault(tmp_path: Path) -> Path:
    """Three notes, two with "apple"; queries "apple" (two matches) and "zzz" (none); no
    judgments."""
    notes = tmp_path / "vault" / "notes"
    notes.mkdir(parents=True)
    (notes / "a.md").write_text("apple banana pie\n", encoding="utf-8")  # 16 characters
    (notes / "b.md").write_text("apple   cherry\ntart\n", encoding="utf-8")  # 17, collapsed
    (notes / "c.md").write_text("durian\n", encoding="utf-8")
    (tmp_path / "vault" / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "apple"}\n{"_id": "q2", "text": "zzz"}\n', encoding="utf-8")
    return tmp_path / "vault"


def _table(out: str) -> dict[str, str]:
    rows = (line.split() for line in out.splitlines())
    return {r[0]: r[1] for r in rows if len(r) == 2 and r[0] in ("results", "empty",
                                                                 "injected_tokens")}


def test_eval_without_judgments_gives_the_figures_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(_vault(tmp_path)), "-m", "vault-search", "-p", "limit=0",
                 "--metrics", "results,empty,injected_tokens"]) == 0
    out = capsys.readouterr().out
    # "apple" returns its 2 notes, "zzz" none: 1 result a query, 50 % empty; tokens
    # ⌊(16 + 17) / 4 + ½⌋ = 8 for "apple", 0 for "zzz": 4 a query
    assert _table(out) == {"results": "1.00", "empty": "50.0", "injected_tokens": "4.0"}
    assert "no judgments" in out and "means over all 2 queries" in out


def test_eval_without_judgments_defaults_to_the_figures_for_a_model_that_selects(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(_vault(tmp_path)), "-m", "vault-search", "-p", "limit=1"]) == 0
    # at limit 1: one note for "apple" (16 or 17 characters: 4 tokens either way), none
    # for "zzz"; 0.5 results and 2 tokens a query
    assert _table(capsys.readouterr().out) == {"results": "0.50", "empty": "50.0",
                                               "injected_tokens": "2.0"}


def test_eval_without_judgments_says_which_metric_needs_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(_vault(tmp_path)), "-m", "vault-search",
                 "--metrics", "ndcg@10,results"]) == 2
    err = capsys.readouterr().err
    assert "no judgments to evaluate ndcg@10 against" in err
    assert "--metrics results alone is counted without them" in err


def test_compare_gives_the_selection_figures_of_each_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(_vault(tmp_path)), "-m", "vault-search", "--defaults",
                 "-p", "limit=1", "--metrics", "results,empty,injected_tokens"]) == 0
    rows = {r[0]: r[1:] for r in (line.split() for line in capsys.readouterr().out.splitlines())
            if r and r[0] in ("results", "empty", "injected_tokens")}
    # defaults: both "apple" notes (8 tokens), none for "zzz"; limit 1: one note (4 tokens);
    # columns: defaults, limit=1, Δ, p, queries with more/fewer ("zzz" returns none in both,
    # so no p for empty: nothing differs)
    assert rows["results"] == ["1.00", "0.50", "-0.50", "1.000", "0/1"]
    assert rows["empty"] == ["50.0", "50.0", "+0.0", "0/0"]
    assert rows["injected_tokens"] == ["4.0", "2.0", "-2.0", "1.000", "0/1"]


def test_trec_eval_names_head_rows_in_the_workbench_s_spelling(capsys) -> None:
    """rn 7: `--metrics ndcg_cut_10,P_10,recip_rank` were read as nDCG@10, P@10 and MRR but
    headed their rows as typed; one row per metric whatever its spelling."""
    from tests.conftest import SAMPLES

    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--metrics",
                 "ndcg_cut_10,P_10,recip_rank,NDCG@10,map_cut_100"]) == 0
    rows = [line.split()[0] for line in capsys.readouterr().out.splitlines()
            if line.split() and line.split()[0] in
            ("ndcg@10", "p@10", "mrr", "map@100", "ndcg_cut_10", "P_10", "recip_rank",
             "map_cut_100", "NDCG@10")]
    assert rows == ["ndcg@10", "p@10", "mrr", "map@100"]
