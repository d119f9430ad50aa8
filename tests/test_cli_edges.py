"""CLI edge cases: each is one line naming the argument and the reason, exit status 2, no
traceback, and no output file left behind; outputs are checked before the run and written
only after it."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SAMPLES
from workbench.cli import main
from workbench.cli import output as cli_output

TEA = str(SAMPLES / "tea-beir")


def _usage_error(argv: list[str], capsys: pytest.CaptureFixture[str], *words: str) -> str:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own checks
        code = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


def test_eval_outputs_into_a_missing_folder_or_onto_a_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(["eval", TEA, "-m", "bm25", "--per-query", str(tmp_path / "no" / "x.csv")],
                 capsys, "--per-query", "does not exist")
    _usage_error(["eval", TEA, "-m", "bm25", "--run", str(tmp_path)], capsys, "--run",
                 "is a folder")
    assert list(tmp_path.iterdir()) == []


def test_per_query_format_follows_the_ending_and_another_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # sweep --out refused x.txt while eval --per-query wrote CSV into it
    _usage_error(["eval", TEA, "-m", "bm25", "--per-query", str(tmp_path / "x.txt")], capsys,
                 "--per-query", "ending .json or .csv")
    assert list(tmp_path.iterdir()) == []
    assert main(["eval", TEA, "-m", "bm25", "--per-query", str(tmp_path / "x.CSV")]) == 0
    assert (tmp_path / "x.CSV").read_text().startswith("query_id,")


def test_an_output_onto_an_input_or_onto_another_output_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # eval --run onto the folder's own qrels replaced them; --per-query and --run on one
    # file kept the second
    import shutil

    data = tmp_path / "tea"
    shutil.copytree(TEA, data)
    qrels = data / "qrels" / "test.tsv"
    before = qrels.read_text()
    _usage_error(["eval", str(data), "-m", "bm25", "--run", str(qrels)], capsys, "--run",
                 "is a dataset file this command reads")
    import json

    queries = tmp_path / "q.csv"
    rows = [json.loads(line) for line in (data / "queries.jsonl").read_text().splitlines()]
    queries.write_text("id,text\n" + "".join(f"{r['_id']},\"{r['text']}\"\n" for r in rows))
    _usage_error(["eval", str(data / "corpus.jsonl"), "-m", "bm25", "--queries", str(queries),
                  "--qrels", str(qrels), "--per-query", str(queries)], capsys,
                 "is the --queries file")
    _usage_error(["eval", str(data), "-m", "bm25", "--per-query", str(tmp_path / "o.csv"),
                  "--run", str(tmp_path / "o.csv")], capsys,
                 "--per-query and --run name the same file")
    _usage_error(["sweep", str(data / "corpus.jsonl"), "-m", "bm25", "--sweep", "k1",
                  "--queries", str(queries), "--qrels", str(qrels), "--out", str(queries)],
                 capsys, "--out", "is the --queries file")
    assert qrels.read_text() == before and not (tmp_path / "o.csv").exists()
    assert queries.read_text().startswith("id,text\n")
    assert main(["eval", str(data), "-m", "bm25", "--run", str(data / "run.trec")]) == 0


def test_a_failing_second_output_leaves_no_first_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    per_query = tmp_path / "per-query.csv"
    _usage_error(["eval", TEA, "-m", "bm25", "--per-query", str(per_query),
                  "--run", str(tmp_path / "no" / "run.trec")], capsys, "--run")
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_file_system_under_an_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    per_query, run = tmp_path / "q.csv", tmp_path / "r.trec"

    def read_only(items: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(run))

    monkeypatch.setattr(cli_output, "atomic_write_many", read_only)
    _usage_error(["eval", TEA, "-m", "bm25", "--per-query", str(per_query), "--run", str(run)],
                 capsys, "--run", "Read-only file system", "nothing was written")
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_refuses_files_is_said_before_the_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # os.access says yes to root on a read-only mount (or in /proc): the table was printed,
    # then the write failed
    import tempfile

    monkeypatch.setattr(tempfile, "mkstemp", _read_only_mkstemp)
    try:
        code = main(["eval", TEA, "-m", "bm25", "--per-query", str(tmp_path / "q.csv")])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    assert code == 2 and out == "", out
    assert "--per-query" in err and "Read-only file system" in err, err
    assert list(tmp_path.iterdir()) == []


def test_outputs_to_stdout_and_through_a_symlink(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "real.trec"
    target.write_text("old\n")
    link = tmp_path / "link.trec"
    link.symlink_to(target)
    assert main(["eval", TEA, "-m", "bm25", "--per-query", "-", "--run", str(link)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("query_id,ndcg@10,")  # the CSV alone
    assert "TREC run (each query's top 100) written to" in captured.err
    assert link.is_symlink() and target.read_text().startswith("q")


@pytest.mark.parametrize(("argv", "words"), [
    (["--params", "{tmp}"], ("is a folder",)),
    (["-p", "b=0_1"], ("parameter b must be",)),
    (["--top", "-1"], ("--top", "at least 1")),
], ids=["params-folder", "underscore", "negative-top"])
def test_bad_parameters(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                        words: tuple[str, ...]) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    _usage_error(["rank", TEA, "-m", "bm25", "-q", "green tea", *argv], capsys, *words)


def test_a_params_file_with_keys_beside_its_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    toml = tmp_path / "p.toml"
    toml.write_text("k1 = 0.9\n[params]\nb = 0.5\n")
    _usage_error(["eval", TEA, "-m", "bm25", "--params", str(toml)], capsys, "'k1'",
                 "outside [params]")


@pytest.mark.parametrize(("text", "words"), [
    ("# tuned\n[params]\nk1 = 0.9\nb = 1.5\n", (":4: field 'b': must be a number in [0, 1]",
                                                    "got 1.5")),
    ("[params]\nk1 = \"high\"\n", (":2: field 'k1': must be a number",)),
    ("[params]\n\"nosuch\" = 3\n", (":2: unknown parameter 'nosuch'; valid: k1",)),
    ("\ufeff[params]\nk1 = 99\n", (":2: field 'k1'",)),  # a BOM hid the line
    ("# x\nparams.k1 = 99\n", (":2: field 'k1'",)),  # a dotted key too
], ids=["out-of-range", "not-a-number", "unknown", "bom", "dotted"])
def test_a_bad_value_in_a_params_file_names_file_line_and_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
        words: tuple[str, ...]) -> None:
    toml = tmp_path / "p.toml"
    toml.write_text(text)
    _usage_error(["eval", TEA, "-m", "bm25", "--params", str(toml)], capsys, str(toml), *words)


def test_a_parameter_given_twice_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", TEA, "-m", "bm25", "-q", "tea", "-p", "k1=1", "-p", "k1=2"]) == 0
    assert "--param k1 given more than once; using k1=2" in capsys.readouterr().err


@pytest.mark.parametrize(("values", "words"), [
    ("1:0:0.1", ("low <= high",)), ("0:1:0", ("positive step",)),
    ("0:1:0.00001", ("100,001 points", "--force")), (",", ("--values",)),
])
def test_sweep_values(values: str, words: tuple[str, ...],
                      capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(["sweep", TEA, "-m", "bm25", "-s", "b", "--values", values], capsys, *words)


def test_embed_batch_size_zero_before_anything_loads(
        capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(["embed", "/nonexistent", "--batch-size", "0"], capsys, "--batch-size")


def test_an_empty_embedding_model_before_anything_loads(
        capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(["eval", TEA, "-m", "dense", "-p", "embedding_model="], capsys,
                 "embedding model is empty")


def test_screenshot_edges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(["screenshot", str(tmp_path / "shots"), "--sample", "nosuch"], capsys,
                 "--sample nosuch", "valid: ")
    assert not (tmp_path / "shots").exists()
    blocker = tmp_path / "file"
    blocker.write_text("")
    _usage_error(["screenshot", str(blocker / "shots"), "--sample", "vault"], capsys,
                 "OUTDIR", "Not a directory")
    _usage_error(["screenshot", str(blocker), "--sample", "vault"], capsys,
                 f"OUTDIR {blocker}: is a file, not a folder")
    # only OUTDIR itself is made, not a missing folder above it
    _usage_error(["screenshot", str(tmp_path / "no" / "shots"), "--sample", "vault"], capsys,
                 "OUTDIR", f"folder {tmp_path / 'no'} does not exist")
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("argv", [
    ["eval", TEA, "-m", "bm25", "--run", "/nonexistent-folder/run.trec"],
    ["sweep", TEA, "-m", "bm25", "-s", "b", "--values", "1:0:0.1"],
    ["embed", TEA, "--batch-size", "0"],
    ["screenshot", "/tmp/unused-shots", "--sample", "nosuch"],
], ids=["run-folder", "sweep-reversed", "batch-size", "screenshot-sample"])
def test_as_a_user_runs_them(argv: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "workbench.cli", *argv], cwd=REPO,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


def test_export_onto_a_disk_that_refuses_writes_leaves_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.core.store import atomic

    blocker = tmp_path / "file"
    blocker.write_text("")
    _usage_error(["export", "-m", "decision-memory", "--out", str(blocker / "out")], capsys,
                 "--out", "Not a directory")
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(atomic.tempfile, "mkstemp", _read_only_mkstemp)
    _usage_error(["export", "-m", "decision-memory", "--out", str(out)], capsys,
                 "--out", "Read-only file system")
    assert list(out.iterdir()) == []


def _read_only_mkstemp(*args: object, **kwargs: object) -> tuple[int, str]:
    raise OSError(errno.EROFS, os.strerror(errno.EROFS))


def test_a_count_below_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "injections.jsonl"
    log.write_text("")
    _usage_error(["why", str(log), "--last", "-2"], capsys, "--last", "at least 1")


def test_eval_says_what_judged_at_k_is(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", TEA, "-m", "bm25"]) == 0
    out = capsys.readouterr().out
    assert "(judged@10: the share of each top 10 that has a judgment at all" in out
    assert main(["eval", TEA, "-m", "bm25", "--metrics", "ndcg@10"]) == 0
    assert "judged@" not in capsys.readouterr().out


def test_sigterm_ends_a_command_as_ctrl_c_does(tmp_path: Path) -> None:
    """`timeout` or a CI cancel sends SIGTERM: the command ends as after Ctrl-C ("interrupted",
    exit 130), its writes under way cleaned up, instead of dying with its temporary files
    left in the cache."""
    import signal
    import subprocess
    import sys
    import time

    script = (
        "import os, signal, sys, time\n"
        "from workbench.cli import main\n"
        "from workbench.cli.evaluate import parser as evaluate\n"  # where eval's is looked up
        "def slow(args):\n"
        "    print('ready', flush=True)\n"
        "    time.sleep(60)\n"
        "    return 0\n"
        "evaluate.cmd_eval = slow\n"
        f"sys.exit(main(['eval', {str(SAMPLES / 'tea-beir')!r}, '-m', 'bm25']))\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "workbench eval: interrupted" in err, err


def test_stale_temporary_files_are_swept_when_a_state_is_written(tmp_path: Path) -> None:
    import os
    import time

    from workbench.core.store.state_file import sweep_stale_temps

    old, fresh, kept = (tmp_path / n for n in (".a.state.x1.tmp", ".b.state.x2.tmp", "c.state"))
    for f in (old, fresh, kept):
        f.write_bytes(b"x")
    long_ago = time.time() - 7 * 3600
    os.utime(old, (long_ago, long_ago))
    os.utime(kept, (long_ago, long_ago))
    sweep_stale_temps(tmp_path)
    assert not old.exists() and fresh.exists() and kept.exists()


def _run_counts(path: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for line in path.read_text().splitlines():
        counts[line.split()[0]] = counts.get(line.split()[0], 0) + 1
    return counts


@pytest.mark.parametrize(("extra", "per_query"), [
    ([], 100), (["--metrics", "ndcg@10,map"], 1000), (["--depth", "7"], 7),
    (["--depth", "30"], 30)])
def test_the_run_files_depth_is_said_and_can_be_set(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
        per_query: int) -> None:
    # every document bm25 scores above 0, per query (151 documents: fewer than 1,000)
    main(["eval", TEA, "-m", "bm25", "--run", str(tmp_path / "all.trec"), "--depth", "1000"])
    matched = _run_counts(tmp_path / "all.trec")
    assert max(matched.values()) > 30 and min(matched.values()) > 7
    run = tmp_path / "r.trec"
    capsys.readouterr()
    assert main(["eval", TEA, "-m", "bm25", "--run", str(run), *extra]) == 0
    assert f"each query's top {per_query:,})" in capsys.readouterr().out
    assert _run_counts(run) == {q: min(per_query, n) for q, n in matched.items()}


def test_depth_without_a_run_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(["eval", TEA, "-m", "bm25", "--depth", "5"], capsys, "--depth", "--run")


def test_an_id_a_run_file_cannot_hold_is_one_error_and_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it was a ValueError traceback after the metrics were printed
    import json
    import shutil

    data = tmp_path / "tea"
    shutil.copytree(TEA, data)
    corpus = data / "corpus.jsonl"
    original = corpus.read_text()
    run = tmp_path / "r.trec"
    corpus.write_text(original.replace('"_id": "d031"', '"_id": "d 031"'))  # ranked
    assert main(["eval", str(data), "-m", "bm25", "--run", str(run)]) == 2
    out, err = capsys.readouterr()
    assert "--run" in err and "'d 031' cannot be written to a TREC file" in err
    assert "Traceback" not in err and not run.exists()
    # said before the work, where it was read (rv2 13: the whole table had been printed, then
    # the error named the run file); a document no query ranks alike, as whether one is
    # ranked changes with the parameters
    line = 1 + original.splitlines().index(next(x for x in original.splitlines()
                                                 if '"_id": "d031"' in x))
    assert f"eval: error: {corpus}:{line}: field '_id': document id 'd 031'" in err, err
    assert "ndcg@10" not in out
    unranked = json.dumps({"_id": "old note", "text": "zzzz qqqq"})
    corpus.write_text(original + unranked + "\n")
    assert main(["eval", str(data), "-m", "bm25", "--run", str(run)]) == 2
    out, err = capsys.readouterr()
    n = original.count("\n") + 1
    assert f"{corpus}:{n}: field '_id': document id 'old note'" in err, err
    assert "ndcg@10" not in out and not run.exists()
    corpus.write_text(original)
    # a query id with a space: said before the work
    queries = data / "queries.jsonl"
    queries.write_text(queries.read_text().replace('"_id": "q01"', '"_id": "q 01"'))
    (data / "qrels" / "test.tsv").write_text(
        (data / "qrels" / "test.tsv").read_text().replace("q01\t", "q 01\t"))
    assert main(["eval", str(data), "-m", "bm25", "--run", str(run)]) == 2
    out, err = capsys.readouterr()
    assert "query id 'q 01'" in err and "ndcg@10" not in out
    assert f"{queries}:1: field '_id': query id 'q 01'" in err


def test_a_note_whose_path_a_run_file_cannot_hold_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    vault = tmp_path / "vault"
    shutil.copytree(SAMPLES / "vault", vault)
    note = vault / "notes" / "cupping-protocol.md"
    renamed = note.with_name("cupping protocol.md")
    note.rename(renamed)
    run = tmp_path / "r.trec"
    assert main(["eval", str(vault), "-m", "vault-search", "--run", str(run)]) == 2
    out, err = capsys.readouterr()
    assert (f"eval: error: {renamed}: document id 'cupping protocol.md' cannot be written to a "
            "TREC file") in err, err
    assert "rename the note, or leave out --run" in err
    assert out == "" and not run.exists()


@pytest.mark.parametrize(("argv", "says"), [
    (["bench", "--scale", "999999999999999"], "--scale: must be at most 10,000,000"),
    (["bench", "--tune", "--trials", "-5"], "--trials: must be at least 1"),
])
def test_bench_sizes_out_of_reach_are_refused(capsys: pytest.CaptureFixture[str],
                                              argv: list[str], says: str) -> None:
    # a numpy allocation error as a traceback; a table of 0 trials and nan rates
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and says in capsys.readouterr().err


def test_one_metric_written_two_ways_is_one_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", TEA, "-m", "bm25", "--metrics", "ndcg@10,ndcg@010,NDCG@10"]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("ndcg@") for line in out.splitlines()) == 1


def test_stored_embeddings_the_data_lacks_are_warned_of(
        capsys: pytest.CaptureFixture[str]) -> None:
    # -p embeddings=stored on data without stored vectors silently scored keywords alone
    story = str(SAMPLES / "story")
    assert main(["eval", story, "-m", "hybrid", "-p", "embeddings=stored"]) == 0
    err = capsys.readouterr().err
    assert ("warning: embeddings=stored, but neither memory nor query of story has a stored "
            "'embedding'") in err
    assert main(["eval", story, "-m", "hybrid"]) == 0
    assert "embeddings=stored" not in capsys.readouterr().err


def test_stored_vectors_need_no_encoder_on_this_machine(
        capsys: pytest.CaptureFixture[str]) -> None:
    """With embeddings=stored the memories' own vectors are read: an encoder that is not here
    (a params file from another machine) refused the command all the same."""
    from tests.conftest import SAMPLES

    assert main(["rank", str(SAMPLES / "story"), "-m", "hybrid", "-p", "embeddings=stored",
                 "-p", "embedding_model=/elsewhere/model", "--query-id", "c26", "--top",
                 "1"]) == 0
    assert main(["rank", str(SAMPLES / "story"), "-m", "hybrid", "-p",
                 "embedding_model=/elsewhere/model", "--query-id", "c26"]) == 2
    assert "no local embedding model" in capsys.readouterr().err


def test_eval_names_its_judgments_and_how_it_reads_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # two tables of one collection, graded and binary (or train and test), read the same
    # but for their query counts; unjudged documents' treatment was said only beside judged@
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--metrics", "ndcg@10"]) == 0
    out = capsys.readouterr().out
    assert ("judgments: split test (qrels/test.tsv), graded 0–2; relevant: grade ≥ 1, nDCG's "
            "gain is the grade, as trec_eval's; a document without a judgment counts as not "
            "relevant") in out
    binary = tmp_path / "binary.tsv"
    binary.write_text("query-id\tcorpus-id\tscore\nq01\td001\t1\n")
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--qrels", str(binary),
                 "--metrics", "ndcg@10"]) == 0
    out = capsys.readouterr().out
    assert f"judgments: {binary}, binary; relevant: grade ≥ 1" in out


def test_eval_says_when_judged_queries_retrieved_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an all-zero table without a word: vault-search on CISI retrieved nothing for any query
    qrels = tmp_path / "q.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq01\td001\t1\nq02\td002\t1\n")
    queries = tmp_path / "queries.jsonl"
    queries.write_text('{"_id": "q01", "text": "zzzz qqqq"}\n{"_id": "q02", "text": "tea"}\n')
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--queries", str(queries),
                 "--qrels", str(qrels)]) == 0
    out = capsys.readouterr().out
    assert "note: 1 of the 2 judged queries retrieved nothing; each counts 0 in every mean " \
           "(as trec_eval -c)" in out


def test_a_run_deeper_than_a_thousand_says_how_trec_eval_reads_map_as_here(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # map and r read the first 1,000; the run written beside r@2000 holds 2,000, which
    # trec_eval reads whole: the two disagreed without a word
    run = tmp_path / "run.trec"
    assert main(["eval", TEA, "-m", "bm25", "--metrics", "map,r@2000", "--run", str(run)]) == 0
    assert ("note: map read each query's first 1,000 results; the run holds 2,000, of which "
            "trec_eval reads all unless given -M 1000") in capsys.readouterr().out
    assert main(["eval", TEA, "-m", "bm25", "--metrics", "map", "--run", str(run)]) == 0
    assert "-M 1000" not in capsys.readouterr().out


def test_dash_is_standard_output_or_refused_never_a_file_named_dash(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # tasks-from-git -o - wrote a file named "-", export -o - a folder named "-"
    monkeypatch.chdir(tmp_path)
    assert main(["tasks-from-git", "--repo", str(SAMPLES / "code-repo"), "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") > 3 and out.lstrip().startswith("{")
    _usage_error(["export", "-m", "decision-memory", "-o", "-"], capsys,
                 "--out -: export --out takes a folder")
    assert not (tmp_path / "-").exists()


def test_a_value_swept_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # both rows were marked best and the line said k1 "makes no difference" over one value
    _usage_error(["sweep", TEA, "-m", "bm25", "-s", "k1", "--values", "0.5,1,0.50"], capsys,
                 "--values 0.5,1,0.50: 0.5 is given twice")


def test_two_bench_modes_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # --scale 10 --embeddings ran --scale only, --gui --scale ran --gui only, unsaid
    _usage_error(["bench", "--scale", "10", "--embeddings"], capsys,
                 "--scale and --embeddings: each is a bench of its own; give one")


@pytest.mark.parametrize(("argv", "said"), [
    (["--texts", "5"], "--texts is an option of bench --embeddings: give --embeddings too"),
    (["--trials", "3"], "--trials is an option of bench --tune: give --tune too"),
    (["--positions", "5"], "--positions is an option of bench --gui: give --gui too"),
    (["--timeout", "60"], "--timeout is an option of bench --gui: give --gui too"),
    (["--task-fraction", "0.5"], "--task-fraction is an option of bench --code: give "
     "--code too"),
    (["--snapshot-every", "0"], "--snapshot-every is an option of bench --code: give --code "
     "too"),
    (["--gui", "--texts", "5"], "--texts is an option of bench --embeddings, not of --gui"),
    (["--code", "some-repo", "--trials", "5"], "--trials is an option of bench --tune, not of "
     "--code"),
    # dr1 5: --tune --quick had run the whole 60-trial study
    (["--tune", "--quick"], "--quick is an option of bench without a mode, not of --tune"),
    (["--embeddings", "--repeats", "3"], "--repeats is an option of bench without a mode and "
     "bench --scale, not of --embeddings"),
    (["--gui", "-m", "dense"], "--model is an option of bench without a mode and bench "
     "--scale, not of --gui"),
    (["--scale", "10", "--quick"], "--quick is an option of bench without a mode, not of "
     "--scale"),
    # dr2 7: a DATA beside a mode that makes its own data had been dropped
    (["--scale", "10", "sample_corpora/tea-beir"], "DATA sample_corpora/tea-beir: bench "
     "--scale does not read it (it makes synthetic data)"),
])
def test_a_bench_option_without_its_mode_is_refused(
        argv: list[str], said: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 7: `bench --texts 5` started the default bench (embedding SciFact first) unsaid
    import workbench.bench.code_selection
    import workbench.bench.embedding_bench
    import workbench.bench.gui_bench
    import workbench.bench.harness
    import workbench.bench.tune_bench

    def ran(*_: object, **__: object) -> int:
        raise AssertionError("a bench ran")

    for module, name in ((workbench.bench.harness, "run_benchmarks"),
                         (workbench.bench.embedding_bench, "run_embedding_bench"),
                         (workbench.bench.tune_bench, "run_tune_bench"),
                         (workbench.bench.gui_bench, "run_gui_bench"),
                         (workbench.bench.code_selection, "run_code_bench")):
        monkeypatch.setattr(module, name, ran)
    _usage_error(["bench", *argv], capsys, said)


@pytest.mark.parametrize("command", ["eval", "sweep", "compare"])
def test_metrics_naming_none_is_refused_not_the_defaults(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    extra = {"sweep": ["-s", "k1", "--values", "1,2"],
             "compare": ["--defaults", "-c", str(_k1_file(tmp_path))]}.get(command, [])
    _usage_error([command, TEA, "-m", "bm25", "--metrics", "", *extra], capsys,
                 "--metrics names no metric")


def _k1_file(tmp_path: Path) -> Path:
    path = tmp_path / "k1.toml"
    path.write_text("k1 = 0.9\n")
    return path


@pytest.mark.parametrize(("extra", "words"), [
    (["--tune", ""], "--tune names no parameter"),
    (["--constraint", "r@100>=2"], "--constraint r@100>=2: r@100 lies between 0 and 1"),
    (["--constraint", "ndcg@10<=-0.5"], "ndcg@10 lies between 0 and 1"),
])
def test_tune_refuses_what_would_run_for_nothing(
        extra: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    # --tune "" tuned the default set unsaid; an unreachable constraint ran every trial first
    _usage_error(["tune", TEA, "-m", "bm25", "--trials", "2", *extra], capsys, words)


@pytest.mark.parametrize(("argv", "words"), [
    (["why-stats", str(SAMPLES / "decisions" / "injections.jsonl"), "-m", "bm25"],
     "--model applies with --live DATA"),
    (["why-stats", "--live", str(SAMPLES / "decisions"), "--last", "5"],
     "--last applies to a log"),
])
def test_why_stats_refuses_what_it_would_ignore(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(argv, capsys, words)


def test_embed_refuses_a_shorthand_and_a_param_that_disagree(
        capsys: pytest.CaptureFixture[str]) -> None:
    # --fields text won over -p fields=title+text without a word
    _usage_error(["embed", TEA, "-m", "dense", "--fields", "text", "-p", "fields=title+text"],
                 capsys, "--fields and -p fields=… give two values")


@pytest.mark.parametrize(("argv", "words"), [
    (["eval", str(SAMPLES / "decisions" / "decisions.jsonl"), "-m", "decision-memory",
      "--split", "bogus"], "--split bogus: "),
    (["eval", str(SAMPLES / "decisions" / "decisions.jsonl"), "-m", "decision-memory",
      "--spl", "dev"], "--split dev: "),  # argparse's abbreviation too
    (["eval", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "--split", "bogus"],
     "--split bogus: "),  # a folder with no qrels/ of splits
    (["eval", TEA, "-m", "bm25", "--split", "dev", "--qrels",
      str(SAMPLES / "tea-beir" / "qrels" / "test.tsv")], "--split dev and --qrels"),
])
def test_a_split_that_would_be_ignored_is_refused(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    _usage_error(argv, capsys, words)


def test_tune_out_dash_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _usage_error(["tune", TEA, "-m", "bm25", "--trials", "2", "-o", "-"], capsys,
                 "--out -: tune prints its report on standard output")
    assert not (tmp_path / "-").exists()


def test_the_judgments_line_names_the_file_the_split_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Cranfield: "split test (qrels/test.binary.tsv)" while test.tsv was read
    import shutil

    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    (folder / "qrels" / "test.binary.tsv").write_text((folder / "qrels" / "test.tsv").read_text())
    assert main(["eval", str(folder), "-m", "bm25", "--metrics", "ndcg@10"]) == 0
    assert "judgments: split test (qrels/test.tsv)," in capsys.readouterr().out


def test_two_outputs_on_standard_output_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # the per-query CSV then the TREC run, one stream no reader of either parses
    _usage_error(["eval", TEA, "-m", "bm25", "--run", "-", "--per-query", "-"], capsys,
                 "one of them can go to standard output")


def test_exports_note_says_where_the_changes_record_went(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # with --out the note still said the record was "below"
    out = tmp_path / "exp"
    assert main(["export", "-m", "decision-memory", "-p", "w_title=1", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"listed in the changes record (written to {out})" in err and "below" not in err


@pytest.mark.parametrize("command", [
    ["eval", TEA, "-m", "bm25", "--params", "{deep}"],
    ["compare", TEA, "-m", "bm25", "--defaults", "-c", "{deep}"],
    ["tune", TEA, "-m", "bm25", "--trials", "1", "--params", "{deep}"],
    ["export", "-m", "hybrid", "--params", "{deep}"],
], ids=["eval", "compare", "tune", "export"])
def test_a_params_file_nested_past_the_parser_is_one_error(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # tomllib parses arrays recursively: 500 levels was a RecursionError traceback
    deep = tmp_path / "deep.toml"
    deep.write_text("# tuned\nk1 = " + "[" * 500 + "]" * 500 + "\n")
    _usage_error([a.replace("{deep}", str(deep)) for a in command], capsys,
                 f"{deep}:2: not valid TOML: arrays or inline tables nested too deeply "
                 "(column 105)")


def test_toml_nesting_is_placed_outside_strings_and_comments() -> None:
    import tomllib

    from workbench.core import toml_text

    text = 'a = "[[[["  # [[[[\nb = ' + "{x = " * 1000 + "1" + "}" * 1000 + "\n"
    with pytest.raises(tomllib.TOMLDecodeError, match=r"nested too deeply \(at line 2, "
                                                      r"column 500\)"):
        toml_text.loads(text)
    assert toml_text.loads('a = [[1], {b = "]"}]') == {"a": [[1], {"b": "]"}]}


def test_a_cache_folder_that_cannot_be_written_is_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # eval cached nothing without a word; embed, whose work is to fill it, exited 0
    blocker = tmp_path / "cache"
    blocker.write_text("")
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(blocker))
    _usage_error(["embed", TEA, "-m", "dense"], capsys,
                 f"the cache folder cannot be written ({blocker} is a file, not a folder)")
    assert main(["eval", TEA, "-m", "bm25"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"warning: the cache folder cannot be written ({blocker} is a file")
    # commands that keep nothing there say nothing, nor refuse a bad cache limit
    monkeypatch.setenv("WORKBENCH_CACHE_LIMIT", "lots")
    assert main(["models"]) == 0 and main(["export", "-m", "decision-memory"]) == 0
    assert "cache" not in capsys.readouterr().err


@pytest.mark.parametrize("encoding, errors", [("cp1252", "strict"),
                                              ("ascii", "surrogateescape")])
def test_an_output_that_is_not_utf8_gets_no_traceback(monkeypatch: pytest.MonkeyPatch,
                                                       encoding: str, errors: str) -> None:
    """PYTHONIOENCODING=cp1252 (or Windows with its output redirected): the "≥" of the
    judgments line raised UnicodeEncodeError; what the encoding lacks is written as "?".
    surrogateescape (PYTHONIOENCODING=ascii:surrogateescape) escapes only surrogates, and
    raised on the "≥" all the same."""
    import io

    from tests.conftest import SAMPLES

    out, err = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding=encoding, errors=errors))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err, encoding=encoding, errors=errors))
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25"]) == 0
    sys.stdout.flush()
    text = out.getvalue().decode(encoding)
    assert "relevant: grade ? 1" in text and "ndcg@10" in text


def test_an_output_under_a_file_names_the_file(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """It said only "Not a directory" (tune's own check: "folder … does not exist")."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    _usage_error(["eval", TEA, "-m", "bm25", "--per-query", str(blocker / "a" / "q.csv")],
                 capsys, f"--per-query {blocker / 'a' / 'q.csv'}: {blocker} is a file, not a "
                 "folder")


def test_a_long_read_is_said(monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    """A 200,000-document corpus read for ten seconds with nothing on stderr. The reader here
    waits until the line was said (the timer's delay set to none), so nothing is timed."""
    import threading

    from workbench.cli import common
    from workbench.core import formats

    said = threading.Event()
    real_say, real_load = common.say_reading, formats.load_dataset

    def say(data: str) -> None:
        real_say(data)
        said.set()

    def slow_load(*args: object, **kwargs: object) -> object:
        assert said.wait(30)
        return real_load(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(common, "LOG_AFTER_S", 0.0)
    monkeypatch.setattr(common, "say_reading", say)
    monkeypatch.setattr(formats, "load_dataset", slow_load)
    assert main(["eval", TEA, "-m", "bm25"]) == 0
    err = capsys.readouterr().err
    # the folder's largest file read, in KiB where it is small (54,931 bytes: "0 MB" had read
    # as empty)
    assert err.startswith(f"reading {TEA} (corpus.jsonl, 54 KiB) …\n"), err


def test_tune_out_under_a_file_names_the_file(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # tune's own check had said "folder …/afile does not exist" of a file that does
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    _usage_error(["tune", TEA, "-m", "bm25", "--trials", "2", "--out",
                  str(blocker / "best.toml")], capsys, f"{blocker} is a file, not a folder")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import tomllib

    from tests.conftest import SAMPLES

    pyproject = tomllib.loads((SAMPLES.parent / "pyproject.toml").read_text(encoding="utf-8"))
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"workbench {pyproject['project']['version']}\n"


def test_an_unknown_metric_lists_every_name_eval_takes(
        capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 16: results, empty and injected_tokens, which eval takes, were not listed
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--metrics", "foo"]) == 2
    err = capsys.readouterr().err
    assert "or a selection figure: results, empty, injected_tokens" in err, err


def test_explain_on_a_repository_that_is_not_there_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 16: "not a git repository (no .git)" of a folder that does not exist
    gone = tmp_path / "nowhere"
    assert main(["explain", "--repo", str(gone), "-m", "codeledger", "--task", "fix"]) == 2
    assert f"--repo {gone}: no such folder" in capsys.readouterr().err
