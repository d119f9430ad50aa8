"""Reading back what `write_export` wrote when it is given to --params: a record of changes
as parameter values, any other file it wrote named, and what to give instead."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from workbench.core.export.decision_memory import PI_ENV
from workbench.core.export.vault_search import VS_ENV

# -- reading back: what `write_export` wrote, given to --params --
RECORD_SUFFIX = ".changes.json"  # `<model>.changes.json`, `Export.changes_json`
# the variables each exporter writes (a .env of them parses as TOML: NAME=value) → (its
# model, the system that reads them)
ENV_MODEL = {**{var: ("decision-memory", "pi-lodestone") for var in PI_ENV.values()},
             **{var: ("vault-search", "obsidian-mcp") for var in VS_ENV.values()}}


def is_record(doc: object) -> bool:
    """Whether a JSON document is a record of changes (`Export.changes_json`)."""
    return isinstance(doc, dict) and "changed" in doc and "model" in doc


def record_values(path: Path, doc: Mapping[str, object]) -> tuple[str, dict[str, object]]:
    """A record of changes read back as parameters: (the model it names, name → value), the
    values the figures were measured with (those a config kept its own of, too), every other
    parameter at its default: its `workbench_params`; in a record written before it kept
    them, each changed constant and each workbench-only value (`not_in_target`) — a value
    stored in the target's form (disabled_projects: a JSON list) given as the text its
    parameter reads — less the evaluation's own settings (mode, clock), which it never held.
    ValueError naming the file and the field where it is not such a record, or where it
    cannot say the values (CodeLedger's changes are told against its document's values)."""
    model = doc.get("model")
    if not isinstance(model, str) or not model:
        raise ValueError(f"{path}: field 'model': expected the model's id, found {model!r}")
    if "workbench_params" in doc:
        values = doc["workbench_params"]
        if not isinstance(values, dict):
            raise ValueError(f"{path}: field 'workbench_params': expected an object of "
                             "parameter values")
        return model, dict(values)
    if model.startswith("codeledger"):
        raise ValueError(f"{path}: a record of changes written before it kept the values "
                         "measured (workbench_params): its changes are told against "
                         "CodeLedger's document, not the workbench's defaults, so the values "
                         "cannot be read from it; export again, or give a TOML file")
    out: dict[str, object] = {}
    for part in ("changed", "not_in_target"):
        entries = doc.get(part, [])
        if not isinstance(entries, list):
            raise ValueError(f"{path}: field '{part}': expected a list of changes")
        for i, entry in enumerate(entries):
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(entry, dict) or not isinstance(name, str) or "value" not in entry:
                raise ValueError(f"{path}: field '{part}[{i}]': expected an object with a "
                                 "name and a value")
            value = entry["value"]
            out[name] = (json.dumps(value, ensure_ascii=False) if isinstance(value, list)
                         else value)
    return model, out


def written_file_text(path: Path, doc: object) -> str:
    """What a JSON file that `write_export` wrote, other than the record, is — in words,
    for the error that says it is not a parameter file ("" where it is none of them)."""
    if isinstance(doc, dict) and "disabledProjects" in doc:
        return "pi-lodestone's settings.json (its disabled projects)"
    if isinstance(doc, dict) and "mcpServers" in doc:
        return "an MCP server entry (obsidian-mcp's environment)"
    if path.name == "search_vault.args.json":
        return "obsidian-mcp's search_vault arguments"
    if path.name == "config.json" and path.parent.name == ".codeledger":
        return "CodeLedger's config"
    return ""


def instead_text(path: Path, model: str | None = None) -> str:
    """What to give --params in place of a file `write_export` wrote: the record of changes
    beside it where there is one, else where one comes from."""
    beside = sorted(path.parent.glob(f"*{RECORD_SUFFIX}"))
    if model is not None:
        beside = [p for p in beside if p.name == f"{model}{RECORD_SUFFIX}"] or beside
    if len(beside) == 1:
        return f"give --params the record of changes beside it, {beside[0]}"
    return (f"give --params the record of changes that `workbench export --out` writes "
            f"beside it (MODEL{RECORD_SUFFIX}), or a TOML file of NAME = VALUE lines "
            "(`workbench models MODEL --toml` prints one)")
