"""Settings remembered between launches (QSettings under one organisation/application name):
window geometry and state, splitter sizes, recent files, last dataset and model.

Tests point QSettings at a temporary folder (`use_settings_folder`), so no test writes the
user's configuration.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

ORGANISATION = "ScoringWorkbench"
APPLICATION = "workbench"
MAX_RECENT = 10


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


def clear_recent() -> None:
    s = settings()
    s.remove("recent")
    s.sync()


def remember(key: str, value: object) -> None:
    s = settings()
    s.setValue(key, value)
    s.sync()


def recall(key: str, default: object = None) -> object:
    return settings().value(key, default)
