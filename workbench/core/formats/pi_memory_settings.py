"""pi-lodestone's `settings.json` beside `decisions.jsonl` (REFERENCE.md §1).

`{"disabledProjects": [cwd, ...]}`: the cwds for which the injection hook does nothing (no
query, no injection, no log record). The original compares the turn's cwd with each entry as
a plain string (`disabledProjects.includes(cwd)`), and writes the list sorted
(`/memory disable-current`). Other keys are kept and ignored.

The original falls back to no settings when the file is absent; a file that is present but
not usable is a FormatError naming the file, the line and the field here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.core.data import FormatError
from workbench.core.formats._common import (
    StrPath,
    _json_type,
    json_error,
    json_loads,
    read_text,
)

SETTINGS_FILE = "settings.json"
DISABLED_KEY = "disabledProjects"


def _line_of(text: str, needle: str) -> int:
    at = text.find(needle)
    return 1 if at < 0 else text.count("\n", 0, at) + 1


def read_pi_settings(path: StrPath) -> dict[str, Any]:
    """The settings object, `disabledProjects` checked to be a list of strings."""
    path = Path(path)
    if path.is_dir():  # had been passed over in silence, its disabled projects unread
        raise FormatError(path, "a folder, where pi-lodestone keeps its settings file (a JSON "
                          f"object: {{\"{DISABLED_KEY}\": [cwd, …]}}); move it aside (with none "
                          "there, no project is disabled) or put the file in its place",
                          field="path")
    text = read_text(path)
    try:
        obj = json_loads(text)
    except (ValueError, RecursionError) as e:
        raise json_error(path, e) from None
    if not isinstance(obj, dict):
        raise FormatError(path, f"expected a JSON object, found {_json_type(obj)}", line=1,
                          field="json")
    disabled = obj.get(DISABLED_KEY, [])
    line = _line_of(text, f'"{DISABLED_KEY}"')
    if not isinstance(disabled, list):
        raise FormatError(path, f"expected a list of cwds, found {_json_type(disabled)}",
                          line=line, field=DISABLED_KEY)
    for i, cwd in enumerate(disabled):
        if not isinstance(cwd, str):
            raise FormatError(path, f"expected a cwd string, found {_json_type(cwd)}",
                              line=line, field=f"{DISABLED_KEY}[{i}]")
    return obj


def disabled_projects(settings: dict[str, Any]) -> tuple[str, ...]:
    """The disabled cwds of a settings object (none when the key is absent)."""
    return tuple(settings.get(DISABLED_KEY) or ())


def parse_disabled_list(text: str) -> tuple[str, ...] | None:
    """The `disabled_projects` parameter: "" → None (the folder's settings.json decides);
    a JSON list of strings → those cwds. Raises ValueError with a readable message."""
    if not text.strip():
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("parameter disabled_projects must be empty or a JSON list of cwd "
                         f"strings, e.g. [\"/repos/app\"], got {text!r}")
    return tuple(value)
