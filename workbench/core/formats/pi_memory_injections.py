"""pi-lodestone's injection log (`injections.jsonl`, REFERENCE.md §1).

One JSON object a line, written before each turn when diagnostics are on: `ts, cwd, project,
promptPreview (only when previews are enabled), promptCharCount, minScore, limit, globalInject,
results[{id, title, kind, source, score, snippetLength}]`.

As the original's `readRecentInjections`: the last `last` non-blank lines are read (all by
default) and a line that is not a usable record is skipped — here counted, with its line and
why, in `InjectionLog.skipped`. The file is read as Node reads it: bytes that are not UTF-8 as
U+FFFD, and a lone surrogate escape (a preview cut inside an emoji), which JSON.parse reads, as
U+FFFD too (`replace_lone_surrogates`); such a record loads, its line named in
`InjectionLog.kept`. A record without `promptPreview` (the default configuration) is
a record; the original's `/memory why` crashes on it, ours does not.
`injection_queries` turns the records that have a preview into prompt queries.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.data import FormatError, Query, QuerySet
from workbench.core.formats._common import (
    StrPath,
    _has_lone_surrogate,
    _json_type,
    json_loads,
    json_problem,
    read_text,
    replace_lone_surrogates,
)


@dataclass(frozen=True)
class InjectedMemory:
    id: str
    title: str
    kind: str
    source: str
    score: float
    snippet_length: int


@dataclass(frozen=True)
class InjectionRecord:
    line: int
    ts: str
    cwd: str
    project: str
    prompt_preview: str | None
    prompt_char_count: int
    min_score: float
    limit: int
    global_inject: bool
    results: tuple[InjectedMemory, ...]


@dataclass(frozen=True)
class InjectionLog:
    path: str
    records: tuple[InjectionRecord, ...]
    skipped: tuple[tuple[int, str], ...] = field(default=())
    # (line, what): records loaded with a flaw, read as pi-lodestone reads them
    kept: tuple[tuple[int, str], ...] = field(default=())

    @property
    def n_skipped(self) -> int:
        return len(self.skipped)


class _Bad(ValueError):
    pass


def _typed(obj: dict[str, Any], key: str, kind: str) -> Any:
    if key not in obj:
        raise _Bad(f"field '{key}': missing")
    v = obj[key]
    ok = {"str": isinstance(v, str), "bool": isinstance(v, bool),
          "num": isinstance(v, int | float) and not isinstance(v, bool)
          and math.isfinite(v)}[kind]
    if not ok:
        said = {"num": "a number", "str": "a string", "bool": "true or false"}[kind]
        raise _Bad(f"field '{key}': expected {said}, found {_json_type(v)}")
    return v


def _result(obj: object, i: int) -> InjectedMemory:
    if not isinstance(obj, dict):
        raise _Bad(f"field 'results[{i}]': expected an object, found {_json_type(obj)}")
    try:
        source = _typed(obj, "source", "str")
        return InjectedMemory(
            id=_typed(obj, "id", "str"), title=_typed(obj, "title", "str"),
            kind=obj["kind"] if isinstance(obj.get("kind"), str) else source, source=source,
            score=float(_typed(obj, "score", "num")),
            snippet_length=int(_typed(obj, "snippetLength", "num")))
    except _Bad as e:
        raise _Bad(str(e).replace("field '", f"field 'results[{i}].", 1)) from None


def parse_record(obj: object, line: int) -> InjectionRecord:
    """One log record; raises ValueError naming the field when it is not usable."""
    if not isinstance(obj, dict):
        raise _Bad(f"expected a JSON object, found {_json_type(obj)}")
    results = obj.get("results")
    if not isinstance(results, list):
        raise _Bad("field 'results': " + ("missing" if "results" not in obj else
                                          f"expected a list, found {_json_type(results)}"))
    preview = obj.get("promptPreview")  # absent or null: previews off (the default)
    if preview is not None and not isinstance(preview, str):  # not "no preview logged"
        raise _Bad(f"field 'promptPreview': expected a string, found {_json_type(preview)}")
    limit = _typed(obj, "limit", "num")
    if limit < 0:  # ra 8: "limit: -3" had been read as a limit ("turns: -3–3")
        raise _Bad(f"field 'limit': expected a number of 0 or more, found {limit:g}")
    return InjectionRecord(
        line=line, ts=_typed(obj, "ts", "str"), cwd=_typed(obj, "cwd", "str"),
        project=_typed(obj, "project", "str"),
        prompt_preview=preview,
        prompt_char_count=int(_typed(obj, "promptCharCount", "num")),
        min_score=float(_typed(obj, "minScore", "num")),
        limit=int(limit),
        global_inject=_typed(obj, "globalInject", "bool"),
        results=tuple(_result(r, i) for i, r in enumerate(results)))


def read_injections(path: StrPath, *, last: int | None = None) -> InjectionLog:
    """The log's records, corrupt lines skipped and counted. With `last`, those of its last
    `last` non-empty lines, as pi-lodestone's why-stats takes them: a corrupt line, or one of
    spaces or a lone `\r`, is one of them (the latter skipped without a word)."""
    path = Path(path)
    content, bad_bytes = _read_as_node(path)
    lines = [(i, raw) for i, raw in enumerate(content.split("\n"), start=1) if raw]
    if last is not None:
        lines = lines[-max(1, last):]
    records: list[InjectionRecord] = []
    skipped: list[tuple[int, str]] = []
    kept: list[tuple[int, str]] = []
    for lineno, raw in lines:
        text = raw[:-1] if raw.endswith("\r") else raw
        if not text.strip():
            continue
        found: list[tuple[str, str]] = []
        try:
            obj = json_loads(text)
            if "\\u" in text and _has_lone_surrogate(obj):
                obj = replace_lone_surrogates(obj, found)
            records.append(parse_record(obj, lineno))
        except (ValueError, RecursionError) as e:
            reason = (json_problem(e) if isinstance(e, json.JSONDecodeError | RecursionError)
                      else str(e))
            skipped.append((lineno, reason or "invalid JSON"))
            continue
        if lineno in bad_bytes:
            kept.append((lineno, f"{bad_bytes[lineno]}: read with U+FFFD in place of each bad "
                                 "sequence, as Node reads the file"))
        if found:
            where, escape = found[0]
            kept.append((lineno, f"field '{where}': a lone surrogate escape {escape} (half of "
                                 "a character cut in two): read as U+FFFD, as JSON.parse "
                                 "reads it"))
    return InjectionLog(str(path), tuple(records), tuple(skipped), tuple(kept))


def _read_as_node(path: Path) -> tuple[str, dict[int, str]]:
    """The file's text as Node's `readFileSync(path, 'utf8')` gives it (bytes that are not
    UTF-8 as U+FFFD, a leading BOM dropped), and for each line holding such bytes what the
    first of them was."""
    try:
        return read_text(path), {}
    except FormatError as err:
        # UTF-16 (Notepad's "Unicode") is no log Node can read line by line: said as such
        if err.field != "encoding" or "UTF-16" in str(err):
            raise
    data = path.read_bytes()
    bad: dict[int, str] = {}
    start = 0
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad[lineno] = (f"not UTF-8 text (byte 0x{raw[e.start]:02x} at offset "
                           f"{start + e.start})")
        start += len(raw) + 1
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff"), bad


def injection_queries(log: InjectionLog, *, name: str = "injections") -> QuerySet:
    """The logged prompts (records with a preview) as prompt queries in injection mode: id
    `turn-<line>`, context cwd, now = ts, prompt true, for_injection true, and what the turn
    injected (`injected_ids`, `injected_scores`). Previews are cut to 200 characters by the
    original, so a compacted preview may hold fewer tokens than the prompt did."""
    return QuerySet((Query(f"turn-{r.line}", r.prompt_preview, {
        "cwd": r.cwd, "now": r.ts, "prompt": True, "for_injection": True,
        "injected_ids": [m.id for m in r.results],
        "injected_scores": [m.score for m in r.results]})
        for r in log.records if r.prompt_preview), name=name)


def no_prompts_reason(folder: Path) -> str:
    """Why the memory folder `folder` has no queries, its injections.jsonl named: it is not
    there, holds no line, holds no usable record (the first skipped line said), or none of
    its N records has a promptPreview (pi-lodestone logs the prompt only with previews on)."""
    log = folder / "injections.jsonl"
    if not log.is_file():
        return (f"{folder}: no {log.name} (the log of turns whose prompts are a memory "
                "folder's queries)" if not log.exists() else f"{log}: not a file")
    try:
        found = read_injections(log)
    except (FormatError, OSError) as err:
        return f"{log}: {err}"
    if found.records:
        n = len(found.records)
        whose = "its one record has no" if n == 1 else f"none of its {n:,} records has a"
        return (f"{log}: {whose} promptPreview (pi-lodestone logs the prompt only while "
                "previews are on), so no turn can be asked again")
    if found.skipped:
        line, why = found.skipped[0]
        n = len(found.skipped)
        whose = "its one line is no" if n == 1 else f"none of its {n:,} lines is a"
        return f"{log}: {whose} usable record (line {line}: {why})"
    return f"{log}: empty (no turn logged)"
