"""After a cancelled Re-embed the figures are the previous preparation's: the metric strip says
so, naming the value they are for and the one set, until the values set are prepared (review
rv2, 1: the status bar's "prepare cancelled" went after 5 s, the Prepare box's note was
scrolled out of sight, and 0.868 read as the new prompt's figure)."""

from __future__ import annotations

from conftest import SAMPLES, HeldFakeEncoder
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.metric_strip import MetricStrip
from workbench.gui.worker import LiveLoop


def test_a_cancelled_reembed_leaves_a_note_under_the_figures(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    s = TuningSession()
    loop = LiveLoop(s)
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    strip.show()
    held_encoder.release.set()
    s.open(SAMPLES / "tea-beir")
    s.set_model("dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(lambda: s.result is not None and not loop.busy, timeout=10_000)
    assert strip.stale_note.isHidden()
    held_encoder.release.clear()
    held_encoder.started.clear()
    s.set_param("document_prompt", "passage: ")  # a new preparation, held, then cancelled
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000):
        loop.cancel_prepare()
    # a live value moves on the old preparation: the note stays
    s.set_param("min_similarity", 0.1)
    qtbot.waitUntil(lambda: not loop.busy, timeout=10_000)
    assert strip.stale_note.isVisible()
    assert strip.stale_note.text() == (
        "⚠ Figures for the last preparation, document_prompt '': the 'passage: ' set is not "
        "prepared yet — Recompute (Ctrl+R) prepares it")
    assert "document_prompt: '' shown, 'passage: ' set" in strip.stale_note.toolTip()
    # prepared for the values set: gone
    held_encoder.release.set()
    with qtbot.waitSignal(s.result_changed, timeout=10_000):
        loop.recompute()
    qtbot.waitUntil(lambda: not loop.preparing and not loop.busy, timeout=10_000)
    assert not s.needs_prepare
    assert strip.stale_note.isHidden()
    loop.shutdown()
    strip.shutdown()


def test_two_values_set_are_named_each_whole_in_the_tooltip(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    s = TuningSession()
    loop = LiveLoop(s)
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    held_encoder.release.set()
    s.open(SAMPLES / "tea-beir")
    s.set_model("dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(lambda: s.result is not None and not loop.busy, timeout=10_000)
    held_encoder.release.clear()
    held_encoder.started.clear()
    long = "Represent this sentence for searching relevant passages: "  # 58 characters
    s.set_params({"query_prompt": long, "fields": "text"})
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    with qtbot.waitSignal(loop.prepare_finished, timeout=10_000):
        loop.cancel_prepare()
    assert strip.stale_note.text() == (
        "⚠ Figures for the last preparation: the query_prompt, fields set are not prepared "
        "yet — Recompute (Ctrl+R) prepares them")
    tip = strip.stale_note.toolTip()
    assert "fields: title+text shown, text set" in tip
    assert f"query_prompt: '' shown, '{long}' set" in tip
    held_encoder.release.set()
    loop.shutdown()
    strip.shutdown()
