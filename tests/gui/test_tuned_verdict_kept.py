"""A configuration a tuning run advised against keeps saying so while it is applied (review
r49 rt 4: after Switch sliders to an imported 'not recommended' file, only a passing status
message had said it; the cards showed a green training gain beside no held-out figure)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.core.configurations import read_configuration_toml


def test_the_verdict_and_held_out_figures_stay_beside_the_cards(
        window: Any, tmp_path: Path) -> None:
    s = window.session
    s.recompute()
    ds, model = s.dataset, s.model
    ids = ", ".join(f'"{q}"' for q in ds.queries.ids)
    path = tmp_path / "cli_best.toml"
    path.write_text(
        "[params]\n\n[tuned]\n"
        'verdict = "keep the starting values; tuning this way gained nothing held out"\n'
        f'dataset = "{ds.name}"\nvalidation = "3-fold over 25 queries (seed 0)"\n'
        'metric = "ndcg@10"\nheld_out_default = 0.6130609916\n'
        "held_out_tuned = 0.6074165274\nheld_out_p = 0.72\nheld_out_queries = 25\n"
        f"trained_on = [{ids}]\n", encoding="utf-8")
    saved = read_configuration_toml(path, model.id)
    s.configurations.insert(0, saved)
    strip = window.metrics
    assert "not recommended" not in strip.held_note.text()
    window.config_menu.switch_to(saved.name)
    s.recompute()
    assert not strip.held_note.isHidden()
    assert strip.held_note.text().endswith(
        "; tuned held-out: 0.6131 → 0.6074 · not recommended by the run that tuned it"), \
        strip.held_note.text()
    tip = strip.held_note.toolTip()
    assert "not recommended by the run that tuned it — keep the starting values" in tip
    assert "starting values 0.6131, tuned 0.6074" in tip
