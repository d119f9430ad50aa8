"""Settings remembered between launches (QSettings under one organisation/application name):
window geometry and state, splitter sizes, recent files, last dataset and model, and the query
and judgment files last opened with each dataset.

Tests point QSettings at a temporary folder (`use_settings_folder`), so no test writes the
user's configuration.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from workbench.core.data import DEFAULT_SPLIT

ORGANISATION = "ScoringWorkbench"
APPLICATION = "workbench"
MAX_RECENT = 10
SCREEN_SHARE = 0.9  # a first window's most share of the screen's free width and height


def use_settings_folder(folder: str | Path) -> None:
    """Store settings as INI files under `folder` (tests, portable installs)."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder))


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANISATION,
                     APPLICATION)


def recent_files() -> list[str]:
    value = settings().value("recent", [])
    items: list[object] = [value] if isinstance(value, str) else (
        list(value) if isinstance(value, list | tuple) else [])
    return [str(v) for v in items if v]


def add_recent(path: str) -> list[str]:
    items = [path] + [p for p in recent_files() if p != path]
    items = items[:MAX_RECENT]
    s = settings()
    s.setValue("recent", items)
    s.sync()
    return items


def forget_recent(paths: list[str]) -> list[str]:
    """The Recent list without `paths` (moved or deleted since)."""
    items = [p for p in recent_files() if p not in paths]
    s = settings()
    s.setValue("recent", items)
    s.sync()
    return items


def clear_recent() -> None:
    s = settings()
    s.remove("recent")
    s.sync()


def remember_opened(dataset: str, queries: str | None, qrels: str | None, split: str,
                    model: str | None) -> None:
    """`dataset` opened (with these files, split and model): first on Open recent, and what
    the next launch opens, as it was opened (a session's dataset had been neither)."""
    add_recent(dataset)
    remember("last_dataset", dataset)
    remember_files(dataset, queries, qrels, split)
    if model is not None:
        remember("last_model", model)


def remember(key: str, value: object) -> None:
    s = settings()
    s.setValue(key, value)
    s.sync()


def recall(key: str, default: object = None) -> object:
    return settings().value(key, default)


def remember_files(dataset: str, queries: str | None, qrels: str | None,
                   split: str = DEFAULT_SPLIT) -> None:
    """The query (or task) and judgment files opened with `dataset` and the split read (none
    and the default split: forgotten), so the Recent menu and the next launch open it the same
    way; the newest 2 × MAX_RECENT kept."""
    known = {k: v for k, v in _dataset_files().items() if k != dataset}
    if queries or qrels or split != DEFAULT_SPLIT:
        known = {dataset: [queries, qrels, split], **known}
    remember("dataset_files", json.dumps(dict(list(known.items())[:2 * MAX_RECENT])))


def recalled_files(dataset: str) -> tuple[str | None, str | None, str]:
    """(queries, qrels, split) last opened with `dataset`; a file None when not given or gone,
    the split the default when none was remembered."""
    q, r, split = _dataset_files().get(dataset, [None, None, DEFAULT_SPLIT])
    return (q if q and Path(q).is_file() else None, r if r and Path(r).is_file() else None,
            split or DEFAULT_SPLIT)


def _dataset_files() -> dict[str, list[str | None]]:
    try:
        raw = json.loads(str(recall("dataset_files", "{}")))
    except (ValueError, RecursionError):  # a damaged setting: nothing remembered
        return {}
    if not isinstance(raw, dict):
        return {}
    # [queries, qrels] before the split was remembered, [queries, qrels, split] since
    return {str(k): [*(x if isinstance(x, str) and x else None for x in v[:2]),
                     v[2] if len(v) == 3 and isinstance(v[2], str) and v[2] else DEFAULT_SPLIT]
            for k, v in raw.items() if isinstance(v, list) and len(v) in (2, 3)}


def first_size(window: QWidget, width: int, height: int) -> QSize:
    """A window's size before any was remembered: `width` × `height`, within SCREEN_SHARE of
    its screen's free area (less the panels and task bars). The main window opened at 1,500
    × 950 and the compare view at 1,400 × 860 on 1,366 × 768 laptops, their status lines and
    buttons below the screen's edge where the window manager does not shrink them."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return QSize(width, height)
    room = screen.availableGeometry()
    return QSize(min(width, int(room.width() * SCREEN_SHARE)),
                 min(height, int(room.height() * SCREEN_SHARE)))
