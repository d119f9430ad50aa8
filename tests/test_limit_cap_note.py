"""eval and the report say when a model's limit caps every list below a metric's cut-off
(reviewer C, F8): importance returns at most 5 results a query, so P@10 is at most 0.5 and
R@100 counts only those 5; the report's P@10 gloss had named only the relevant-count cap."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.text import cap_note, metric_meanings

NOTE = ("note: importance returns at most 5 results a query (its limit is 5): p@10 is at most "
        "0.5; ndcg@10, mrr@10, r@100 and map@100 count only those 5")


def _eval(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["eval", *args]) == 0
    return [line for line in capsys.readouterr().out.splitlines()
            if "at most" in line and "a query" in line]


def test_eval_says_the_limit_caps_the_metrics(capsys: pytest.CaptureFixture[str]) -> None:
    memories = str(SAMPLES / "memories")
    assert _eval(capsys, memories, "-m", "importance") == [NOTE]
    # at 7: P@10 at most 0.7
    assert _eval(capsys, memories, "-m", "importance", "-p", "limit=7") == [
        NOTE.replace("5", "7")]
    # no limit: every candidate is returned (at most 29 on this sample), no list is cut and
    # no P@10 bound is below 29 / 10: nothing to say
    assert _eval(capsys, memories, "-m", "importance", "-p", "limit=0") == []


def test_eval_names_decision_memory_s_own_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # manual search with a limit of 2: its over_limit gate cuts the lists, as a limit does
    got = _eval(capsys, str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                "-p", "mode=search", "-p", "search_limit=2")
    assert got == ["note: decision-memory returns at most 2 results a query (its limit is 2): "
                   "p@10 is at most 0.2; ndcg@10, mrr@10, r@100 and map@100 count only those 2"]


def test_cap_note_words() -> None:
    assert cap_note("x returns at most 3 results a query", 3, ["p@10", "p@3", "r@100"],
                    cut=True) == ("x returns at most 3 results a query: p@10 is at most 0.3; "
                                  "r@100 counts only those 3")
    # lists not cut (every candidate returned): only the P@k bound holds
    assert cap_note("x", 4, ["p@10", "r@100", "judged@10"], cut=False) == "x: p@10 is at most 0.4"
    assert cap_note("x", 10, ["p@10", "ndcg@10"], cut=True) == ""


def test_report_how_to_read_says_every_list_is_capped() -> None:
    model = get_model("importance")
    ds = load_dataset(SAMPLES / "memories")
    configs = [Configuration(n, model.schema.resolve(v), f"{n}.toml")
               for n, v in (("defaults", {}), ("stale", {"stale_short": 0.2}))]
    comp = compare_configurations(model, ds, configs, n_resamples=200)
    lines = metric_meanings(comp)
    assert ("no configuration returns more than 5 results a query (the limit is 5): P@10 is at "
            "most 0.5; nDCG@10, MRR@10, R@100 and MAP@100 count only those 5") in lines


def test_a_min_score_that_leaves_lists_of_every_length_is_said_as_such(
        capsys: pytest.CaptureFixture[str]) -> None:
    # a min score cuts each list where its scores fall under it: the longest list is no
    # measure of the others ("count only those 18" where 12 of 26 queries had none)
    from workbench.core.pipeline import Pipeline

    ds = load_dataset(SAMPLES / "vault")

    def counts(min_score: float) -> list[int]:
        pipe = Pipeline(get_model("vault-search"), ds, {"min_score": min_score})
        assert pipe.judgments is not None
        return pipe.run(("ndcg@10",)).ranking.count[pipe.judgments.judged_mask].tolist()

    every, kept = counts(0.0), counts(0.2)  # at 0 nothing is cut
    cut = [k for e, k in zip(every, kept, strict=True) if k < e]
    longest, n = max(kept), len(kept)
    assert 0 in cut and min(cut) < 10 and longest >= 10  # the premise: lists of every length
    # every list short of 10 counts, cut or not (a list the cut left whole is as short): the
    # note had counted the cut ones only, "20 of 25" where all 25 were
    short, empty = sum(c < 10 for c in kept), sum(c == 0 for c in kept)
    assert short > sum(c < 10 for c in cut)
    (line,) = _eval(capsys, str(SAMPLES / "vault"), "-m", "vault-search", "-p",
                    "min_score=0.2")
    # what this data gave, not a cap: worded apart from a limit's (review E, F15)
    assert line.startswith(f"note: vault-search returned at most {longest} results a query "
                           "here: ")
    assert line.endswith(f"count only what it returned: fewer than 10 results on {short} of "
                         f"the {n} queries, none on {empty}")
    assert "ndcg@10" in line and "only those" not in line


def test_a_cut_list_before_empty_queries_is_seen() -> None:
    # the last query has no candidate: the first one's third candidate, cut by its limit,
    # was read off the end of the array and missed
    import numpy as np

    from workbench.core.ranking import Ranking, Scores
    from workbench.report.text import cut_counts

    scores = Scores(row_ptr=np.array([0, 3, 3]), docs=np.array([0, 1, 2], np.int32),
                    total=np.array([3.0, 2.0, 1.0]), gate=np.zeros(3, np.int8),
                    signals=("s",), parts=lambda pairs: np.zeros((1, len(pairs))))
    ranking = Ranking(docs=np.array([[0, 1], [-1, -1]], np.int32),
                      scores=np.array([[3.0, 2.0], [np.nan, np.nan]]),
                      pair=np.array([[0, 1], [-1, -1]]), count=np.array([2, 0]))
    assert cut_counts(scores, ranking, np.array([True, True])).tolist() == [2]


def test_the_report_counts_every_list_short_of_the_cut_off() -> None:
    # two configurations of decision-memory on decisions-eval: no case returns more than 3,
    # so all 30 are short of 10; the report had counted the 6 lists a limit cut
    model = get_model("decision-memory")
    ds = load_dataset(SAMPLES / "decisions-eval")
    configs = [Configuration(n, model.schema.resolve(v), f"{n}.toml")
               for n, v in (("defaults", {}), ("min 12", {"inject_min_score": 12.0}))]
    comp = compare_configurations(model, ds, configs, n_resamples=200)
    longest = max(int(comp.lengths(j).max()) for j in range(2))
    empty = int(sum((comp.lengths(0) == 0) & (comp.lengths(1) == 0)))
    n = int(comp.counted.sum())
    (line,) = [x for x in metric_meanings(comp) if "no configuration returns" in x]
    assert line.startswith(f"no configuration returns more than {longest} results a query")
    assert line.endswith(f"fewer than 10 results on {n} of the {n} queries"
                         + (f", none on {empty}" if empty else ""))
    assert longest < 10
