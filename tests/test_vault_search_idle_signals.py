"""vault-search's signals that are 0 for every pair at the values in use are left out of the
legend, the tables and the breakdowns (review 45 rv1, F10): proximity, which only the
documented variant has, and the clamp while the weights sum to 1 at most (every part is a
weight times a curve in [0, 1]). Each signal left out is checked 0 over every pair."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

from tests.test_vault_search_model import QUERIES, VAULT, dataset
from workbench.core import engine
from workbench.core.models.vault_search import VaultSearchModel

MODEL = VaultSearchModel()
SHIPPED_SUM_1 = {"w_tf": 0.2, "w_position": 0.5, "w_density": 0.3}


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))


def _idle(overrides: Mapping[str, object]) -> tuple[frozenset[str], np.ndarray]:
    """The signals said idle, and every pair's contributions (S, P)."""
    ds = dataset(VAULT, [*QUERIES, "budget meeting", "meeting notes budget"])
    params = engine.resolve_params(MODEL, overrides)
    prepared = engine.prepare(MODEL, ds, params)
    scores = MODEL.combine(prepared, params)
    parts = scores.contributions_of(np.arange(len(scores.docs)))
    return MODEL.idle_signals(prepared, params), parts


@pytest.mark.parametrize(("overrides", "idle"), [
    ({}, {"proximity", "clamp"}),  # shipped, 0.4 + 0.3 + 0.3
    (SHIPPED_SUM_1, {"proximity", "clamp"}),
    ({"w_tf": 1.0}, {"proximity"}),  # 1.6: a clamp can cut
    ({"variant": "documented"}, set()),  # 0.4 + 0.3 + 0.3 + proximity 0.1
    ({"variant": "documented", "w_proximity": 0.0}, {"proximity", "clamp"}),
    ({"variant": "documented", "w_tf": 0.3}, {"clamp"}),  # 0.3 + 0.3 + 0.3 + 0.1
])
def test_the_idle_signals_and_they_are_zero(overrides: dict[str, object],
                                            idle: set[str]) -> None:
    said, parts = _idle(overrides)
    assert said == idle
    for i, name in enumerate(MODEL.signal_names):
        if name in said:
            assert not np.any(parts[i]), name


def test_a_clamp_that_cuts_is_shown() -> None:
    # weights 1 + 1 + 1: "meeting notes" in twin-a.md (every line a match) goes past 1
    said, parts = _idle({"w_tf": 1.0, "w_position": 1.0, "w_density": 1.0})
    assert "clamp" not in said
    assert parts[MODEL.signal_names.index("clamp")].min() < 0


def test_rank_and_explain_leave_them_out(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import SAMPLES
    from workbench.cli import main

    vault = str(SAMPLES / "vault")
    assert main(["rank", vault, "-m", "vault-search", "-q", "bloom", "--top", "2"]) == 0
    header = next(line for line in capsys.readouterr().out.splitlines()
                  if line.startswith("rank "))
    assert header.split() == ["rank", "id", "title", "score", "rel", "tf", "position",
                              "density"]
    assert main(["explain", vault, "-m", "vault-search", "-q", "bloom", "--top", "1"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if "score " in row)
    assert "proximity" not in line and "clamp" not in line and "density" in line
    # the JSON keeps every signal: a reader keys on them
    assert main(["rank", vault, "-m", "vault-search", "-q", "bloom", "--top", "1",
                 "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)["results"][0]
    assert list(first["contributions"]) == list(MODEL.signal_names)
    assert main(["rank", vault, "-m", "vault-search", "-q", "bloom", "--top", "1",
                 "-p", "variant=documented"]) == 0
    # not idle there, only 0 for this one-word query's row: named under the table (rn 13)
    assert "0 in every row above, so not shown: proximity, clamp" in capsys.readouterr().out

