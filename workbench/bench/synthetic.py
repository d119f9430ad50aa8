"""Synthetic corpora of a chosen size, for timing the live path where no real data exists.

Words are drawn from a Zipf distribution over a made-up vocabulary (as word frequencies in real
text are); each query takes 1–4 words of middle frequency and has five judged documents drawn
at random (the metrics cost the same whatever the judgments say; the figures mean nothing).
"""

from __future__ import annotations

import numpy as np

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet

_DOCS_PER_DRAW = 5000
_SYLLABLES = ("ka", "lo", "mi", "re", "tu", "sa", "ne", "vo", "di", "pe", "ru", "zo", "fa", "gi")


def _vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        n = int(rng.integers(2, 5))
        words.add("".join(_SYLLABLES[int(i)] for i in rng.integers(0, len(_SYLLABLES), n)))
    return sorted(words)


def synthetic_dataset(n_docs: int, n_queries: int, *, vocab_size: int = 30000,
                      doc_words: int = 60, words_per_line: int = 12,
                      query_ranks: tuple[int, int] = (100, 3000), seed: int = 7) -> Dataset:
    """`n_docs` documents of ~`doc_words` Zipf-distributed words in lines of
    `words_per_line`, and `n_queries` queries of 1–4 words whose frequency rank lies in
    `query_ranks` (so each query has hundreds to thousands of candidates, and short queries
    also occur as phrases, which phrase-matching models need)."""
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(vocab_size, rng)
    ranks = np.arange(1, vocab_size + 1)
    p = 1.0 / ranks
    p /= p.sum()
    lengths = np.maximum(5, rng.poisson(doc_words, n_docs))
    docs: list[Document] = []
    # the words drawn a chunk of documents at a time, as indices into a list of str: the same
    # draws as one call for every word (choice with p takes one uniform per word, in order),
    # but a few MB at a time instead of an array of every word's text (a peak of 600 MB at
    # 200,000 documents)
    for first in range(0, n_docs, _DOCS_PER_DRAW):
        chunk = lengths[first:first + _DOCS_PER_DRAW]
        drawn = rng.choice(vocab_size, size=int(chunk.sum()), p=p).tolist()
        start = 0
        for i, n in enumerate(chunk.tolist(), start=first):
            w = [vocab[j] for j in drawn[start:start + n]]
            start += n
            lines = [" ".join(w[j:j + words_per_line]) for j in range(0, n, words_per_line)]
            docs.append(Document(id=f"d{i}", title=" ".join(w[:4]), text="\n".join(lines)))
    queries: list[Query] = []
    qrels: dict[str, dict[str, int]] = {}
    lo, hi = query_ranks
    for qi in range(n_queries):
        terms = rng.integers(lo, min(hi, vocab_size), int(rng.integers(1, 5)))
        queries.append(Query(id=f"q{qi}", text=" ".join(vocab[int(t)] for t in terms)))
        judged = rng.choice(n_docs, size=5, replace=False)
        qrels[f"q{qi}"] = {f"d{int(d)}": int(g) for d, g in zip(judged, rng.integers(0, 3, 5),
                                                                   strict=True)}
    name = f"synthetic-{n_docs}x{n_queries}"
    return Dataset(name, Corpus(docs, name=name), QuerySet(queries, name=name), qrels,
                   source="synthetic")


CHAT_MESSAGES = 20_000  # the made chat's length: memories' message ids and queries' positions


def synthetic_memories(n_docs: int, n_queries: int, *, seed: int = 7) -> Dataset:
    """`synthetic_dataset`'s texts as OpenVault memories under a forgetting curve: each
    document an importance 1–5 (3 most often) and two message ids of a chat of
    CHAT_MESSAGES messages, each query a position in that chat (`chat_length`) past its first
    tenth. The texts, and so the made vectors, are those of the plain set of the same seed."""
    plain = synthetic_dataset(n_docs, n_queries, seed=seed)
    rng = np.random.default_rng([seed, 1])
    importance = rng.choice([1, 2, 3, 4, 5], size=n_docs, p=[0.1, 0.2, 0.4, 0.2, 0.1])
    ids = np.sort(rng.integers(0, CHAT_MESSAGES, size=(n_docs, 2)), axis=1)
    docs = [Document(id=d.id, title=d.title, text=d.text,
                     metadata={"importance": int(i), "message_ids": m})
            for d, i, m in zip(plain.corpus, importance.tolist(), ids.tolist(), strict=True)]
    lengths = rng.integers(CHAT_MESSAGES // 10, CHAT_MESSAGES, size=n_queries)
    queries = [Query(id=q.id, text=q.text, context={"chat_length": int(n)})
               for q, n in zip(plain.queries, lengths.tolist(), strict=True)]
    name = f"synthetic-memories-{n_docs}x{n_queries}"
    return Dataset(name, Corpus(docs, name=name), QuerySet(queries, name=name), plain.qrels,
                   source="synthetic")
