"""Saving under a name another dataset's configuration has asks first and says whose it is;
deleting one says whose it was, and Edit ▸ Undo brings it back (review rv4 D, K)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QInputDialog, QMessageBox
from pytestqt.qtbot import QtBot

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.session import TuningSession
from workbench.gui.compare.config_list import ConfigurationList


def _tiny(name: str) -> Dataset:
    corpus = Corpus([Document("d1", "green tea", "green tea leaves"),
                     Document("d2", "coffee", "dark roast coffee")], name=name)
    return Dataset(name, corpus, QuerySet([Query("q1", "green tea")], name=name),
                   {"q1": {"d1": 1}})


def _opened(s: TuningSession, name: str) -> None:
    s.leave_dataset()
    s.set_model("bm25")
    s.set_dataset(_tiny(name), f"/data/{name}")
    s.recompute()


def _answer(monkeypatch: pytest.MonkeyPatch, button: str, asked: list[str]) -> None:
    """Every QMessageBox shown is answered with the button whose text starts `button`."""
    def exec_(box: QMessageBox) -> int:
        asked.append(box.text())
        for b in box.buttons():
            if b.text().replace("&", "").startswith(button):
                b.click()
                return 0
        raise AssertionError(f"no button {button!r} in {[b.text() for b in box.buttons()]}")
    monkeypatch.setattr(QMessageBox, "exec", exec_)


def test_a_name_another_dataset_has_is_kept_and_the_new_one_named_for_this_one(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    s = TuningSession()
    _opened(s, "tea")
    s.set_param("k1", 1.9)
    s.save_configuration("mine")
    _opened(s, "vault")
    s.set_param("b", 0.5)
    lst = ConfigurationList(s)
    qtbot.addWidget(lst)
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("mine", True)))
    asked: list[str] = []
    _answer(monkeypatch, "Save as", asked)  # the default: both kept
    lst.ask_save()
    assert "made on tea with bm25 (k1=1.9)" in asked[0]
    assert "removes it from tea" in asked[0]
    assert [(c.name, c.dataset) for c in s.configurations] == [
        ("mine", "tea"), ("mine for vault", "vault")]
    assert s.configurations.get("mine").params["k1"] == 1.9
    # Cancel: nothing changes; Replace: the question said what goes
    _answer(monkeypatch, "Cancel", asked)
    lst.ask_save()
    assert len(s.configurations) == 2
    _answer(monkeypatch, "Replace tea's", asked)
    lst.ask_save()
    assert s.configurations.get("mine").dataset == "vault"
    assert s.configurations.get("mine").params["b"] == 0.5


def test_edit_undo_names_a_switch_to_another_models_configuration(
        window) -> None:  # type: ignore[no-untyped-def]
    s, acts = window.session, window.menu_actions
    s.configurations.save("tea style", "bm25", {"k1": 1.6})
    s.set_param("w_tf", 0.9)
    window.config_menu.switch_to("tea style")
    assert s.model.id == "bm25"
    assert acts.undo.text() == "&Undo switch to \u201ctea style\u201d" and acts.undo.isEnabled()
    acts.undo.trigger()
    assert s.model.id == "vault-search" and s.params["w_tf"] == 0.9
    assert acts.undo.text() == "&Undo"
    assert acts.redo.text() == "&Redo switch to \u201ctea style\u201d"


def test_deleting_says_what_it_was_and_undo_brings_it_back(  # type: ignore[no-untyped-def]
        qtbot: QtBot, window, monkeypatch: pytest.MonkeyPatch) -> None:
    # no question: Edit ▸ Undo brings it back, its pin and tuning record with it
    from workbench.core.tuned_on import TunedOn

    s, menu = window.session, window.config_menu
    s.set_param("w_tf", 0.9)
    s.pin_baseline()
    record = TunedOn("vault", "none", ("q01",))
    s.configurations.save("tuned", "bm25", {"k1": 1.6}, tuned_on=record)
    asked: list[str] = []
    _answer(monkeypatch, "Cancel", asked)  # a question would be answered Cancel, and fail
    menu.refresh()
    items = {a.text(): a for a in menu.delete_menu.actions()}
    items["baseline"].trigger()  # from the menu, any model's
    assert asked == [] and "baseline" not in s.configurations and s.baseline is None
    said = window.statusBar().currentMessage()
    assert "made on vault with vault-search (w_tf=0.9)" in said
    assert "the pinned baseline, cleared" in said and "Undo (Ctrl+Z) brings it back" in said
    window.menu_actions.undo.trigger()
    assert s.baseline is not None and s.baseline.name == "baseline"
    # the compare view's Delete button (the current model's list)
    lst = window.compare_window().configs
    s.apply_configuration("tuned")
    lst.select("tuned")
    lst.buttons["delete"].click()
    assert asked == [] and "tuned" not in s.configurations
    assert "a tuning run's result" in window.statusBar().currentMessage()
    window.menu_actions.undo.trigger()
    assert s.configurations.get("tuned").tuned_on == record


def test_a_model_chosen_from_the_model_menu_is_one_undo_step(
        window) -> None:  # type: ignore[no-untyped-def]
    # rg 7 (review r49): after Model ▸ bm25, Undo went grey and Ctrl+Z stopped there
    s, acts = window.session, window.menu_actions
    s.set_param("w_tf", 0.9)
    s.set_param("w_position", 0.2)
    acts.model_actions["bm25"].trigger()
    assert s.model.id == "bm25"
    assert acts.undo.text() == "&Undo switch to model bm25" and acts.undo.isEnabled()
    s.set_param("k1", 1.6)
    acts.undo.trigger()  # k1 back
    assert s.model.id == "bm25" and s.params["k1"] == 1.2
    acts.undo.trigger()  # the switch: vault-search as it was left, its steps with it
    assert s.model.id == "vault-search"
    assert s.params["w_tf"] == 0.9 and s.params["w_position"] == 0.2
    assert acts.redo.text() == "&Redo switch to model bm25"
    acts.undo.trigger()
    assert s.params["w_position"] != 0.2 and s.params["w_tf"] == 0.9
    acts.redo.trigger()
    acts.redo.trigger()  # to bm25 again, at the values it had (k1 1.2, its redo step kept)
    assert s.model.id == "bm25" and s.params["k1"] == 1.2
    acts.redo.trigger()
    assert s.params["k1"] == 1.6
