"""The report's cost notes show a backticked command as code, in Markdown and HTML alike, as
the rest of the report does (dr5 8: "(`workbench embed` times it …)" showed its ticks)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from workbench.core.cost import CostSection
from workbench.report.html.cost import _cost
from workbench.report.text.cost import cost_markdown

NOTE = "Embedding the documents was not timed here (`workbench embed` times it, with the device)."
CHANGE = "From a to b: fields: re-embeds (`workbench embed` again)."


def _comp() -> Any:
    return SimpleNamespace(cost=CostSection([], [NOTE], [CHANGE]))


def test_markdown_cost_notes_show_commands_as_code() -> None:
    text = "\n".join(cost_markdown(_comp()))
    assert "- Embedding the documents was not timed here (`workbench embed` times it" in text
    assert "- From a to b: fields: re-embeds (`workbench embed` again)." in text
    assert "\\`" not in text


def test_html_cost_notes_show_commands_as_code() -> None:
    page = _cost(_comp())
    assert "(<code>workbench embed</code> times it, with the device)" in page
    assert "(<code>workbench embed</code> again)" in page
    assert "`" not in page
