"""vector_candidates below a metric's depth is said (review rv2, 6): at 50, eval printed R@100
0.8920 against 0.9250 (dense on SciFact) and 0.8947 against 0.9193 (hybrid) with no word;
sweep alone had a note."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from tests.test_embedding_damage_said import HashEncoder
from workbench.cli import main
from workbench.core.embeddings import register_encoder
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.dense import cut_metrics


def test_the_metrics_cut_are_those_reading_deeper_than_the_candidates() -> None:
    names = ["ndcg@10", "mrr@10", "r@50", "r@100", "map@100", "map", "judged@10", "bundle_recall"]
    assert cut_metrics(names, 50, 151) == ["r@100", "map@100", "map"]
    assert cut_metrics(names, 5, 151) == ["ndcg@10", "mrr@10", "r@50", "r@100", "map@100",
                                          "map", "judged@10"]
    assert cut_metrics(names, 0, 151) == []  # 0 keeps every pair
    assert cut_metrics(names, 151, 151) == []  # as does the corpus size or more


@pytest.mark.parametrize("model_id", ["dense", "hybrid"])
def test_the_model_warns_of_a_cut_below_the_default_depth(model_id: str) -> None:
    data = load_dataset(SAMPLES / "tea-beir")  # 151 documents
    model = get_model(model_id)
    said = model.data_warnings(data, model.schema.resolve({"vector_candidates": 50}))
    (line,) = [w for w in said if "vector_candidates" in w]
    if model_id == "dense":
        assert line == (
            "vector_candidates=50 ranks only the 50 documents of highest cosine per query: a "
            "metric that reads deeper (r@100, map@100 by default) is not exact — what is cut "
            "counts as not found (0 keeps every pair)")
    else:
        assert line == (
            "vector_candidates=50 scores, beyond the BM25 matches, only the 50 memories of "
            "highest cosine (and the first by position) per query, where OpenVault scores every "
            "memory: a metric that reads deeper (r@100, map@100 by default) may not be "
            "OpenVault's figure (0 keeps every pair)")
    for fine in (100, 1000, 0):  # r@100 reads 100 deep: exact from there
        params = model.schema.resolve({"vector_candidates": fine})
        assert not any("vector_candidates" in w for w in model.data_warnings(data, params))


def test_eval_says_it(capsys: pytest.CaptureFixture[str]) -> None:
    enc = HashEncoder()
    register_encoder(enc.name, enc)
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "dense", "-p",
                 f"embedding_model={enc.name}", "-p", "vector_candidates=50",
                 "--metrics", "ndcg@10,r@100"]) == 0
    err = capsys.readouterr().err
    assert "warning: vector_candidates=50 ranks only the 50 documents of highest cosine" in err
