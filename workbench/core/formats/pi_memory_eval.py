"""pi-lodestone's eval fixtures (`tests/fixtures/eval.jsonl`, REFERENCE.md §1) as a Dataset.

One case a line: `name, query, cwd, forInjection (default true), now (ISO), topK (default 5),
minScore (default 8), projectOnly, corpus (full decision records), expected_top_ids (each must
be in the top K), must_not_include (none may)`.

Every case brings its own corpus, and the Dataset has one corpus, so:

- the corpus is the union of the cases' decisions in file order. A decision keeps its id unless
  an earlier case already used that id for a different record; then it becomes
  `<id>@<line>` (the case's line; `#2`, `#3` … appended should that be taken too) and keeps
  `original_id` in its metadata. A record repeated verbatim in several cases is one document;
- each case is one Query (id = its name) whose context says
  what the harness does: `candidates` (the corpus positions of its own decisions, in its
  order), `cwd`, `now`, `for_injection`, `project_only` (default false), `limit` = `top_k` =
  topK, `min_score` (when the case gives one, or 8 for a case with forInjection false; an
  injection case without one follows the model's inject min score, whose default is the
  harness's 8), `expected_top_ids` and `must_not_include` (in corpus ids), `case`, `line`;
- judgments: expected ids grade 1, forbidden ids grade 0.

Within a case, two decisions with one id are an error (the corpus could not tell them apart);
two cases with one name are an error too (a report by case name could not tell them apart).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.core.data import Corpus, Dataset, Document, FormatError, Qrels, Query, QuerySet
from workbench.core.formats._common import StrPath, _json_type, empty_file, iter_jsonl
from workbench.core.formats.pi_memory import decision_document
from workbench.core.models.decision_memory.project import parse_time

HARNESS_TOP_K = 5
HARNESS_MIN_SCORE = 8
SIGNATURE = ("query", "corpus")


class _Union:
    """The corpus being built: documents, and per id the records seen and their position."""

    def __init__(self) -> None:
        self.docs: list[Document] = []
        self.ids: dict[str, int] = {}
        self.records: dict[str, int] = {}  # canonical JSON of a record → position

    def add(self, obj: dict[str, Any], path: Path, line: int, prefix: str) -> int:
        doc = decision_document(obj, path, line, prefix)
        key = json.dumps(obj, sort_keys=True, ensure_ascii=False)
        if key in self.records:
            return self.records[key]
        new_id, k = doc.id, 1
        if new_id in self.ids:
            new_id = base = f"{doc.id}@{line}"
            while new_id in self.ids:
                k += 1
                new_id = f"{base}#{k}"
            doc = decision_document(obj, path, line, prefix, doc_id=new_id)
        self.ids[new_id] = len(self.docs)
        self.records[key] = len(self.docs)
        self.docs.append(doc)
        return len(self.docs) - 1


def _get(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path, line: int,
         default: Any = None, *, required: bool = False) -> Any:
    if key not in obj or obj[key] is None:
        if required:
            raise FormatError(path, "missing", line=line, field=key)
        return default
    value = obj[key]
    bad_bool = isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple)
                                                        else (kind,))
    if not isinstance(value, kind) or bad_bool:
        names = {str: "a string", bool: "true or false", int: "an integer", list: "a list",
                 float: "a number"}
        want = " or ".join(names.get(k, k.__name__) for k in (
            kind if isinstance(kind, tuple) else (kind,)))
        raise FormatError(path, f"expected {want}, found {_json_type(value)}", line=line,
                          field=key)
    return value


def _ids(obj: dict[str, Any], key: str, path: Path, line: int, required: bool) -> list[str]:
    value = _get(obj, key, list, path, line, [], required=required)
    if not all(isinstance(v, str) for v in value):
        raise FormatError(path, "expected a list of decision ids (strings)", line=line,
                          field=key)
    return list(value)


def read_eval_cases(path: StrPath, *, name: str | None = None) -> Dataset:
    """An eval.jsonl file as a Dataset (see the module docstring for the mapping)."""
    path = Path(path)
    union = _Union()
    queries: list[Query] = []
    qrels: Qrels = {}
    names: dict[str, int] = {}  # case name → its line
    for line, obj in iter_jsonl(path):
        case = _get(obj, "name", str, path, line, required=True)
        if case in names:
            raise FormatError(path, f"duplicate case name {case!r} (first on line "
                              f"{names[case]})", line=line, field="name")
        names[case] = line
        text = _get(obj, "query", str, path, line, required=True)
        cwd = _get(obj, "cwd", str, path, line, required=True)
        now = _get(obj, "now", str, path, line, required=True)
        if parse_time(now) != parse_time(now):  # NaN
            raise FormatError(path, f"not an ISO date: {now!r}", line=line, field="now")
        inj = _get(obj, "forInjection", bool, path, line, True)
        top_k = _get(obj, "topK", int, path, line, HARNESS_TOP_K)
        if top_k < 0:
            raise FormatError(path, f"expected a count ≥ 0, found {top_k}", line=line,
                              field="topK")
        min_score = _get(obj, "minScore", (int, float), path, line)
        corpus = _get(obj, "corpus", list, path, line, required=True)
        if not corpus:
            raise FormatError(path, "an empty corpus", line=line, field="corpus")
        positions: list[int] = []
        local: dict[str, int] = {}
        for i, rec in enumerate(corpus):
            if not isinstance(rec, dict):
                raise FormatError(path, f"expected a decision object, found {_json_type(rec)}",
                                  line=line, field=f"corpus[{i}]")
            pos = union.add(rec, path, line, f"corpus[{i}].")
            rid = str(rec["id"])
            if rid in local:
                raise FormatError(path, f"duplicate id {rid!r} in the case (also "
                                  f"corpus[{local[rid]}])", line=line, field=f"corpus[{i}].id")
            local[rid] = i
            positions.append(pos)
        rename = {rid: union.docs[positions[i]].id for rid, i in local.items()}
        expected = [rename.get(x, x) for x in _ids(obj, "expected_top_ids", path, line, True)]
        forbidden = [rename.get(x, x) for x in _ids(obj, "must_not_include", path, line, False)]
        ctx: dict[str, Any] = {
            "case": case, "line": line, "cwd": cwd, "now": now, "for_injection": inj,
            "project_only": _get(obj, "projectOnly", bool, path, line, False),
            "top_k": top_k, "limit": top_k, "candidates": positions,
            "expected_top_ids": expected, "must_not_include": forbidden}
        if min_score is not None or not inj:
            ctx["min_score"] = HARNESS_MIN_SCORE if min_score is None else min_score
        queries.append(Query(case, text, ctx))
        grades = {d: 0 for d in forbidden}
        grades.update({d: 1 for d in expected})
        if grades:
            qrels[case] = grades
    if not queries:
        raise empty_file(path, "eval case", "name")
    stem = name or path.stem
    return Dataset(name=stem, corpus=Corpus(union.docs, name=stem),
                   queries=QuerySet(queries, name=stem), qrels=qrels or None, source=str(path))
