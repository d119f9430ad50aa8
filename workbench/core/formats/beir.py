"""BEIR folders: corpus.jsonl, queries.jsonl and qrels/<split>.tsv.

The layout of https://github.com/beir-cellar/beir (`GenericDataLoader`): one JSON object per
line with `_id`, `title`, `text` (and `metadata`) for documents, `_id`, `text` for queries; qrels
tab separated `query-id  corpus-id  score` with an optional header line. A record's id may be
named `id` too, as the plain reader takes it (hand-made BEIR-like folders and other tools'
exports write it); `_id` is read where a record has both.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from workbench.core.checks import refuse_unjudgeable
from workbench.core.data import (
    Corpus,
    Dataset,
    Document,
    FormatError,
    Places,
    Qrels,
    Query,
    QuerySet,
)
from workbench.core.formats._common import (
    MAX_GRADE,
    StrPath,
    check_unique,
    empty_file,
    get_id,
    get_object,
    get_str,
    get_tags,
    is_pipe,
    iter_jsonl,
    judged_subset,
    numbered_lines,
    open_bytes,
    parse_grade,
    path_kind,
    read_text,
)

QRELS_HEADER = ("query-id", "corpus-id", "score")
# the first bytes of a compressed file, and how one decompresses it keeping the original
PACKED_MAGIC = ((b"\x1f\x8b", "gzip", ".gz", "gunzip -k"), (b"BZh", "bzip2", ".bz2", "bunzip2 -k"),
                (b"\xfd7zXZ\x00", "xz", ".xz", "unxz -k"),
                (b"\x28\xb5\x2f\xfd", "zstd", ".zst", "unzstd"),
                (b"PK\x03\x04", "zip", ".zip", "unzip"))

# how each kind decompresses to standard output, inside `<(…)`
UNPACK_TO_STDOUT = {"gzip": "gunzip -c", "bzip2": "bunzip2 -c", "xz": "unxz -c",
                    "zstd": "unzstd -c", "zip": "unzip -p"}


def refuse_packed(path: Path) -> None:
    """A compressed file under a plain name (a download saved as corpus.jsonl, not
    decompressed): said with how to decompress it, not as "not UTF-8 text (byte 0x8b …)"."""
    try:
        with open_bytes(path) as f:
            head = f.read(8)
    except OSError:
        return  # not there or not a file: the reader says which
    for magic, kind, suffix, command in PACKED_MAGIC:
        if head.startswith(magic) and is_pipe(path):  # no name to rename (dr3 8)
            raise FormatError(path, f"{kind}-compressed (its first bytes are {kind}'s), not "
                              "text: decompress it in the command behind the pipe (for "
                              f"example: <({UNPACK_TO_STDOUT[kind]} FILE))", line=1,
                              field="encoding")
        if head.startswith(magic):
            named = path.name.lower().endswith(suffix)  # no `mv x.gz x.gz.gz` (dr5 5)
            raise FormatError(path, f"{kind}-compressed (its first bytes are {kind}'s), not "
                              "text: decompress it first (for example: "
                              + (f"{command} {path.name})" if named else
                                 f"mv {path.name} {path.name}{suffix} && {command} "
                                 f"{path.name}{suffix})"), line=1, field="encoding")


def _packed_command(packed: Path) -> str:
    return next((f"{command} {packed.name}" for _, _, suffix, command in PACKED_MAGIC
                 if packed.suffix == suffix), f"decompress {packed.name}")
ID_KEYS = ("_id", "id")  # BEIR's, then the plain reader's


def read_corpus_jsonl(path: StrPath, *, name: str = "corpus") -> Corpus:
    """Documents from a BEIR corpus.jsonl (`_id` or `id`, `text`; optional `title`,
    `metadata`, `tags`)."""
    path = Path(path)
    refuse_packed(path)
    docs: list[Document] = []
    seen: dict[str, int] = {}
    at = Places()  # each document's place, for a warning about its metadata
    for line, obj in iter_jsonl(path):
        doc_id = get_id(obj, ID_KEYS, path, line)
        check_unique(seen, doc_id, path, line, "_id" if "_id" in obj else "id")
        at.add(path, line)
        docs.append(Document(
            id=doc_id,
            title=get_str(obj, "title", path, line, required=False),
            text=get_str(obj, "text", path, line, required=True),
            tags=get_tags(obj, "tags", path, line),
            metadata=get_object(obj, "metadata", path, line),
        ))
    if not docs:
        raise empty_file(path, "document", "_id")
    return Corpus(docs, name=name, at=at)


def read_queries_jsonl(path: StrPath, *, name: str = "queries") -> QuerySet:
    """Queries from a BEIR queries.jsonl (`_id` or `id`, `text`; optional `metadata` → context)."""
    path = Path(path)
    refuse_packed(path)
    queries: list[Query] = []
    seen: dict[str, int] = {}
    at: dict[str, str] = {}  # each query's place, for a warning about its context
    for line, obj in iter_jsonl(path):
        query_id = get_id(obj, ID_KEYS, path, line)
        check_unique(seen, query_id, path, line, "_id" if "_id" in obj else "id")
        at[query_id] = f"{path}:{line}"
        queries.append(Query(
            id=query_id,
            text=get_str(obj, "text", path, line, required=True),
            context=get_object(obj, "metadata", path, line),
        ))
    if not queries:
        raise empty_file(path, "query", "_id")
    return QuerySet(queries, name=name, at=at)


# settings key: the query ids a judgments file judges that the query set lacks (left aside)
QRELS_UNMATCHED = "qrels_unmatched"


def read_qrels_tsv(
    path: StrPath,
    query_ids: Collection[str] | None = None,
    doc_ids: Collection[str] | None = None,
) -> Qrels:
    """Graded judgments from a BEIR qrels file: `query-id<TAB>corpus-id<TAB>score`.

    With `query_ids`, a line naming another query is an error. With `doc_ids`, so is a line
    naming another document; leave it None to keep such lines, as trec_eval counts them as
    relevant documents no run can retrieve (`read_beir` does).
    """
    path = Path(path)
    refuse_packed(path)
    qrels: Qrels = {}
    seen: dict[tuple[str, str], int] = {}
    header = False
    for line, text in numbered_lines(read_text(path)):
        cols = [c.strip() for c in text.split("\t")]
        if not seen and tuple(c.lower() for c in cols) == QRELS_HEADER:
            header = True
            continue
        if not seen and len(cols) == 3 and [c.lower() for c in cols[:2]] == \
                list(QRELS_HEADER[:2]):  # a header, of another column than the grades
            raise FormatError(path, f"its header names {cols[2]!r} where BEIR's qrels have "
                              "'score' (the grade, higher = more relevant): not judgments "
                              "to score by as they are", line=line, field="score")
        if len(cols) != 3:
            hint = ", separated by tabs" if len(text.split()) == 3 else ""
            raise FormatError(
                path, f"expected 3 columns (query-id, corpus-id, score{hint}), found {len(cols)}",
                line=line, field="columns")
        if not seen and not header and len(cols) == 3 and _is_a_name(cols[2]):
            # `query_id doc_id relevance`: another tool's header, not a bad grade on line 1
            # said once as a header, by the field (dr7 8: "field 'header': a header")
            raise FormatError(path, f"column names ({', '.join(cols)}), not a judgment: "
                              "BEIR's are query-id<TAB>corpus-id<TAB>score; rename them so, "
                              "or remove the line", line=line, field="header")
        qid, did, grade_text = cols
        if not qid:
            raise FormatError(path, "empty id", line=line, field="query-id")
        if not did:
            raise FormatError(path, "empty id", line=line, field="corpus-id")
        try:
            grade = parse_grade(grade_text)
        except ValueError:
            raise FormatError(path, f"expected an integer grade (within ±{MAX_GRADE:,}), found "
                              f"{grade_text!r}",
                              line=line, field="score") from None
        if query_ids is not None and qid not in query_ids:
            raise FormatError(path, f"unknown query id {qid!r}", line=line, field="query-id")
        if doc_ids is not None and did not in doc_ids:
            raise FormatError(path, f"unknown document id {did!r}", line=line,
                              field="corpus-id")
        first = seen.setdefault((qid, did), line)
        if first != line:
            raise FormatError(path, f"duplicate judgment for ({qid!r}, {did!r}) "
                              f"(first on line {first})", line=line, field="corpus-id")
        qrels.setdefault(qid, {})[did] = grade
    if not qrels:
        if header:  # not empty: a header and nothing under it
            raise FormatError(path, "no judgments under the header line: expected "
                              "query-id<TAB>corpus-id<TAB>score lines", line=2,
                              field="query-id")
        raise empty_file(path, "judgment", "query-id")
    return qrels


def _is_a_name(text: str) -> bool:
    """A header's column name (relevance, label), not a grade written wrong (1.5, +-1)."""
    return bool(text) and not any(c.isdigit() for c in text) and text.lower() not in (
        "nan", "inf", "infinity", "-inf")


def read_beir(folder: StrPath, split: str = "test") -> Dataset:
    """A BEIR dataset folder.

    Queries come from `queries.<split>.jsonl` where it exists, else `queries.jsonl`; judgments
    from `qrels/<split>.tsv` where it exists. With judgments the query set is restricted to the
    judged queries (SciFact: 1,109 queries, 300 judged in test).
    """
    folder = Path(folder)
    name = folder.resolve().name or str(folder)
    corpus_path = folder / "corpus.jsonl"
    if not corpus_path.is_file():
        raise FormatError(folder, "not a BEIR folder: no corpus.jsonl", field="corpus.jsonl")
    corpus = read_corpus_jsonl(corpus_path, name=name)

    queries_path = folder / f"queries.{split}.jsonl"
    if not queries_path.is_file():
        queries_path = folder / "queries.jsonl"
    if queries_path.exists() and not queries_path.is_file():  # not "without queries.jsonl"
        raise FormatError(queries_path, f"{path_kind(queries_path)}, not a file: BEIR queries "
                          "are read from a file of JSON lines", field="path")
    qrels_path = folder / "qrels" / f"{split}.tsv"
    if not qrels_path.is_file():
        _refuse_misplaced_qrels(folder, split)
        files = sorted(p for p in (folder / "qrels").glob("*.tsv") if p.is_file())
        # raw_cranqrel.tsv beside Cranfield's splits holds codes, not grades: no split
        others = sorted(p.stem for p in files if not other_header(p))  # as offered
        if files:
            raise FormatError(folder, f"no qrels/{split}.tsv (" + (
                f"splits here: {', '.join(others)}" if others else
                f"qrels/{files[0].name} holds no grades to score by") + ")", field="split")
        if queries_path.is_file():
            queries = read_queries_jsonl(queries_path, name=name)
        else:
            queries = QuerySet((), name=name)
        return Dataset(name=name, corpus=corpus, queries=queries, source=str(folder))

    if not queries_path.is_file():
        raise FormatError(folder, f"qrels/{split}.tsv without queries.jsonl", field="queries")
    queries = read_queries_jsonl(queries_path, name=name)
    qrels = read_qrels_tsv(qrels_path)
    # judgments of queries queries.jsonl lacks are left aside and said, as trec_eval leaves
    # them and as --qrels reads the same file; one that judges none of them is the wrong
    # file: the strict read names its first line
    unmatched = sorted(q for q in qrels if q not in queries.index)
    settings: dict[str, object] = {}
    if unmatched and len(unmatched) == len(qrels):
        read_qrels_tsv(qrels_path, query_ids=queries.index)
    if unmatched:
        qrels = {q: j for q, j in qrels.items() if q in queries.index}
        settings[QRELS_UNMATCHED] = unmatched
    refuse_unjudgeable(qrels, corpus, qrels_path)
    judged = judged_subset(queries, qrels)
    return Dataset(name=name, corpus=corpus, queries=judged, qrels=qrels, source=str(folder),
                   settings=settings, unjudged_left_out=len(queries) - len(judged))


def _refuse_misplaced_qrels(folder: Path, split: str) -> None:
    """Judgments that are there but not where or as they are read (`qrels` a file,
    `qrels/test.tsv` a folder, `qrels/test.tsv.gz`): said, not read as "no judgments"."""
    qrels = folder / "qrels"
    if qrels.exists() and not qrels.is_dir():
        raise FormatError(qrels, "a file, not a folder: a BEIR folder's judgments are read "
                          f"from qrels/<split>.tsv (move this one to qrels/{split}.tsv)",
                          field="path")
    wanted = qrels / f"{split}.tsv"
    if wanted.exists() and not wanted.is_file():
        raise FormatError(wanted, f"{path_kind(wanted)}, not a file: BEIR judgments are read "
                          "from a tab-separated file", field="path")
    for packed in sorted(qrels.glob(f"{split}.tsv.*")):
        if packed.is_file() and any(packed.suffix == m[2] for m in PACKED_MAGIC):
            raise FormatError(packed, f"BEIR judgments are read as plain {split}.tsv; "
                              f"decompress this one first (for example: "
                              f"{_packed_command(packed)})", field="path")


def other_header(path: Path) -> bool:
    """Whether a qrels file opens with a header line naming another third column than
    `score` (`query-id  corpus-id  cleverdon-code`)."""
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as f:
            cols = [c.strip().lower() for c in f.readline().split("\t")]
    except OSError:
        return False
    return len(cols) == 3 and cols[:2] == ["query-id", "corpus-id"] and cols[2] != "score"
