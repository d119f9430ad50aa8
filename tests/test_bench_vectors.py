"""The synthetic sets' made vectors (bench.synthetic_vectors): seeded into the embedding cache
under the keys dense and hybrid prepare read, so that prepare embeds nothing; their cosines
fall as the real vectors' do; `bench --quick` times dense and hybrid on the synthetic sets."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.conftest import dense_totals, need_dataset
from workbench.bench.harness import BENCH_PARAMS
from workbench.bench.synthetic import synthetic_dataset
from workbench.bench.synthetic_vectors import (
    DOC_NOISE,
    BaseVectors,
    cosine_shares,
    perturbed,
    sample_base,
    scifact_base,
    seed_embeddings,
    synthetic_vectors,
)
from workbench.core.embeddings import register_encoder
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

FAILING = "fake-encoder-that-fails"


class FailingFakeEncoder:
    """NOT a model: 384 dimensions like all-MiniLM-L6-v2, and any call to encode fails the
    test (prepare must find every vector in the cache)."""

    name = FAILING
    identity = "fake-encoder-that-fails-v1"
    dim = 384

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        raise AssertionError(f"encoder called for {len(texts)} texts: {texts[:2]}")


@pytest.fixture(scope="module", autouse=True)
def _failing_encoder() -> Iterator[None]:
    register_encoder(FAILING, FailingFakeEncoder())
    yield


def _unit(rows: int, seed: int) -> NDArray[np.float32]:
    v = np.random.default_rng(seed).standard_normal((rows, 384)).astype(np.float32)
    out: NDArray[np.float32] = v / np.linalg.norm(v, axis=1, keepdims=True)
    return out


RANDOM_BASE = BaseVectors(_unit(60, 1), _unit(12, 2), "random", "random unit vectors")


@pytest.mark.parametrize(("model_id", "overrides"), [
    ("dense", {}),
    ("hybrid", BENCH_PARAMS["hybrid"]),  # the bench's: no prompts, title + text
    ("hybrid", {}),  # its defaults: the OpenVault prompt on both sides, the text alone
])
def test_seeded_prepare_embeds_nothing(model_id: str, overrides: dict[str, object]) -> None:
    ds = synthetic_dataset(300, 20, seed=1)
    model = get_model(model_id)
    params = {**overrides, "embedding_model": FAILING}
    vectors = synthetic_vectors(300, 20, RANDOM_BASE)
    seeded = seed_embeddings(model.embedding_jobs(ds, model.schema.resolve(params)), vectors)
    assert seeded.stored is not None
    pipe = Pipeline(model, ds, params, use_cache=False)  # the encoder fails if called
    assert pipe.run(()).scores.n_pairs > 0
    if model_id == "dense":  # the scores are the cosines of the vectors written
        docs, queries = seeded.stored
        np.testing.assert_allclose(dense_totals(pipe.run(()).scores, len(ds.corpus)),
                                   queries @ docs.T, atol=1e-5)
        # every document has its made vector; each query text its first occurrence's
        np.testing.assert_array_equal(docs, vectors.docs)
    # seeding again writes nothing and finds every vector as made
    again = seed_embeddings(model.embedding_jobs(ds, model.schema.resolve(params)), vectors)
    assert again.written == 0 and again.differing == 0


def test_noise_has_the_stated_norm() -> None:
    base = _unit(1, 3)
    made = perturbed(base, 2000, DOC_NOISE, np.random.default_rng(0))
    np.testing.assert_allclose(np.linalg.norm(made, axis=1), 1.0, atol=1e-5)
    # a unit vector plus noise of norm σ, renormalised: cosine 1/√(1 + σ²) with the original
    assert float((made @ base[0]).mean()) == pytest.approx(1 / np.sqrt(1 + DOC_NOISE ** 2),
                                                           abs=0.005)


def test_cosines_fall_as_the_real_vectors_do(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    """The samples' real all-MiniLM-L6-v2 vectors (what the bench falls back to without
    SciFact's): the made vectors' shares of cosines above 0.3 and 0.5 stay within 0.7–1.0 of
    the real ones' (the noise lowers cosines a little, never raises them)."""
    monkeypatch.setenv("WORKBENCH_DATASETS", str(tmp_path / "no-datasets"))
    assert scifact_base() is None
    base = sample_base()
    made = synthetic_vectors(5000, 200, base)
    real = cosine_shares(base.queries, base.docs)
    synthetic = cosine_shares(made.queries, made.docs)
    for r, s in zip(real, synthetic, strict=True):
        assert 0.7 * r <= s <= r, (real, synthetic)


@pytest.mark.slow
@pytest.mark.datasets
def test_scifact_made_vectors_have_scifacts_cosines() -> None:
    """SciFact embedded (minutes), then the 50,000 × 1,000 set's vectors: 3.5–5.5 % of pairs
    above 0.3 and 0.08–0.2 % above 0.5 (SciFact's own: 4.9 %, 0.15 %)."""
    from workbench.core.embeddings import embed_texts
    from workbench.core.formats import read_beir

    ds = read_beir(need_dataset("scifact"), split="test")
    embed_texts([f"{d.title} {d.text}" if d.title else d.text for d in ds.corpus])
    embed_texts([q.text for q in ds.queries])
    base = scifact_base()
    assert base is not None and base.name == "SciFact"
    made = synthetic_vectors(50000, 1000, base)
    above_03, above_05 = cosine_shares(made.queries, made.docs)
    assert 0.035 <= above_03 <= 0.055 and 0.0008 <= above_05 <= 0.002


def test_quick_bench_times_dense_and_hybrid_on_synthetic_sets(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Quick sets made 150 and 200 × 10, vector_candidates 100 (fewer than the documents, so
    the all-pairs path runs too, in its child process; at the default 1,000 the sets had to
    be 1,150 and 1,200, seconds more to prepare); no references (what is under test is the
    rows)."""
    from workbench.bench import harness

    monkeypatch.setenv("WORKBENCH_DATASETS", str(tmp_path / "no-datasets"))
    monkeypatch.setattr(harness, "synthetic_dataset", lambda n_docs, n_queries, seed=0:
                        synthetic_dataset(100 + n_queries, 10, seed=seed))
    monkeypatch.setattr(harness, "BENCH_PARAMS", {
        mid: {**harness.BENCH_PARAMS.get(mid, {}), "vector_candidates": 100}
        for mid in ("dense", "hybrid")})
    monkeypatch.setattr(harness, "REFERENCES", {})
    assert harness.run_benchmarks(quick=True, models=["dense", "hybrid"], repeats=1) == 0
    out = capsys.readouterr().out
    sets = {"synthetic-150x10": "1,500", "synthetic-200x10": "2,000"}
    # hybrid also on each set as OpenVault memories (the forgetting curve on)
    memories = {"synthetic-150x10": "synthetic-memories-150x10",
                "synthetic-200x10": "synthetic-memories-200x10"}
    for model_id in ("dense", "hybrid"):
        rows = [line for line in out.splitlines() if line.startswith(f"{model_id} ")]
        wanted = [(n, p) for n, p in sets.items()] if model_id == "dense" else [
            x for n, p in sets.items() for x in ((n, p), (memories[n], p))]
        assert len(rows) == len(wanted), out
        for row, (name, pairs) in zip(rows, wanted, strict=True):
            assert f" {name} " in row and "vectors made, not embedded" in row, out
            if "vector_candidates" in get_model(model_id).schema:
                assert f"all pairs: {pairs} pairs" in row, out
    for name in sets:
        note = next(line for line in out.splitlines() if line.startswith(f"{name}: "))
        assert "noise of norm 0.2" in note and "Cosine > 0.3: " in note


def test_scale_bench_reports_prepare_time_and_peak_memory(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`bench --scale`, made 1,200 × 10: dense and hybrid each prepared in a child process
    on made vectors, their peaks read from the child itself (not the parent's size)."""
    from workbench.bench.scale_bench import run_scale_bench

    monkeypatch.setenv("WORKBENCH_DATASETS", str(tmp_path / "no-datasets"))
    assert run_scale_bench(1200, n_queries=10, repeats=1) == 0
    out = capsys.readouterr().out
    for model_id in ("dense", "hybrid"):
        row = next(line for line in out.splitlines() if line.startswith(f"{model_id} "))
        cells = row.split()
        assert cells[1] == "synthetic-1200x10" and cells[7] == "ok", out
        dataset_mb, prepared_mb = (float(c.replace(",", "")) for c in cells[4:6])
        assert 0 < dataset_mb <= prepared_mb < 2048
        assert "vectors made, not embedded" in row
    assert "synthetic-1200x10: vectors made, not embedded" in out


def test_cli_bench_scale_defaults_to_200000(monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.bench import scale_bench
    from workbench.cli import main

    seen: list[tuple[int, list[str] | None]] = []
    monkeypatch.setattr(scale_bench, "run_scale_bench",
                        lambda n, *, repeats, models: seen.append((n, models)) or 0)
    assert main(["bench", "--scale"]) == 0
    assert main(["bench", "--scale", "5000", "-m", "dense"]) == 0
    assert seen == [(200_000, None), (5000, ["dense"])]
