"""decision-memory on data that is no decision log (a BEIR collection) says so: it scored 0 on
every query, each candidate gated, with nothing to say why before `explain`."""

from __future__ import annotations

from pathlib import Path

from workbench.core.formats import load_dataset
from workbench.core.models import get_model

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def _warnings(folder: str) -> list[str]:
    model = get_model("decision-memory")
    return model.data_warnings(load_dataset(SAMPLES / folder), model.schema.resolve({}))


def test_decision_memory_on_a_beir_collection_says_it_is_no_decision_log() -> None:
    said = [w for w in _warnings("tea-beir") if "decision record" in w]
    assert len(said) == 1
    assert said[0].startswith("no document of tea-beir is a pi-lodestone decision record")


def test_a_decision_log_is_not_warned() -> None:
    for folder in ("decisions", "decisions-eval"):
        assert not [w for w in _warnings(folder) if "decision record" in w], folder
