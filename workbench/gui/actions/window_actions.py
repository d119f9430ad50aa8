"""`WindowActions` made of its parts, one concept a mixin."""

from __future__ import annotations

from workbench.gui.actions.export import ExportMixin
from workbench.gui.actions.menus import MenusMixin
from workbench.gui.actions.opening import OpeningMixin
from workbench.gui.actions.recent import RecentMixin
from workbench.gui.actions.session_files import SessionFilesMixin
from workbench.gui.actions.tune_room import TuneRoomMixin
from workbench.gui.actions.unsaved import UnsavedMixin


class WindowActions(MenusMixin, TuneRoomMixin, RecentMixin, OpeningMixin, UnsavedMixin,
                    SessionFilesMixin, ExportMixin):
    """The window's menus, actions and shortcuts, and what they ask before data is lost."""
