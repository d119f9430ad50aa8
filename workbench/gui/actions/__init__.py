"""The window's menus, actions and shortcuts: File (open, recent, sessions, export, quit),
Edit (undo/redo), View, Model, Tools."""

from workbench.gui.actions.escape import _EscStaysInTextFields
from workbench.gui.actions.host import ActionHost
from workbench.gui.actions.tune_room import TUNE_HEIGHT, TUNE_MIN_TOP, TUNE_TOP_SHARE
from workbench.gui.actions.window_actions import WindowActions

__all__ = ["TUNE_HEIGHT", "TUNE_MIN_TOP", "TUNE_TOP_SHARE", "ActionHost", "WindowActions",
           "_EscStaysInTextFields"]
