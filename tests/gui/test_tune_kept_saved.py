"""A Tune-tab run that keeps the starting values is saved with its record, as `tune --out`
writes one (dr8 3), and keeps the verdict of a start its own run advised against, by the rule
`tune --out` follows (T4)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.test_tune_panel import _run, _session, _settings, _shown_panel
from workbench.core.configurations import configuration_toml
from workbench.core.tuned_on import TunedOn, values_key

# what a k-fold run that advised against k1 2.5, b 0.3 on tea-beir wrote as its verdict
GROUNDS = "tuning this way gained nothing held out (k-fold estimate, ndcg@10 0.6131 → 0.6111)"


def _kept_run(qtbot: QtBot, tmp_path: Path, verdict: str) -> tuple[str, dict[str, object]]:
    """A 2-fold run from k1 2.5, b 0.3 (a saved configuration "flagged" carrying `verdict`)
    that searches k1 in [0, 0.05] only, far below the start: no trial's gain is sure, so the
    start is kept. The saved configuration's TOML and its [tuned] table."""
    s = _session("tea-beir", "bm25")
    ds = s.dataset
    assert ds is not None
    values = {"k1": 2.5, "b": 0.3}
    record = TunedOn(ds.name, "5-fold over 25 queries (seed 0)", ("q01",), "ndcg@10",
                     corpus=ds.corpus.content_key(), model="bm25",
                     values=values_key("bm25", {**s.params, **values}), verdict=verdict)
    s.set_params(values, tuned_on=record)
    s.recompute()
    s.configurations.save("flagged", "bm25", dict(s.params), tuned_on=record)
    panel = _shown_panel(qtbot, s, tmp_path / "s.db")
    _settings(panel, trials=3, validation="kfold", pick="bound")
    panel.settings.folds.setValue(2)
    panel.checklist.rows["k1"].high.setValue(0.05)  # type: ignore[union-attr]
    outcome = _run(qtbot, panel)
    assert outcome.result.final.kept_start, panel.status.text()  # the case under test
    assert not panel.apply_button.isEnabled()
    assert panel.tuned_name == "kept start (nDCG@10)", panel.status.text()
    assert f"saved as the configuration {panel.tuned_name!r}" in panel.status.text()
    text = configuration_toml(s.configurations.get(panel.tuned_name))
    return text, tomllib.loads(text)["tuned"]


def test_a_kept_start_is_saved_with_its_record(qtbot: QtBot, tmp_path: Path) -> None:
    """dr8 3: the run left nothing: Save current and Export wrote no [tuned] record, while
    `tune --out` records the held-out figures and how the run went."""
    text, tuned = _kept_run(qtbot, tmp_path, "")
    assert tuned["kept_trial"] == "start" and tuned["pick"] == "bound"
    # q01, which the start was tuned on, is set aside: 24 of tea-beir's 25 held out
    assert tuned["held_out_queries"] == 24
    assert tuned["held_out_default"] == tuned["held_out_tuned"]
    assert tuned["validation"].startswith("2-fold over 25 queries")
    # whose starting values scored held_out_default: the configuration's, not the defaults'
    assert tuned["held_out_start"] == "the configuration flagged's"
    assert "verdict" not in tuned  # a start with no verdict: none carried
    assert tomllib.loads(text)["params"]["k1"] == 2.5


def test_a_kept_flagged_start_carries_its_verdict(qtbot: QtBot, tmp_path: Path) -> None:
    """T4: kept unchanged from a configuration its run advised against, the values were saved
    clean (nothing was saved at all), where `tune --params FILE --out` carries the verdict."""
    _text, tuned = _kept_run(qtbot, tmp_path, f"keep the starting values; {GROUNDS}")
    assert tuned["verdict"] == (
        "keep the values the configuration flagged's run started from, not these; the "
        f"configuration flagged's run advised against them: {GROUNDS}; a run from the "
        "configuration flagged kept them unchanged")
