"""A minimal Qt-free event: the tuning session's fields announce their changes with it, and
the window's widgets subscribe (psygnal-style, without the dependency)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Event:
    """Callbacks called in connection order with the emitted arguments."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._callbacks: list[Callable[..., Any]] = []
        self.blocked = False

    def connect(self, callback: Callable[..., Any]) -> Callable[..., Any]:
        if callback not in self._callbacks:
            self._callbacks.append(callback)
        return callback

    def disconnect(self, callback: Callable[..., Any]) -> None:
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, *args: Any) -> None:
        if self.blocked:
            return
        for cb in list(self._callbacks):
            cb(*args)

    def __repr__(self) -> str:
        return f"Event({self.name!r}, {len(self._callbacks)} listeners)"
