"""A model run on data it is not made for says why its results are empty or odd: vault-search's
phrase rule (obsidian-mcp matches the whole query as one phrase within a line, so a question
matches nothing), codeledger on a dataset with no source file, and bench's queries cut to their
longest word for vault-search."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")


def test_vault_search_explain_names_the_phrase_rule(capsys: pytest.CaptureFixture[str]) -> None:
    # q03 is "Why is gyokuro shaded before harvest?": no line of the corpus holds it whole
    assert main(["explain", TEA, "-m", "vault-search", "--query-id", "q03"]) == 0
    out = capsys.readouterr().out
    assert ("no result: no line of any note contains the phrase 'Why is gyokuro shaded before "
            "harvest?': vault-search matches the whole query as one phrase within a line"
            ) in out
    # a phrase a line does hold ranks, and says nothing of the rule
    assert main(["explain", TEA, "-m", "vault-search", "-q", "gyokuro"]) == 0
    assert "no result" not in capsys.readouterr().out


def test_codeledger_on_data_with_no_source_file_warns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", TEA, "-m", "codeledger", "--metrics", "r@10"]) == 0
    err = capsys.readouterr().err
    assert "no document of tea-beir is one" in err and "non-code file" in err
    assert main(["eval", str(SAMPLES / "code-repo"), "-m", "codeledger", "--metrics",
                 "r@10"]) == 0
    assert "non-code" not in capsys.readouterr().err


def test_bench_says_it_cut_vault_searchs_queries(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", TEA, "-m", "vault-search", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert ("note: vault-search on tea-beir (longest query word): each query is cut to its "
            "longest word") in out


def test_explain_prints_no_python_reprs(capsys: pytest.CaptureFixture[str]) -> None:
    # a decision's breakdown held a dict of bonuses, a list of tokens, False and None: they
    # printed as Python writes them ({'locality': 6.0, …}, ['quillmark', …], gate: None)
    assert main(["explain", str(SAMPLES / "decisions"), "-m", "decision-memory",
                 "--query-id", "turn-57", "--top", "1", "-p", "w_title=2"]) == 0
    out = capsys.readouterr().out
    assert "changed parameters: w_title=2\n" in out
    for repr_ in ("{'", "['", "None", "False", "True"):
        assert repr_ not in out, repr_
    assert "gate: none" in out and "bonuses: locality=" in out
    assert "tokens: quillmark, init, paper, theme" in out
