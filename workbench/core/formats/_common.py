"""Shared pieces of the readers: decoding, line splitting and typed field access.

Every helper raises `FormatError` naming the file, the 1-based line and the field; no raw
`UnicodeDecodeError`, `json.JSONDecodeError` or `KeyError` leaves this package.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import IO, Any

from workbench.core.data import FormatError, Qrels, QuerySet

StrPath = str | os.PathLike[str]
"""Anything the readers accept as a path."""


# the bytes of each pipe read within `pipes_read_once`, by (device, inode)
_PIPES: ContextVar[dict[tuple[int, int], bytes] | None] = ContextVar("_PIPES", default=None)


@contextmanager
def pipes_read_once() -> Iterator[None]:
    """Within: a pipe (`--qrels <(cat qrels.tsv)`, a named pipe) is read once, when first
    looked at, and its bytes kept for every later look. The readers sniff a file (its first
    bytes, its first line) before they read it: a pipe read a second time is empty, and a
    pipe of judgments had been "empty file: expected at least one judgment" (ra 1)."""
    if _PIPES.get() is not None:  # within an outer one: its bytes are kept there
        yield
        return
    token = _PIPES.set({})
    try:
        yield
    finally:
        _PIPES.reset(token)


def read_bytes(path: Path) -> bytes:
    """The bytes of `path`, as `Path.read_bytes` gives them (and raising what it raises), a
    pipe's read once within `pipes_read_once`. A named pipe that nothing writes to is a
    FormatError, not a wait for ever."""
    try:
        info = path.stat()
    except OSError:
        return path.read_bytes()  # raises what it says
    if not stat.S_ISFIFO(info.st_mode):
        return path.read_bytes()
    kept = _PIPES.get()
    key = (info.st_dev, info.st_ino)
    if kept is not None and key in kept:
        return kept[key]
    # opened without waiting for a writer (a plain open waits for one); with none, the first
    # read is the end of the file at once, where one that writes later would block
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        try:
            first = os.read(fd, 1 << 16)
        except BlockingIOError:  # a writer, nothing written yet
            first = None
        if first == b"" and is_anonymous_pipe(path):  # `<(cmd)`: cmd has ended (dr3 8)
            raise FormatError(path, "the command behind the pipe wrote nothing: check what it "
                              "reads, or give a file", field="path")
        if first == b"":
            raise FormatError(path, "a named pipe (FIFO) with no writer connected when it was "
                              "opened (or closed empty): give a file, or start what writes to "
                              "the pipe first", field="path")
        os.set_blocking(fd, True)
        chunks = [first or b""]
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if kept is not None:
        kept[key] = data
    return data


def is_pipe(path: Path) -> bool:
    """Whether `path` is a pipe: `<(cmd)`'s /dev/fd/N, or a named pipe (FIFO)."""
    try:
        return stat.S_ISFIFO(path.stat().st_mode)
    except OSError:
        return False


def is_anonymous_pipe(path: Path) -> bool:
    """Whether `path` names an open file descriptor (`<(cmd)` gives /dev/fd/N) rather than a
    named pipe made with mkfifo: no name to rename, its writer a command already started."""
    text = str(path)
    return text.startswith(("/dev/fd/", "/proc/self/fd/")) or (
        text.startswith("/proc/") and "/fd/" in text)


def open_bytes(path: Path) -> IO[bytes]:
    """`path` opened for reading bytes (`path.open("rb")`), a pipe's from `read_bytes`: what a
    sniff of the first bytes or the first line opens."""
    try:
        piped = stat.S_ISFIFO(path.stat().st_mode)
    except OSError:
        piped = False
    return io.BytesIO(read_bytes(path)) if piped else path.open("rb")


def read_text(path: Path, *, strip_bom: bool = True) -> str:
    """The file decoded as UTF-8, newlines untouched (`\\r\\n` stays `\\r\\n`)."""
    try:
        data = read_bytes(path)
    except FileNotFoundError:
        raise FormatError(path, "no such file") from None
    except IsADirectoryError:
        raise FormatError(path, "expected a file, found a folder") from None
    except OSError as e:
        raise FormatError(path, f"cannot read: {e.strerror or e}") from None
    return decode_text(path, data, strip_bom=strip_bom)


def decode_text(path: Path, data: bytes, *, strip_bom: bool = True) -> str:
    """`data`, the bytes of `path` (decompressed, where it was packed), as UTF-8 text; bytes
    that are not UTF-8 are an error naming the line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # Notepad's "Unicode"
            raise FormatError(path, "UTF-16 text (it starts with a UTF-16 byte order mark): "
                              "save it as UTF-8", line=1, field="encoding") from None
        line = data.count(b"\n", 0, e.start) + 1
        raise FormatError(
            path,
            f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})",
            line=line,
            field="encoding",
        ) from None
    if strip_bom and text.startswith("\ufeff"):
        text = text[1:]
    return text


def decode_replacing(path: Path, data: bytes) -> tuple[str, int, int]:
    """`data`, the bytes of `path`, as UTF-8 text with every byte sequence that is not UTF-8
    read as U+FFFD, as Java's `InputStreamReader(…, UTF_8)` reads it (Anserini's TREC readers:
    a crawl keeps each page in its server's charset). (text, bytes not UTF-8, line of the
    first of them or 0). UTF-16 text (its byte order mark) is still an error."""
    try:
        return decode_text(path, data), 0, 0
    except FormatError:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16: its own error
            raise
    escaped = data.decode("utf-8", errors="surrogateescape")  # one surrogate a byte not UTF-8
    first = _NOT_UTF8.search(escaped)
    count = len(_NOT_UTF8.findall(escaped))
    line = escaped.count("\n", 0, first.start()) + 1 if first is not None else 0
    text = data.decode("utf-8", errors="replace")
    return (text[1:] if text.startswith("\ufeff") else text), count, line


_NOT_UTF8 = re.compile("[\udc80-\udcff]")


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based line number, line without its `\\n`/`\\r\\n`) for every non-blank line.

    Splits on `\\n` only: `str.splitlines` would also split inside a JSON string holding
    U+2028 or a form feed.
    """
    for i, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if line.strip():
            yield i, line


_GRADE = re.compile(r"[+-]?[0-9]{1,10}")
MAX_GRADE = 2 ** 31 - 1


def parse_grade(text: str) -> int:
    """A relevance grade as trec_eval reads one: ASCII digits with an optional sign (not
    Python's `1_0` or other scripts' digits), within a 32-bit integer; ValueError else."""
    if not _GRADE.fullmatch(text) or abs(int(text)) > MAX_GRADE:
        raise ValueError(text)
    return int(text)


def _js_int(digits: str) -> int | float:
    """An integer literal as the readers take it: exact within int64 (ids such as a 19-digit
    snowflake stay exact), past it a float, infinite past the float range — as JavaScript's
    `JSON.parse` reads it — so a field's finiteness check names it instead of an overflow
    deep in numpy (or Python's 4300-digit limit) ending in a traceback."""
    if len(digits) <= 18:
        return int(digits)
    value = float(digits)
    return int(digits) if abs(value) < 2 ** 63 else value


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def json_loads(text: str, *, constants: bool = False) -> Any:
    """`json.loads` as the readers use it: numbers read as a JavaScript reader reads them
    (`_js_int`), and NaN / Infinity — which JSON does not have and `JSON.parse` rejects —
    refused, unless `constants` (a whole-file reader whose field checks name the line and
    field of a non-finite number). Raises what `json.loads` raises (`ValueError`,
    `RecursionError`)."""
    if constants:
        return json.loads(text, parse_int=_js_int)
    return json.loads(text, parse_int=_js_int, parse_constant=_not_json)


def json_problem(exc: ValueError | RecursionError) -> str:
    """What `json_loads` refused, as the text after `file:line: `: "invalid JSON at column
    25: Unterminated string starting at column 25" (the parser's message whole: its own
    "line 1 column 25 (char 24)" counts within one JSON-lines line, so the column is given
    instead, where the message ends in "at"); "invalid JSON: nested too deeply"; "invalid
    JSON: <reason>" (a number past Python's digit limit, NaN)."""
    if isinstance(exc, json.JSONDecodeError):
        where = f" column {exc.colno}" if exc.msg.endswith(" at") else ""
        return f"invalid JSON at column {exc.colno}: {exc.msg}{where}"
    if isinstance(exc, RecursionError):  # Python's "maximum recursion depth exceeded …"
        return "invalid JSON: nested too deeply"
    return f"invalid JSON: {exc}"


def json_error(path: Path, exc: ValueError | RecursionError, line: int | None = None
               ) -> FormatError:
    """`json_problem` as the error naming `path` and the line: `line` for a JSON-lines
    record, else (a whole file) the parser's line, 1 where it has none."""
    if line is None:
        line = exc.lineno if isinstance(exc, json.JSONDecodeError) else 1
    return FormatError(path, json_problem(exc), line=line, field=JSON)


JSON = "json"  # the field of an error in the JSON itself (FormatError does not name it)
LONE_SURROGATE = ("invalid JSON: a \\uD800-\\uDFFF escape that is not half of a surrogate "
                  "pair")


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line of a JSON-lines file."""
    for lineno, line in numbered_lines(read_text(path)):
        try:
            obj = json_loads(line)
        except (ValueError, RecursionError) as e:  # ValueError: past Python's digit limit
            raise json_error(path, e, lineno) from None
        if not isinstance(obj, dict):
            raise FormatError(path, f"expected a JSON object, found {_json_type(obj)}",
                              line=lineno, field=JSON)
        if "\\u" in line and _has_lone_surrogate(obj):
            raise FormatError(path, LONE_SURROGATE, line=lineno, field=JSON)
        yield lineno, obj


_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_lone_surrogates(value: Any, found: list[tuple[str, str]], where: str = "") -> Any:
    """`value` (as `json.loads` returns it) with each lone surrogate of its strings, keys
    included, as U+FFFD; appends (field, escape) for each string changed (`tags[1]`,
    `\\ud83d`).

    `json.loads`, like JavaScript's `JSON.parse`, reads a `\\uD800`-`\\uDFFF` escape that is
    not half of a pair (what JavaScript's `slice` leaves of an emoji it cuts in two, and
    `JSON.stringify` writes). Python cannot encode such a string (no cache key, no output), so
    it becomes U+FFFD, which pi-lodestone's scoring cannot tell from it: both are one UTF-16
    unit (lengths, `slice` cuts and excerpt windows stay), neither is a token character (its
    tokens are runs of ASCII `[a-z0-9_./:-]`, its tag rules ASCII words), neither has a case,
    and Node writes a lone surrogate out as the UTF-8 of U+FFFD. Only a comparison of the
    strings themselves can differ (two ids that differ only there become one, loaded as a
    duplicate id). A JSON string holds no other surrogates: `json.loads` joins pairs."""
    if isinstance(value, str):
        hit = _SURROGATE.search(value)
        if hit is None:
            return value
        found.append((where, f"\\u{ord(hit.group()):04x}"))
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if isinstance(value, list):
        return [replace_lone_surrogates(v, found, f"{where}[{i}]")
                for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            key = replace_lone_surrogates(key, found, where or "(a key)")
            out[key] = replace_lone_surrogates(item, found, f"{where}.{key}" if where else key)
        return out
    return value


def _has_lone_surrogate(obj: object) -> bool:
    """json.loads accepts "\\ud800" alone; such a str cannot be encoded (or hashed) later."""
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float) and not math.isfinite(value):
        return "a number beyond the range of a double"
    if isinstance(value, int | float):
        return f"the number {value:.6g}" if abs(value) >= 1e15 else "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def get_id(obj: Mapping[str, Any], keys: tuple[str, ...], path: Path, line: int) -> str:
    """The record's id from the first of `keys` present: a non-empty string or an integer."""
    key = next((k for k in keys if k in obj), None)
    if key is None:
        raise FormatError(path, "missing", line=line, field=keys[0])
    value = obj[key]
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise FormatError(path, f"expected a string or an integer, found {_json_type(value)}",
                          line=line, field=key)
    if not value.strip():
        raise FormatError(path, "empty id", line=line, field=key)
    return value


def get_str(obj: Mapping[str, Any], key: str, path: Path, line: int, *,
            required: bool) -> str:
    """A string field; an optional one may be absent or null (read as "")."""
    if key not in obj or obj[key] is None:
        if required:
            raise FormatError(path, "missing" if key not in obj else "expected a string, "
                              "found null", line=line, field=key)
        return ""
    value = obj[key]
    if not isinstance(value, str):
        raise FormatError(path, f"expected a string, found {_json_type(value)}",
                          line=line, field=key)
    return value


def get_tags(obj: Mapping[str, Any], key: str, path: Path, line: int) -> tuple[str, ...]:
    """An optional list of strings (absent or null: no tags)."""
    value = obj.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise FormatError(path, "expected a list of strings", line=line, field=key)
    return tuple(value)


def get_object(obj: Mapping[str, Any], key: str, path: Path, line: int) -> dict[str, Any]:
    """An optional JSON object (absent or null: empty)."""
    value = obj.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FormatError(path, f"expected an object, found {_json_type(value)}",
                          line=line, field=key)
    return value


def check_unique(seen: dict[str, int], item_id: str, path: Path, line: int, field: str) -> None:
    """Record `item_id` as seen on `line`; a second sighting is an error naming both lines."""
    first = seen.get(item_id)
    if first is not None:
        raise FormatError(path, f"duplicate id {item_id!r} (first on line {first})",
                          line=line, field=field)
    seen[item_id] = line


def free_id(wanted: str, taken: Mapping[str, object]) -> str:
    """`wanted`, or `wanted#2`, `wanted#3` … where an earlier record holds it (ids a, a@3,
    a: the third's new id was the second's own)."""
    out, n = wanted, 1
    while out in taken:
        n += 1
        out = f"{wanted}#{n}"
    return out


def path_kind(path: Path) -> str:
    """What is at `path` when it is not a regular file, in words: "a folder", "a named pipe
    (FIFO)", … (for a message that says why a file that is there was not read)."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                        (stat.S_ISBLK, "a device")):
        if test(mode):
            return words
    return "not a regular file"


def empty_file(path: Path, what: str, field: str) -> FormatError:
    return FormatError(path, f"empty file: expected at least one {what}", line=1, field=field)


def judged_subset(queries: QuerySet, qrels: Qrels | None) -> QuerySet:
    """BEIR convention: with judgments, the query set is the judged queries (file order kept).

    SciFact's queries.jsonl holds 1,109 queries; test judges 300 of them.
    """
    return queries if qrels is None else queries.subset(qrels)
