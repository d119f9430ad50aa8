"""`rank` and `explain` show equal scores in the model's tie order at every --top (the source
systems sort stably, specs/REFERENCE.md; `ranking.top_k`: ties by candidate order), judged data
or not, as the window does. On judged data a ranking cut where equal scores crossed its depth
(`pipeline.run_live`) had taken the members trec_eval reads first (id descending): `rank --top
3` showed a5, a4, a3 where `--top 10` and the window showed a1, a2, a3, and `explain --top 2
--relevant` listed a1 as "not among the 2 above" at #1. `rank` and `explain` now rank at least
as deep as the window (`MIN_DEPTH`, 100) and show the first `--top`; a `--run` file of a
shallower depth is still cut as trec_eval reads it.

The corpus is made by hand: a1 … a5 hold the same text (exact ties under any model), and BM25
ranks its candidates in corpus order, so the order among them is a1, a2, a3, a4, a5."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.session import TuningSession

TIED = ["a1", "a2", "a3", "a4", "a5"]


@pytest.fixture
def ties(tmp_path: Path) -> Path:
    folder = tmp_path / "ties"
    (folder / "qrels").mkdir(parents=True)
    docs = [(d, "green tea leaves") for d in TIED] + [
        ("b1", "black coffee beans"), ("b2", "oolong tea"), ("b3", "rooibos infusion")]
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": i, "title": "", "text": t}) + "\n" for i, t in docs))
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "green tea"}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\ta1\t1\n")
    return folder


def _ranked(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(["rank", *argv, "--format", "json"]) == 0
    return [r["id"] for r in json.loads(capsys.readouterr().out)["results"]]


@pytest.mark.parametrize("top", [1, 2, 3, 4, 10])
def test_rank_shows_the_same_tie_order_at_every_depth(
        ties: Path, top: int, capsys: pytest.CaptureFixture[str]) -> None:
    judged = _ranked(capsys, str(ties), "-m", "bm25", "--query-id", "q1", "--top", str(top))
    assert judged == [*TIED, "b2"][:top]
    # the same text as an unjudged query (a space more: not the judged one) ranks alike
    typed = _ranked(capsys, str(ties), "-m", "bm25", "--query", "green  tea", "--top", str(top))
    assert typed == judged


def test_explain_lists_the_shown_and_the_beyond_in_one_order(
        ties: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(ties), "-m", "bm25", "--query-id", "q1", "--top", "2",
                 "--relevant"]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("#")]
    assert heads == ["#1  a1  green tea leaves   judged 1", "#2  a2  green tea leaves"]


@pytest.mark.parametrize("top", [2, 10])
def test_rank_shows_what_the_window_shows(ties: Path, top: int,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    s = TuningSession()
    s.open(ties)
    s.set_model("bm25")
    s.recompute()
    assert s.result is not None and s.dataset is not None
    ids = s.dataset.corpus.ids
    window = [ids[int(d)] for d in s.result.ranking.docs[0, :top] if d >= 0]
    assert window == _ranked(capsys, str(ties), "-m", "bm25", "--query-id", "q1", "--top",
                             str(top))


def test_a_run_file_still_holds_the_members_trec_eval_reads_first(
        ties: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # trec_eval orders equal scores by id descending: a run file 2 deep holds a5 and a4, so
    # that it scores as the deeper run does (13095ea); the ranking shown is not a run file
    assert main(["eval", str(ties), "-m", "bm25", "--run", "-", "--depth", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in lines] == ["a5", "a4"]
