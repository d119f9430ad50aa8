"""Embeddings: the real offline model, prompts, and the on-disk cache (reuse, re-embed only
what is new, corruption detected, cancel keeps finished work)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.core import embeddings
from workbench.core.embeddings import (
    DEFAULT_MODEL,
    PROMPT_PRESETS,
    EmbeddingError,
    Encoder,
    embed_texts,
    get_encoder,
    open_store,
    register_encoder,
)
from workbench.core.embeddings import embed as embed_module
from workbench.core.engine import NO_PROGRESS, Cancelled, Progress
from workbench.core.store import cache_dir
from workbench.core.store import embeddings as embedding_store

TEXTS = [f"note {i}: the kettle reached {80 + i % 15} degrees before pouring" for i in range(70)]


class CountingEncoder:
    """The real default model (or `inner`), counting the texts it is asked to encode."""

    def __init__(self, inner: Encoder | None = None, name: str = "counting-minilm") -> None:
        self.inner = inner or get_encoder(DEFAULT_MODEL)
        self.name = name
        self.seen: list[str] = []

    @property
    def identity(self) -> str:
        return self.inner.identity

    @property
    def dim(self) -> int:
        return self.inner.dim

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        self.seen.extend(texts)
        return self.inner.encode(texts, batch_size=batch_size, progress=progress)


@pytest.fixture
def counting() -> CountingEncoder:
    enc = CountingEncoder()
    register_encoder(enc.name, enc)
    return enc


class FakeHashEncoder:
    """NOT a model: a unit vector made from each text's hash, batch by batch with progress
    (and so cancel) before each batch, through the same `_longest_first` as the real encoder.
    For the tests of steps, shards and cancels, where what is counted is texts, not what the
    vectors mean: the real model's forward pass per text (batch size 1) took most of their
    time."""

    identity = "made-vectors-1"
    dim = 384

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        def run(part: list[str]) -> NDArray[np.float32]:
            v = np.array([np.random.default_rng(list(t.encode())).standard_normal(self.dim)
                          for t in part], np.float32)
            out: NDArray[np.float32] = v / np.linalg.norm(v, axis=1, keepdims=True)
            return out

        return embeddings._longest_first(texts, self.dim, batch_size, progress, run)


@pytest.fixture
def made() -> CountingEncoder:
    """As `counting`, over made vectors (`FakeHashEncoder`)."""
    enc = CountingEncoder(FakeHashEncoder(), name="counting-made")
    register_encoder(enc.name, enc)
    return enc


def test_default_model_loads_offline_and_embeds() -> None:
    enc = get_encoder()
    assert enc.dim == 384
    assert enc.identity.startswith("all-MiniLM-L6-v2-")
    v = enc.encode(["How long should green tea steep?", "Steeping time for green tea",
                    "The drum roaster arrived today"])
    assert v.shape == (3, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2  # paraphrases closer than an unrelated sentence


def test_the_encoder_reports_progress_every_batch() -> None:
    # every eight batches before: the first 512 (longest) texts of an embedding on two busy
    # cores took minutes with nothing said
    enc = get_encoder()
    seen: list[str] = []
    texts = [f"note {i}: " + "word " * (i % 7) for i in range(40)]
    v = enc.encode(texts, batch_size=8, progress=Progress(on_progress=lambda f, m: seen.append(m)))
    assert v.shape == (40, 384)
    assert [m for m in seen if m.startswith("embedding ")] == [
        f"embedding {n}/40 texts" for n in range(0, 40, 8)]


def test_unknown_model_is_one_clear_error() -> None:
    with pytest.raises(EmbeddingError, match="no local embedding model 'no-such-model'"):
        get_encoder("no-such-model")


def test_presets_follow_openvault() -> None:
    assert PROMPT_PRESETS["sentence similarity"] == "task: sentence similarity | query: "
    assert PROMPT_PRESETS["sentence similarity"] == embeddings.OPENVAULT_DEFAULT_PROMPT
    assert PROMPT_PRESETS["none"] == ""


def test_cache_reuses_and_reembeds_only_what_is_new(counting: CountingEncoder) -> None:
    first = embed_texts(TEXTS, model=counting.name)
    assert len(counting.seen) == len(TEXTS)
    again = embed_texts(TEXTS, model=counting.name)
    assert len(counting.seen) == len(TEXTS)  # nothing encoded the second time
    np.testing.assert_array_equal(first, again)
    # a new prompt is a new store: everything is embedded again, with the prompt in front
    prompted = embed_texts(TEXTS[:5], model=counting.name, prompt="query: ")
    assert counting.seen[-5:] == ["query: " + t for t in TEXTS[:5]]
    assert not np.allclose(prompted, first[:5])
    # one new text with the old prompt: only it is encoded; duplicates are encoded once
    counting.seen.clear()
    mixed = embed_texts([*TEXTS[:3], "a brand new text", "a brand new text"], model=counting.name)
    assert counting.seen == ["a brand new text"]
    np.testing.assert_array_equal(mixed[:3], first[:3])
    np.testing.assert_array_equal(mixed[3], mixed[4])
    # the cached vectors equal an uncached encoding
    fresh = embed_texts(TEXTS[:4], model=counting.name, use_cache=False)
    np.testing.assert_allclose(fresh, first[:4], atol=1e-6)


def _shards(enc: CountingEncoder, prompt: str = "") -> Path:
    return cache_dir() / "embeddings" / open_store(enc, prompt).folder.name


@pytest.mark.parametrize("damage", ["flip a vector byte", "flip a key byte", "truncate"])
def test_damaged_cache_is_detected_and_rebuilt(counting: CountingEncoder, damage: str) -> None:
    prompt = f"damage {damage}: "
    good = embed_texts(TEXTS[:10], model=counting.name, prompt=prompt)
    folder = _shards(counting, prompt)
    (shard,) = folder.glob("*.shard")  # beside about.json, which names the prompt
    blob = shard.read_bytes()
    if damage == "flip a vector byte":
        shard.write_bytes(blob[:-7] + bytes([blob[-7] ^ 0x40]) + blob[-6:])
    elif damage == "flip a key byte":
        at = embedding_store._HEADER.size + 3
        shard.write_bytes(blob[:at] + bytes([blob[at] ^ 0x01]) + blob[at + 1:])
    else:
        shard.write_bytes(blob[: len(blob) - 400])
    counting.seen.clear()
    rebuilt = embed_texts(TEXTS[:10], model=counting.name, prompt=prompt)
    assert len(counting.seen) == 10  # not trusted: embedded again
    np.testing.assert_allclose(rebuilt, good, atol=1e-6)
    (again,) = folder.glob("*.shard")  # the damaged shard gone, one new one
    assert again.name != shard.name
    assert open_store(counting, prompt).dropped == 0  # and the new one is sound


@pytest.fixture
def eight_batch_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Steps of one batch, then eight (the most) whatever the pace: `STEP_S` so long that
    any pace fills it."""
    monkeypatch.setattr(embed_module, "STEP_S", 1e9)


def test_cancel_keeps_finished_chunks(made: CountingEncoder, eight_batch_steps: None) -> None:
    # batch size 1 → steps of 1, then 8 texts, shards of 32 or more: stop once the first
    # shard (1 + 4 × 8 = 33 texts) is stored
    prompt = "cancel test: "
    calls: list[float] = []

    def stop() -> bool:
        return len(open_store(made, prompt)) >= 32

    with pytest.raises(Cancelled):
        embed_texts(TEXTS, model=made.name, prompt=prompt, batch_size=1,
                    progress=Progress(on_progress=lambda f, m: calls.append(f),
                                      should_stop=stop))
    assert len(open_store(made, prompt)) == 33
    made.seen.clear()
    embed_texts(TEXTS, model=made.name, prompt=prompt, batch_size=1)
    assert len(made.seen) == len(TEXTS) - 33  # only the rest
    assert calls == sorted(calls)  # progress only moves forward


def test_a_cancel_inside_a_chunk_keeps_every_step_finished_and_says_so(
        made: CountingEncoder, eight_batch_steps: None) -> None:
    # batch size 1 → steps of 1, then 8 texts, shards of 32: cancelled as the fourth step
    # starts, the three steps before it are stored (before: nothing until a whole shard of 32
    # was done)
    prompt = "cancel inside a chunk: "

    def stop() -> bool:
        return len(made.seen) >= 24

    with pytest.raises(Cancelled) as caught:
        embed_texts(TEXTS, model=made.name, prompt=prompt, batch_size=1,
                    progress=Progress(should_stop=stop))
    assert len(open_store(made, prompt)) == 17
    assert caught.value.__notes__ == [
        "17 of 70 texts embedded before it are kept in the cache: the same command goes on "
        "from there"]
    made.seen.clear()
    embed_texts(TEXTS, model=made.name, prompt=prompt, batch_size=1)
    assert len(made.seen) == len(TEXTS) - 17


def test_an_interrupt_while_a_shard_is_written_keeps_its_vectors(
        counting: CountingEncoder, monkeypatch: pytest.MonkeyPatch,
        eight_batch_steps: None) -> None:
    # the pending vectors were cleared before the write: a Ctrl-C inside it lost them
    monkeypatch.setattr(embed_module, "STORE_EVERY_S", 0.0)  # a shard per step (1, then 8)
    real_add = embedding_store.EmbeddingStore.add
    calls = [0]

    def interrupted_add(self, keys, vectors):  # the real write, Ctrl-C on the second
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        return real_add(self, keys, vectors)

    monkeypatch.setattr(embedding_store.EmbeddingStore, "add", interrupted_add)
    prompt = "interrupted while writing: "
    with pytest.raises(KeyboardInterrupt) as caught:
        embed_texts(TEXTS, model=counting.name, prompt=prompt, batch_size=1)
    assert len(open_store(counting, prompt)) == 9  # both steps encoded are stored
    assert caught.value.__notes__[0].startswith("9 of 70 texts embedded before it are kept")


def test_vectors_are_stored_at_least_every_minute(made: CountingEncoder,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  eight_batch_steps: None) -> None:
    # a killed run loses at most STORE_EVERY_S of work: here every step is its own shard
    # (1 text, then eight steps of 8 and one of 5)
    monkeypatch.setattr(embed_module, "STORE_EVERY_S", 0.0)
    prompt = "stored every minute: "
    embed_texts(TEXTS, model=made.name, prompt=prompt, batch_size=1)
    assert len(open_store(made, prompt).shards) == 1 + 9
    monkeypatch.setattr(embed_module, "STORE_EVERY_S", 3600.0)
    prompt = "stored per chunk: "
    embed_texts(TEXTS, model=made.name, prompt=prompt, batch_size=1)
    # a shard once 32 or more are pending: 1 + 4 × 8 = 33, then 4 × 8 = 32, then the 5 left
    assert sorted(len(v) for v in open_store(made, prompt).shards.values()) == [5, 32, 33]


def test_progress_counts_over_the_whole_set(made: CountingEncoder) -> None:
    # batch size 1 → chunks of 32 texts: the counts run over all 70 new texts, never restart
    # at each chunk, and say how many came from the cache
    prompt = "whole-set progress: "
    embed_texts(TEXTS[:10], model=made.name, prompt=prompt, batch_size=1)
    said: list[tuple[float, str]] = []
    embed_texts([*TEXTS, "one more text about tea"], model=made.name, prompt=prompt,
                batch_size=1, progress=Progress(on_progress=lambda f, m: said.append((f, m))))
    counted = [m for _, m in said if m.startswith("embedding ")]
    # after a step is timed, how long is left follows (test_embedding_eta)
    assert counted and all(re.search(r"/61 texts \(10 from the cache\)(, about [^,]+ left)?$", m)
                           for m in counted), counted
    numbers = [int(m.split()[1].split("/")[0].replace(",", "")) for m in counted]
    assert numbers == sorted(numbers) and numbers[-1] == 61 and max(numbers) > 32
    assert [f for f, _ in said] == sorted(f for f, _ in said)


def test_a_model_with_a_projection_layer_embeds_at_its_output_size(tmp_path: Path) -> None:
    # the size was read from the transformer's hidden_size: a model that projects (a Dense
    # layer after pooling, as many published ones have) failed to fit its vectors
    from sentence_transformers import SentenceTransformer

    try:
        from sentence_transformers.sentence_transformer.modules import Dense
    except ImportError:  # before sentence-transformers 6
        from sentence_transformers.models import Dense
    from workbench.core.embeddings import model_dim, resolve_model_path
    from workbench.core.models.dense import embedding_dim

    base = SentenceTransformer(str(resolve_model_path(DEFAULT_MODEL)), device="cpu")
    base.append(Dense(384, 128))
    folder = tmp_path / "projected"
    base.save(str(folder))
    assert model_dim(folder) == 128 == embedding_dim(str(folder))
    assert model_dim(resolve_model_path(DEFAULT_MODEL)) == 384
    vectors = get_encoder(str(folder)).encode(TEXTS[:3])
    assert vectors.shape == (3, 128)


def test_pooling_modes_multiply_the_width(tmp_path: Path) -> None:
    import json

    from workbench.core.embeddings import model_dim

    (tmp_path / "p").mkdir()
    (tmp_path / "modules.json").write_text(json.dumps([
        {"path": "", "type": "sentence_transformers.models.Transformer"},
        {"path": "p", "type": "sentence_transformers.models.Pooling"}]))
    (tmp_path / "config.json").write_text('{"hidden_size": 256}')
    (tmp_path / "p" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": 256, "pooling_mode_cls_token": True,
         "pooling_mode_mean_tokens": True}))
    assert model_dim(tmp_path) == 512
    # DistilBERT names its width dim, T5 d_model: the pooling's own width decides
    (tmp_path / "config.json").write_text('{"dim": 768}')
    (tmp_path / "p" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": 768, "pooling_mode_mean_tokens": True}))
    assert model_dim(tmp_path) == 768
    (tmp_path / "config.json").write_text('{"d_model": 512, "model_type": "t5"}')
    (tmp_path / "p" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": 512, "pooling_mode_mean_tokens": True}))
    assert model_dim(tmp_path) == 512
    (tmp_path / "p" / "config.json").write_text("{broken")
    assert model_dim(tmp_path) is None  # unreadable: the caller loads the model instead


def test_a_cancel_in_the_first_step_says_nothing_was_kept(counting: CountingEncoder) -> None:
    # Ctrl-C before the first step ended said only "interrupted": what was encoded so far
    # (lost) and what the next run does were left to be guessed
    prompt = "cancel in the first step: "
    with pytest.raises(Cancelled) as caught:
        embed_texts(TEXTS, model=counting.name, prompt=prompt, batch_size=2,
                    progress=Progress(should_stop=lambda: len(counting.seen) >= 1))
    assert len(open_store(counting, prompt)) == 0
    assert caught.value.__notes__ == [
        "none of the 70 texts to embed was kept: the cache keeps each step once finished, and "
        "the first (2 texts) had not"]


def test_a_prompt_that_fills_the_window_is_warned_of() -> None:
    # a 2,480-character prompt left nothing of each text in the model's 256 tokens: every
    # cosine 1.0, the ranking corpus order, and no word said
    from workbench.core.models import get_model

    dense, hybrid = get_model("dense"), get_model("hybrid")
    long = "task: narrative similarity " * 90
    said = dense.data_warnings(None, dense.schema.resolve({"document_prompt": long}))  # type: ignore[arg-type]
    assert len(said) == 1 and said[0].startswith("the document prompt alone is about 608 tokens, "
                                                 "and the encoder reads 256 tokens")
    both = hybrid.schema.resolve({"document_prompt": long, "query_prompt": long})
    assert len(hybrid.data_warnings(None, both)) == 2  # type: ignore[arg-type]
    assert dense.data_warnings(None, dense.schema.defaults()) == []  # type: ignore[arg-type]


def test_a_query_prompt_a_short_query_fits_beside_is_not_warned_of() -> None:
    from workbench.core.models import get_model

    dense = get_model("dense")
    mid = "word " * 110  # about 147 tokens: a document loses much, a query fits beside it
    said = dense.data_warnings(None, dense.schema.resolve(  # type: ignore[arg-type]
        {"document_prompt": mid, "query_prompt": mid}))
    assert len(said) == 1 and said[0].startswith("the document prompt")


def test_the_progress_says_what_it_embeds(counting: CountingEncoder) -> None:
    # "embedding 64/155 texts" in the window: documents or queries, it did not say
    said: list[str] = []
    embed_texts(TEXTS[:5], model=counting.name, prompt="what: ", batch_size=2,
                progress=Progress(on_progress=lambda _f, m: said.append(m)), what="queries")
    assert said and said[0].startswith("embedding ") and "/5 queries" in said[0]


def test_the_first_load_of_a_model_is_said(tmp_path: Path) -> None:
    """Loading torch and the weights takes seconds before the first text: the window had
    read 'embedding 0/3,647' all that time, as if stuck."""
    from workbench.core.embeddings import SentenceTransformerEncoder

    enc = SentenceTransformerEncoder(DEFAULT_MODEL)
    register_encoder("fresh-minilm", enc)
    said: list[str] = []
    embed_texts(["first load: tea", "first load: coffee"], model="fresh-minilm",
                prompt=f"{tmp_path.name}: ", progress=Progress(on_progress=lambda f, m:
                                                              said.append(m)))
    assert said[0] == ("loading the embedding model all-MiniLM-L6-v2 (its first use in this "
                       "process) …")
    assert enc.loaded
    said.clear()
    embed_texts(["second: tea"], model="fresh-minilm", prompt=f"{tmp_path.name}: ",
                progress=Progress(on_progress=lambda f, m: said.append(m)))
    assert said and not any(m.startswith("loading") for m in said)
