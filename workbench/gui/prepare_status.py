"""A preparation's progress in the main window's status bar: its message with a percentage, a
small bar and a Cancel button, shown only while it runs.

The Prepare box has its own bar and Cancel, but at the end of the parameter panel's scroll
area: with an embedding model's ~22 chat-context rows above them, a 1,600×1,000 window showed
neither, and the status bar said only "preparing hybrid on scifact …" for minutes.
"""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar, QPushButton, QStatusBar

from .worker import LiveLoop


def progress_line(what: str, fraction: float, message: str) -> str:
    """"preparing hybrid on scifact: embedding 640/5,183 documents — 14 %"."""
    step = f": {message}" if message else ""
    return f"{what}{step} — {int(fraction * 100)} %"


class PrepareStatus:
    """The bar and Cancel, permanent widgets of `bar`, following `loop`'s preparation; Cancel
    stops it as the Prepare box's does (`LiveLoop.cancel_prepare`)."""

    def __init__(self, loop: LiveLoop, bar: QStatusBar) -> None:
        self.loop = loop
        self.bar = bar
        self.what = ""
        self.progress = QProgressBar(bar)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)  # the percentage is in the message beside it
        self.progress.setFixedSize(120, 10)
        self.cancel = QPushButton("Cancel", bar)
        self.cancel.setToolTip("stop the preparation under way (the results shown stay the "
                               "previous preparation's)")
        self.cancel.clicked.connect(loop.cancel_prepare)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel)
        self._show(False)
        loop.prepare_started.connect(self._on_started)
        loop.prepare_progress.connect(self._on_progress)
        loop.prepare_cancelling.connect(self._on_cancelling)
        loop.prepare_finished.connect(lambda *_: self._show(False))

    def _show(self, on: bool) -> None:
        self.progress.setVisible(on)
        self.cancel.setVisible(on)

    def _on_started(self, what: str) -> None:
        self.what = what
        self.progress.setValue(0)
        self.cancel.setEnabled(True)
        self._show(True)
        self.bar.showMessage(what + " …")

    def _on_progress(self, fraction: float, message: str) -> None:
        if not self.cancel.isEnabled():  # cancelling: its note stays until it stops
            return
        self.progress.setValue(int(fraction * 1000))
        self.bar.showMessage(progress_line(self.what, fraction, message))

    def _on_cancelling(self) -> None:
        self.cancel.setEnabled(False)
        self.bar.showMessage(f"{self.what}: cancelling, stops after the step under way …")
