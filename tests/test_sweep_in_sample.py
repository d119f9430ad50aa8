"""sweep's best is picked and scored on the same queries: said beside it always, not only
where the value in use was swept (review rb 8)."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")
CAVEAT = ("(the best was picked on these same 25 judged queries, so its score is optimistic "
          "— `workbench tune` holds queries out for an honest estimate)")


def _sweep(capsys, *args: str) -> str:
    assert main(["sweep", TEA, "-m", "bm25", *args]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_a_best_without_the_value_in_use_is_said_to_be_in_sample(capsys):
    out = _sweep(capsys, "-s", "k1", "--values", "0:3:0.25")  # 1.2, in use, is not swept
    assert "best by ndcg@10: k1 = " in out
    assert out.index("best by ndcg@10") < out.index(CAVEAT)
    assert "is not among those swept" in out


def test_with_the_value_in_use_swept_the_caveat_is_said_once(capsys):
    out = _sweep(capsys, "-s", "k1", "--values", "0:3:0.3")  # 1.2, in use, is swept
    assert "the best was picked on these same queries, so the gap is optimistic" in out
    assert CAVEAT not in out and out.count("optimistic") == 1


def test_a_best_that_is_the_value_in_use_is_in_sample_too(capsys):
    out = _sweep(capsys, "-s", "b", "--values", "0:1:0.25")  # 0.75, in use, is the best
    assert "← best (in use)" in out and CAVEAT in out
