"""dr3 1, 2, 6, 12: whose values a verdict advises is kept as its own field (`verdict_owner`)
and every later sentence is built from it, never parsed back out of the verdict's text (a
name with parentheses had garbled it); whose starting values a run had says -p's values."""

from __future__ import annotations

import tomllib

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
