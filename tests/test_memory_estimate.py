"""Before preparing, `dense` and `hybrid` estimate the memory a dataset needs and refuse with
the estimate when it exceeds what is available ($WORKBENCH_MEMORY_LIMIT stands in for the
machine's available memory here), instead of dying halfway; the refusal writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core import engine
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.dense import embedding_dim
from workbench.core.models.hybrid.candidates import memory_needed
from workbench.core.store import cache_dir


def test_the_default_model_s_size_is_read_from_its_folder() -> None:
    assert embedding_dim("all-MiniLM-L6-v2") == 384
    assert embedding_dim("/no/such/model", fallback=7) == 7


@pytest.mark.parametrize("model", ["dense", "hybrid"])
def test_eval_refuses_with_the_estimate(model: str, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    # a cache of its own: a state other tests prepared would be loaded, not prepared
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(engine.MEMORY_LIMIT_ENV, "100K")
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", model]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err  # one line, no traceback
    assert "needs about" in err[0] and "100 KiB is available" in err[0]
    assert "vector_candidates" in err[0] and "WORKBENCH_MEMORY_LIMIT" in err[0]
    assert not list(Path(cache_dir()).glob(f"prepared/{model}-*"))


def test_enough_memory_prepares(monkeypatch: pytest.MonkeyPatch) -> None:
    data = load_dataset(SAMPLES / "story")
    model = get_model("hybrid")
    params = model.schema.resolve({"embeddings": "stored"})
    need = model.memory_estimate(data, params)
    assert need is not None and need > 0
    monkeypatch.setenv(engine.MEMORY_LIMIT_ENV, str(need + 2**20))
    assert engine.prepare(model, data, params, use_cache=False).pairs.every


def test_the_limit_must_be_a_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(engine.MEMORY_LIMIT_ENV, "lots")
    with pytest.raises(engine.MemoryEstimateError, match="not a size"):
        engine.available_memory()
    monkeypatch.setenv(engine.MEMORY_LIMIT_ENV, "2G")
    assert engine.available_memory() == 2 * 2**30


def test_the_estimate_follows_what_is_kept() -> None:
    """Every pair costs far more than the candidates; the candidates cost more as
    vector_candidates grows, and with the forgetting curve (two sets per importance group);
    200,000 × 1,000 pruned fits the 2 GB target."""
    pruned = memory_needed(1000, 200_000, 384, 1000, postings=3_000_000)
    assert pruned < 2 * 2**30
    assert memory_needed(1000, 200_000, 384, 100) < pruned
    assert memory_needed(1000, 200_000, 384, 0) > 10 * pruned  # 0 keeps every pair
    curve = memory_needed(1000, 200_000, 384, 1000, curve_groups=5, postings=3_000_000)
    assert pruned < curve < memory_needed(1000, 200_000, 384, 0) / 5
    assert memory_needed(1000, 200_000, 384, 1000, curve_groups=40) == memory_needed(
        1000, 200_000, 384, 0)  # too many groups: every pair


def test_stored_vectors_count_in_the_estimate() -> None:
    # stored vectors counted 0: 263 MB estimated where 100k documents of 384-d vectors took
    # 2.9 GB, so $WORKBENCH_MEMORY_LIMIT never refused them
    import numpy as np

    from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet

    rng = np.random.default_rng(0)
    n, dim = 2_000, 384
    docs = [Document(f"d{i}", f"text {i}", metadata={"embedding": rng.random(dim).tolist()})
            for i in range(n)]
    queries = [Query(f"q{i}", "text", {"embedding": rng.random(dim).tolist()})
               for i in range(5)]
    with_vectors = Dataset("v", Corpus(docs), QuerySet(queries))
    without = Dataset("p", Corpus([Document(d.id, d.text) for d in docs]),
                      QuerySet([Query(q.id, q.text) for q in queries]))
    model = get_model("hybrid")
    params = model.schema.resolve({"embeddings": "stored"})
    held = n * dim * 8  # the float64 matrix the similarities read
    need = model.memory_estimate(with_vectors, params)
    assert need is not None and need >= held
    bare = model.memory_estimate(without, params)
    assert bare is not None and need - bare >= held
