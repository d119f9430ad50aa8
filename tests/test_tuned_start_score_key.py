"""The starting values' held-out score is written as `held_out_start_score` (review rB 1: named
`held_out_default`, it read as the model's defaults' score beside `held_out_start = "those
given with -p k1=0.3, b=0.1"`); a file or session written before, with `held_out_default`,
still reads."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from workbench.core.params import ParamError
from workbench.core.tuned_on import (
    TunedOn,
    read_tuned_on,
    tuned_from_json,
    tuned_json,
    tuned_toml,
)

RECORD = TunedOn("cisi", "5-fold over 76 queries (seed 0)", ("1", "2"), "ndcg@10", 0.3122,
                 0.3738, 0.002, 76, model="bm25", start="those given with -p k1=0.3, b=0.1")


def _old(path: Path, start_line: str) -> Path:
    path.write_text('[params]\nk1 = 1.8\n\n[tuned]\ndataset = "cisi"\n'
                    'validation = "5-fold over 76 queries (seed 0)"\nmetric = "ndcg@10"\n'
                    f'{start_line}\nheld_out_start = "those given with -p k1=0.3, b=0.1"\n'
                    'held_out_tuned = 0.3738\nheld_out_p = 0.002\nheld_out_queries = 76\n'
                    'model = "bm25"\ntrained_on = ["1", "2"]\n', "utf-8")
    return path


def test_the_start_score_is_written_under_its_own_name(tmp_path: Path) -> None:
    text = "[params]\nk1 = 1.8\n" + tuned_toml(RECORD)
    tuned = tomllib.loads(text)["tuned"]
    assert tuned["held_out_start_score"] == 0.3122 and "held_out_default" not in tuned
    path = tmp_path / "new.toml"
    path.write_text(text, "utf-8")
    record = read_tuned_on(path)
    assert record is not None and record.held_default == 0.3122 and not record.unread
    assert "held_out_default" not in tuned_json(RECORD)
    assert tuned_from_json(tuned_json(RECORD)) == RECORD


def test_a_file_written_before_with_held_out_default_still_loads(tmp_path: Path) -> None:
    record = read_tuned_on(_old(tmp_path / "old.toml", "held_out_default = 0.3122"))
    assert record is not None and not record.unread
    assert (record.held_default, record.held_tuned, record.held_n) == (0.3122, 0.3738, 76)
    # a session file written before
    raw = {**tuned_json(RECORD)}
    raw["held_out_default"] = raw.pop("held_out_start_score")
    assert tuned_from_json(raw).held_default == 0.3122


@pytest.mark.parametrize("key", ["held_out_default", "held_out_start_score"])
def test_a_bad_start_score_is_named_as_the_file_names_it(tmp_path: Path, key: str) -> None:
    with pytest.raises(ParamError, match=rf"old.toml:8: \[tuned\] field '{key}': expected a "
                                         "finite number"):
        read_tuned_on(_old(tmp_path / "old.toml", f"{key} = inf"))
