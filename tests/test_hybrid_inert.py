"""The hybrid model names the parameters no score moves with on the data prepared
(`Model.inert_params`), so that tune leaves them out and the window greys them: on plain BEIR
data the forgetting curve's λ and floor (its base is 0) and the entity boost (no query has
an entity). Each claim is checked by moving the parameter across its whole range; where the
data has a chat, OpenVault memories and an importance-5 memory, the same parameters do move
scores and are not named."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.test_hybrid_model import FAKE, PARAMS, beir_dataset, memory_dataset
from workbench.core.data import Corpus, Dataset, Document
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

CURVE_AND_ENTITIES = ("base_lambda", "importance5_floor", "entity_boost_weight")
SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def _totals(pipe: Pipeline, change: dict[str, object]) -> np.ndarray:
    params = {**pipe.params, **change}
    return np.asarray(pipe.model.combine(pipe.prepared, params).total)


def _moves(pipe: Pipeline, name: str) -> bool:
    p = pipe.model.schema[name]
    base = _totals(pipe, {})
    return any(not np.array_equal(_totals(pipe, {name: v}), base) for v in (p.low, p.high))


def test_on_plain_beir_data_the_curve_and_the_entity_boost_are_inert() -> None:
    pipe = Pipeline(get_model("hybrid"), beir_dataset(), PARAMS)
    inert = pipe.model.inert_params(pipe.prepared, pipe.params)
    assert set(inert) == {*CURVE_AND_ENTITIES, "combined_boost_weight"}
    assert "forgetting curve applies to no pair" in inert["base_lambda"]
    assert "entit" in inert["entity_boost_weight"]
    for name in CURVE_AND_ENTITIES:
        assert not _moves(pipe, name), name
    assert _moves(pipe, "alpha")  # while a blend parameter does move them


def test_on_plain_beir_data_the_boost_weight_only_scales_every_score() -> None:
    """W moves every score, each by the same factor: no ranking or metric moves with it (a
    SciFact study had "tuned" it to 30 at the same nDCG@10 as 15)."""
    pipe = Pipeline(get_model("hybrid"), beir_dataset(), PARAMS)
    w = float(pipe.params["combined_boost_weight"])
    base = _totals(pipe, {})
    assert base.any()
    for v in (1.0, 30.0):
        np.testing.assert_allclose(_totals(pipe, {"combined_boost_weight": v}), base * v / w,
                                   rtol=1e-12, atol=1e-12)
    # at W 0 every score is 0, and W the one thing that moves them: not inert then
    zero = Pipeline(get_model("hybrid"), beir_dataset(), {**PARAMS, "combined_boost_weight": 0})
    assert not np.asarray(_totals(zero, {})).any()
    assert "combined_boost_weight" not in zero.model.inert_params(zero.prepared, zero.params)
    # with chats and memories the curve's base does not scale: the weight moves rankings
    memories = Pipeline(get_model("hybrid"), memory_dataset(), PARAMS)
    assert "combined_boost_weight" not in memories.model.inert_params(memories.prepared,
                                                                       memories.params)


def test_with_chats_and_memories_none_of_them_is_inert() -> None:
    pipe = Pipeline(get_model("hybrid"), memory_dataset(), PARAMS)
    inert = pipe.model.inert_params(pipe.prepared, pipe.params)
    for name in CURVE_AND_ENTITIES:
        assert name not in inert
        assert _moves(pipe, name), name


def test_the_floor_is_inert_where_no_memory_has_importance_5() -> None:
    ds = memory_dataset()
    docs = [Document(d.id, d.title, d.text, metadata={**d.metadata, "importance": 4}
                     if d.metadata.get("importance") == 5 else d.metadata) for d in ds.corpus]
    assert sum(d.metadata.get("importance") == 4 for d in docs) == 2  # the 5 made a 4
    pipe = Pipeline(get_model("hybrid"), Dataset("ov4", Corpus(docs), ds.queries), PARAMS)
    inert = pipe.model.inert_params(pipe.prepared, pipe.params)
    assert set(inert) == {"importance5_floor"}
    assert not _moves(pipe, "importance5_floor")
    assert _moves(pipe, "base_lambda")


def test_tune_on_a_beir_folder_leaves_them_out(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    out = tmp_path / "t.toml"
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "hybrid", "-p",
                 f"embedding_model={FAKE}", "--trials", "3", "--folds", "2",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    searched = next(line for line in text.splitlines() if line.startswith("tuning "))
    left = next(line for line in text.splitlines() if line.startswith("left out"))
    for name in CURVE_AND_ENTITIES:
        assert name not in searched and name in left
        assert name not in out.read_text(encoding="utf-8")
