"""`workbench tune` from values an earlier run tuned (`--params` with its `[tuned]` record):
the queries they were tuned on are never held out, whatever split or model reads them, and
a held-out split they cover whole is refused with the runs that can be made instead."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.tuned_on import read_tuned_on

FIRST = [f"q{i:02d}" for i in range(1, 11)]  # split train
LATER = [f"q{i:02d}" for i in range(11, 26)]  # split test


def two_splits(folder: Path) -> Path:
    """tea-beir with its judgments cut in two: q01–q10 in train, q11–q25 in test."""
    shutil.copytree(SAMPLES / "tea-beir", folder)
    (folder / "workbench.toml").unlink()
    rows = (folder / "qrels" / "test.tsv").read_text().splitlines()
    for split, keep in (("train", True), ("test", False)):
        (folder / "qrels" / f"{split}.tsv").write_text("\n".join(
            [rows[0], *(r for r in rows[1:] if (r.split("\t")[0] in FIRST) == keep)]) + "\n")
    return folder


def tuned_file(path: Path, dataset: str, trained_on: list[str], model: str = "") -> Path:
    """A params file as tune writes it: k1 and the record of the queries it was tuned on."""
    ids = ", ".join(f'"{q}"' for q in trained_on)
    path.write_text(f'[params]\nk1 = 2.0\n\n[tuned]\ndataset = "{dataset}"\n'
                    f'validation = "earlier"\n' + (f'model = "{model}"\n' if model else "")
                    + f"trained_on = [{ids}]\n")
    return path


def test_a_held_out_split_the_start_was_tuned_on_is_refused(capsys, tmp_path: Path) -> None:
    # tuned by k-fold on split test, then --train-split train --test-split test from it: the
    # run tuned on all 25 (the held-out split too) and said "tuned on all 25" of a start fitted
    # on 15
    data = two_splits(tmp_path / "sp")
    start = tuned_file(tmp_path / "kf.toml", "sp", LATER)
    store = tmp_path / "s.db"
    code = main(["tune", str(data), "-m", "bm25", "--train-split", "train", "--test-split",
                 "test", "--params", str(start), "--tune", "b", "--trials", "2", "--storage",
                 str(store)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert ("--params kf.toml: its values were tuned on all 15 queries of --test-split test by "
            "an earlier run, so no score there would be held out") in lines[0]
    assert "leave out --params" in lines[0] and "--split train --folds 0" in lines[0]
    assert not store.exists()  # refused before any study was made
    # the way out it names: tuned on split train alone, the record keeping both splits
    written = tmp_path / "next.toml"
    code = main(["tune", str(data), "-m", "bm25", "--split", "train", "--folds", "0",
                 "--params", str(start), "--tune", "b", "--trials", "2", "--storage",
                 str(store), "--out", str(written)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "validation: tuned on all 10 queries, none held out" in out
    record = read_tuned_on(written)
    # a start kept unchanged keeps its own record only: this run fitted nothing (rv 6)
    # (values moved from it count both splits: test_tune_kept_start_record)
    assert 'kept_trial = "start"' in written.read_text()
    assert record is not None and set(record.trained_on) == set(LATER)


def test_set_aside_counts_and_refuses_what_it_must() -> None:
    from workbench.core.tuning.validation import (
        StartCoversHeldOut,
        holdout,
        kfold,
        no_validation,
        set_aside,
    )

    train = np.zeros(25, bool)
    train[:10] = True
    prior = ~train  # the start was tuned on the 15 held out
    with pytest.raises(StartCoversHeldOut) as caught:
        set_aside(holdout(train, ~train, "train → test"), prior)
    assert caught.value.held == 15
    # some of the held-out side: those leave it, and the run still tunes on train alone
    some = np.zeros(25, bool)
    some[10:14] = True
    v = set_aside(holdout(train, ~train, "train → test"), some)
    assert v.kind == "holdout" and int(v.folds[0].test.sum()) == 11
    assert (v.final_train == train).all()  # not the four held-out queries the start saw
    # "never held out (11 are)" read as a contradiction (dr7 7)
    assert v.describe.endswith("; the 4 queries the starting values were tuned on are kept "
                               "off the held-out side, so 11 are held out")
    # nothing held out: nothing to set aside, and no "tuned on all 25" of a start fitted on 4
    none = no_validation(np.ones(25, bool))
    assert set_aside(none, some) is none
    # k-fold whose every query the start saw: every query tuned on, as k-fold's last study
    everything = set_aside(kfold(np.ones(25, bool), 5, seed=0), np.ones(25, bool))
    assert everything.kind == "none" and everything.final_train.all()
    assert "tuned on all 25" in everything.describe


def with_twin(folder: Path) -> Path:
    """`two_splits` plus q26 in train: q11's text (spaced and cased otherwise) and its
    judgments under another id, as SciFact's train and test share claims 871 and 870."""
    two_splits(folder)
    texts = {}
    for line in (folder / "queries.jsonl").read_text().splitlines():
        q = json.loads(line)
        texts[q["_id"]] = q["text"]
    with (folder / "queries.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"_id": "q26", "text": "  " + texts["q11"].upper() + " "}) + "\n")
    test = (folder / "qrels" / "test.tsv").read_text().splitlines()
    twin = [r.replace("q11\t", "q26\t", 1) for r in test if r.startswith("q11\t")]
    assert twin
    train = folder / "qrels" / "train.tsv"
    train.write_text(train.read_text() + "\n".join(twin) + "\n")
    return folder


def test_a_training_query_asked_again_under_a_held_out_id_is_not_tuned_on(
        capsys, tmp_path: Path) -> None:
    # the held-out score counted q11, whose very text and judgments were tuned on as q26
    data = with_twin(tmp_path / "tw")
    written = tmp_path / "best.toml"
    code = main(["tune", str(data), "-m", "bm25", "--train-split", "train", "--test-split",
                 "test", "--tune", "b", "--trials", "6", "--pick", "best", "--storage",
                 str(tmp_path / "s.db"), "--out", str(written)])
    out, err = capsys.readouterr()
    assert code == 0, err
    plan = next(line for line in out.splitlines() if line.startswith("validation: "))
    n = len(set(FIRST))  # split train's queries but q26
    assert plan.endswith("; 1 training query has the same text and judgments as a held-out one "
                         f"(q26≡q11): not tuned on, so {n} of the {n + 1} are"), plan
    # eval --split train scores q26 too: why its training figure differs is said (rB 7)
    assert (f"the training row is over the {n} queries tuned on: eval on the training split "
            f"scores all {n + 1}, the 1 with a held-out twin too, so its figure differs"
            in " ".join(out.split())), out
    record = read_tuned_on(written)
    assert record is not None and set(record.trained_on) == set(FIRST)  # not q26
    # the test's line, or where no held-out query changed, the line that says so
    assert ("paired randomisation test over 15 held-out queries" in out
            or "the 15 held-out queries score the same either way" in out)


def test_no_fold_tunes_on_the_twin_of_a_query_it_holds_out(tmp_path: Path) -> None:
    from workbench.core.formats import load_dataset
    from workbench.core.tuning.data import choose_validation

    folder = with_twin(tmp_path / "tw")
    # q26 judged in split test too (as SciFact's train holds pairs within itself)
    test = folder / "qrels" / "test.tsv"
    test.write_text(test.read_text() + "".join(
        r.replace("q11\t", "q26\t", 1) + "\n" for r in test.read_text().splitlines()
        if r.startswith("q11\t")))
    ds = load_dataset(folder)
    ids = list(ds.queries.ids)
    a, b = ids.index("q11"), ids.index("q26")
    counted = np.ones(len(ids), bool)
    seen = set()
    for seed in range(30):  # seeds that part the twins, and one that does not
        v = choose_validation(ds, counted, folds=5, time_fraction=None, seed=seed)
        for f in v.folds:
            assert not (f.test[a] and f.train[b]) and not (f.test[b] and f.train[a])
        assert v.final_train.all()  # the values written: tuned on every query
        together = any(f.test[a] and f.test[b] for f in v.folds)
        seen.add(together)
        named = v.describe.endswith(("(q11≡q26): no fold tunes on one and holds out the other",
                                     "(q26≡q11): no fold tunes on one and holds out the other"))
        assert named is not together, v.describe
        assert ("1 pair of queries with the same text and judgments" in v.describe) is named
    assert seen == {True, False}  # both cases met
    # within split train alone q26 is no one's twin: nothing said
    train = load_dataset(folder, split="train")
    alone = choose_validation(train, np.ones(len(train.queries), bool), folds=3,
                              time_fraction=None, seed=0)
    assert alone.describe == "3-fold over 11 queries (seed 0)"


def test_another_models_record_still_sets_its_queries_aside(capsys, tmp_path: Path) -> None:
    # bm25's k1 and b fitted on q01–q09 became importance's fixed start, and those very
    # queries were then held out: the record was left aside as another model's
    start = tuned_file(tmp_path / "bm25.toml", "tea-beir", FIRST[:9], model="bm25")
    written = tmp_path / "next.toml"
    code = main(["tune", str(SAMPLES / "tea-beir"), "-m", "importance", "--params", str(start),
                 "--tune", "b", "--folds", "3", "--trials", "2", "--pick", "best", "--storage",
                 str(tmp_path / "s.db"), "--out", str(written)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert ("note: bm25.toml: tuned for bm25, not importance: its held-out figures are bm25's "
            "and are left aside, but its values were fitted on the 9 queries it names, which "
            "are set aside as tuned on") in err
    assert ("the 9 queries the starting values were tuned on are kept off the held-out side, "
            "so 16 are held out") in out
    assert "paired randomisation test over 16 held-out queries" in out
    record = read_tuned_on(written)
    assert record is not None and record.model == "importance"
    assert set(FIRST[:9]) <= set(record.trained_on)


def test_one_prompt_in_two_contexts_is_no_twin() -> None:
    """pi-lodestone cases of one prompt in two projects (another cwd) are two questions; as
    twins, one had been dropped from a fold's training."""
    from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
    from workbench.core.tuning.validation import twin_groups

    corpus = Corpus([Document("d1", "", "cache key"), Document("d2", "", "feeds")])
    queries = QuerySet([Query("a", "cache key", {"cwd": "/repos/x"}),
                        Query("b", "cache key", {"cwd": "/repos/y"}),
                        Query("c", "Cache  key", {"cwd": "/repos/x"})])
    ds = Dataset("t", corpus, queries, {q: {"d1": 1} for q in ("a", "b", "c")})
    assert twin_groups(ds, np.ones(3, bool)) == {0: 0, 2: 0}  # a and c; b is no twin
