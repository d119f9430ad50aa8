"""decision-memory.env already there with the variables set, read as the shell and dotenv
read it and rewritten in its own form."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path


def _merged_env_file(path: Path, new: Mapping[str, str],
                     put: Callable[[Mapping[str, str], str], str | None],
                     added: list[tuple[str, object]]) -> str:
    """decision-memory.env with the variables set: `NAME=value` lines (`export NAME=value`
    too), blank and `#` lines kept as they are; any other line is an error naming it. A value
    is read as the shell and dotenv read it (quotes taken off, a ` # comment` after it left
    out: dr3 4), and rewritten in its own quotes with its comment kept; a variable set on
    several lines is rewritten on each, since the last one is the one that counts (dr3 2).
    CRLF line ends and a byte-order mark stay as they were."""
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.object[:exc.start].count(b"\n") + 1
        raise ValueError(f"{path}:{bad}: cannot update it, not UTF-8 text") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot update it ({exc.strerror or exc})") from None
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
    lines = text.split("\n")
    ends = ["\r" if line.endswith("\r") else "" for line in lines]
    lines = [line.removesuffix("\r") for line in lines]
    if lines[-1] == "":  # the file's last newline
        lines.pop()
        ends.pop()
    sets: dict[str, list[tuple[int, _EnvValue]]] = {}
    for i, line in enumerate(lines):
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        setting = _env_line(line)
        if setting is None:
            raise ValueError(f"{path}:{i + 1}: cannot update it, not a NAME=value line "
                             f"({line[:60]!r}): fix or remove it")
        if isinstance(setting, str):
            raise ValueError(f"{path}:{i + 1}: cannot update it, {setting}: fix it")
        if setting.name in new:
            sets.setdefault(setting.name, []).append((i, setting))
    for var, where in sets.items():
        written = put({var: where[-1][1].value}, var)  # the last line's value is the one read
        if written is not None:
            for i, setting in where:
                lines[i] = setting.head + setting.quote + written + setting.quote + setting.tail
    end = "\r" if ends and ends.count("\r") * 2 >= len(ends) else ""
    for var in new:
        if var not in sets:
            lines.append(f"{var}={new[var]}")
            ends.append(end)
            added.append((var, new[var]))
    return bom + "".join(f"{line}{cr}\n" for line, cr in zip(lines, ends, strict=True))


@dataclass(frozen=True)
class _EnvValue:
    """A .env line's setting: `head` is the line up to the value (`export NAME=`), `quote`
    the quote around it (or ""), `value` what the shell and dotenv read, `tail` what follows
    (the closing quote aside: spaces and a comment)."""

    name: str
    head: str
    quote: str
    value: str
    tail: str


_ENV_LINE = re.compile(r"(\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*)(.*)")


def _env_line(line: str) -> _EnvValue | str | None:
    """A `NAME=value` line read as the shell and dotenv read it: `'…'` as it is, `"…"` with
    `\\"` and `\\\\` unescaped, an unquoted value up to a ` #` comment, spaces round it
    left out. None for a line that sets nothing; a string saying what is wrong where a quote
    is not closed, or text follows the closing one."""
    match = _ENV_LINE.fullmatch(line)
    if match is None:
        return None
    head, name, rest = match.group(1), match.group(2), match.group(3)
    if rest[:1] in ("'", '"'):
        quote = rest[0]
        close = rest.find(quote, 1)
        while quote == '"' and close > 0 and _escaped(rest, close):
            close = rest.find(quote, close + 1)
        if close < 0:
            return f"field '{name}': the quote ({quote}) is not closed"
        inner, tail = rest[1:close], rest[close + 1:]
        if tail.strip() and not re.match(r"\s+#", tail):
            return (f"field '{name}': text after the closing quote ({tail.strip()[:30]!r}); "
                    "put a comment after a space and #")
        if quote == '"':
            inner = re.sub(r'\\(["\\$`])', r"\1", inner)
        return _EnvValue(name, head, quote, inner, tail)
    comment = re.search(r"\s+#", rest)
    value = rest[:comment.start()] if comment else rest.rstrip()
    return _EnvValue(name, head, "", value.rstrip(), rest[len(value.rstrip()):])


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd number of backslashes."""
    run = len(text[:at]) - len(text[:at].rstrip("\\"))
    return run % 2 == 1
