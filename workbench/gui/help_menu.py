"""The window's Help menu: the keyboard shortcuts (read from the menus themselves, so the list
cannot drift from them, and the compare view's keys, which have no menu item), where the README
and the command line's help are, and About with the version `workbench --version` prints."""

from __future__ import annotations

import html
import platform
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

import workbench

# keys with no menu item: (where, keys, what they do)
OTHER_KEYS = (
    ("Query list", "Enter", "in the box under the list: rank the query or task typed"),
    ("Everywhere", "Tab, arrows", "Tab moves on to the next control, arrows within a list "
     "or table"),
    ("Compare view", "\u2190 \u2192", "step through the queries that moved most"),
    ("Compare view", "R", "replay the ranking from A to B"),
    ("Compare view", "F11", "present full screen with larger type"),
    ("Compare view", "Esc", "leave full screen, else close the view"),
    ("Compare view", "Ctrl+W", "close the view"),
)


def readme_path() -> Path | None:
    """The README beside the package (a checkout or an editable install), if it is there."""
    path = Path(workbench.__file__).resolve().parents[1] / "README.md"
    return path if path.is_file() else None


def version_line() -> str:
    """What `workbench --version` prints."""
    return f"workbench {workbench.__version__}"


def show_tooltips(menu: QMenu) -> None:
    """Tooltips shown in `menu` and every menu under it: Qt menus hide them by default, and a
    greyed item's reason was in its tooltip, out of sight."""
    menu.setToolTipsVisible(True)
    for act in menu.actions():
        sub = act.menu()
        if isinstance(sub, QMenu):
            show_tooltips(sub)


def menu_shortcuts(window: QMainWindow) -> list[tuple[str, str]]:
    """(keys, "Menu ▸ Item") for every menu item with a shortcut, in menu order."""
    out: list[tuple[str, str]] = []

    def walk(menu: QMenu, path: str) -> None:
        for act in menu.actions():
            sub = act.menu()
            name = act.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
            if isinstance(sub, QMenu):
                walk(sub, f"{path} \u25b8 {name}")
            elif act.shortcuts():
                keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText)
                                 for k in act.shortcuts())
                out.append((keys, f"{path} \u25b8 {name}"))

    for act in window.menuBar().actions():
        top = act.menu()
        if isinstance(top, QMenu):
            walk(top, top.title().replace("&", ""))
    return out


def shortcuts_html(window: QMainWindow) -> str:
    rows = menu_shortcuts(window)
    rows += [(keys, f"{where}: {what}") for where, keys, what in OTHER_KEYS]
    body = "".join(f"<tr><td style='padding-right:16px'><b>{html.escape(k)}</b></td>"
                   f"<td>{html.escape(w)}</td></tr>" for k, w in rows)
    return f"<table>{body}</table>"


class ShortcutsDialog(QDialog):
    def __init__(self, text: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self._text = text
        browser = QTextBrowser(self)
        browser.setHtml(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(browser)
        layout.addWidget(buttons)
        self.resize(640, 620)

    def text(self) -> str:
        """The list as shown (HTML)."""
        return self._text


class HelpMenu:
    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.menu = window.menuBar().addMenu("&Help")
        self.menu.setToolTipsVisible(True)
        self.shortcuts = self._add("&Keyboard shortcuts", self.show_shortcuts)
        self.docs = self._add("&Documentation (README)", self.show_docs)
        self.menu.addSeparator()
        self.about = self._add("&About Scoring Workbench", self.show_about)
        self.about.setMenuRole(QAction.MenuRole.AboutRole)
        self.box: QMessageBox | None = None  # the box shown, while shown
        self.shortcuts_dialog: ShortcutsDialog | None = None

    def _add(self, text: str, slot: object) -> QAction:
        act = QAction(text, self.menu)
        if callable(slot):
            act.triggered.connect(lambda *_: slot())
        self.menu.addAction(act)
        return act

    def _show(self, title: str, text: str, *, rich: bool = True) -> QMessageBox:
        """A box that does not block the window (read while trying the keys)."""
        if self.box is not None:
            self.box.close()
        box = QMessageBox(QMessageBox.Icon.Information, title, text,
                          QMessageBox.StandardButton.Close, self.window)
        box.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.show()
        self.box = box
        return box

    def show_shortcuts(self) -> ShortcutsDialog:
        """The list in a dialog of its own, wide enough for a row a line (a message box
        wrapped every row at 400 px), that stays open while the keys are tried."""
        if self.shortcuts_dialog is not None:
            self.shortcuts_dialog.close()
        dialog = ShortcutsDialog(shortcuts_html(self.window), self.window)
        dialog.show()
        self.shortcuts_dialog = dialog
        return dialog

    def docs_text(self) -> str:
        readme = readme_path()
        where = (f"The README is at <a href='{QUrl.fromLocalFile(str(readme)).toString()}'>"
                 f"{html.escape(str(readme))}</a>: the window, using it on your data, each "
                 "model, tuning and what was measured." if readme is not None else
                 "The README (the window, using it on your data, each model, tuning) is at the "
                 "top of the Scoring Workbench source checkout.")
        return (f"<p>{where}</p>"
                "<p>On the command line: <code>workbench --help</code> lists the commands, "
                "<code>workbench COMMAND --help</code> each one's options, and "
                "<code>workbench models</code> every model with its parameters (range, stage "
                "and one line on each). Hover over a slider for its parameter's help.</p>")

    def show_docs(self) -> QMessageBox:
        box = self._show("Documentation", self.docs_text())
        readme = readme_path()
        if readme is not None:
            button = box.addButton("Open README", QMessageBox.ButtonRole.ActionRole)
            button.clicked.connect(
                lambda *_: QDesktopServices.openUrl(QUrl.fromLocalFile(str(readme))))
        return box

    def about_text(self) -> str:
        return (f"<p><b>Scoring Workbench</b> \u2014 {html.escape(version_line())}</p>"
                "<p>Tune how retrieval systems score: open a corpus with its queries and "
                "judgments, pick a scoring model, move its parameters and watch every ranking, "
                "contribution and metric change.</p>"
                f"<p>Python {html.escape(platform.python_version())}, "
                f"PySide6 {html.escape(pyside_version)}</p>")

    def show_about(self) -> QMessageBox:
        return self._show("About Scoring Workbench", self.about_text())
