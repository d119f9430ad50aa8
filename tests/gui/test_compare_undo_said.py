"""Edit ▸ Undo of a configuration deleted in the compare view is said (r53 4): the status
lines had gone on saying "deleted 'x' … Undo brings it back" with 'x' back in the list."""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot


def test_undo_of_a_delete_says_which_configuration_came_back(qtbot: QtBot,
                                                             window: Any) -> None:
    s = window.session
    s.save_configuration("defaults")
    s.set_param("w_tf", 0.9)
    s.save_configuration("tf .9")
    view = window.compare_window()
    lst = view.configs
    lst.select("tf .9")
    lst.buttons["delete"].click()
    assert "tf .9" not in s.configurations
    assert view.status.text().startswith("deleted 'tf .9'")
    window.menu_actions.undo.trigger()
    assert "tf .9" in s.configurations
    said = "restored configuration 'tf .9': Edit \u25b8 Undo brought it back"
    assert view.status.text() == said
    assert window.statusBar().currentMessage() == said
    # Redo deletes it again, a second Undo says so again
    window.menu_actions.redo.trigger()
    assert "tf .9" not in s.configurations
    view.say("")
    window.menu_actions.undo.trigger()
    assert view.status.text() == said
    # its name taken meanwhile: said under the name it comes back as
    lst.select("tf .9")
    lst.buttons["delete"].click()
    assert "tf .9" not in s.configurations
    s.configurations.save("tf .9", "vault-search", {"w_tf": 0.5})  # no undo step
    window.menu_actions.undo.trigger()
    back = [c.name for c in s.configurations if c.params.get("w_tf") == 0.9]
    assert back != ["tf .9"] and len(back) == 1
    assert view.status.text() == (f"restored configuration {back[0]!r}: Edit \u25b8 Undo "
                                  "brought it back")


def test_a_twin_of_a_deleted_configuration_saved_later_is_not_said_restored(
        qtbot: QtBot, window: Any) -> None:
    """rv2 3: "restored 'a'" was said on any later save once 'b', a twin of 'a' (the same
    values), was deleted, and for values saved again by hand under a new name."""
    s = window.session
    s.save_configuration("a")
    s.save_configuration("b")  # the same values as 'a'
    s.set_param("w_tf", 0.9)
    s.save_configuration("tf .9")
    view = window.compare_window()
    lst = view.configs
    lst.select("b")
    lst.buttons["delete"].click()
    assert view.status.text().startswith("deleted 'b'")
    # another configuration saved, nothing undone: the status line still says the delete
    s.set_param("w_tf", 0.7)
    s.save_configuration("tf .7")
    assert view.status.text().startswith("deleted 'b'")
    assert "restored" not in window.statusBar().currentMessage()
    # a deleted one's values saved again by hand under a new name: no undo either
    lst.select("tf .9")
    lst.buttons["delete"].click()
    assert view.status.text().startswith("deleted 'tf .9'")
    s.set_param("w_tf", 0.9)
    s.save_configuration("my tf")
    assert view.status.text().startswith("deleted 'tf .9'")
    assert "restored" not in window.statusBar().currentMessage()
    # the real undo of that delete is still said (the value set after it undone first)
    window.menu_actions.undo.trigger()
    assert "tf .9" not in s.configurations
    window.menu_actions.undo.trigger()
    assert "tf .9" in s.configurations
    said = "restored configuration 'tf .9': Edit \u25b8 Undo brought it back"
    assert view.status.text() == said
    assert window.statusBar().currentMessage() == said


def test_a_redo_of_a_save_is_not_said_restored(qtbot: QtBot, window: Any) -> None:
    """Redo saving a configuration whose delete was undone before: no Undo brought it back."""
    s = window.session
    s.set_param("w_tf", 0.9)
    s.save_run_configuration("run", "vault-search", dict(s.params), None)  # one undo step
    view = window.compare_window()
    lst = view.configs
    lst.select("run")
    lst.buttons["delete"].click()
    window.menu_actions.undo.trigger()  # the delete taken back
    assert view.status.text() == "restored configuration 'run': Edit \u25b8 Undo brought it back"
    window.menu_actions.undo.trigger()  # the save taken back
    assert "run" not in s.configurations
    view.say("")
    window.menu_actions.redo.trigger()  # saved again, by Redo
    assert "run" in s.configurations
    assert view.status.text() == ""
