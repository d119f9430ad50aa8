"""The metric strip says where vector_candidates cuts a ranking a card reads (review rv2, 6:
R@100 fell at vector_candidates=50 with no word)."""

from __future__ import annotations

from conftest import SAMPLES, HeldFakeEncoder
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.metric_strip import MetricStrip


def test_the_strip_names_the_cards_a_low_vector_candidates_cuts(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    held_encoder.release.set()
    s = TuningSession()
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    s.open(SAMPLES / "tea-beir")  # 151 documents
    s.set_model("dense", {"embedding_model": held_encoder.name})
    s.recompute()
    assert strip.cut_note.isHidden()  # 1,000: every pair
    s.set_param("vector_candidates", 50)
    s.recompute()
    assert not strip.cut_note.isHidden()
    assert strip.cut_note.text() == (
        "⚠ R@100 reads deeper than vector_candidates = 50 ranks by cosine: not exact (what is "
        "cut counts as not found; 0 keeps every pair)")
    assert strip.cut_note.toolTip() == (
        "vector_candidates=50 ranks only the 50 documents of highest cosine per query: r@100 "
        "reads deeper and is not exact — what is cut counts as not found (0 keeps every pair)")
    s.set_k(60)  # the cards at k = 60 read deeper too
    assert strip.cut_note.text().startswith(
        "⚠ nDCG@60, MRR@60, P@60, R@60, R@100 read deeper than vector_candidates = 50 ")
    s.set_param("vector_candidates", 0)
    s.recompute()
    assert strip.cut_note.isHidden()
    strip.shutdown()
