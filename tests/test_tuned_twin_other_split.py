"""A query whose twin (the same text and judgments under another id) a file was tuned on is
tuned on too, whichever split the twin sits in (review rB 2: a file tuned by k-fold on
SciFact's test split, so on 870 and 1292, was read as held out on the train split's 871 and
1291 by eval --split train)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.tuned_on import TunedOn, held_out_queries

SCIFACT = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "scifact"


def _beir(folder: Path) -> Path:
    """A BEIR folder with a train and a test split: train's t2 is test's s1 asked again (the
    same text, spacing and case aside, and the same judgments); t3 has s2's text but other
    judgments, so it is no twin."""
    folder.mkdir()
    docs = [("d1", "apple orchards in spring"), ("d2", "pear trees and their blossom"),
            ("d3", "river fish in autumn"), ("d4", "mountain goats climbing")]
    (folder / "corpus.jsonl").write_text(
        "".join(f'{{"_id": "{i}", "title": "", "text": "{t}"}}\n' for i, t in docs), "utf-8")
    queries = [("t1", "goats on mountains"), ("t2", "Apple  orchards"), ("t3", "river fish"),
               ("s1", "apple orchards"), ("s2", "river fish")]
    (folder / "queries.jsonl").write_text(
        "".join(f'{{"_id": "{i}", "text": "{t}"}}\n' for i, t in queries), "utf-8")
    (folder / "qrels").mkdir()
    (folder / "qrels" / "train.tsv").write_text(
        "query-id\tcorpus-id\tscore\nt1\td4\t1\nt2\td1\t1\nt3\td2\t1\n", "utf-8")
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\ns1\td1\t1\ns2\td3\t1\n", "utf-8")
    return folder


def _tuned_file(path: Path, dataset: str, trained: list[str]) -> Path:
    """A params file as `tune --out` writes it after a k-fold run on the test split."""
    ids = ", ".join(f'"{q}"' for q in trained)
    path.write_text('[params]\nk1 = 1.5\n\n[tuned]\n'
                    f'dataset = "{dataset}"\nvalidation = "5-fold over 300 queries (seed 0)"\n'
                    'metric = "ndcg@10"\nheld_out_default = 0.6\nheld_out_tuned = 0.61\n'
                    'held_out_p = 0.5\nheld_out_queries = 300\nmodel = "bm25"\n'
                    f"trained_on = [{ids}]\n", "utf-8")
    return path


def test_a_twin_in_another_split_of_a_query_tuned_on_is_not_held_out(tmp_path: Path) -> None:
    folder = _beir(tmp_path / "fruit")
    train = load_dataset(folder, split="train")
    record = TunedOn("fruit", "5-fold over 2 queries (seed 0)", ("s1", "s2"), "ndcg@10")
    narrowed, notes = held_out_queries(train, [("kf.toml", record)])
    # t2 is s1 asked again: tuned on; t3 shares s2's text only: held out, as t1 is
    assert sorted(q for q, g in (narrowed.qrels or {}).items() if g) == ["t1", "t3"]
    assert "compared on the 2 of 3 judged queries" in notes[0]
    assert "t2≡s1" in " ".join(notes)
    # what a run starting from these values sets aside (tune --params: rB 2)
    from workbench.core.tuned_on import tuned_mask

    assert tuned_mask(train, record.trained_on).tolist() == [False, True, False]


def test_a_twin_in_the_same_query_set_is_tuned_on_too(tmp_path: Path) -> None:
    folder = _beir(tmp_path / "fruit")
    (folder / "qrels" / "all.tsv").write_text(
        "query-id\tcorpus-id\tscore\nt1\td4\t1\nt2\td1\t1\nt3\td2\t1\ns1\td1\t1\ns2\td3\t1\n",
        "utf-8")
    both = load_dataset(folder, split="all")
    from workbench.core.tuned_on import tuned_mask

    record = TunedOn("fruit", "tuned on split test (2 queries)", ("s1",), "ndcg@10")
    assert tuned_mask(both, record.trained_on).tolist() == [False, True, False, True, False]


def test_eval_on_the_other_split_sets_the_twin_aside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path / "fruit")
    params = _tuned_file(tmp_path / "kf.toml", "fruit", ["s1", "s2"])
    assert main(["eval", str(folder), "-m", "bm25", "--split", "train", "--params",
                 str(params), "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "evaluated on the 2 of 3 judged queries no configuration was tuned on" in said
    assert "every figure here is held out" not in said


@pytest.mark.datasets
@pytest.mark.skipif(not SCIFACT.is_dir(), reason="SciFact not under ../shared/datasets")
def test_scifact_train_split_sets_aside_the_twins_of_test_queries_tuned_on(
        tmp_path: Path) -> None:
    """SciFact's train claims 871 and 1291 are its test claims 870 and 1292 asked again."""
    train = load_dataset(SCIFACT, split="train")
    record = TunedOn("scifact", "5-fold over 300 queries (seed 0)", ("870", "1292", "1"),
                     "ndcg@10")
    narrowed, notes = held_out_queries(train, [("sf_kf.toml", record)])
    judged = [q for q, g in (narrowed.qrels or {}).items() if g]
    assert len(judged) == 807 and "871" not in judged and "1291" not in judged
    assert "871≡870" in notes[1] and "1291≡1292" in notes[1]


def test_tune_from_such_a_file_keeps_the_twin_off_the_held_out_side(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """tune --split train --params F (F tuned on the test split's s1) had held out t2, s1
    asked again, as one of 3 (rB 2, the tune side)."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    folder = _beir(tmp_path / "fruit")
    kf = _tuned_file(tmp_path / "kf.toml", "fruit", ["s1", "s2"])
    assert main(["tune", str(folder), "-m", "bm25", "--split", "train", "--params", str(kf),
                 "--tune", "k1", "--trials", "2", "--folds", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "so 2 are held out" in out
    assert "=2" in out and "=3" not in out


def test_a_twin_is_said_to_repeat_a_query_tuned_on_not_to_be_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dE 3: "'kf.toml' was tuned on 1 of these 3" of a file that saw none of them, only a
    query t2 repeats; eval's header and the window's strip said it the same way."""
    import numpy as np

    from workbench.core.tuned_on import held_out_of

    folder = _beir(tmp_path / "fruit")
    params = _tuned_file(tmp_path / "kf.toml", "fruit", ["s1", "s2"])
    assert main(["eval", str(folder), "-m", "bm25", "--split", "train", "--params",
                 str(params), "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("2 judged queries (2 not judged in split train, left out; 1 repeats a query the "
            "values were tuned on, left out: --all-queries counts them)") in said
    assert ("'kf.toml' was tuned on none of these 3, but 1 of them repeats a query it was "
            "tuned on (same text and judgments: t2≡s1), so it counts as tuned on — 5-fold "
            "over 300 queries (seed 0)") in said
    train = load_dataset(folder, split="train")
    record = TunedOn("fruit", "5-fold over 2 queries (seed 0)", ("s1", "s2"), "ndcg@10")
    strip = held_out_of(train, np.ones(3, bool), [("the live values", record)])
    assert strip.note == ("counted: the 2 of 3 judged queries not tuned on (1 set aside: "
                          "it repeats a query tuned on by the live values)")


def test_compare_s_header_says_a_twin_repeats_a_query_tuned_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dJ 1: compare's and report's header called t2 "tuned on", just above the note that
    the file was tuned on none of these queries."""
    folder = _beir(tmp_path / "fruit")
    params = _tuned_file(tmp_path / "kf.toml", "fruit", ["s1", "s2"])
    assert main(["compare", str(folder), "-m", "bm25", "--split", "train", "--defaults",
                 "--params", str(params), "--metrics", "ndcg@10", "--movers", "0"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "3 queries, 2 judged and counted, 1 set aside: it repeats a query tuned on" in said
    assert "tuned on set aside" not in said


def test_a_kept_start_s_twin_note_names_the_run_that_tuned_its_values(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dJ 4: a run on these 3 queries that kept kf.toml's values carries the queries kf.toml
    was tuned on; "tuned on none of these 3 … — 5-fold over 3 queries" had read as a
    contradiction."""
    folder = _beir(tmp_path / "fruit")
    kept = tmp_path / "kept.toml"
    kept.write_text('[params]\nk1 = 1.5\n\n[tuned]\ndataset = "fruit"\n'
                    'validation = "5-fold over 3 queries (seed 0)"\nmetric = "ndcg@10"\n'
                    'held_out_default = 0.6\nheld_out_start = "kf.toml\'s"\n'
                    'held_out_tuned = 0.6\nheld_out_p = 1.0\nheld_out_queries = 3\n'
                    'model = "bm25"\nkept_trial = "start"\ntrained_on = ["s1", "s2"]\n',
                    "utf-8")
    assert main(["eval", str(folder), "-m", "bm25", "--split", "train", "--params",
                 str(kept), "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("'kept.toml' was tuned on none of these 3, but 1 of them repeats a query it was "
            "tuned on (same text and judgments: t2≡s1), so it counts as tuned on — its values "
            "were tuned by kf.toml's run, on 2 queries; its own run, 5-fold over 3 queries "
            "(seed 0), only kept them") in said



def test_tune_from_such_a_file_counts_and_words_the_twin_as_eval_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """dI 2: tune's closing line said eval would "count the 3 not tuned on" where eval counts
    2 (t2 repeats s1); dI 3: tune said the file "was tuned on 1 of these queries", t2, when it
    was tuned on its twin s1."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    folder = _beir(tmp_path / "fruit")
    kf = _tuned_file(tmp_path / "kf.toml", "fruit", ["s1", "s2"])
    written = tmp_path / "tr.toml"
    assert main(["tune", str(folder), "-m", "bm25", "--split", "train", "--params", str(kf),
                 "--tune", "k1", "--trials", "2", "--folds", "3", "--out", str(written)]) == 0
    out, err = capsys.readouterr()
    said = " ".join(out.split())
    assert "leave those out (and the 1 that repeats one of them) and count the 2 not tuned on" \
        in said
    assert main(["eval", str(folder), "-m", "bm25", "--split", "train", "--params",
                 str(written), "--metrics", "ndcg@10"]) == 0
    assert "2 judged queries" in " ".join(capsys.readouterr().out.split())
    note = " ".join(err.split())
    assert ("note: the starting values (kf.toml) were tuned by an earlier run on none of "
            "these 3 queries, but 1 of them repeats one they were tuned on (same text and "
            "judgments: t2≡s1): those are never held out here") in note
    assert "the query that repeats one the starting values were tuned on (same text and " \
        "judgments: t2≡s1) is kept off the held-out side, so 2 are held out" in said
    assert "tuned on is kept off" not in said and "were tuned on 1 of these" not in note
