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


SPLIT = "tuned on split train (22 queries), held out: split test (3)"
TIME = "time split (by date): 15 older tasks tune, 10 newer held out"


def _tuned_file(path: Path, trained: list[str], validation: str = SPLIT) -> Path:
    """A params file as `tune --out` writes it: after a train → test run on tea-beir (the
    queries left untuned on split train are twins of held-out ones), or a time split."""
    ids = ", ".join(f'"{q}"' for q in trained)
    path.write_text('[params]\nk1 = 1.5\n\n[tuned]\ndataset = "tea-beir"\n'
                    f'validation = "{validation}"'
                    '\nmetric = "ndcg@10"\nheld_out_default = 0.6\nheld_out_tuned = 0.61\n'
                    'held_out_p = 0.5\nheld_out_queries = 3\nmodel = "bm25"\n'
                    f"trained_on = [{ids}]\n")
    return path


def _mean(out: str) -> float:
    return float(next(line.split()[1] for line in out.splitlines()
                      if line.startswith("ndcg@10 ")))


@pytest.mark.parametrize("tuned", [23, 15])
def test_a_splits_leftovers_are_no_headline(capsys, tmp_path, tuned):
    """What a train → test run left untuned of its training split is no held-out part, 2 of
    25 or 10 of 25 alike (dr1 3: the count had decided): every query counted, in eval,
    compare and report alike (dr1 2: compare and report had headlined the 2)."""
    few = _tuned_file(tmp_path / "few.toml", IDS[:tuned])
    left = IDS[tuned:]
    assert main(["eval", TEA, "-m", "bm25", "--params", str(few), "--metrics", "ndcg@10"]) == 0
    raw = capsys.readouterr().out
    out = " ".join(raw.split())
    assert main(["eval", TEA, "-m", "bm25", "-p", "k1=1.5", "--metrics", "ndcg@10"]) == 0
    every = _mean(capsys.readouterr().out)
    assert "tea-beir: 151 documents, 25 judged queries; model bm25" in out
    assert _mean(raw) == every  # all 25 counted, as without the file
    assert (f"{tuned} of these 25 judged queries were tuned on: there the tuned figures are "
            f"training scores" in out and f"'few.toml' was tuned on {tuned} of these 25" in out)
    shown = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5 else "")
    said = (f"the {len(left)} not tuned on ({shown}) are left over from the split 'few.toml' "
            "was tuned on, not a held-out part")
    assert said in out and "every judged query is counted, as training scores" in out
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(few),
                 "--metrics", "ndcg@10"]) == 0
    cmp = " ".join(capsys.readouterr().out.split())
    assert "25 queries, 25 judged" in cmp and "compared on the" not in cmp
    assert said.replace("few.toml", "few") in cmp
    page = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(few),
                 "--metrics", "ndcg@10", "-o", str(page)]) == 0
    text = " ".join(page.read_text().split())
    assert "compared on the" not in text and "training scores" in text


@pytest.mark.parametrize("tuned", [15, 22, 24])
def test_a_held_out_part_is_the_headline_however_small(capsys, tmp_path, tuned):
    """A time split's newer tasks are counted as tune counted them: 10, 3 or 1 left (dr1 3:
    1 of 12 had been all 12 as training scores, 2 of 12 a headline); under 10 said to be a
    rough figure."""
    left = 25 - tuned
    part = _tuned_file(tmp_path / "part.toml", IDS[:tuned], TIME)
    assert main(["eval", TEA, "-m", "bm25", "--params", str(part), "--metrics", "ndcg@10"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert (f"{left} judged quer{'y' if left == 1 else 'ies'} ({tuned} the values were tuned "
            "on, left out") in out
    assert f"evaluated on the {left} of 25 judged queries no configuration was tuned on" in out
    # one is no mean, and has no "any one of them" (dr5 7)
    rough = ("only 1 held-out query: one query's score, not a mean, a rough figure" if left == 1
             else f"only {left} held-out queries: a mean of under 10 moves a lot with any one "
             "of them, a rough figure")
    assert ("any one of them" in out) == (1 < left < 10)
    assert (rough in out) == (left < 10)
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(part),
                 "--metrics", "ndcg@10"]) == 0
    cmp = " ".join(capsys.readouterr().out.split())
    assert f"compared on the {left} of 25 judged queries" in cmp and (rough in cmp) == (left < 10)


def test_tune_says_what_eval_does_after_a_train_test_run(capsys, tmp_path):
    """tune's closing line says what eval does with the file (dr1 2: it said eval left the
    training queries out, and eval counted all): on split train every query, as training
    scores (q26, the twin left untuned, is no held-out part); on split test, held out."""
    from tests.test_tune_starts import with_twin

    data = with_twin(tmp_path / "tw")
    written = tmp_path / "best.toml"
    assert main(["tune", str(data), "-m", "bm25", "--train-split", "train", "--test-split",
                 "test", "--tune", "b", "--trials", "2", "--pick", "best",
                 # a trial's values, not the start kept (tuned on no query: rv 6): under
                 # mrr@10, as no trial's training nDCG@10 beats the start's, and --pick best
                 # keeps the start then (dI 1)
                 "--range", "b=0.1:0.5", "--metric", "mrr@10", "--storage",
                 str(tmp_path / "s.db"), "--out", str(written)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("eval, compare and report on the training split count every query and say their "
            "figures are training scores (the 1 query it left untuned there is no held-out "
            "part); on the held-out split every figure is held out") in out
    assert main(["eval", str(data), "--split", "train", "-m", "bm25", "--params",
                 str(written), "--metrics", "ndcg@10"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "11 judged queries (15 not judged" in out and "training scores" in out
    assert main(["eval", str(data), "--split", "test", "-m", "bm25", "--params",
                 str(written), "--metrics", "ndcg@10"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "15 judged queries" in out and "every figure here is held out" in out


def test_the_windows_live_strip_follows_the_same_rule(tmp_path):
    """held_out_of (the window's metric strip) as held_out_queries: a split's leftovers are
    training scores over every judged query, a time split's newer part is counted."""
    import numpy as np

    from workbench.core.formats import load_dataset
    from workbench.core.tuned_on import held_out_of, read_tuned_on

    ds = load_dataset(SAMPLES / "tea-beir")
    judged = np.array([bool((ds.qrels or {}).get(q)) for q in ds.queries.ids])
    split = read_tuned_on(_tuned_file(tmp_path / "s.toml", IDS[:23]))
    time_ = read_tuned_on(_tuned_file(tmp_path / "t.toml", IDS[:23], TIME))
    assert split is not None and time_ is not None
    got = held_out_of(ds, judged, [("s", split)])
    assert got.training and got.mask is None and "leftovers of the split s tuned on" in got.note
    got = held_out_of(ds, judged, [("t", time_)])
    assert not got.training and got.mask is not None and int(got.mask.sum()) == 2
