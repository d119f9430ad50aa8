"""Shared fixtures: locations of the shared datasets and specs, an isolated cache folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATASETS = SHARED / "datasets"
SAMPLES = REPO / "sample_corpora"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests never read or write the user's real cache folder."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    yield


def need_dataset(name: str) -> Path:
    folder = DATASETS / name
    if not (folder / "corpus.jsonl").exists():
        pytest.skip(f"{folder} is absent (the shared datasets are not on this machine)")
    return folder
