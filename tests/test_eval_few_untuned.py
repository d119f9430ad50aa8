"""`eval --params FILE` where only a few judged queries were not tuned on: every query is
counted, said to be training scores, instead of a headline mean of the few (review rb 2:
after a train → test run, the train split's 2 of 809)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")
IDS = [f"q{i:02d}" for i in range(1, 26)]  # tea-beir's 25 judged queries


def _tuned_file(path: Path, trained: list[str]) -> Path:
    """A params file as `tune --out` writes it after a train → test run on tea-beir."""
    ids = ", ".join(f'"{q}"' for q in trained)
    path.write_text('[params]\nk1 = 1.5\n\n[tuned]\ndataset = "tea-beir"\n'
                    'validation = "tuned on split train (22 queries), held out: split test (3)"'
                    '\nmetric = "ndcg@10"\nheld_out_default = 0.6\nheld_out_tuned = 0.61\n'
                    'held_out_p = 0.5\nheld_out_queries = 3\nmodel = "bm25"\n'
                    f"trained_on = [{ids}]\n")
    return path


def _mean(out: str) -> float:
    return float(next(line.split()[1] for line in out.splitlines()
                      if line.startswith("ndcg@10 ")))


def test_a_few_untuned_queries_are_no_headline(capsys, tmp_path):
    few = _tuned_file(tmp_path / "few.toml", IDS[:23])  # 2 left: under 10, under a tenth
    assert main(["eval", TEA, "-m", "bm25", "--params", str(few), "--metrics", "ndcg@10"]) == 0
    raw = capsys.readouterr().out
    out = " ".join(raw.split())
    assert main(["eval", TEA, "-m", "bm25", "-p", "k1=1.5", "--metrics", "ndcg@10"]) == 0
    every = _mean(capsys.readouterr().out)
    assert "tea-beir: 151 documents, 25 judged queries; model bm25" in out
    assert _mean(raw) == every  # all 25 counted, as without the file
    assert ("23 of these 25 judged queries were tuned on ('few.toml' was tuned on 23" in out
            and "there the tuned figures are training scores" in out)
    assert ("only 2 of the 25 judged queries (q24, q25) were not tuned on: too few for a mean "
            "of their own (under 10, and under 1/10 of them), so every judged query is "
            "counted, as training scores" in out)


@pytest.mark.parametrize("tuned", [15, 22])
def test_a_held_out_part_is_still_the_headline(capsys, tmp_path, tuned):
    """10 left, or 3 of 25 (over a tenth: a small held-out part, as a time split's newer 4 of
    12 tasks), are counted as before."""
    left = 25 - tuned
    part = _tuned_file(tmp_path / "part.toml", IDS[:tuned])
    assert main(["eval", TEA, "-m", "bm25", "--params", str(part), "--metrics", "ndcg@10"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"{left} judged queries ({tuned} the values were tuned on, left out" in out
    assert f"evaluated on the {left} of 25 judged queries no configuration was tuned on" in out
    assert "too few" not in out
