"""The preview shows what the source system shows: the snippet and the injected block."""

from __future__ import annotations

from workbench.gui.preview import shown_html


def test_snippet_and_block_are_shown_escaped() -> None:
    page = shown_html({"snippet": "a <b> \u2026", "memory_block": "## Pi memory (verify)\n- [x] t"})
    assert "snippet: a &lt;b&gt; \u2026" in page
    assert "<pre" in page and "## Pi memory (verify)\n- [x] t" in page


def test_an_empty_block_says_nothing_is_injected_and_other_models_show_nothing() -> None:
    assert "nothing injected" in shown_html({"memory_block": ""})
    assert shown_html({"score": 1.0}) == ""
