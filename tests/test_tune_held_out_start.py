"""`held_out_default` in a [tuned] record is the starting values' held-out score, which a run
from --params takes at that file's values, not the model's defaults: the record says whose
beside it (`held_out_start`), and every reader says it; files written before still read."""

from __future__ import annotations

import tomllib

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.tuned_on import read_tuned_on, tuned_from_json, tuned_json

TEA = str(SAMPLES / "tea-beir")


def _tune(tmp_path, out, *extra: str) -> None:
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1,b", "--trials", "4", "--folds", "3",
                 "--storage", str(tmp_path / "s.db"), "--out", str(out), *extra]) == 0


def test_the_record_says_whose_starting_values_scored_held_out_default(capsys, tmp_path):
    start = tmp_path / "mine.toml"
    start.write_text("[params]\nk1 = 0.3\nb = 0.99\n", encoding="utf-8")
    ours = tmp_path / "from_file.toml"
    # a poor start and --pick best: values a trial fitted, whose record eval reads (a start
    # kept unchanged is tuned on no query, and eval sets no figures of tune's beside: rv 6)
    _tune(tmp_path, ours, "--params", str(start), "--pick", "best")
    tuned = tomllib.loads(ours.read_text(encoding="utf-8"))["tuned"]
    # k1 0.3, b 0.99's held-out score (the table's "start" column), not the defaults'
    assert tuned["held_out_start"] == "mine.toml's"
    out = capsys.readouterr().out
    row = next(line.split() for line in out.splitlines()
               if line.startswith("ndcg@10 held-out"))
    assert f"{tuned['held_out_start_score']:.4f}" == row[2]
    record = read_tuned_on(ours)
    assert record is not None and record.start == "mine.toml's"
    assert tuned_from_json(tuned_json(record)) == record  # a session file keeps it
    assert main(["eval", TEA, "-m", "bm25", "--params", str(ours), "--metrics", "ndcg@10",
                 "--all-queries"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"starting values (mine.toml's) {row[2]}, tuned {row[3]}" in said
    # from the defaults: said as theirs
    plain = tmp_path / "plain.toml"
    _tune(tmp_path, plain)
    capsys.readouterr()
    assert tomllib.loads(plain.read_text(encoding="utf-8"))["tuned"]["held_out_start"] \
        == "the model's defaults"


def test_a_record_written_before_reads_as_it_did(capsys, tmp_path):
    old = tmp_path / "old.toml"
    old.write_text('[params]\nk1 = 0.9\n\n[tuned]\ndataset = "tea-beir"\nvalidation = "3-fold '
                   'over 25 queries (seed 0)"\nmetric = "ndcg@10"\nheld_out_default = 0.6131\n'
                   'held_out_tuned = 0.6150\nheld_out_p = 0.7\nheld_out_queries = 25\n'
                   'model = "bm25"\ntrained_on = ["q01"]\n', encoding="utf-8")
    record = read_tuned_on(old)
    assert record is not None and record.start == "" and not record.unread
    assert main(["eval", TEA, "-m", "bm25", "--params", str(old), "--metrics", "ndcg@10",
                 "--all-queries"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "starting values 0.6131, tuned 0.6150" in said and "not one this workbench" not in said
