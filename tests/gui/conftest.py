"""GUI test setup: offscreen Qt (set before anything imports Qt), settings in a temporary
folder (no test writes the user's configuration), Qt warnings fail tests, and helpers: a
window on a sample corpus, and a FAKE encoder whose work can be held and cancelled."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import gc
import re
import threading
import uuid
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.core.embeddings import register_encoder
from workbench.core.engine import NO_PROGRESS, Progress

SAMPLES = Path(__file__).resolve().parents[2] / "sample_corpora"
# what the offscreen platform says it cannot do (size hints; raising a window to the front)
OFFSCREEN_NOISE = r"This plugin does not support (propagateSizeHints|raise)"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Qt warnings fail GUI tests, except the offscreen platform's own notices."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path) -> Iterator[Path]:
    from workbench.gui import settings as st

    folder = tmp_path / "settings"
    st.use_settings_folder(folder)
    yield folder


@pytest.fixture(autouse=True)
def _no_blocking_question(monkeypatch: pytest.MonkeyPatch) -> None:
    """A modal question nobody answers hangs a test until CI's time limit: one a test did
    not answer (by patching it) fails at once instead."""
    from PySide6.QtWidgets import QMessageBox

    def unanswered(*args: object, **kwargs: object) -> object:
        raise AssertionError(f"an unanswered modal question: {args[1:3]}")

    monkeypatch.setattr(QMessageBox, "question", staticmethod(unanswered))


@pytest.fixture(autouse=True, scope="module")
def _collect_all_after_the_module() -> Iterator[None]:
    """What a module's tests left in the oldest generation (and its module-scoped fixtures),
    collected once at its end, in this thread: no later test's worker frees it."""
    yield
    gc.collect()


@pytest.fixture(autouse=True)
def _collect_in_the_gui_thread() -> Iterator[None]:
    """As the app does (gui/gc_main.py): no automatic collection while a test runs, so a
    worker never frees Qt objects; what the test left is collected here, in this thread.
    With collection off nothing the test made has left the young generations, so collecting
    those frees it: a full collection after every test (the whole heap, torch's included)
    took a third of the GUI tests' CPU time."""
    gc.disable()
    try:
        yield
    finally:
        gc.collect(1)
        gc.enable()


@pytest.fixture(scope="session")
def qapp_args() -> list[str]:
    return ["workbench-tests"]


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    """The main window, synchronous, on the vault sample (vault-search)."""
    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    assert w.open_path(SAMPLES / "vault")
    yield w
    w.close()


@pytest.fixture
def styled(qapp):  # type: ignore[no-untyped-def]
    """The window's look (its font, 13 px, and style sheet: bold table headings), as
    `workbench gui` sets it, for what measures text; the test application's own after."""
    from workbench.gui.app import style

    font, sheet, name = qapp.font(), qapp.styleSheet(), qapp.style().name()
    style(qapp)
    yield qapp
    qapp.setStyleSheet(sheet)
    qapp.setFont(font)
    qapp.setStyle(name)


class HeldFakeEncoder:
    """NOT a language model: words hash to 16 signed dimensions. `encode` reports progress
    and waits until `release` is set (polling `progress`, so Cancel stops it)."""

    dim = 16

    def __init__(self) -> None:
        # unique per object (this file is imported twice: as pytest's conftest and as
        # tests.gui.conftest, so a module counter would repeat)
        self.name = f"fake-held-{uuid.uuid4().hex[:12]}"
        self.identity = self.name
        self.started = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        self.calls += 1
        self.started.set()
        while not self.release.wait(0.005):
            progress(0.25, "fake encoder waiting")  # raises Cancelled when stopped
        out = np.zeros((len(texts), self.dim), np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                h = zlib.crc32(word.encode())
                out[i, h % self.dim] += 1.0 if (h >> 8) & 1 else -1.0
            norm = float(np.linalg.norm(out[i]))
            out[i] = out[i] / norm if norm else out[i]
        progress(1.0, "fake encoded")
        return out


@pytest.fixture
def held_encoder() -> Iterator[HeldFakeEncoder]:
    enc = HeldFakeEncoder()
    register_encoder(enc.name, enc)
    yield enc
    enc.release.set()


def over_budget(session: object) -> tuple[object, int]:
    """Codeledger on the sample at a 100-token budget with the task "Add --json output flag
    to CLI" selected, whose first files do not fit: the core's bundles and the task."""
    from workbench.core.models.codeledger import full_bundles

    s = session
    s.set_params({"token_budget": 100, "budget_preset": "custom"})  # type: ignore[attr-defined]
    s.recompute()  # type: ignore[attr-defined]
    s.select_query(s.dataset.queries.ids.index("c8085784bc7"))  # type: ignore[attr-defined]
    _, bund = full_bundles(s.prepared, s.params)  # type: ignore[attr-defined]
    return bund, int(s.query)  # type: ignore[attr-defined]
