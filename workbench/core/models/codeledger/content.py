"""Content relevance for `codeledger`: BM25 over each file's content and path, and the task
text read the same way (not in CodeLedger's document: its ranker is closed; this is ours).

Tokens, the same rule for files and tasks: every identifier (`[A-Za-z_][A-Za-z0-9_]*`; dotted
names are read part by part) gives its parts — split on `_`, camelCase and digits — and,
when it has more than one part, itself whole (`HTTPTransport` → http, transport,
httptransport), lowercased; English and code stop words (`CODE_STOP_WORDS`: keywords and
builtins every file repeats) and one-character tokens go; the rest is Snowball-stemmed
(English). A task's issue and PR numbers (`#123`, `GH-123`) are dropped from its text first;
they name nothing in the code.

BM25 per file f and term t, the path a field of its own counted `path_weight` times:

    tf  = tf_content + path_weight · tf_path          dl = |content| + path_weight · |path|
    w   = idf(t) · tf / (tf + k1 · (1 − b + b · dl / avgdl))
    idf = ln(1 + (N − df + 0.5) / (df + 0.5))                (Lucene's BM25, as `bm25`)
    bm25(task, f) = Σ over the task's tokens (repeats count) of w(f, t)

The signal is bm25 ÷ the task's best bm25 over every file (1 for the best file, 0 when no
token of the task is in any file).
"""

from __future__ import annotations

import functools
import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import snowballstemmer
from numpy.typing import NDArray

from workbench.core.text import EXTENDED_STOP_WORDS

__all__ = ["CODE_STOP_WORDS", "ContentIndex", "build_content_index", "code_tokens",
           "issue_refs", "task_tokens"]

CODE_STOP_WORDS = frozenset((
    # Python
    "def class return self cls import from as if elif else for while in is not and or none "
    "true false try except finally raise with yield lambda pass break continue global "
    "nonlocal assert del async await print isinstance len str int float bool dict list "
    "tuple set super init kwargs args "
    # JavaScript / TypeScript
    "const let var function new this typeof instanceof null undefined export default "
    "extends implements interface type enum public private protected readonly static void "
    "any unknown never string number boolean object promise then catch switch case do "
    # Go, Java and the rest
    "func package struct map chan go defer err nil fmt"
).split()) | EXTENDED_STOP_WORDS

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_ISSUE = re.compile(r"(?:\b(?:GH|gh)-|(?<![\w&])#)[0-9]+\b")
_THREAD = threading.local()  # a Snowball stemmer per thread: it keeps state while it stems


@functools.lru_cache(maxsize=1 << 18)
def _stem(word: str) -> str:
    stemmer = getattr(_THREAD, "stemmer", None)
    if stemmer is None:
        stemmer = _THREAD.stemmer = snowballstemmer.stemmer("english")
    out: str = stemmer.stemWord(word)
    return out


@functools.lru_cache(maxsize=1 << 18)
def identifier_tokens(ident: str) -> tuple[str, ...]:
    """The tokens of one identifier: its parts, and itself whole when it has several."""
    parts = [p.lower() for piece in ident.split("_") for p in _PART.findall(piece)]
    words = [*parts, "".join(parts)] if len(parts) > 1 else parts
    return tuple(_stem(w) for w in words if len(w) > 1 and w not in CODE_STOP_WORDS)


def code_tokens(text: str) -> list[str]:
    """The tokens of `text`, in order, with repeats."""
    return [t for ident in _IDENT.findall(text) for t in identifier_tokens(ident)]


def token_counts(text: str) -> Counter[str]:
    """Token → count, counting each distinct identifier once and multiplying (a file repeats
    its identifiers: far fewer splits than identifiers)."""
    out: Counter[str] = Counter()
    for ident, n in Counter(_IDENT.findall(text)).items():
        for t in identifier_tokens(ident):
            out[t] += n
    return out


def issue_refs(text: str) -> list[str]:
    """The issue and PR references of a task (`#123`, `GH-45`), in order."""
    return _ISSUE.findall(text)


def task_tokens(text: str) -> list[str]:
    """A task's tokens: its text without issue/PR references, read as code."""
    return code_tokens(_ISSUE.sub(" ", text))


@dataclass(frozen=True)
class ContentIndex:
    """BM25 term weights of N files over V terms: a CSR matrix (V rows, N columns) as
    data/indices/indptr, and the vocabulary (term → row)."""

    vocab: dict[str, int]
    data: NDArray[np.float64]
    indices: NDArray[np.int32]
    indptr: NDArray[np.int64]
    n_files: int

    def matrix(self) -> sp.csr_matrix:
        return sp.csr_matrix((self.data, self.indices, self.indptr),
                             shape=(len(self.vocab), self.n_files))

    def scores(self, tasks: Sequence[Sequence[str]]) -> NDArray[np.float64]:
        """float64 (Q, N): bm25 of every task against every file."""
        rows, cols, vals = [], [], []
        for q, toks in enumerate(tasks):
            for t, n in Counter(toks).items():
                v = self.vocab.get(t)
                if v is not None:
                    rows.append(q)
                    cols.append(v)
                    vals.append(float(n))
        query = sp.csr_matrix((vals, (rows, cols)), shape=(len(tasks), len(self.vocab)))
        out: NDArray[np.float64] = np.asarray((query @ self.matrix()).todense(), np.float64)
        return out


def build_content_index(paths: Sequence[str], texts: Sequence[str], *, k1: float, b: float,
                        path_weight: float) -> ContentIndex:
    vocab: dict[str, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    tfs: list[float] = []
    lengths = np.zeros(len(paths))
    for f, (path, text) in enumerate(zip(paths, texts, strict=True)):
        counts: Counter[str] = token_counts(text)
        size = float(sum(counts.values()))
        for t, n in Counter(code_tokens(path.replace("/", " ").replace(".", " "))).items():
            counts[t] += path_weight * n  # type: ignore[assignment]
            size += path_weight * n
        lengths[f] = size
        for t, n in counts.items():
            rows.append(vocab.setdefault(t, len(vocab)))
            cols.append(f)
            tfs.append(float(n))
    n_files = len(paths)
    r = np.asarray(rows, np.int64)
    c = np.asarray(cols, np.int32)
    tf = np.asarray(tfs, np.float64)
    df = np.bincount(r, minlength=len(vocab)).astype(np.float64)
    idf = np.log1p((n_files - df + 0.5) / (df + 0.5))
    avg = float(lengths.mean()) if n_files and lengths.mean() > 0 else 1.0
    norm = k1 * (1.0 - b + b * lengths[c] / avg)
    w = idf[r] * tf / (tf + norm)
    m = sp.csr_matrix((w, (r, c)), shape=(len(vocab), n_files))
    m.sum_duplicates()
    return ContentIndex(vocab=vocab, data=m.data.astype(np.float64),
                        indices=m.indices.astype(np.int32), indptr=m.indptr.astype(np.int64),
                        n_files=n_files)
