"""A Pareto front's trials alike on training are one row; where their held-out scores differ
the row shows their range, not the first trial's alone (review dr3, 7); the kept line says a
cost is traded for a lower one, not "a better results"."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from workbench.cli.tune_report import _print_front


def _point(number: int, train: list[float], held: list[float]) -> dict[str, object]:
    return {"number": number, "train": train, "held_out": held, "params": {"k1": 1.0 + number}}


def test_alike_rows_show_the_range_held_out(capsys: pytest.CaptureFixture[str]) -> None:
    fold = SimpleNamespace(name="fold 1 of 2", picked=0, front=[
        _point(0, [0.8, 6.0], [0.7, 3.0]),
        _point(12, [0.3743, 0.7], [0.4037, 0.6]),  # three alike on training …
        _point(13, [0.3743, 0.7], [0.2217, 0.4]),  # … apart held out
        _point(14, [0.3743, 0.7], [0.3, 0.5]),
    ])
    _print_front(fold, ["ndcg@10", "results"], shipped=False)
    out = capsys.readouterr().out
    row = next(line.split() for line in out.splitlines() if line.startswith("12 "))
    assert row[:6] == ["12", "(+2", "alike)", "0.3743", "0.70", "0.2217–0.4037"]
    assert row[6] == "0.40–0.60"  # results per query to two decimals, as eval
    assert "where they differ held out, the row shows the lowest–highest" in out


def test_the_kept_line_trades_a_cost_for_a_lower_one(capsys: pytest.CaptureFixture[str]) -> None:
    fold = SimpleNamespace(name="all", picked=0, front=[
        _point(0, [0.8, 6.0], []), _point(1, [0.5, 2.0], [])])
    _print_front(fold, ["ndcg@10", "results"], shipped=True)
    out = " ".join(capsys.readouterr().out.split())
    assert "(lower ndcg@10 for lower results)" in out and "a better results" not in out
