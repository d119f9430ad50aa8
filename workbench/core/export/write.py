"""Writing an export's files into a folder, all of them or none, and where each goes."""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from pathlib import Path

from workbench.core.export.base import Export
from workbench.core.export.files import plan_file_updates
from workbench.core.export.update import plan_update
from workbench.core.store import atomic_write_many


def write_export(export: Export, folder: str | Path,
                 given: Collection[str] | None = None) -> list[Path]:
    """Write the export's files (`Export.files`: pi-lodestone's variables as `.env` text,
    obsidian-mcp's call arguments and server entry), the target's own config file where it
    reads one (CodeLedger's `.codeledger/config.json`, SillyTavern's `settings.json`,
    pi-lodestone's `settings.json`) and the record of changes, `<model>.changes.json`
    (`changes_path`: in `.codeledger/` for CodeLedger), into `folder`, all atomically (all of
    them or none); returns the paths written. Into the target's own data folder (`is_home`),
    the config file alone, if any. A target config already there is updated, not replaced:
    only the values of the parameters in `given` replace its own (`plan_update`; None: every
    value), and its other keys are kept. ValueError when `folder` is a file or the existing
    config is not a JSON object, or when the folder above `folder` does not exist."""
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{root}: not a folder (the export writes several files into one)")
    if not root.parent.exists():  # the folder itself is made, not a missing one above it
        raise ValueError(f"{root}: folder {root.parent} does not exist")
    update = plan_update(export, root, given)
    home = is_home(export, root)  # the target's own folder: its own file alone
    files = {} if home else dict(export.files)
    others = [] if home else plan_file_updates(export, root, given)
    for other in others:
        files[other.path.name] = other.text
    root.mkdir(exist_ok=True)
    if export.config_path and export.settings:
        files[export.config_path] = update.text if update else export.settings_json()
    if not home:
        files[changes_path(export)] = export.changes_json(
            update.kept if update else (), [(o.path.name, o.kept) for o in others])
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
    written = [root / name for name in files]
    atomic_write_many([(path, text.encode("utf-8"))  # all of them or none
                       for path, text in zip(written, files.values(), strict=True)])
    return written


def changes_path(export: Export) -> str:
    """Where `write_export` puts the record of changes, relative to its folder: beside the
    target's config where that has a folder of its own (CodeLedger's `.codeledger/`: one
    folder to commit or ignore, not a stray file at the repository's root), else
    `<model>.changes.json` in the folder itself."""
    name = f"{export.model}.changes.json"
    folder = posixpath.dirname(export.config_path or "")
    return f"{folder}/{name}" if folder else name


def is_home(export: Export, folder: str | Path) -> bool:
    """Whether `folder` is the target's own data folder (`Export.home`: pi-lodestone's memory
    folder, SillyTavern's user folder), where `write_export` writes the target's config file
    alone: neither the variables' file nor the record of changes, which it does not read."""
    return any((Path(folder) / name).exists() for name in export.home)
