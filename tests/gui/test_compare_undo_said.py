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
