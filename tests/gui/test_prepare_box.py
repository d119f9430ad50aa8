"""The Prepare box names the work its button does: re-embedding only for models that embed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.models import model_ids
from workbench.core.session import TuningSession
from workbench.gui.prepare_box import PrepareBox

EMBEDDING_MODELS = {"dense", "hybrid"}


@pytest.mark.parametrize("model", model_ids())
def test_button_says_what_the_prepare_stage_does(qtbot: QtBot, model: str) -> None:
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model(model)  # not prepared yet: the status asks for the button by its name
    box = PrepareBox(s)
    qtbot.addWidget(box)
    verb = "Re-embed / Recompute" if model in EMBEDDING_MODELS else "Re-index"
    assert box.button.text() == verb
    status = box.status.text()
    assert status.startswith(f"not prepared for these parameters: press {verb}")
    # codeledger on a BEIR set (no source file) warns of it, as the command line does, and
    # decision-memory (no decision record) too
    codeledger = model.startswith("codeledger")
    assert ("no document of tea-beir is one" in status) == codeledger
    no_log = model == "decision-memory"
    assert ("is a pi-lodestone decision record" in status) == no_log
    # importance: no memory of a BEIR set has a date, said in one line (not 151 by line)
    undated = model == "importance"
    assert ("no memory has a created_at or last_accessed" in status) == undated
    assert "(line 2)" not in status
    assert (status == f"not prepared for these parameters: press {verb}" or codeledger or no_log
            or undated)
    assert ("re-embeds" in box.title()) == (model in EMBEDDING_MODELS)


def test_the_status_warns_of_what_the_data_lacks_for_these_parameters(qtbot: QtBot) -> None:
    # embeddings=stored on data without stored vectors scores the keyword part alone: the
    # command line warned, the window said "prepared for these parameters" and nothing else
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("hybrid", {"embeddings": "stored"})
    s.recompute()
    box = PrepareBox(s)
    qtbot.addWidget(box)
    assert box.status.text().startswith("prepared for these parameters")
    assert "embeddings=stored, but neither memory nor query of tea-beir" in box.status.text()
    box._stage("embeddings", "encoder", move=True)  # held, not applied: the warning goes
    assert box.status.text() == "1 change held: press Re-embed / Recompute to apply"


def test_a_slider_tick_does_not_scan_the_data_again(qtbot: QtBot,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # the warnings scan every document: 48 ms on each tick at 500k documents
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("hybrid", {"embeddings": "stored"})
    s.recompute()
    assert s.model is not None
    calls = []
    real = s.model.data_warnings
    monkeypatch.setattr(s.model, "data_warnings",
                        lambda ds, params: calls.append(1) or real(ds, params))
    box = PrepareBox(s)
    qtbot.addWidget(box)
    for alpha in (0.1, 0.2, 0.3, 0.4):
        s.set_param("alpha", alpha)
    assert len(calls) == 1 and "embeddings=stored" in box.status.text()
    box._stage("embeddings", "encoder", move=True)  # a prepare value: worked out again
    assert len(calls) == 2


def test_an_edit_held_in_the_box_waits_for_its_model_to_come_back(qtbot: QtBot) -> None:
    from workbench.gui.param_panel import ParamPanel

    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("dense")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    assert panel.prepare_box is not None
    panel.prepare_box.editors["query_prompt"].edited.emit("query_prompt", "query: ", False)
    assert panel.prepare_box.pending == {"query_prompt": "query: "}
    s.set_model("bm25")  # its own box: nothing of dense's held there
    assert panel.prepare_box is not None and panel.prepare_box.pending == {}
    s.set_model("dense")
    box = panel.prepare_box
    assert box is not None and box.pending == {"query_prompt": "query: "}
    assert box.editors["query_prompt"].value() == "query: "
    assert s.params["query_prompt"] == ""  # still held, not applied
    assert box.status.text().startswith("1 change held")
    s.set_model("bm25")
    s.open(SAMPLES / "tea-beir")  # another dataset: what each model was left at is forgotten
    s.set_model("dense")
    assert panel.prepare_box is not None and panel.prepare_box.pending == {}
    # a query typed into the same data keeps it (it announces dataset_changed too)
    box = panel.prepare_box
    box.editors["query_prompt"].edited.emit("query_prompt", "query: ", False)
    s.add_query("green tea")
    assert box.pending == {"query_prompt": "query: "}
    s.set_model("bm25")
    s.add_query("oolong")
    s.set_model("dense")
    assert panel.prepare_box is not None
    assert panel.prepare_box.pending == {"query_prompt": "query: "}
    panel.prepare_box.pending.clear()
    # … and what the box itself holds: a dataset (or session file) opened under the same
    # model shows its values, not an edit the next Re-embed would apply to them
    box = panel.prepare_box
    box.editors["query_prompt"].edited.emit("query_prompt", "query: ", False)
    s.open(SAMPLES / "tea-beir")
    s.set_model("dense")
    box = panel.prepare_box
    assert box is not None and box.pending == {}
    assert box.editors["query_prompt"].value() == s.params["query_prompt"] == ""


def test_a_prompt_that_ends_in_spaces_says_so_beside_it(qtbot: QtBot) -> None:
    # a line edit draws no trailing space: "query: " and "query:" looked the same
    from workbench.core.models import get_model
    from workbench.gui.param_editors import TextEditor

    editor = TextEditor(get_model("hybrid").schema["query_prompt"])
    qtbot.addWidget(editor)
    editor.show()
    assert editor.value() == "task: sentence similarity | query: "
    assert editor.trailing.isVisible() and editor.trailing.text() == "␣"
    assert editor.trailing.toolTip().startswith("the text ends with 1 space,")
    editor.line.setText("query:")  # typed: the mark follows
    assert not editor.trailing.isVisible()
    editor.set_value("query:     ")
    assert editor.trailing.text() == "␣×5" and "5 spaces" in editor.trailing.toolTip()
    editor.set_value("query:\t")
    assert editor.trailing.text() == "␣" and "1 blank character" in editor.trailing.toolTip()
    editor.set_value("")
    assert not editor.trailing.isVisible()


def test_a_prompt_field_takes_its_row(qtbot: QtBot) -> None:
    # the trailing-space mark beside it had left the prompt about 112 px wide where the
    # other fields reach the reset column, showing only "ilarity | query:"
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("hybrid")
    box = PrepareBox(s)
    qtbot.addWidget(box)
    box.resize(360, 900)
    box.show()
    qtbot.waitExposed(box)
    prompt = box.editors["query_prompt"]
    model = box.editors["embedding_model"]
    assert prompt.trailing.isVisible()  # type: ignore[attr-defined]
    assert prompt.trailing.width() < 30  # type: ignore[attr-defined]  # a mark, not a column
    assert prompt.combo.width() >= model.width() - 30  # type: ignore[attr-defined]


def test_a_long_prompt_shows_its_start(qtbot: QtBot) -> None:
    # the Query and Document prompts showed "sk: sentence similarity | query:", their end
    from workbench.core.models import get_model
    from workbench.gui.param_editors import TextEditor

    editor = TextEditor(get_model("hybrid").schema["query_prompt"])
    qtbot.addWidget(editor)
    editor.resize(120, 30)
    editor.show()
    qtbot.waitExposed(editor)
    editor.set_value("task: sentence similarity | query: " * 2)
    assert editor.line.cursorPosition() == 0


def test_the_prepare_box_sliders_are_as_long_as_the_live_ones(qtbot: QtBot) -> None:
    # the prepare box's spin boxes kept their own widths: "User text length" (1000) and
    # "Quote min length" (3) had sliders of different lengths
    from workbench.gui.param_editors import NumberEditor
    from workbench.gui.param_panel import ParamPanel

    s = TuningSession()
    s.open(SAMPLES / "decisions")
    s.set_model("decision-memory")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    assert panel.prepare_box is not None
    spins = [e.spin for e in [*panel.editors.values(), *panel.prepare_box.editors.values()]
             if isinstance(e, NumberEditor)]
    assert any(isinstance(e, NumberEditor) for e in panel.prepare_box.editors.values())
    assert len({sp.width() for sp in spins}) == 1


def test_the_encoder_settings_are_greyed_under_stored_embeddings(qtbot: QtBot,
                                                                 tmp_path: Path) -> None:
    # review C, F5: with embeddings=stored the model, prompts and batch size looked live, and
    # changing one asked for a Re-embed that changed nothing
    from tests.test_hybrid_stored_idle import ENCODER_ONLY, folder_with_vectors

    s = TuningSession()
    s.open(folder_with_vectors(tmp_path))
    s.set_model("hybrid", {"embeddings": "stored"})
    s.recompute()
    box = PrepareBox(s)
    qtbot.addWidget(box)
    for name in ENCODER_ONLY:
        assert not any(w[name].isEnabled() for w in (box.editors, box.labels, box.resets))
        assert "no effect while Embeddings is stored" in box.editors[name].toolTip()
    assert box.editors["user_chars"].isEnabled()
    box._stage("embeddings", "encoder", move=True)  # held: the box shows what it will use
    assert all(box.editors[name].isEnabled() for name in ENCODER_ONLY)
    box._stage("embeddings", "stored", move=True)
    assert not box.editors["embedding_model"].isEnabled()
    assert box.status.text() == "prepared for these parameters"
