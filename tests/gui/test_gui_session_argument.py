"""`workbench gui SESSION.json` opens the session as File ▸ Open session… does (it had been
read as OpenVault memories, then refused); one that cannot be read leaves the default sample
open with the error said."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from tests.gui.conftest import SAMPLES
from workbench.core.session import TuningSession


def _run(monkeypatch: pytest.MonkeyPatch, path: Path) -> Any:
    import workbench.gui.app as app

    monkeypatch.setattr(app, "_exec", lambda _app: 0)  # the event loop not entered
    before = set(QApplication.topLevelWidgets())
    assert app.run(session=str(path)) == 0
    from workbench.gui.main_window import MainWindow

    made = [w for w in QApplication.topLevelWidgets()
            if isinstance(w, MainWindow) and w not in before]
    assert len(made) == 1
    return made[0]


def test_the_session_given_is_opened(qtbot: Any, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.set_param("k1", 0.8)
    path = tmp_path / "tuning.json"
    s.save(path)
    window = _run(monkeypatch, path)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.session.dataset is not None
                    and window.session.dataset.name == "tea-beir", timeout=30_000)
    assert window.session.model is not None and window.session.model.id == "bm25"
    assert window.session.params["k1"] == 0.8


def test_a_session_that_cannot_be_read_leaves_the_sample_with_the_error(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"version": 99, "dataset": "x", "model": "bm25"}')
    shown: list[str] = []
    from workbench.gui.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "show_error", lambda self, text, *a, **k: shown.append(text))
    window = _run(monkeypatch, path)
    qtbot.addWidget(window)
    assert shown and str(path) in shown[0], shown
    qtbot.waitUntil(lambda: window.session.dataset is not None, timeout=30_000)
