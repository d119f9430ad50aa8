"""Configurations ▸ Export current as params TOML… (review r49 rt 3, rt 2, rt 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QWidget


def _export(window: Any, monkeypatch: pytest.MonkeyPatch, path: Path) -> str:
    def file_dialog(parent: QWidget, title: str, *a: object, **k: object) -> tuple[str, str]:
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(file_dialog))
    window.config_menu.export_toml.trigger()
    return path.read_text(encoding="utf-8")


def test_export_current_names_the_configuration_last_saved_or_switched_to(
        window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Apply anyway saved 'tuned on nDCG@10'; Save current as… 'engineer handoff' then saved
    the same values; Export current wrote "# configuration 'tuned on nDCG@10'"."""
    s = window.session
    s.recompute()
    s.save_configuration("tuned on nDCG@10")
    s.save_configuration("engineer handoff")
    text = _export(window, monkeypatch, tmp_path / "a.toml")
    assert "# configuration 'engineer handoff'" in text
    window.config_menu.switch_to("tuned on nDCG@10")  # the same values, chosen again
    text = _export(window, monkeypatch, tmp_path / "b.toml")
    assert "# configuration 'tuned on nDCG@10'" in text


def test_an_all_defaults_export_writes_the_values(
        window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A run that kept the starting values, then Save current as… and Export: the file held an
    empty [params], where `tune --out` writes k1 = 1.2, b = 0.75, variant = "lucene"."""
    s = window.session
    s.set_model("bm25")
    s.recompute()
    s.save_configuration("my tea tuned")
    text = _export(window, monkeypatch, tmp_path / "d.toml")
    params = text.split("[params]\n")[1]
    assert params.startswith('k1 = 1.2\nb = 0.75\nvariant = "lucene"\n'), text
    assert "# every parameter is at the model's default" in text


def test_a_tune_runs_configuration_exports_how_it_was_searched(
        qtbot: Any, tmp_path: Path) -> None:
    """The window's file lacked the [tuned] keys `tune --out` writes (pick, sampler, seed …)
    and its header the validation and held-out lines: no one could tell how it was tuned."""
    import tomllib

    from tests.gui.test_tune_records import _panel, _run
    from tests.test_tune_starts import two_splits
    from workbench.core.configurations import configuration_toml, read_configuration_toml

    w = _panel(qtbot, two_splits(tmp_path / "sp"), tmp_path / "s.db")
    w.checklist.rows["k1"].low.setValue(1.5)  # type: ignore[union-attr]
    outcome = _run(qtbot, w, "kfold", trials=3)
    assert outcome is not None and not outcome.result.final.kept_start, w.status.text()
    text = configuration_toml(w.session.configurations.get(w.tuned_name))
    tuned = tomllib.loads(text)["tuned"]
    for key in ("pick", "sampler", "seed", "trials", "kept_trial", "searched", "ranges",
                "workbench_version", "created"):
        assert key in tuned, key
    assert tuned["pick"] == "best" and tuned["seed"] == 0
    assert tuned["ranges"]["k1"]["low"] == 1.5
    assert "\n# validation: 2-fold" in text and "\n# tune's held-out ndcg@10" in text
    assert set(tomllib.loads(text)["params"]) >= set(tuned["searched"])
    # and read back as the CLI's file is
    path = tmp_path / "w.toml"
    path.write_text(text, encoding="utf-8")
    back = read_configuration_toml(path, "bm25")
    assert back.tuned_on is not None and dict(back.tuned_on.run)["pick"] == '"best"'
