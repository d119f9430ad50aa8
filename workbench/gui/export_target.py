"""File ▸ Export settings for the target system…: the values in use written into a folder as
the system they model reads them — what `workbench export --out FOLDER` writes (CodeLedger's
`.codeledger/config.json`, OpenVault's part of SillyTavern's `settings.json`, pi-lodestone's
variables, obsidian-mcp's call arguments), with the record of changes.

Over the target's config already in the folder only the values changed from the model's
defaults are written (as `-p` names them on the command line); the file's other values are
kept, and said, since the figures on screen were measured with the window's."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from workbench.core.export import export_params, exporter_ids, plan_update, write_export
from workbench.core.session import TuningSession


@dataclass(frozen=True)
class Exported:
    """What an export wrote, and what the person should know about it (one line each)."""

    written: list[Path]
    notes: list[str]


def can_export(session: TuningSession) -> bool:
    """Whether the model in use has a target system to write settings for."""
    return session.model is not None and session.model.id in exporter_ids()


def export_to(session: TuningSession, folder: str | Path) -> Exported:
    """Write the session's values for the model's target into `folder` (`write_export`).
    ValueError for a folder that cannot take them (a file, a config that is not JSON),
    OSError for a write that failed (nothing written then)."""
    model = session.model
    if model is None or model.id not in exporter_ids():
        raise ValueError("this model has no target system to write settings for")
    params = dict(session.params)
    export = export_params(model.id, params)
    defaults = model.schema.defaults()
    given = {name for name, value in params.items() if defaults.get(name) != value}
    update = plan_update(export, folder, given)
    written = write_export(export, folder, given)

    def j(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    notes = []
    if export.outside:
        notes.append(export.outside_text())
    unexpressed = [c.name for c in export.changed if c.setting is None]
    if unexpressed:
        notes.append(f"{export.target} has no setting for {', '.join(unexpressed)}: listed in "
                     "the record of changes, they take a change to its code")
    if update is not None and update.kept:
        notes.append(f"{export.config_path} kept its own "
                     + ", ".join(f"{key} {j(old)}" for key, old, _ in update.kept)
                     + " (not changed from the defaults here; the figures were measured "
                     "with " + ", ".join(j(new) for _, _, new in update.kept) + ")")
    if export.where:
        notes.append(export.where)
    return Exported(written, notes)
