"""injected_tokens says what it counts for the model at hand: pi-lodestone's snippet for a model
that injects, and what stands in for a snippet for one that has none (review E, F14)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_a_model_without_snippets_is_told_what_is_counted(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(SAMPLES / "vault"), "-m", "vault-search", "--metrics",
                 "ndcg@10,injected_tokens"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "snippet characters / 4" not in out
    assert ("vault-search injects no snippet of its own: estimated as pi-lodestone would "
            "inject these results, each result's text whitespace collapsed, up to 180 "
            "characters, / 4") in out


def test_a_model_that_injects_counts_its_snippets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "decisions"), "-m", "decision-memory", "-s",
                 "inject_min_score", "--values", "5,8"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("estimated as pi-lodestone does: each injected snippet's characters, whitespace "
            "collapsed, cut to 180 characters (inject_snippet_chars; 220, search_snippet_chars, "
            "for a search) around the query's terms, each cut end marked '…', / 4") in out
    assert "up to 180 characters" not in out  # dr1 5: the setting's length, not 180


@pytest.mark.parametrize("judged", [True, False])
def test_eval_under_mode_search_glosses_what_each_search_returns(
        judged: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """dr7 4: under mode=search eval said "none is injected", then glossed injected_tokens as
    "tokens injected per query"; it now says what why-stats says, what each search returns."""
    data = SAMPLES / ("decisions-eval" if judged else "decisions")
    metrics = "ndcg@10,injected_tokens,results" if judged else "injected_tokens,results"
    assert main(["eval", str(data), "-m", "decision-memory", "-p", "mode=search",
                 "--metrics", metrics]) == 0
    got = capsys.readouterr()
    out = " ".join((got.out + got.err).split())
    assert "every query is a manual search" in out, out
    assert "tokens injected per query" not in out, out
    assert "each injected snippet's" not in out, out
    # what it is said once, the method on the line after it (dJ 9: "tokens each search
    # returns" had been said on both)
    assert "injected_tokens = tokens each search returns per " in out, out
    assert ("(injected_tokens: estimated as pi-lodestone does: "
            "each returned snippet's characters, whitespace collapsed, cut to 220 characters "
            "(search_snippet_chars) around the query's terms, each cut end marked '…', / 4; "
            "nothing is injected)") in out, out
    assert out.count("tokens each search returns") == 1, out
    assert "up to 180 characters" not in out, out  # dr1 5: the setting's length, not 180


@pytest.mark.parametrize("metrics", ["ndcg@10,injected_tokens", "injected_tokens,results"])
def test_sweep_under_mode_search_glosses_what_each_search_returns(
        metrics: str, capsys: pytest.CaptureFixture[str]) -> None:
    """rv52 1: under mode=search sweep said "none is injected", then glossed injected_tokens
    as "tokens injected per query" (beside the figures alone) or not at all (beside a ranking
    metric); it now says what eval says (c84694f), what each search returns."""
    assert main(["sweep", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "-p",
                 "mode=search", "--sweep", "inject_limit", "--values", "1,3",
                 "--metrics", metrics]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "every query is a manual search" in out, out
    assert "tokens injected per query" not in out, out
    assert "each injected snippet's" not in out, out
    assert ("tokens each search returns (estimated as pi-lodestone does: each returned "
            "snippet's characters, whitespace collapsed, cut to 220 characters "
            "(search_snippet_chars) around the query's terms, each cut end marked '…', / 4; "
            "nothing is injected)") in out, out


def test_the_gloss_says_the_snippet_lengths_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    """rv 3: the gloss named inject_snippet_chars, not its value: at 300 it read as at 180."""
    assert main(["eval", str(SAMPLES / "decisions"), "-m", "decision-memory", "-p",
                 "inject_snippet_chars=300", "-p", "search_snippet_chars=90"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("cut to 300 characters (inject_snippet_chars; 90, search_snippet_chars, for a "
            "search) around the query's terms") in out, out


def test_a_sweep_of_the_snippet_length_names_it_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The swept length is each row's: named, not the value in use; the other is said."""
    assert main(["sweep", str(SAMPLES / "decisions"), "-m", "decision-memory", "-s",
                 "inject_snippet_chars", "--values", "100,300"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("cut to inject_snippet_chars characters (220, search_snippet_chars, for a "
            "search) around the query's terms") in out, out


def test_a_compare_of_two_models_glosses_each_one_s_method(
        capsys: pytest.CaptureFixture[str]) -> None:
    """rv 3: decision-memory counts its own snippets, bm25 is estimated at 180 characters of
    each result's text; the gloss had said decision-memory's method alone."""
    assert main(["compare", str(SAMPLES / "decisions-eval"), "-m", "decision-memory,bm25",
                 "--metrics", "ndcg@10,injected_tokens", "--movers", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("decision-memory: estimated as pi-lodestone does: each injected snippet's "
            "characters, whitespace collapsed, cut to 180 characters (inject_snippet_chars; "
            "220, search_snippet_chars, for a search) around the query's terms, each cut end "
            "marked '…', / 4 | bm25 injects no snippet of its own: estimated as "
            "pi-lodestone would inject these results, each result's text whitespace "
            "collapsed, up to 180 characters, / 4") in out, out


def test_compare_says_one_method_once_with_each_configuration_s_length(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dC 6: configurations of one model differing only in inject_snippet_chars had had the
    whole method said twice; another model's gloss had read "bm25: bm25 injects …", after a
    "; " that decision-memory's own gloss uses inside it."""
    assert main(["compare", str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                 "--defaults", "-p", "inject_snippet_chars=300", "--metrics",
                 "ndcg@10,injected_tokens", "--movers", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.count("estimated as pi-lodestone does") == 1, out
    assert ("cut to inject_snippet_chars characters (220, search_snippet_chars, for a search) "
            "around the query's terms, each cut end marked '…', / 4; inject_snippet_chars: "
            "180 in 'defaults', 300 in 'inject_snippet_chars=300')") in out, out
    assert "(injected_tokens: tokens injected per case, mean over" in out, out
    assert main(["compare", str(SAMPLES / "decisions-eval"), "-m", "decision-memory,bm25",
                 "--metrics", "ndcg@10,injected_tokens", "--movers", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "bm25: bm25" not in out, out
    assert ("for a search) around the query's terms, each cut end marked '…', / 4 | bm25 "
            "injects no snippet of its own") in out, out


def test_compare_lists_no_search_length_and_quotes_names_with_spaces(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dJ 7: "(inject_snippet_chars: defaults 180, inject_snippet_chars=300
    search_snippet_chars=50 300; search_snippet_chars: defaults 220, … 50))": no name's end
    could be told, and a search's length was listed where a search injects nothing."""
    assert main(["compare", str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                 "--defaults", "-p", "inject_snippet_chars=300", "-p",
                 "search_snippet_chars=50", "--metrics", "ndcg@10,injected_tokens",
                 "--movers", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("cut to inject_snippet_chars characters (search_snippet_chars for a search) around "
            "the query's terms, each cut end marked '…', / 4; inject_snippet_chars: 180 in "
            "'defaults', 300 in 'inject_snippet_chars=300 search_snippet_chars=50')") in out, out
    assert "; search_snippet_chars: " not in out and "50'))" not in out, out
