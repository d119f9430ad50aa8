"""The Tune tab says how far below its mean a kept-start bound was taken in the CLI's words
("at 4.5 standard errors, for 3 training queries"), not "Student's t"."""

from __future__ import annotations

from types import SimpleNamespace

from workbench.gui import tune_results


def test_kept_start_names_the_multiplier() -> None:
    final = SimpleNamespace(top=(7, 0.61), picked=0, train_default=(0.55,), kept_start=True,
                            bound_n=3)
    [line] = tune_results._picked(final, "ndcg@10", "bound")
    assert "at 4.5 standard errors, for 3 training queries" in line
    assert "Student" not in line
