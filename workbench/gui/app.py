"""`workbench gui [DATA] [--model ID]`: the QApplication, its style, and the main window opened
on the given dataset — by default the bundled sample named by `DEFAULT_SAMPLE`, with the model
and parameters of its workbench.toml.

The default is the markdown vault with obsidian-mcp's vault search: it prepares in well under
a second (no embeddings, so the first launch paints rankings at once), its five signals make
the contribution bars and chart worth reading, it has gates, and its min-score parameter drives
the score distribution's draggable line. `story` (hybrid) shows more of the blend but needs a
first embedding run of ~10 s plus torch's import.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from workbench.core.tuned_on import TunedOn

from .memory import keep_freed_memory

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_corpora"
RESOURCES = ROOT / "resources"
DEFAULT_SAMPLE = "vault"


def application(argv: Sequence[str] | None = None) -> QApplication:
    """The one QApplication, styled (created on first call)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    keep_freed_memory()  # before the first dataset: live ticks reuse the combine's pages
    app = QApplication(list(argv or [sys.argv[0]]))
    app.setOrganizationName("ScoringWorkbench")
    app.setApplicationName("workbench")
    app.setApplicationDisplayName("Scoring Workbench")
    style(app)
    from .gc_main import collect_in_gui_thread

    collect_in_gui_thread(app)
    return app


def style(app: QApplication) -> None:
    app.setStyle("Fusion")
    font = QFont(app.font())
    font.setPointSizeF(max(font.pointSizeF(), 10.0))
    app.setFont(font)
    qss = RESOURCES / "style.qss"
    if qss.exists():
        app.setStyleSheet(qss.read_text(encoding="utf-8"))


def quit_on_sigint(app: QApplication,
                   on_interrupt: Callable[[], None] | None = None) -> Callable[[], None]:
    """Ctrl-C in the terminal runs `on_interrupt`: by default the windows close (saving their
    layout) and the event loop ends.

    Python runs a signal handler only between its own bytecodes, and Qt's event loop is C++:
    without Python code running, Ctrl-C waits forever. A timer that wakes the interpreter a few
    times a second lets the handler run. Returns a function that puts things back."""
    def close_and_quit() -> None:
        app.closeAllWindows()
        app.quit()

    action = on_interrupt or close_and_quit

    def handler(signum: int, frame: object) -> None:
        action()

    previous = signal.signal(signal.SIGINT, handler)
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(200)

    def restore() -> None:
        timer.stop()
        timer.deleteLater()
        signal.signal(signal.SIGINT, previous)

    return restore


def default_dataset() -> Path:
    return SAMPLES / DEFAULT_SAMPLE


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="workbench gui")
    parser.add_argument("data", nargs="?", help="dataset folder or file (default: the last "
                        f"one opened, else sample_corpora/{DEFAULT_SAMPLE})")
    parser.add_argument("--model", "-m", help="model id (default: the sample's, else bm25)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    return run(args.data, args.model)


def run(data: str | None = None, model: str | None = None,
        params: Mapping[str, object] | None = None, queries: str | None = None,
        qrels: str | None = None, split: str | None = None,
        tuned_on: TunedOn | None = None, session: str | None = None) -> int:
    """The window on `data` (else the last dataset, as it was last opened, else the default
    sample), its queries (or tasks) and judgments from `queries` and `qrels` when given, a
    BEIR or OpenVault folder's at `split` (default: test, or as it was last opened).
    `tuned_on`: the record of the queries `params` were tuned on (a `tune --out` file's).
    `session`: a session file to open as File ▸ Open session… does (the default sample,
    the error shown over it, where it cannot be)."""
    app = application()
    from . import settings as st
    from .main_window import MainWindow

    window = MainWindow()
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if session is not None:
        window.show()
        if not window.menu_actions.load_session_file(session):
            window.open_path(default_dataset(), remember=False)
        return _exec(app)
    target = data
    if target is None:
        last = st.recall("last_dataset")
        target = str(last) if isinstance(last, str) and Path(last).exists() else None
        if target is not None and model is None:
            remembered = st.recall("last_model")
            sample_model = (Path(target) / "workbench.toml").exists()
            model = str(remembered) if isinstance(remembered, str) and not sample_model \
                else None
    window.show()
    if data is None and target is not None:  # the last dataset, as it was opened
        queries, qrels, remembered_split = st.recalled_files(target)
        split = split or remembered_split
    opened = window.open_path(target or default_dataset(), model=model, params=params,
                              queries=queries, qrels=qrels, split=split, tuned_on=tuned_on)
    if not opened and (target or split):  # the sample as it comes, the error shown over it
        # a read cancelled changes nothing: the next launch offers the last dataset again
        window.open_path(default_dataset(), remember=not window.open_cancelled)
    return _exec(app)


def _exec(app: Any) -> int:
    """The event loop, Ctrl+C in the terminal quitting it."""
    restore = quit_on_sigint(app)
    try:
        return int(app.exec())
    finally:
        restore()
