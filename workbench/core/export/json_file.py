"""Reading a JSON file already in the folder an export updates: its object, the line of a
key, a value's kind, for errors that name the file, line and field."""

from __future__ import annotations

import json
from pathlib import Path


def _kind(value: object) -> str:
    """A JSON value's kind, in words."""
    from workbench.core.formats._common import _json_type

    return _json_type(value)


def _line_of_key(path: Path, key: str) -> str:
    """":LINE" of the first line of `path` holding `"key":`, "" where none does."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, ValueError):
        return ""
    quoted = json.dumps(key)
    return next((f":{i}" for i, line in enumerate(lines, 1)
                 if quoted in line and line.split(quoted, 1)[1].lstrip().startswith(":")), "")


def _read_object(path: Path) -> dict[str, object]:
    """The JSON object in `path`; ValueError naming the file (and line) when it is not one."""
    try:
        current = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:  # FILE:LINE, as every reader names a bad line
        from workbench.core.formats._common import json_problem

        # "Unterminated string starting at, column 65" had spliced the parser's words (ra 10)
        raise ValueError(f"{path}:{exc.lineno}: cannot update it, not readable JSON "
                         f"({json_problem(exc)})") from None
    except (OSError, ValueError) as exc:  # ValueError: bad UTF-8
        raise ValueError(f"{path}: cannot update it, not readable JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{path}: cannot update it, not readable JSON (nested too "
                         "deeply)") from None
    if not isinstance(current, dict):
        raise ValueError(f"{path}: cannot update it, not a JSON object")
    return current
