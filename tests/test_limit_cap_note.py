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
    return [line for line in capsys.readouterr().out.splitlines() if "returns at most" in line]


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
