"""The data model every model, format and face shares.

A `Dataset` is a corpus, a query set and (optionally) graded judgments. Documents and queries are
addressed by string id in files and by integer position in arrays: `Corpus.index` maps one to the
other, and every array the engine produces indexes documents by position.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_SPLIT = "test"  # the split of a BEIR or OpenVault folder read unless another is named


class FormatError(ValueError):
    """Bad input: one message naming the file, the line and the field.

    str() of the error is the one line the CLI prints and the GUI shows.
    """

    def __init__(
        self,
        path: str | Path,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.path = str(path)
        self.line = line
        self.field = field
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        # "path" is the file itself, named first already, and "json" the JSON's own syntax
        # ("invalid JSON at column 25: …", "expected a JSON object"): no field to name
        what = f"field '{field}': " if field and field not in ("path", "json") else ""
        super().__init__(f"{where}: {what}{message}")


@dataclass(frozen=True)
class Document:
    """One retrievable item: a paper, a note, a memory, a decision, a source file.

    `metadata` holds typed extras a model may read (importance, createdAt, cwd, path …);
    it is never searched as text unless a model says so.
    """

    id: str
    title: str = ""
    text: str = ""
    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Query:
    """One query with the context it was asked in (cwd, a pinned `now`, chat messages …)."""

    id: str
    text: str
    context: Mapping[str, Any] = field(default_factory=dict)


def display_title(corpus: Corpus, doc: Document) -> str:
    """The title a reader tells documents apart by: the document's title, its first line
    where it has none, and both where its title is a label many documents may share
    (OpenVault's event types: "action" on half the memories tells them apart by nothing).
    The ranked table, movers, the compare view and reports all name documents so."""
    if not doc.title:
        return _first_line(doc.text)
    if doc.text.strip() and (_is_label(doc) or _titles_are_labels(corpus)):
        return f"{doc.title}: {_first_line(doc.text)}"
    return str(doc.title)


def _is_label(doc: Document) -> bool:
    """Whether the title is an OpenVault memory's event type ("action", "revelation"): a
    label at any corpus size (a new chat's 5 memories read "action, action, action …")."""
    return doc.metadata.get("event_type") == doc.title


def _titles_are_labels(corpus: Corpus) -> bool:
    """Whether the corpus's titles tell its documents apart by nothing: every titled
    document has the same one (two or more), or, from 10 titled documents, fewer than one in
    five is a title of its own. Under 10 the share says nothing (3 of 9 distinct is a third,
    and 9 papers may share 3 section names as titles), so distinct titles there stay as
    they are. Computed once per corpus."""
    known: bool | None = getattr(corpus, "_titles_are_labels", None)
    if known is None:
        titles = [d.title for d in corpus if d.title]
        distinct = len(set(titles))
        known = (len(titles) >= 2 and distinct == 1) or (
            len(titles) >= 10 and distinct < 0.2 * len(titles))
        corpus._titles_are_labels = known  # type: ignore[attr-defined]
    return known


def _first_line(text: str, width: int = 120) -> str:
    """The first line, at most `width` characters: a longer one cut at a word with "…" (cut
    mid-word, "the abandoned obse" read as a typo of the text printed under it)."""
    line = text.strip().split("\n", 1)[0]
    if len(line) <= width:
        return line
    cut = line[:width - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > width // 2 else cut).rstrip(" ,;:—-") + "…"


class Places:
    """Where each document of a corpus was read, in the documents' order: one string per file
    and two integers per document, formatted as "FILE:LINE" only when a warning asks (a
    "FILE:LINE" string per document cost about 117 bytes each, 1 GB for 8.8M passages, on
    every corpus, though only importance's warnings read it: dr3 5)."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self._numbers: dict[str, int] = {}
        self.file_of = array("L")  # the i-th document's file, a position in `files`
        self.line_of = array("L")  # the i-th document's line (1-based)

    def add(self, path: str | Path, line: int) -> None:
        """The next document's place."""
        key = str(path)
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = len(self.files)
            self.files.append(key)
        self.file_of.append(number)
        self.line_of.append(line)

    def __len__(self) -> int:
        return len(self.line_of)

    def place(self, i: int) -> str:
        """The i-th document's "FILE:LINE"."""
        return f"{self.files[self.file_of[i]]}:{self.line_of[i]}"


class _PlacesById(Mapping[str, str]):
    """`Places` read by document id, through the corpus's index."""

    def __init__(self, places: Places, index: Mapping[str, int]) -> None:
        self._places = places
        self._index = index

    def __getitem__(self, doc_id: str) -> str:
        i = self._index[doc_id]
        if i >= len(self._places):
            raise KeyError(doc_id)
        return self._places.place(i)

    def __len__(self) -> int:
        return min(len(self._index), len(self._places))

    def __iter__(self) -> Iterator[str]:
        n = len(self._places)
        return (doc_id for doc_id, i in self._index.items() if i < n)


class Corpus:
    """An ordered, id-unique collection of documents.

    `at` maps each document id to its record's place ("FILE:LINE") where the reader knows it,
    for a warning about one document's metadata (rm 8), as `QuerySet.at` does for a query:
    beside the documents, no part of the data or its fingerprint. A reader gives it as
    `Places`, in the documents' order (kept compact), or as a mapping."""

    def __init__(self, documents: Iterable[Document], *, name: str = "corpus",
                 at: Places | Mapping[str, str] | None = None) -> None:
        self.documents: tuple[Document, ...] = tuple(documents)
        self.name = name
        self.index: dict[str, int] = {}
        for i, doc in enumerate(self.documents):
            if doc.id in self.index:
                raise ValueError(f"duplicate document id {doc.id!r} in {name}")
            self.index[doc.id] = i
        self.at: Mapping[str, str] = (_PlacesById(at, self.index) if isinstance(at, Places)
                                      else dict(at or {}))

    def __len__(self) -> int:
        return len(self.documents)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __getitem__(self, i: int) -> Document:
        return self.documents[i]

    @property
    def ids(self) -> list[str]:
        return [d.id for d in self.documents]

    def get(self, doc_id: str) -> Document | None:
        i = self.index.get(doc_id)
        return None if i is None else self.documents[i]

    def content_key(self) -> str:
        """A hash of the documents' ids, titles and texts (not their metadata, which history
        and use change): the same documents under another folder name share it. Computed
        once per corpus."""
        key: str | None = getattr(self, "_content_key", None)
        if key is None:
            h = hashlib.sha256()
            for d in self.documents:
                h.update(_canon((d.id, d.title, d.text)))
            key = self._content_key = h.hexdigest()[:32]
        return key


class QuerySet:
    """An ordered, id-unique list of queries.

    `no_text` maps a query id to why the reader found no text for it ("FILE:LINE: field
    'messages': why"), said by `checks.load_warnings`. It sits beside the queries, not in a
    query's context: a path is no part of the data, so the fingerprint, a typed query and a
    saved session never see it (dr3 1, dr3 10).

    `keys_at` maps each context key a query file gives to where it first gives it
    ("FILE:LINE"), so that a key the model does not read is said with its place (rv 51 1);
    beside the queries for the same reason. `at` maps each query id to its record's place
    ("FILE:LINE"), for a warning about one query's context (rv2 4, 7)."""

    def __init__(self, queries: Iterable[Query], *, name: str = "queries",
                 no_text: Mapping[str, str] | None = None,
                 keys_at: Mapping[str, str] | None = None,
                 at: Mapping[str, str] | None = None) -> None:
        self.queries: tuple[Query, ...] = tuple(queries)
        self.name = name
        self.no_text: dict[str, str] = dict(no_text or {})
        self.keys_at: dict[str, str] = dict(keys_at or {})
        self.at: dict[str, str] = dict(at or {})
        self.index: dict[str, int] = {}
        for i, q in enumerate(self.queries):
            if q.id in self.index:
                raise ValueError(f"duplicate query id {q.id!r} in {name}")
            self.index[q.id] = i

    def __len__(self) -> int:
        return len(self.queries)

    def __iter__(self) -> Iterator[Query]:
        return iter(self.queries)

    def __getitem__(self, i: int) -> Query:
        return self.queries[i]

    @property
    def ids(self) -> list[str]:
        return [q.id for q in self.queries]

    def subset(self, ids: Iterable[str]) -> QuerySet:
        keep = set(ids)
        return QuerySet((q for q in self.queries if q.id in keep), name=self.name,
                        no_text={k: v for k, v in self.no_text.items() if k in keep},
                        keys_at=self.keys_at,
                        at={k: v for k, v in self.at.items() if k in keep})


Qrels = dict[str, dict[str, int]]
"""Graded judgments: query id → document id → grade (0 = judged not relevant)."""

Run = dict[str, dict[str, float]]
"""A run: query id → document id → score, as in a TREC run file."""


@dataclass(frozen=True)
class Dataset:
    """What the workbench opens: a corpus, its queries and, where there are any, judgments."""

    name: str
    corpus: Corpus
    queries: QuerySet
    qrels: Qrels | None = None
    source: str = ""
    # the source system's own settings read beside the data (a pi-memory folder's
    # settings.json); models may read them in prepare
    settings: Mapping[str, Any] = field(default_factory=dict)
    # the queries of the query file its judgments do not judge, left out of `queries` (BEIR's
    # convention: CISI's queries.jsonl holds 112, its qrels judge 76); said beside the counts
    unjudged_left_out: int = 0

    @property
    def judged(self) -> bool:
        return bool(self.qrels)

    def fingerprint(self) -> str:
        """A hash of everything a model's prepare stage may read (texts, tags, metadata,
        queries and their context), so a changed file invalidates cached preparation."""
        h = hashlib.sha256()
        for part in self._corpus_parts():
            h.update(part)
        h.update(b"\x00queries\x00")
        for q in self.queries:
            context, vector = _split_vector(q.context)
            h.update(_canon((q.id, q.text, context)) + vector)
        settings = self._prepared_settings()
        if settings:  # absent settings leave every earlier fingerprint as it was
            h.update(b"\x00settings\x00" + _canon(settings))
        return h.hexdigest()

    def _prepared_settings(self) -> dict[str, Any]:
        """The settings a prepare stage may read: the loading's own notes (LOAD_NOTES) left
        out, which name the files by the path the data was opened by."""
        return {k: v for k, v in (self.settings or {}).items() if k not in LOAD_NOTES}

    def corpus_fingerprint(self) -> str:
        """`fingerprint` without the queries: what a model's corpus-only stage may read (the
        documents and the settings beside them)."""
        h = hashlib.sha256(b"corpus\x00")
        for part in self._corpus_parts():
            h.update(part)
        settings = self._prepared_settings()
        if settings:
            h.update(b"\x00settings\x00" + _canon(settings))
        return h.hexdigest()

    def _corpus_parts(self) -> Iterator[bytes]:
        for d in self.corpus:
            meta, vector = _split_vector(d.metadata)
            yield _canon((d.id, d.title, d.text, d.tags, meta)) + vector


def _split_vector(values: Mapping[str, Any]) -> tuple[dict[str, Any], bytes]:
    """A stored `embedding` hashed as its float64 bytes, not as JSON text: hashing 100k
    vectors of 384 floats through json.dumps took 16 s on every command. The rest as it is
    (a record without a numeric vector hashes exactly as before)."""
    import numpy as np

    out = dict(values)
    vector = out.get("embedding")
    if isinstance(vector, np.ndarray):  # a reader's float64 vector: its list, as bytes
        if vector.ndim != 1 or not len(vector) or vector.dtype.kind not in "fiu":
            out["embedding"] = vector.tolist()
            return out, b""
        out["embedding"] = f"<float64 × {len(vector)}>"
        return out, np.asarray(vector, np.float64).tobytes()
    if not isinstance(vector, list) or not vector:
        return out, b""

    try:
        array = np.asarray(vector, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return out, b""
    if array.ndim != 1:
        return out, b""
    out["embedding"] = f"<float64 × {len(vector)}>"
    return out, array.tobytes()


# settings the loading keeps for its warnings (`checks.load_warnings`), never read by a model:
# they name files by the path the data was opened by, so the same data opened by a relative
# path, or copied, had another fingerprint (its tune studies started anew, its prepare cache
# missed; as dr3 1 found for a context's note)
LOAD_NOTES = frozenset({"injections_skipped", "injections_kept", "trec_files_skipped",
                        "pyserini_files_skipped", "qrels_unmatched", "trec_not_utf8",
                        "vault_shards_skipped", "pyserini_notes_outnumbered",
                        "trec_files_not_text", "read_as_documents",
                        "qrels_unicode_matched"})


def _canon(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False).encode() + b"\x1e"
