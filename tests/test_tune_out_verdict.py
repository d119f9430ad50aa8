"""What `tune --out` writes about how the values were found and whether the run advises them
(review rb 1, 4, 5, 9)."""

from __future__ import annotations

import re
import tomllib
from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.params import ParamError, load_params_file
from workbench.core.tuned_on import read_tuned_on, tuned_from_json, tuned_json

TEA = str(SAMPLES / "tea-beir")
WHOSE = "(those the run that tuned it started from)"


def _tune(capsys, tmp_path, *extra: str) -> tuple[int, str, str]:
    code = main(["tune", TEA, "-m", "bm25", "--storage", str(tmp_path / "s.db"), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def _held_out_row(out: str) -> list[str]:
    return next(line.split() for line in out.splitlines() if line.startswith("ndcg@10 held-out"))


def test_values_the_run_advises_against_are_written_and_say_so(capsys, tmp_path):
    """k1 and b, 6 trials, 3 folds, --pick best: held out, the tuned values score lower than
    the defaults, so tune says "keep the starting values"; the file holds them, as asked,
    and says in its own terms that they are not recommended."""
    out_file = tmp_path / "best.toml"
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--trials", "6", "--folds", "3",
                           "--pick", "best", "--out", str(out_file))
    assert code == 0, err
    row = _held_out_row(out)
    start, tuned = row[2], row[3]
    assert float(tuned) < float(start)  # the case under test: a loss held out
    assert "keep the starting values" in out
    text = out_file.read_text()
    # k-fold: the values written were tuned on all 25; the figures estimate tuning this way
    # (dr1 5: "these values gain nothing … on queries they were not tuned on")
    # one clause after another, no parenthesis in another (dr5 6)
    gained = f"tuning this way gained nothing held out (k-fold estimate, ndcg@10 {start} → {tuned})"
    # the figures once, on the held-out line below the head (dr9 6)
    assert text.startswith("# NOT RECOMMENDED: tuning this way gained nothing held out (k-fold "
                           "estimate) — keep the starting values (the model's defaults); the "
                           "verdict in [tuned] says so too\n")
    assert text.count(f"{start} → {tuned}") == 1  # the verdict's; the head says it as a line
    assert "these values" not in text
    # whose starting values: the model's defaults here (T5)
    verdict = f"keep the starting values (the model's defaults); {gained}"
    assert tomllib.loads(text)["tuned"]["verdict"] == verdict
    assert set(load_params_file(out_file)) == {"k1", "b"}  # the tuned values, written
    record = read_tuned_on(out_file)
    assert record is not None and record.verdict == verdict
    closing = " ".join(out.split())
    assert f"tuned parameters written to {out_file}, but not recommended: {gained}" in closing
    assert "use: --params" not in closing
    # whose, as the summary names them (dr3 11: 'those tune started from, not this file's')
    assert "keep the starting values (the model's defaults), or tune fewer" in closing
    # a file that still reads as settings: eval takes it
    assert main(["eval", TEA, "-m", "bm25", "--params", str(out_file)]) == 0


REPO = str(SAMPLES / "code-repo")


def test_a_time_split_verdict_speaks_of_these_values(capsys, tmp_path):
    """A time split scores the values written on the newer tasks: "these values" it is."""
    out_file = tmp_path / "t.toml"
    code = main(["tune", REPO, "-m", "codeledger", "--metric", "ndcg@10", "--trials", "15",
                 "--pick", "best", "--storage", str(tmp_path / "s.db"), "--out", str(out_file)])
    out = capsys.readouterr().out
    assert code == 0
    row = _held_out_row(out)
    assert float(row[3]) < float(row[2])  # the case under test: a loss held out
    assert out_file.read_text().startswith(
        "# NOT RECOMMENDED: these values gain nothing over the starting values on tasks they "
        "were not tuned on — keep the starting values (the model's defaults); "
        "the verdict in [tuned] says so too\n")
    assert tomllib.loads(out_file.read_text())["tuned"]["verdict"] == (
        f"keep the starting values (the model's defaults); held-out ndcg@10 {row[2]} → {row[3]}")


def test_an_unchanged_held_out_score_is_no_verdict(capsys, tmp_path):
    """dr1 4: the one held-out task at ndcg@10 1.0 either way (no difference to test, and tune
    advised nothing) had the file say NOT RECOMMENDED; now no verdict, a neutral line."""
    out_file = tmp_path / "t.toml"
    # seed 1: a run whose best trial beats the start on the tuned tasks (at seed 0, since
    # tune leaves the bundle's cut-offs out of an ndcg@10 search (5bab89b), none does and the
    # start is kept, which is another case, tested above)
    code = main(["tune", REPO, "-m", "codeledger", "--time-split", "0.9", "--metric", "ndcg@10",
                 "--trials", "8", "--seed", "1", "--pick", "best", "--storage",
                 str(tmp_path / "s.db"), "--out", str(out_file)])
    out = capsys.readouterr().out
    assert code == 0
    row = _held_out_row(out)
    assert row[2] == row[3] == "1.0000"  # the case under test: the same held out
    assert "keep the starting values" not in out and "not recommended" not in out
    # one query, said as one (dr5 7: "the 1 held-out queries score the same")
    assert "the 1 held-out task scores the same either way (▲0 ▼0)" in " ".join(out.split())
    text = out_file.read_text()
    assert "NOT RECOMMENDED" not in text and "verdict" not in tomllib.loads(text)["tuned"]
    assert ("# no held-out evidence either way: the 1 held-out task scores the same mean at "
            "the starting and the tuned values") in text
    assert "(p = 1.000, 1 task)" in text


def test_values_that_gain_held_out_carry_no_verdict(capsys, tmp_path):
    out_file = tmp_path / "best.toml"
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b,variant", "--trials", "6",
                           "--folds", "3", "--pick", "best", "--out", str(out_file))
    assert code == 0, err
    row = _held_out_row(out)
    assert float(row[3]) > float(row[2])  # the case under test: a gain held out
    text = out_file.read_text()
    assert "NOT RECOMMENDED" not in text and "verdict" not in tomllib.loads(text)["tuned"]
    assert f"(use: --params {out_file})" in " ".join(out.split())


def test_the_file_records_how_the_values_were_found(capsys, tmp_path):
    out_file = tmp_path / "best.toml"
    before = datetime.now(UTC).replace(microsecond=0)
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b,variant", "--trials", "6",
                           "--folds", "3", "--pick", "best", "--seed", "3",
                           "--out", str(out_file))
    assert code == 0, err
    tuned = tomllib.loads(out_file.read_text())["tuned"]
    assert tuned["pick"] == "best" and tuned["sampler"] == "tpe" and tuned["seed"] == 3
    assert tuned["trials"] == {"fold 1 of 3": 6, "fold 2 of 3": 6, "fold 3 of 3": 6, "all": 6}
    assert tuned["searched"] == ["k1", "b", "variant"]
    # bm25's own ranges and choices (its schema: k1 in [0, 3], b in [0, 1], each on a step
    # of 0.05, as the plan says "k1 [0, 3] step 0.05": dr1 10)
    assert tuned["ranges"]["k1"] == {"low": 0.0, "high": 3.0, "step": 0.05}
    assert tuned["ranges"]["b"] == {"low": 0.0, "high": 1.0, "step": 0.05}
    assert "k1 [0, 3] step 0.05" in out
    assert tuned["ranges"]["variant"] == ["lucene", "robertson", "atire"]
    from workbench import __version__

    assert tuned["workbench_version"] == __version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", tuned["created"])
    created = datetime.strptime(tuned["created"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert before <= created <= datetime.now(UTC) + timedelta(seconds=1)
    # the trial kept, named in the report as in the file
    kept = tuned["kept_trial"]
    assert isinstance(kept, int)
    assert re.search(rf"all: kept trial {kept} \(ndcg@10 [0-9.]+\), the highest training mean",
                     " ".join(out.split()))
    # that trial's values are those written: the study holds them
    import optuna

    study = next(s for s in optuna.get_all_study_summaries(f"sqlite:///{tmp_path / 's.db'}")
                 if s.study_name.endswith("/all"))
    trial = optuna.load_study(study_name=study.study_name,
                              storage=f"sqlite:///{tmp_path / 's.db'}").trials[kept]
    written = load_params_file(out_file)
    scored = trial.user_attrs["scored"]  # the values on the sliders' steps, as scored
    assert {k: scored[k] for k in ("k1", "b", "variant")} == {
        "k1": written["k1"], "b": written["b"], "variant": written.get("variant", "lucene")}


def test_a_kept_start_is_recorded_as_such(capsys, tmp_path):
    out_file = tmp_path / "t.toml"
    code, out, err = _tune(capsys, tmp_path, "--trials", "5", "--folds", "3", "--out",
                           str(out_file))
    assert code == 0, err
    assert "the starting values written to" in out
    tuned = tomllib.loads(out_file.read_text())["tuned"]
    assert tuned["kept_trial"] == "start" and tuned["pick"] == "bound"
    assert "verdict" not in tuned  # nothing tuned to advise against


def test_a_verdict_that_is_not_text_is_one_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[params]\nk1 = 1.0\n\n[tuned]\ndataset = "tea-beir"\nverdict = 3\n'
                   'trained_on = []\n')
    with pytest.raises(ParamError, match=rf"{re.escape(str(bad))}:6: \[tuned\] field 'verdict'"
                                         ": expected a string"):
        read_tuned_on(bad)


def test_the_windows_configuration_record_keeps_the_verdict():
    """The window saves the values it tuned as a configuration with this record (`of_result`
    fills the verdict for both faces); a session file keeps it."""
    from workbench.core.tuned_on import TunedOn

    record = TunedOn("tea-beir", "3-fold over 25 queries (seed 0)", ("q01",), "ndcg@10",
                     0.6131, 0.6083, 0.7, 25, verdict="keep the starting values: held-out "
                     "ndcg@10 0.6131 → 0.6083")
    assert tuned_from_json(tuned_json(record)) == record
    assert "verdict" not in tuned_json(TunedOn("tea-beir", "", ()))


def _advised_against(path):
    """A file as tune writes it after a k-fold run that advised against its values."""
    path.write_text(
        '[params]\nk1 = 2.5\nb = 0.3\n\n[tuned]\nverdict = "keep the starting values: tuning '
        'this way gained nothing on held-out queries (k-fold estimate: held-out ndcg@10 0.6131 '
        '→ 0.6111)"\ndataset = "tea-beir"\nvalidation = "5-fold over 25 queries (seed 0)"\n'
        'metric = "ndcg@10"\nheld_out_default = 0.6131\nheld_out_tuned = 0.6111\n'
        'held_out_p = 0.7\nheld_out_queries = 25\nmodel = "bm25"\ntrained_on = ["q01"]\n',
        encoding="utf-8")
    return path


# a file written before dr5 6: its verdict as it was worded, in no parenthesis of the reader's
# whose starting values said by the reader where the file does not (T5)
VERDICT_LINE = ("not recommended by the run that tuned it — keep the starting values "
                f"{WHOSE}: tuning this "
                "way gained nothing on held-out queries (k-fold estimate: held-out ndcg@10 "
                "0.6131 → 0.6111)")


def test_every_reader_of_the_file_says_its_verdict(capsys, tmp_path):
    """dr1 8: only tune said it; eval, compare, report and the window's import were silent."""
    from workbench.core.configurations import read_configuration_toml

    path = _advised_against(tmp_path / "w2.toml")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(path), "--metrics", "ndcg@10"]) == 0
    assert f"note: 'w2.toml': {VERDICT_LINE}" in " ".join(capsys.readouterr().out.split())
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(path),
                 "--metrics", "ndcg@10"]) == 0
    assert f"'w2': {VERDICT_LINE}" in " ".join(capsys.readouterr().out.split())
    page = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(path),
                 "--metrics", "ndcg@10", "-o", str(page)]) == 0
    assert VERDICT_LINE in " ".join(page.read_text(encoding="utf-8").split())
    said: list[str] = []
    read_configuration_toml(path, "bm25", said=said)
    assert said == [VERDICT_LINE]
    # other values than the file's (-p): the verdict was of the file's
    assert main(["eval", TEA, "-m", "bm25", "--params", str(path), "-p", "k1=1.0",
                 "--metrics", "ndcg@10"]) == 0
    assert "not recommended" not in capsys.readouterr().out


RUN_KEYS = ("pick", "sampler", "seed", "trials", "kept_trial", "searched", "ranges",
            "workbench_version", "created")


def test_the_windows_import_and_export_keep_how_the_values_were_found(capsys, tmp_path):
    """dr1 10: import → export had kept the verdict and dropped the run's keys and the NOT
    RECOMMENDED header; a session file keeps them too."""
    from workbench.core.configurations import configuration_toml, read_configuration_toml

    out_file = tmp_path / "best.toml"
    code, _out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--trials", "6", "--folds", "3",
                           "--pick", "best", "--out", str(out_file))
    assert code == 0, err
    written = tomllib.loads(out_file.read_text())["tuned"]
    assert written["verdict"]  # the case under test (as in the first test)
    saved = read_configuration_toml(out_file, "bm25")
    again = tmp_path / "again.toml"
    again.write_text(configuration_toml(saved))
    text = again.read_text()
    kept = tomllib.loads(text)["tuned"]
    assert {k: kept[k] for k in RUN_KEYS} == {k: written[k] for k in RUN_KEYS}
    assert kept["verdict"] == written["verdict"]
    assert text.startswith(f"# NOT RECOMMENDED by the run that tuned it — {written['verdict']}; "
                           "the verdict in [tuned] says so too\n")
    assert tuned_from_json(tuned_json(saved.tuned_on)) == saved.tuned_on
    assert read_tuned_on(again) == saved.tuned_on  # read back: the same record


def test_tune_from_such_a_file_and_export_of_it_say_what_eval_says(capsys, tmp_path):
    """dr5 4: tune --params and export read a file with unknown [tuned] fields and a verdict
    without a word of either (eval, compare, report and the window's import say both)."""
    path = _advised_against(tmp_path / "tbu.toml")
    path.write_text(path.read_text(encoding="utf-8")
                    + "future_field = 3\nmystery = 1979-05-27T07:32:00Z\n", encoding="utf-8")
    unread = (f"{path}:16: [tuned] fields 'future_field', 'mystery': not one this workbench")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(path), "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert unread in said and f"'tbu.toml': {VERDICT_LINE}" in said  # what eval says
    code, _out, err = _tune(capsys, tmp_path, "--tune", "k1", "--trials", "3", "--folds", "2",
                            "--params", str(path), "--out", str(tmp_path / "from.toml"))
    assert code == 0, err
    err = " ".join(err.split())
    assert err.count(unread) == 1
    # "keep the starting values" would read as "keep tbu.toml", this run's start (dr7 1)
    assert err.count("note: the values you start from (tbu.toml) were not recommended by the "
                     "run that tuned them: tuning this way gained nothing on held-out queries "
                     "(k-fold estimate: held-out ndcg@10 0.6131 → 0.6111); that run advised "
                     "keeping the values it started from") == 1
    assert "keep the starting values" not in err
    # export: a CodeLedger file (export writes no bm25 settings), the unknown field a note
    # and the verdict the warning, with what it rests on
    cl = tmp_path / "cl.toml"
    cl.write_text('[params]\nw_keyword = 0.36\n\n[tuned]\nverdict = "keep the starting values: '
                  'held-out ndcg@10 0.6098 → 0.5099"\ndataset = "code-repo"\nmetric = "ndcg@10"\n'
                  'held_out_default = 0.6098\nheld_out_tuned = 0.5099\nheld_out_p = 0.125\n'
                  'held_out_queries = 6\nmodel = "codeledger"\ntrained_on = ["c45484912fc"]\n'
                  'future_field = 3\n', encoding="utf-8")
    assert main(["export", "--model", "codeledger", "--params", str(cl)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert (f"note: {cl}:14: [tuned] field 'future_field': not one this workbench") in err
    assert ("warning: 'cl.toml': not recommended by the run that tuned it — keep the starting "
            f"values {WHOSE}: held-out ndcg@10 0.6098 → 0.5099 (p = 0.125, 6 held-out queries); "
            "exported all the same") in err
    assert "did worse" not in err  # the same figures, not said twice


def test_a_run_that_keeps_a_flagged_files_values_carries_its_verdict(capsys, tmp_path):
    """dr7 1: a short tune from a file its run advised against kept its values and wrote them
    with no verdict and no NOT RECOMMENDED line, so eval, compare and export said nothing."""
    path = _advised_against(tmp_path / "flagged.toml")
    out_file = tmp_path / "kept.toml"
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1", "--trials", "2", "--folds", "2",
                           "--params", str(path), "--out", str(out_file))
    assert code == 0, err
    text = out_file.read_text(encoding="utf-8")
    tuned = tomllib.loads(text)["tuned"]
    assert tuned["kept_trial"] == "start"  # the case under test: flagged.toml's values kept
    assert load_params_file(out_file) == {"k1": 2.5, "b": 0.3}
    # the values to keep named as flagged.toml's run's, not "that run's", which read as the
    # run that wrote kept.toml (dr9 4); one parenthesis, none inside another (dr9 7)
    assert tuned["verdict"] == (
        "keep the values flagged.toml's run started from, not these; flagged.toml's run "
        "advised against them: tuning this way gained nothing on held-out queries (k-fold "
        "estimate: held-out ndcg@10 0.6131 → 0.6111); a run from flagged.toml kept them "
        "unchanged")
    assert text.startswith(f"# NOT RECOMMENDED: {tuned['verdict']}; the verdict in [tuned] "
                           "says so too\n")
    assert "not recommended, as flagged.toml's run advised" in " ".join(out.split())
    assert main(["eval", TEA, "-m", "bm25", "--params", str(out_file),
                 "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    # whose run the advice was, not the run that only kept it (dr8 4)
    assert ("'kept.toml': not recommended: flagged.toml's run advised against these values, "
            "and the run that tuned this file kept them — keep the values flagged.toml's run "
            "started from, not these;") in said
    # tuned again from the written file, and kept again: the verdict goes on as it was
    again = tmp_path / "again.toml"
    code, _out, err = _tune(capsys, tmp_path, "--tune", "k1", "--trials", "2", "--folds", "2",
                            "--params", str(out_file), "--out", str(again))
    assert code == 0, err
    assert tomllib.loads(again.read_text(encoding="utf-8"))["tuned"]["verdict"] \
        == tuned["verdict"]


def _nested(text: str) -> bool:
    """Whether `text` has a parenthesis inside another."""
    depth = 0
    for c in text:
        depth += (c == "(") - (c == ")")
        if depth > 1:
            return True
    return False


def _flagged_repo_file(capsys, tmp_path):
    """cl2.toml of dr9 2: a time split's --pick best run over 7 weights whose values lose
    held out (written NOT RECOMMENDED)."""
    flagged = tmp_path / "cl2.toml"
    code = main(["tune", REPO, "-m", "codeledger", "--time-split", "0.5", "--pick", "best",
                 "--metric", "ndcg@10", "--tune", CL_WEIGHTS, "--trials", "30", "--seed", "1",
                 "--storage", str(tmp_path / "s.db"), "--out", str(flagged)])
    capsys.readouterr()
    assert code == 0
    verdict = tomllib.loads(flagged.read_text(encoding="utf-8"))["tuned"]["verdict"]
    ours = "keep the starting values (the model's defaults); "
    assert verdict.startswith(ours + "held-out ndcg@10 ")  # the case
    return flagged, verdict.removeprefix(ours)


CL_WEIGHTS = ("w_keyword,w_centrality,w_churn,w_recent_touch,w_test_relevance,w_size_penalty,"
              "sufficiency")


def test_values_moved_from_a_flagged_file_keep_its_verdict(capsys, tmp_path):
    """dr9 2: a run from a file its run advised against moved the values one step and wrote a
    clean file, its held-out figures against that file's values only; eval and export were
    silent. Now its verdict says where they started and what they were compared with."""
    flagged, grounds = _flagged_repo_file(capsys, tmp_path)
    moved = tmp_path / "cl_chg.toml"
    # seed 5: trials whose weights beat the start's (sufficiency, which nDCG@10 does not read,
    # now stays at its start, dr2 1: seed 1's draws no longer beat it; cl2.toml's weights that
    # tie its training nDCG put back to their starts, rv53 d: seed 2's no longer do)
    code = main(["tune", REPO, "-m", "codeledger", "--time-split", "0.5", "--pick", "best",
                 "--metric", "ndcg@10", "--tune", CL_WEIGHTS, "--trials", "20", "--seed", "5",
                 "--params", str(flagged), "--storage", str(tmp_path / "s.db"),
                 "--out", str(moved)])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0
    text = moved.read_text(encoding="utf-8")
    tuned = tomllib.loads(text)["tuned"]
    assert tuned["kept_trial"] != "start"  # the case under test: the values moved
    verdict = ("started from cl2.toml's values, which the run that tuned them advised against: "
               f"{grounds}; tune compared these only with cl2.toml's values, not with the "
               "model's defaults")
    assert tuned["verdict"] == verdict
    assert text.startswith(f"# NOT RECOMMENDED as they stand: these values {verdict}; the "
                           "verdict in [tuned] says so too\n")
    assert "(use: --params" not in out and f"they {verdict}" in out
    assert main(["eval", REPO, "-m", "codeledger", "--params", str(moved),
                 "--metrics", "ndcg@10"]) == 0
    # cl2.toml's run gave the advice, not the run that wrote cl_chg.toml (dr8 4)
    assert ("'cl_chg.toml': not recommended: cl2.toml's run advised against the values the run "
            f"that tuned this file started from — {verdict}"
            in " ".join(capsys.readouterr().out.split()))
    assert main(["export", "--model", "codeledger", "--params", str(moved)]) == 0
    assert f"{verdict}; the run that wrote it: " in " ".join(capsys.readouterr().err.split())


def test_export_gives_each_runs_figures_with_their_own_p(capsys, tmp_path):
    """dr9 3: export said a kept file's inherited figures (the first run's 0.6098 → 0.3464,
    p = 0.062) with the second run's p = 1.000, as if the drop were chance; and the
    inherited verdict nested one parenthesis in another (dr9 7)."""
    flagged, grounds = _flagged_repo_file(capsys, tmp_path)
    kept = tmp_path / "cl_keep.toml"
    code = main(["tune", REPO, "-m", "codeledger", "--time-split", "0.5", "--metric", "ndcg@10",
                 "--tune", CL_WEIGHTS, "--trials", "5", "--seed", "1", "--params", str(flagged),
                 "--storage", str(tmp_path / "s.db"), "--out", str(kept)])
    capsys.readouterr()
    assert code == 0
    tuned = tomllib.loads(kept.read_text(encoding="utf-8"))["tuned"]
    assert tuned["kept_trial"] == "start"  # the case under test: cl2.toml's values kept
    assert main(["export", "--model", "codeledger", "--params", str(kept)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    warning = next(line for line in err.split(" note: ") if "cl_keep.toml" in line)
    assert f"{grounds}; a run from cl2.toml kept them unchanged; the run that wrote it: " \
        "held-out ndcg@10 start " in warning
    assert f"{grounds} (p =" not in warning and "unchanged (p =" not in warning
    assert not _nested(warning) and not _nested(tuned["verdict"])


def test_export_out_keeps_the_verdict_in_its_record_of_changes(capsys, tmp_path):
    """dr7 2: export --out wrote codeledger.changes.json with no sign of the verdict, said
    only on stderr; config.json, CodeLedger's own JSON, takes no field of ours."""
    import json

    cl = tmp_path / "cl.toml"
    cl.write_text('[params]\nw_keyword = 0.36\n\n[tuned]\nverdict = "keep the starting values; '
                  'held-out ndcg@10 0.6098 → 0.5099"\ndataset = "code-repo"\nmetric = "ndcg@10"\n'
                  'held_out_default = 0.6098\nheld_out_tuned = 0.5099\nheld_out_p = 0.125\n'
                  'held_out_queries = 6\nmodel = "codeledger"\ntrained_on = ["c45484912fc"]\n',
                  encoding="utf-8")
    out = tmp_path / "exo"
    assert main(["export", "--model", "codeledger", "--params", str(cl), "--out", str(out)]) == 0
    capsys.readouterr()
    record = json.loads((out / ".codeledger" / "codeledger.changes.json").read_text())
    assert record["not_recommended"] == ("cl.toml: not recommended by the run that tuned it — "
                                         f"keep the starting values {WHOSE}; held-out "
                                         "ndcg@10 0.6098 → "
                                         "0.5099")
    config = (out / ".codeledger" / "config.json").read_text()
    assert "recommended" not in config and "verdict" not in config
    # a file with no verdict: no such field
    cl.write_text(cl.read_text(encoding="utf-8").replace('verdict = "', 'note = "'),
                  encoding="utf-8")
    assert main(["export", "--model", "codeledger", "--params", str(cl), "--out", str(out)]) == 0
    capsys.readouterr()
    assert "not_recommended" not in (out / ".codeledger" / "codeledger.changes.json").read_text()


def test_the_verdict_under_the_held_out_note_gives_no_figures_again(capsys, tmp_path):
    """dr7 4: compare said 0.6131 and 0.6113 in its held-out note and again in the verdict
    on the next line."""
    path = _advised_against(tmp_path / "w5.toml")
    path.write_text(path.read_text(encoding="utf-8").replace(
        'trained_on = ["q01"]', "trained_on = [" + ", ".join(
            f'"q{i:02d}"' for i in range(1, 26)) + "]"), encoding="utf-8")
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(path),
                 "--metrics", "ndcg@10"]) == 0
    out = capsys.readouterr().out.replace("\n  ", " ")  # a wrapped line joined
    notes = [line.removeprefix("note: ") for line in out.splitlines()
             if line.startswith("note: ")]
    held = next(n for n in notes if n.startswith("'w5': tune's held-out ndcg@10"))
    assert "starting values 0.6131, tuned 0.6111" in held
    verdict = next(n for n in notes if n.startswith("'w5': not recommended"))
    assert verdict.startswith("'w5': not recommended by the run that tuned it — keep the "
                              f"starting values {WHOSE}: tuning this way gained nothing on "
                              "held-out queries")
    assert "0.6131" not in verdict and "0.6111" not in verdict


def test_unknown_fields_keep_their_toml_dates_and_times(tmp_path):
    """dr5 5: the window's export wrote an unknown field's datetime back as a string."""
    from workbench.core.configurations import configuration_toml, read_configuration_toml

    fields = ("stamp = 1979-05-27T07:32:00Z\nshifted = 1979-05-27T00:32:00.999999-07:00\n"
              "local = 1979-05-27T07:32:00\nday = 1979-05-27\nhour = 07:32:00.5\n"
              "many = [1979-05-27, 2026-11-29]\n")
    path = _advised_against(tmp_path / "d.toml")
    path.write_text(path.read_text(encoding="utf-8") + fields, encoding="utf-8")
    written = tomllib.loads(path.read_text(encoding="utf-8"))["tuned"]
    again = tmp_path / "again.toml"
    again.write_text(configuration_toml(read_configuration_toml(path, "bm25")), encoding="utf-8")
    kept = tomllib.loads(again.read_text(encoding="utf-8"))["tuned"]
    for key in ("stamp", "shifted", "local", "day", "hour", "many"):
        assert kept[key] == written[key] and type(kept[key]) is type(written[key]), key
    assert "stamp = 1979-05-27T07:32:00Z\n" in again.read_text(encoding="utf-8")


def test_a_runs_own_verdict_from_a_file_names_whose_starting_values(capsys, tmp_path):
    """T5, dr9 9: a run from a flagged file whose own tuned values lose held out advised 'keep
    the starting values': that file's values, the ones its run advised against; said now."""
    path = _advised_against(tmp_path / "fl.toml")
    out_file = tmp_path / "own.toml"
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--trials", "6", "--folds",
                           "3", "--pick", "best", "--seed", "1", "--params", str(path),
                           "--out", str(out_file))
    assert code == 0, err
    # dr3 8: not "keep the starting values (fl.toml's)", the values fl.toml's run advised
    # against, but neither, in the terminal, the file and every reader alike; fl.toml records
    # no owner (written before it did): the values its run started from
    # its grounds said once, at the end, and no "this run" for a reader who ran none (dr6 4)
    advice = ("keep neither these values nor fl.toml's, which its run advised against: go "
              "back to the values fl.toml's run started from or tune differently")
    assert f"— {advice}; tuning this way gained" in " ".join(out.split())
    assert "keep the starting values (fl.toml's)" not in " ".join(out.split())
    text = out_file.read_text(encoding="utf-8")
    verdict = tomllib.loads(text)["tuned"]["verdict"]
    assert verdict.startswith(f"{advice}; tuning this way gained nothing held out (k-fold "
                              "estimate, ndcg@10 "), verdict
    assert verdict.count("gained nothing") == 1 and "this run" not in verdict
    assert text.startswith("# NOT RECOMMENDED: tuning this way gained nothing held out (k-fold "
                           f"estimate) — {advice}; the verdict in [tuned] says so too\n")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(out_file),
                 "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"'own.toml': not recommended by the run that tuned it — {advice};" in said
