"""Every chart panel runs alone: `python -m workbench.gui.charts.<module> [DATA]` opens it on a
sample corpus with the corpus's own model (its `workbench.toml`), recomputing inline whenever a
parameter changes. `--screenshot PATH` renders it offscreen to PNG and exits.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QWidget

from workbench.core.session import TuningSession

SAMPLES = Path(__file__).resolve().parents[3] / "sample_corpora"
DEFAULT_DATA = SAMPLES / "tea-beir"


def open_session(data: str | Path = DEFAULT_DATA, model: str | None = None, *,
                 query: str | None = None) -> TuningSession:
    """A session on `data` with `model` (else the folder's workbench.toml, else bm25), computed
    inline, its example query selected."""
    from workbench.demo import sample_settings

    folder = Path(data)
    settings = sample_settings(folder) if folder.is_dir() else {}
    session = TuningSession()
    session.open(folder)
    session.set_model(model or str(settings.get("model", "bm25")),
                      None if model else settings.get("params"))
    session.recompute()
    assert session.dataset is not None
    wanted = query or settings.get("example_query")
    session.select_query(session.dataset.queries.index.get(str(wanted), 0) if wanted else 0)
    return session


class InlineLoop:
    """Recompute on the next event-loop turn after parameters change (coalesces drags)."""

    def __init__(self, session: TuningSession) -> None:
        self.session = session
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(session.recompute)
        session.params_changed.connect(lambda *_: self._timer.start())


def run_panel(factory: Callable[[TuningSession], QWidget], argv: list[str] | None = None, *,
              default: Path = DEFAULT_DATA, default_model: str | None = None,
              default_docs: int = 0, pin_then: dict[str, object] | None = None) -> int:
    """Open one panel alone. `default_docs` pre-selects that many of the top documents;
    `pin_then` pins a baseline and then applies those parameters (so movers have content)."""
    parser = argparse.ArgumentParser(description=f"{getattr(factory, '__name__', 'panel')} "
                                     "on a sample corpus")
    parser.add_argument("data", nargs="?", default=str(default))
    parser.add_argument("--model", default=None)
    parser.add_argument("--query", default=None)
    parser.add_argument("--screenshot", default=None, help="write a PNG and exit")
    parser.add_argument("--size", default="900x520", help="window size, WxH")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    model = args.model or (default_model if Path(args.data) == default else None)
    session = open_session(args.data, model, query=args.query)
    loop = InlineLoop(session)
    if session.result is not None and default_docs:
        q = session.query
        session.select_docs([int(d) for d in session.result.ranking.docs[q, :default_docs]])
    if pin_then and session.model is not None:
        schema = session.model.schema
        change = {k: v for k, v in pin_then.items() if k in schema}
        if not change:  # another model: move its first live number a quarter of its range
            p = next((p for p in schema if p.stage == "live" and p.kind == "float"), None)
            if p is not None and p.low is not None and p.high is not None:
                change = {p.name: p.low + 0.25 * (p.high - p.low)}
        session.pin_baseline()
        session.set_params(change)
        session.recompute()
    panel = factory(session)
    panel.setWindowTitle(f"{type(panel).__name__} — {Path(args.data).name}")
    width, height = (int(v) for v in args.size.lower().split("x"))
    panel.resize(width, height)
    QShortcut(QKeySequence("Ctrl+B"), panel, session.pin_baseline)
    panel.show()
    if args.screenshot:
        while getattr(panel, "busy", False):  # a background sweep still running
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
        for _ in range(3):  # layout, then the axes' second pass
            app.processEvents()
        ok = panel.grab().save(args.screenshot)
        panel.close()
        return 0 if ok else 1
    code = app.exec()
    del loop
    return int(code)
