"""File ▸ Open recent: the list as it is on disk each time the menu opens, a path gone since
marked and offered for removal."""

from __future__ import annotations

from pathlib import Path

from workbench.gui import settings as st
from workbench.gui.actions.state import ActionsState


class RecentMixin(ActionsState):
    """The recent files menu."""

    def add_recent(self, path: str) -> None:
        st.add_recent(path)
        self.refresh_recent()

    def refresh_recent(self) -> None:
        """The list as it is on disk now (also each time the menu opens): a path moved or
        deleted since is greyed and marked "(missing)", "Remove missing" drops those."""
        self.recent_menu.clear()
        items = st.recent_files()
        missing = [p for p in items if not Path(p).exists()]
        for path in items:
            gone = path in missing
            act = self.recent_menu.addAction(f"{path} (missing)" if gone else path)
            act.setEnabled(not gone)
            if gone:
                act.setToolTip("no longer there: moved, renamed or deleted")
            act.triggered.connect(lambda *_, p=path: self.open_recent(p))
        if items:
            self.recent_menu.addSeparator()
        if missing:
            forget = self.recent_menu.addAction(f"Remove missing ({len(missing)})")
            forget.triggered.connect(lambda *_: self._forget_recent(missing))
        if items:
            clear = self.recent_menu.addAction("Clear list")
            clear.triggered.connect(lambda *_: self._clear_recent())
        self.recent_menu.setEnabled(bool(items))

    def open_recent(self, path: str) -> bool:
        """A Recent entry opened as it was last; one gone since is said to be gone (the
        formats' "no such file or folder; expected a BEIR folder …" read as a format
        error) and left out of the list."""
        if not Path(path).exists():
            self._forget_recent([path])
            self.w.show_error(f"{path} is no longer there: it was moved, renamed or deleted "
                              "since it was opened. It is removed from Open recent.")
            return False
        return self.w.reopen(path)

    def _forget_recent(self, paths: list[str]) -> None:
        st.forget_recent(paths)
        self.refresh_recent()

    def _clear_recent(self) -> None:
        st.clear_recent()
        self.refresh_recent()
