"""dr3 1, 2, 6, 12: whose values a verdict advises is kept as its own field (`verdict_owner`)
and every later sentence is built from it, never parsed back out of the verdict's text (a
name with parentheses had garbled it); whose starting values a run had says -p's values."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.tuned_on import (
    TunedOn,
    carry_verdict,
    read_tuned_on,
    tuned_from_json,
    tuned_json,
)

TEA = str(SAMPLES / "tea-beir")
WHY = "tuning this way gained nothing held out (k-fold estimate, ndcg@10 0.6131 → 0.6111)"


def _flagged(path, owner: str = "a (v2).toml's"):
    """A file as tune writes it after a run from `owner`'s values that lost held out."""
    path.write_text(
        f'[params]\nk1 = 2.5\nb = 0.3\n\n[tuned]\nverdict = "keep the starting values ({owner}); '
        f'{WHY}"\nverdict_owner = "{owner}"\ndataset = "tea-beir"\n'
        'validation = "5-fold over 25 queries (seed 0)"\nmetric = "ndcg@10"\n'
        'held_out_default = 0.6131\nheld_out_tuned = 0.6111\nheld_out_p = 0.7\n'
        'held_out_queries = 25\nmodel = "bm25"\ntrained_on = ["q01"]\n', encoding="utf-8")
    return path


def test_an_owner_with_parentheses_is_carried_whole(tmp_path):
    start = read_tuned_on(_flagged(tmp_path / "n1.toml"))
    assert start is not None and start.owner == "a (v2).toml's" and start.why == WHY
    assert tuned_from_json(tuned_json(start)) == start  # a session file keeps it
    note = TunedOn("tea-beir", "5-fold over 25 queries (seed 0)", ("q01",), "ndcg@10")
    kept, how = carry_verdict(note, start, "n1.toml", kept_start=True)
    assert how == "kept"
    assert kept.verdict == ("keep the values n1.toml's run started from (a (v2).toml's), not "
                            f"these; n1.toml's run advised against them: {WHY}; a run from "
                            "n1.toml kept them unchanged")
    assert kept.owner == "a (v2).toml's"


def test_the_note_on_a_flagged_start_says_the_owner_it_records(capsys, tmp_path):
    path = _flagged(tmp_path / "cl4.toml", "cl.toml's")
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--params", str(path), "--storage", str(tmp_path / "s.db")]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert (f"note: the values you start from (cl4.toml) were not recommended by the run that "
            f"tuned them: {WHY}; that run advised keeping the starting values (cl.toml's)") in err
    assert "the model's defaults, unless" not in err


def test_p_over_a_flagged_file_is_said_and_its_verdict_left_aside(capsys, tmp_path):
    path = _flagged(tmp_path / "cl.toml", "the model's defaults")
    out = tmp_path / "pp2.toml"
    assert main(["tune", TEA, "-m", "bm25", "--tune", "b", "--trials", "2", "--folds", "3",
                 "-p", "k1=1.5", "--params", str(path), "--storage", str(tmp_path / "s.db"),
                 "--out", str(out)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "note: cl.toml: -p sets k1 off its values" in err
    tuned = tomllib.loads(out.read_text(encoding="utf-8"))["tuned"]
    # the held-out start figure is of k1 1.5, b 0.3: not cl.toml's values
    assert tuned["held_out_start"] == "cl.toml's with -p k1=1.5"
    assert "cl.toml's run advised" not in tuned.get("verdict", "")


def test_p_values_are_recorded(capsys, tmp_path):
    out = tmp_path / "pflag.toml"
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1,b", "--trials", "2", "--folds", "3",
                 "-p", "k1=1.0", "-p", "b=0.5", "--storage", str(tmp_path / "s.db"),
                 "--out", str(out)]) == 0
    capsys.readouterr()
    tuned = tomllib.loads(out.read_text(encoding="utf-8"))["tuned"]
    assert tuned["held_out_start"] == "those given with -p k1=1.0, b=0.5"


def _neither(path, advice: bool = True):
    """n1.toml as a run from 'a (v2).toml' (whose run advised going back to the model's
    defaults) writes it where its own tuned values lost too: keep neither."""
    path.write_text(
        '[params]\nk1 = 2.5\nb = 0.3\n\n[tuned]\nverdict = "keep neither these values nor '
        "a (v2).toml's, which its run advised against: go back to the model's defaults or "
        f'tune differently; {WHY}"\nverdict_owner = "the model\'s defaults"\n'
        + ('verdict_advice = "keep_neither"\n' if advice else "")
        + 'dataset = "tea-beir"\nvalidation = "5-fold over 25 queries (seed 0)"\n'
        'metric = "ndcg@10"\nheld_out_default = 0.6131\nheld_out_start = "a (v2).toml\'s"\n'
        'held_out_tuned = 0.6111\nheld_out_p = 0.7\nheld_out_queries = 25\nmodel = "bm25"\n'
        'trained_on = ["q01"]\n', encoding="utf-8")
    return path


def test_a_neither_verdict_kept_on_says_where_its_run_started_and_where_to_go(tmp_path):
    """dr6 1: kept unchanged from n1.toml, whose run advised keeping neither its values nor
    a (v2).toml's, the carried verdict said 'the values n1.toml's run started from (the
    model's defaults)': its start was a (v2).toml's; the defaults are where to go back to."""
    for advice in (True, False):  # recorded, or read from a verdict written before it was
        start = read_tuned_on(_neither(tmp_path / "n1.toml", advice))
        assert start is not None and start.advises == "keep_neither" and start.why == WHY
        note = TunedOn("tea-beir", "tuned on 25 queries", ("q01",), "ndcg@10")
        kept, how = carry_verdict(note, start, "n1.toml", kept_start=True)
        assert how == "kept"
        assert kept.verdict == (
            "keep the values n1.toml's run advised going back to (the model's defaults), not "
            "these: it advised keeping neither these nor those it started from "
            f"(a (v2).toml's); {WHY}; a run from n1.toml kept them unchanged")
        assert "started from (the model's defaults)" not in kept.verdict
        assert kept.owner == "the model's defaults"


def test_the_note_on_a_neither_start_says_both(capsys, tmp_path):
    """dr6 1: tune's note said n1.toml's run 'advised keeping the starting values (the
    model's defaults)'; it advised keeping neither, and started from a (v2).toml's."""
    path = _neither(tmp_path / "n1.toml")
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--params", str(path), "--storage", str(tmp_path / "s.db")]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert (f"tuned them: {WHY}; that run advised keeping neither them nor the values it "
            "started from (a (v2).toml's): go back to the model's defaults") in err, err
    assert "keeping the starting values" not in err


def test_the_note_on_a_file_without_owner_says_its_verdict_once(capsys, tmp_path):
    """dr6 7: a file written before the owner was recorded, whose verdict names whose values:
    the note said the verdict, then doubted it ('that run advised the values it started from
    (the model's defaults, unless it too was given --params)')."""
    path = _flagged(tmp_path / "cl.toml", "the model's defaults")
    path.write_text(path.read_text(encoding="utf-8").replace(
        'verdict_owner = "the model\'s defaults"\n', ""), encoding="utf-8")
    assert read_tuned_on(path).owner == ""
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--params", str(path), "--storage", str(tmp_path / "s.db")]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert (f"note: the values you start from (cl.toml) were not recommended by the run that "
            f"tuned them: keep the starting values (the model's defaults); {WHY}") in err, err
    assert "unless it too was given" not in err and err.count("model's defaults") == 1


def test_a_verdict_advice_not_known_is_refused_by_line(tmp_path):
    import pytest

    from workbench.core.params import ParamError

    path = _neither(tmp_path / "n1.toml")
    path.write_text(path.read_text(encoding="utf-8").replace('"keep_neither"', '"keep_all"'),
                    encoding="utf-8")
    with pytest.raises(ParamError, match=r"n1\.toml:8: \[tuned\] field 'verdict_advice': "
                                         r"expected one of 'keep_start', 'keep_neither', "
                                         r"found 'keep_all'"):
        read_tuned_on(path)


CARRIED = ("keep the values n1.toml's run advised going back to (the model's defaults), not "
           "these: it advised keeping neither these nor those it started from (a.toml's); "
           "held-out mrr@10 0.5278 → 0.5000; a run from n1.toml kept them unchanged")


def test_a_carried_verdict_is_headed_by_whose_run_it_was(tmp_path: Path) -> None:
    """dr8 4: n2.toml kept n1.toml's values and its verdict; every reader headed it 'not
    recommended by the run that tuned it', crediting n2's run with n1's advice."""
    n2 = tmp_path / "n2.toml"
    n2.write_text("[params]\nk1 = 1.5\n\n[tuned]\n"
                  f'verdict = "{CARRIED}"\nverdict_owner = "the model\'s defaults"\n'
                  'verdict_from = "n1.toml"\ndataset = "tea-beir"\n'
                  'validation = "tuned on all 25 queries, none held out"\ntrained_on = []\n',
                  encoding="utf-8")
    record = read_tuned_on(n2)
    assert record is not None
    assert record.verdict_text() == (
        "not recommended: n1.toml's run advised against these values, and the run that tuned "
        f"this file kept them — {CARRIED}")
    # a run from n2.toml that keeps its values again names n1.toml's run, not n2.toml's
    n3, how = carry_verdict(replace(record, verdict="", carried=""), record, "n2.toml", True)
    assert how == "kept" and n3.carried == "n1.toml"
    assert n3.verdict_text().startswith("not recommended: n1.toml's run advised against")
    # one written before `verdict_from` was kept: no run named, none credited wrongly
    n2.write_text(n2.read_text(encoding="utf-8").replace('verdict_from = "n1.toml"\n', ""),
                  encoding="utf-8")
    old = read_tuned_on(n2)
    assert old is not None and old.verdict_text().startswith(
        "not recommended: an earlier run advised against these values, and the run that tuned "
        "this file kept them — ")
