"""A damaged file of the embedding cache is said where a model prepares (eval, tune, the
window), not only by `workbench embed`, and `workbench cache` does not count its vectors
(review rv2, 2: eval said only 'embedding 0/176 documents (1,024 from the cache)' for 89 s,
and `cache` listed the store as whole)."""

from __future__ import annotations

import re
import uuid
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.embeddings import open_store, register_encoder, unkept_cache_warnings
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.store.embeddings import store_summaries


class HashEncoder:
    """NOT a language model: words hash to 8 signed dimensions (fast, deterministic)."""

    dim = 8

    def __init__(self) -> None:
        # unique per object: pytest imports this file as `test_embedding_damage_said` and
        # its importers as `tests.test_embedding_damage_said`, two counters in one process
        self.name = self.identity = f"hash-enc-{uuid.uuid4().hex[:12]}"
        self.seen = 0

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        self.seen += len(texts)
        out = np.zeros((len(texts), self.dim), np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[i, zlib.crc32(word.encode()) % self.dim] += 1.0
            out[i] /= max(float(np.linalg.norm(out[i])), 1e-9)
        progress(1.0, "")
        return out


@pytest.fixture
def enc() -> HashEncoder:
    e = HashEncoder()
    register_encoder(e.name, e)
    return e


def _cut_documents_shard(enc: HashEncoder) -> Path:
    """The shard of tea-beir's 151 documents (title + text, no prompt), cut short."""
    folder = open_store(enc, "").folder
    shard = max(folder.glob("*.shard"), key=lambda p: p.stat().st_size)
    shard.write_bytes(shard.read_bytes()[:1000])
    return folder


@pytest.mark.parametrize("model_id", ["dense", "hybrid"])
def test_a_models_preparation_says_a_damaged_cache_file(enc: HashEncoder, model_id: str) -> None:
    data = load_dataset(SAMPLES / "tea-beir")
    model = get_model(model_id)
    params = model.schema.resolve({"embedding_model": enc.name, "query_prompt": "",
                                   "document_prompt": "", "fields": "title+text"})
    model.prepare(data, params)
    assert enc.seen == 151 + 25
    folder = _cut_documents_shard(enc)
    said: list[str] = []
    messages: list[str] = []
    with unkept_cache_warnings(said.append):
        model.prepare(data, params, Progress(on_progress=lambda _f, m: messages.append(m)))
    assert enc.seen == 151 + 25 + 151  # the documents again
    assert said == [f"1 damaged file of the embedding cache {folder} left unread: its texts "
                    "are embedded again"]
    # and while they embed, the progress says why
    assert "embedding 151/151 documents (1 damaged cache file left unread)" in messages


def test_cache_does_not_count_a_damaged_files_vectors(
        enc: HashEncoder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    data = load_dataset(SAMPLES / "tea-beir")
    model = get_model("dense")
    model.prepare(data, model.schema.resolve({"embedding_model": enc.name}))
    (whole,) = store_summaries(tmp_path / "embeddings")
    assert (whole.vectors, whole.damaged) == (151 + 25, 0)
    folder = _cut_documents_shard(enc)
    (cut,) = store_summaries(tmp_path / "embeddings")
    assert (cut.vectors, cut.damaged) == (25, 1)  # the queries' shard only
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(folder.name))
    assert " 25 + 1 damaged file " in row
    assert ("(1 damaged file, cut short or not a shard: its vectors are not counted; the "
            "store drops it when next used and its texts are embedded again)") in out
