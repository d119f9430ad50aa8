"""Quit, and the window's close button, ask Save / Discard / Cancel where work would be lost:
they had closed at once, dropping saved configurations, a tuned one and the values (review F2).
A close from code (tests, `workbench screenshot`, Ctrl-C in the terminal) does not ask."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.gui.main_window import MainWindow

Button = QMessageBox.StandardButton


class _FromTheWindowSystem(QCloseEvent):
    """A close event as the window's close button sends it (Qt marks those spontaneous)."""

    def spontaneous(self) -> bool:
        return True


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[Button]]:
    """(the questions asked, the answers to give, last first)."""
    questions: list[str] = []
    answers: list[Button] = []

    def question(*args: object, **kwargs: object) -> Button:
        questions.append(f"{args[1]}: {args[2]}")
        return answers.pop()

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return questions, answers


def _window(qtbot: QtBot) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_path(SAMPLES / "vault")
    qtbot.wait(10)
    return w


def test_quit_with_nothing_changed_does_not_ask(qtbot: QtBot, asked: tuple) -> None:
    w = _window(qtbot)
    w.menu_actions.quit.trigger()
    assert asked[0] == [] and not w.isVisible()


def test_quit_asks_and_cancel_keeps_the_window(qtbot: QtBot, asked: tuple,
                                               tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    questions, answers = asked
    w = _window(qtbot)
    w.session.set_param("w_tf", 0.8)
    w.session.save_configuration("my tuned w_tf")
    answers.append(Button.Cancel)
    w.menu_actions.quit.trigger()
    assert w.isVisible() and len(questions) == 1
    assert questions[0].startswith("Quit:") and "\u201cmy tuned w_tf\u201d" in questions[0]
    assert "the values in use" in questions[0]
    saved = tmp_path / "kept.json"  # Save: the session is saved, then the window closes
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (str(saved), "")))
    answers.append(Button.Save)
    w.menu_actions.quit.trigger()
    assert not w.isVisible()
    assert [c["name"] for c in json.loads(saved.read_text())["configurations"]] == [
        "my tuned w_tf"]


def test_save_cancelled_in_its_dialog_keeps_the_window(qtbot: QtBot, asked: tuple,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    w = _window(qtbot)
    w.session.set_param("w_tf", 0.8)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **kw: ("", "")))
    asked[1].append(Button.Save)
    w.menu_actions.quit.trigger()
    assert w.isVisible()


def test_the_close_button_asks_and_discard_closes(qtbot: QtBot, asked: tuple) -> None:
    questions, answers = asked
    w = _window(qtbot)
    w.session.pin_baseline()  # a configuration, "baseline"
    event = _FromTheWindowSystem()
    answers.append(Button.Cancel)
    w.closeEvent(event)
    assert not event.isAccepted() and len(questions) == 1
    event = _FromTheWindowSystem()
    answers.append(Button.Discard)
    w.closeEvent(event)
    assert event.isAccepted() and len(questions) == 2


def test_a_close_from_code_does_not_ask(qtbot: QtBot) -> None:
    """The autouse fixture fails any question nobody answers: none is asked."""
    w = _window(qtbot)
    w.session.set_param("w_tf", 0.8)
    w.session.pin_baseline()
    assert w.menu_actions.unsaved()
    w.close()
    assert not w.isVisible()


def test_configurations_made_on_the_last_dataset_still_count(qtbot: QtBot,
                                                             asked: tuple) -> None:
    """Opening other data had marked everything as it was opened: a configuration made on the
    first dataset was then lost on Quit without a question."""
    questions, answers = asked
    w = _window(qtbot)
    w.session.pin_baseline()
    assert w.open_path(SAMPLES / "tea-beir")
    qtbot.wait(10)
    assert w.menu_actions.unsaved()
    answers.append(Button.Cancel)
    w.menu_actions.quit.trigger()
    assert w.isVisible() and "\u201cbaseline\u201d" in questions[0]
    assert "values in use" not in questions[0]  # tea-beir's are as it opened


def test_values_changed_on_a_dataset_opened_again_still_count(qtbot: QtBot) -> None:
    w = _window(qtbot)
    w.session.set_param("w_tf", 0.8)
    assert w.open_path(SAMPLES / "tea-beir")
    qtbot.wait(10)
    assert w.open_path(SAMPLES / "vault")  # back as left: w_tf 0.8, never saved
    qtbot.wait(10)
    assert w.session.params["w_tf"] == 0.8 and w.menu_actions.unsaved()



def test_values_changed_stay_unsaved_when_the_same_data_is_opened_again(
        qtbot: QtBot, asked: tuple) -> None:
    # File ▸ Open judgments (or Split, Open queries) reopens the data with the live values:
    # they had become the saved point, Undo off and Quit closing without a word
    questions, answers = asked
    w = _window(qtbot)
    w.session.set_param("w_tf", 0.8)
    assert w.menu_actions.unsaved()
    w.open_with(qrels=str(SAMPLES / "vault" / "qrels" / "test.tsv"))
    qtbot.wait(10)
    assert w.session.params["w_tf"] == 0.8
    assert w.menu_actions.unsaved()
    answers.append(Button.Discard)
    w.menu_actions.quit.trigger()
    assert len(questions) == 1 and "the values in use" in questions[0]


def test_values_changed_on_a_dataset_left_still_count_on_quit(qtbot: QtBot,
                                                             asked: tuple) -> None:
    # the window keeps a dataset left (values, undo steps) until it closes: Quit had closed
    # with w_tf 0.8 changed on vault and never saved, without a word
    questions, answers = asked
    w = _window(qtbot)
    w.session.set_param("w_tf", 0.8)
    assert w.open_path(SAMPLES / "tea-beir")
    qtbot.wait(10)
    assert w.menu_actions.unsaved()
    answers.append(Button.Cancel)
    w.menu_actions.quit.trigger()
    assert w.isVisible() and "the values changed on vault" in questions[0]
    assert w.open_path(SAMPLES / "vault")  # back, and set as opened: nothing left behind
    qtbot.wait(10)
    w.session.set_param("w_tf", float(w.session.model.schema["w_tf"].default))
    assert not w.menu_actions.unsaved()


def test_save_on_quit_closes_over_values_left_on_another_dataset(
        qtbot: QtBot, asked: tuple, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Save saved the session and the window stayed open, asked again: the values left on
    # vault stayed "unsaved" whatever was saved
    questions, answers = asked
    w = _window(qtbot)
    w.session.set_param("w_tf", 0.8)
    assert w.open_path(SAMPLES / "tea-beir")
    qtbot.wait(10)
    saved = tmp_path / "s.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (str(saved), "")))
    answers.append(Button.Save)
    w.menu_actions.quit.trigger()
    assert saved.is_file() and not w.isVisible() and len(questions) == 1
