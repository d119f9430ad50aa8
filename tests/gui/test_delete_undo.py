"""Edit ▸ Undo names a configuration deleted and brings it back, pinned as it was (review rv4
K: Undo was enabled after a delete, but undid an older slider value)."""

from __future__ import annotations

from workbench.gui.main_window import MainWindow


def test_edit_undo_brings_a_deleted_baseline_back(window: MainWindow) -> None:
    s, acts = window.session, window.menu_actions
    s.set_param("w_tf", 0.9)
    s.pin_baseline()
    configs = window.compare_window().configs
    configs.delete("baseline")  # the compare view's delete, once the question is answered
    assert "baseline" not in s.configurations and s.baseline is None
    assert acts.undo.isEnabled() and acts.undo.text() == "&Undo delete \u201cbaseline\u201d"
    acts.undo.trigger()
    assert "baseline" in s.configurations
    assert s.baseline is not None and s.baseline.name == "baseline"
    assert s.params["w_tf"] == 0.9  # the slider's step is the next one back
    assert acts.redo.text() == "&Redo delete \u201cbaseline\u201d"
    assert acts.undo.text() == "&Undo"
