"""The opening of the P@k cap note ("importance returns at most 5 results a query (its limit
is 5)") is built once (`core.cap_lead`) for `eval`'s note and the window's metric cards
(rv2 3: each had built it itself); both keep their words."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.cap_lead import cap_lead
from workbench.core.session import TuningSession
from workbench.gui.metric_cap import metric_caps


def test_the_lead_says_whether_a_limit_caps_the_lists() -> None:
    assert cap_lead("importance", 5, 5) == ("importance returns at most 5 results a query "
                                            "(its limit is 5)")
    # no limit, or one the lists never reach: what this data gave
    assert cap_lead("vault-search", 4, 0) == "vault-search returned at most 4 results a query here"
    assert cap_lead("vault-search", 4, 10) == ("vault-search returned at most 4 results a query "
                                               "here")
    assert cap_lead("x", 1, 1) == "x returns at most 1 result a query (its limit is 1)"
    assert cap_lead("x", 1200, None) == "x returned at most 1,200 results a query here"


@pytest.mark.parametrize("limit", [5, 7])
def test_eval_and_the_window_say_the_same(capsys: pytest.CaptureFixture[str],
                                          limit: int) -> None:
    memories = SAMPLES / "memories"
    assert main(["eval", str(memories), "-m", "importance", "-p", f"limit={limit}",
                 "--metrics", "p@10"]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")
            and "at most" in line]
    s = TuningSession()
    s.open(memories)
    s.set_model("importance")
    s.set_param("limit", limit)
    s.recompute()
    caps = metric_caps(s, ["p@10"])
    words = (f"importance returns at most {limit} results a query (its limit is {limit}): "
             f"{{}} is at most 0.{limit}")
    # the card names the metric as the window does (rv2 dr2 8), eval as its flags do
    assert caps == {"p@10": words.format("P@10")}
    assert said == [f"note: {words.format('p@10')}"]


@pytest.mark.parametrize(("metric", "label"), [("ndcg@10", "nDCG@10"), ("r@100", "R@100"),
                                               ("map@100", "MAP@100")])
def test_eval_and_the_cards_say_what_counts_only_those_5(
        capsys: pytest.CaptureFixture[str], metric: str, label: str) -> None:
    """rv2 dr2 7: eval said "ndcg@10, mrr@10, r@100 and map@100 count only those 5", the
    cards only the P@10 half: R@100 = 0.60 on a card gave no hint that only 5 counted."""
    memories = SAMPLES / "memories"
    assert main(["eval", str(memories), "-m", "importance", "-p", "limit=5",
                 "--metrics", metric]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")
            and "only those" in line]
    s = TuningSession()
    s.open(memories)
    s.set_model("importance")
    s.set_param("limit", 5)
    s.recompute()
    words = "importance returns at most 5 results a query (its limit is 5): {} counts only those 5"
    assert metric_caps(s, [metric]) == {metric: words.format(label)}
    assert said == [f"note: {words.format(metric)}"]


def test_one_result_is_that_one(capsys: pytest.CaptureFixture[str]) -> None:
    """rv2 dr2 8: "count only those 1"."""
    assert main(["eval", str(SAMPLES / "memories"), "-m", "importance", "-p", "limit=1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "ndcg@10, mrr@10, r@100 and map@100 count only that one" in out
    assert "those 1" not in out
