"""Shared fixtures: locations of the shared datasets and specs, an isolated cache folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from workbench.core.ranking import Scores

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
# as `workbench bench` finds them: $WORKBENCH_DATASETS, else beside the checkout
DATASETS = Path(os.environ.get("WORKBENCH_DATASETS") or SHARED / "datasets")
SAMPLES = REPO / "sample_corpora"


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests never read or write the user's real cache folder: set for the whole session,
    before any module- or class-scoped fixture builds a pipeline."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORKBENCH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
        # the CLI's prose unwrapped (`textout.wrap` follows $COLUMNS): a test reads what is
        # said, not where a line breaks; tests of the wrapping set COLUMNS themselves
        mp.setenv("COLUMNS", "100000")
        yield


def need_dataset(name: str) -> Path:
    folder = DATASETS / name
    if not (folder / "corpus.jsonl").exists():
        pytest.skip(f"{folder} is absent (the shared datasets are not on this machine)")
    return folder


@dataclass
class Padded:
    """Scores laid out as (Q, C) tables (C = the longest row), -1 / 0 padding: easy to read
    in tests; the engine itself never pads like this."""

    docs: np.ndarray
    total: np.ndarray
    gate: np.ndarray
    contributions: np.ndarray
    signals: tuple[str, ...]
    gates: tuple[str, ...]


def padded(s: Scores) -> Padded:
    q = s.n_queries
    lengths = np.diff(s.row_ptr)
    c = int(lengths.max(initial=0))
    docs = np.full((q, c), -1, np.int64)
    total = np.zeros((q, c))
    gate = np.zeros((q, c), np.int8)
    contrib = np.zeros((len(s.signals), q, c))
    every = s.contributions
    for qi in range(q):
        sl, n = s.row(qi), int(lengths[qi])
        docs[qi, :n] = s.docs[sl]
        total[qi, :n] = s.total[sl]
        gate[qi, :n] = s.gate[sl]
        contrib[:, qi, :n] = every[:, sl]
    return Padded(docs, total, gate, contrib, s.signals, s.gates)


def dense_totals(s: Scores, n_docs: int) -> np.ndarray:
    """float64 (Q, N): each query's total per document (0 for non-candidates)."""
    out = np.zeros((s.n_queries, n_docs))
    out[s.pair_query(), s.docs] = s.total
    return out


def golden_cases(name: str) -> list[object]:
    """The cases of specs/examples/<name> as pytest params (one skip when the file is absent)."""
    import json

    path = SHARED / "specs" / "examples" / name
    if not path.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{path} absent"))]
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [pytest.param(r, id=f"{i:02d}-{r['kind']}") for i, r in enumerate(rows)]
