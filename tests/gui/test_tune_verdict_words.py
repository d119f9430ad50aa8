"""The Tune tab's held-out line in the CLI's figures and words (review r49 rt 1, rt 8)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

SAMPLES = Path(__file__).resolve().parents[2] / "sample_corpora"


def _result(start: Any, after: Any, objective: str) -> Any:
    from workbench.core.formats import load_dataset
    from workbench.core.metrics.significance import paired_test
    from workbench.core.models import get_model
    from workbench.core.tuning import TuneSpec, kfold
    from workbench.core.tuning.runner import FoldResult, TuneResult
    from workbench.core.tuning.space import build_space

    ds = load_dataset(SAMPLES / "code-repo")  # any data: the line reads the test's figures
    validation = kfold(np.ones(len(ds.queries), bool), 3, 0)
    space = build_space(get_model("decision-memory").schema, ["w_title"])
    fold = FoldResult("fold 1", "s", 10, {"w_title": 2.0}, (0.8,), (0.7,), start, after,
                      top=(3, 0.8), picked=3)
    final = FoldResult("all", "s", 10, {"w_title": 2.0}, (0.8,), (0.7,), after, start,
                       top=(3, 0.8), picked=3)
    return TuneResult(TuneSpec(space, (objective,)), validation, {}, [fold], final,
                      paired_test(start, after))


def test_the_held_out_delta_is_the_difference_of_the_means_shown() -> None:
    """tea-beir, --pick best: the tab read '0.6131 → 0.6074 (−0.0056)' (the exact difference
    rounded) where `workbench tune` printed '0.6131  0.6074  -0.0057'."""
    from workbench.gui.tune_results import verdict

    start = np.full(25, 0.6130609916)
    after = np.full(25, 0.6074165274)
    text = verdict(_result(start, after, "ndcg@10"), "ndcg@10")
    assert "0.6131 → <b>0.6074</b>" in text
    assert "(−0.0057)" in text and "−0.0056" not in text


def test_no_query_moved_is_said_as_the_cli_says_it() -> None:
    """decisions-eval: the tab said 'p = 1 (not significant at 0.05), ▲0 ▼0 =30' where the CLI
    says there is no difference to test; the per-fold line then read a share (0.6667)."""
    from workbench.gui.tune_results import verdict

    start = np.array([1.0] * 20 + [0.0] * 10)
    text = verdict(_result(start, start.copy(), "cases"), "cases")
    assert ("the 30 held-out cases score the same either way (▲0 ▼0): there is no "
            "difference to test") in text
    assert "p = 1" not in text and "not significant" not in text
    assert "20/30 cases → <b>20/30 cases</b>" in text and "(±0)" in text
    assert "tuned, held-out per fold: 67% ± 0% of the cases pass" in text


def test_the_tabs_p_is_worded_as_the_cli_words_it() -> None:
    """dG 6: the tab said "significant at 0.05" where `workbench tune` says "beyond chance"."""
    from types import SimpleNamespace

    from workbench.gui.tune_results import _test_text

    sure = SimpleNamespace(improved=5, worsened=1, n=6, p_value=0.03)
    assert _test_text(sure, "queries") == "p = 0.03 (beyond chance at 0.05)"
    unsure = SimpleNamespace(improved=3, worsened=2, n=5, p_value=0.4)
    assert _test_text(unsure, "queries") == (
        "p = 0.4 (not beyond chance at 0.05: the difference may be chance)")
