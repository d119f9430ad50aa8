"""Writing an export over the target's config already there: which keys are written, kept
and added (`Update`)."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from workbench.core.export.base import Export
from workbench.core.export.json_file import _kind, _line_of_key, _read_object


@dataclass(frozen=True)
class Update:
    """What writing an export does to the target's config already in the folder, key by key
    (dotted keys): `written`, values set explicitly that replace others, (key, the value
    there, the one written) — or a value of another kind where an object goes, replaced
    whole; `kept`, values there that the export would have written otherwise but that were
    not set explicitly, (key, the value there, the export's); `added`, keys it lacked,
    (key, the value written). `text`: the file as written."""

    path: Path
    written: tuple[tuple[str, object, object], ...]
    kept: tuple[tuple[str, object, object], ...]
    added: tuple[tuple[str, object], ...]
    text: str


def plan_update(export: Export, folder: str | Path,
                given: Collection[str] | None = None) -> Update | None:
    """The target's config already in `folder` with `export` written over it; None where
    there is none. Only the values of parameters in `given` (those set explicitly: -p,
    --params) replace the ones there, every other key there is kept as it is; keys it lacks
    are added. `given` None: every value of the export replaces the one there. ValueError
    when the file is not a readable JSON object."""
    if not export.config_path:
        return None
    path = Path(folder) / export.config_path
    if not path.is_file():
        return None
    current = _read_object(path)
    written: list[tuple[str, object, object]] = []
    kept: list[tuple[str, object, object]] = []
    added: list[tuple[str, object]] = []

    def is_given(key: str) -> bool:
        names = export.sources.get(key)
        return given is None or names is None or any(n in given for n in names)

    def leaves(value: object, at: str) -> list[tuple[str, object]]:
        if isinstance(value, Mapping):
            return [leaf for k, v in value.items() for leaf in leaves(v, f"{at}.{k}")]
        return [(at, value)]

    def merge(into: dict[str, object], new: Mapping[str, object], at: str) -> None:
        for key, value in new.items():
            dotted = f"{at}{key}"
            if key not in into:
                into[key] = json.loads(json.dumps(value))  # a copy
                added.extend(leaves(value, dotted))
                continue
            old = into[key]
            if isinstance(value, Mapping):
                if isinstance(old, dict):
                    merge(old, value, f"{dotted}.")
                elif export.fragment:  # a file of others' settings: what is there is theirs
                    raise ValueError(f"{path}{_line_of_key(path, key)}: field '{dotted}': "
                                     f"cannot update it, expected a JSON object, found "
                                     f"{_kind(old)}: fix or remove it")
                else:  # `"selector": []` there: no key of it can be kept
                    into[key] = json.loads(json.dumps(value))
                    written.append((dotted, old, dict(value)))
            elif old == value and isinstance(old, bool) == isinstance(value, bool):
                continue  # the same (5000 and 5000.0 alike; true is not 1)
            elif is_given(dotted):
                into[key] = value
                written.append((dotted, old, value))
            else:
                kept.append((dotted, old, value))

    merge(current, export.settings, "")
    return Update(path, tuple(written), tuple(kept), tuple(added),
                  json.dumps(current, indent=2, ensure_ascii=False) + "\n")
