"""A cancel while a preparation embeds its queries says that the documents' vectors are kept
and what the next run embeds (review rv2, 3: 'None of the 100 texts to embed was kept … start
again', with all 1,200 document vectors in the cache)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from tests.test_embedding_damage_said import HashEncoder
from workbench.core.embeddings import register_encoder
from workbench.core.engine import NO_PROGRESS, Cancelled, Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model


class StopAtQueries(HashEncoder):
    """Cancelled as the first query is sent to it (tea-beir's queries end in '?')."""

    def __init__(self) -> None:
        super().__init__()
        self.at_queries = False

    def encode(self, texts, *, batch_size=64, progress=NO_PROGRESS):  # type: ignore[no-untyped-def]
        self.at_queries = self.at_queries or any(t.endswith("?") for t in texts)
        progress(0.0, "")  # raises Cancelled once stopped
        return super().encode(texts, batch_size=batch_size, progress=progress)


@pytest.mark.parametrize("model_id", ["dense", "hybrid"])
def test_a_cancel_while_queries_embed_says_the_documents_are_kept(model_id: str) -> None:
    enc = StopAtQueries()
    register_encoder(enc.name, enc)
    data = load_dataset(SAMPLES / "tea-beir")
    model = get_model(model_id)
    params = model.schema.resolve({"embedding_model": enc.name, "query_prompt": "query: ",
                                   "document_prompt": "passage: "})
    with pytest.raises(Cancelled) as caught:
        model.prepare(data, params, Progress(should_stop=lambda: enc.at_queries))
    assert caught.value.__notes__ == [
        "the vectors of all 151 documents are kept in the cache, and none of the 25 queries "
        "(the first step, 25 queries, had not finished): the same command goes on from there, "
        "embedding the 25 queries only"]
    # which it does
    enc.at_queries, enc.seen = False, 0
    model.prepare(data, params, Progress(should_stop=lambda: False))
    assert enc.seen == 25


def test_a_cancel_with_some_queries_kept_counts_both() -> None:
    enc = StopAtQueries()
    register_encoder(enc.name, enc)
    data = load_dataset(SAMPLES / "tea-beir")
    model = get_model("dense")
    params = model.schema.resolve({"embedding_model": enc.name, "query_prompt": "q: ",
                                   "document_prompt": "d: ", "batch_size": 10})

    def stop() -> bool:  # as the second step of queries begins: the first (10) is kept
        return enc.at_queries and enc.seen >= 151 + 10

    with pytest.raises(Cancelled) as caught:
        model.prepare(data, params, Progress(should_stop=stop))
    (note,) = caught.value.__notes__
    assert note.startswith("10 of 25 queries embedded before it are kept in the cache, and the "
                           "vectors of all 151 documents: the same command goes on from there")
