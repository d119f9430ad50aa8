"""Subscribing a widget to a session event for as long as the widget lives.

`workbench.core.events.Event` holds its callbacks strongly; a widget that subscribes a bound
method must unsubscribe when Qt destroys it, or the session would call into a deleted C++
object. `subscribe` ties the two lifetimes together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from workbench.core.events import Event


def subscribe(owner: QObject, event: Event, callback: Callable[..., Any]) -> None:
    """`event.connect(callback)` until `owner` is destroyed."""
    event.connect(callback)
    owner.destroyed.connect(lambda *_: event.disconnect(callback))


def subscribe_many(owner: QObject, pairs: list[tuple[Event, Callable[..., Any]]]) -> None:
    for event, callback in pairs:
        subscribe(owner, event, callback)
