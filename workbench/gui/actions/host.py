"""What the menus act on, as a Protocol: the main window is one, and the actions need no
more of it, so they do not import it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QSplitter, QWidget

from workbench.core.session import TuningSession
from workbench.gui.chart_area import ChartArea
from workbench.gui.query_list import QueryList
from workbench.gui.ranked_table import RankedTable
from workbench.gui.worker import LiveLoop


class ActionHost(Protocol):
    """What the menus act on: the session, the compute loop, the panels a View item shows or
    hides, and the window's own open and error dialogs. The main window is one; this module
    needs no more of it, so it does not import it."""

    @property
    def session(self) -> TuningSession: ...
    @property
    def loop(self) -> LiveLoop: ...
    @property
    def queries(self) -> QueryList: ...
    @property
    def ranked(self) -> RankedTable: ...
    @property
    def params(self) -> QWidget: ...
    @property
    def preview(self) -> QWidget: ...
    @property
    def charts(self) -> ChartArea: ...
    @property
    def v_split(self) -> QSplitter: ...

    def open_path(self, path: str | Path, model: str | None = None,
                  params: Mapping[str, object] | None = None, *,
                  queries: str | None = None, qrels: str | None = None) -> bool: ...

    def reopen(self, path: str) -> bool: ...

    def open_with(self, *, queries: str | None = None, qrels: str | None = None,
                  split: str | None = None) -> bool: ...

    def show_error(self, message: str, details: str = "") -> None: ...

    def say_opened(self, line: str, ms: int) -> None: ...

    def reload_dataset(self) -> bool: ...

    def ask_export_report(self) -> None: ...
