"""A report gathers a query file's warnings into one Note, a list, where it had given each its
own box above In short, the list of the keys read among them (dr5 12); Markdown and HTML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_decision_memory_original_names import _folder
from workbench.cli import main


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_query_files_warnings_are_one_note(tmp_path: Path, fmt: str) -> None:
    _folder(tmp_path, {"minScre": 5}, {"note": "x"}, {"topic": "y"})
    out = tmp_path / f"r.{fmt}"
    assert main(["report", str(tmp_path / "decisions.jsonl"), "--queries",
                 str(tmp_path / "q.jsonl"), "-m", "decision-memory", "--defaults", "-p",
                 "inject_min_score=20", "-o", str(out)]) == 0
    text = out.read_text()
    where = tmp_path / "q.jsonl"
    if fmt == "md":
        # the decisions file's own note (a missing count) stays its own box
        assert text.count("> **Note:**") == 2
        assert all(line.startswith("> - ") for line in text.splitlines()
                   if "reads no key" in line or "the query keys" in line)
        block = text.split("> **Note:** the query file, as read:\n>\n", 1)[1].split("\n\n")[0]
        items = block.splitlines()
        assert [line[:len(f"> - {where}:1: field")] for line in items[:3]] == [
            f"> - {where}:{n}: field" for n in (1, 2, 3)]
        assert items[3].startswith("> - the query keys decision-memory reads: ")
        assert len(items) == 4
    else:
        assert text.count('class="caveat"') == 2  # and the decisions file's own
        box = text.split('<div class="caveat">the query file, as read:<ul>', 1)[1]
        box = box.split("</ul></div>", 1)[0]
        assert box.count("<li>") == 4 and f"<li>{where}:2: field" in box
        assert box.count("reads no key") == text.count("reads no key") == 3
    assert text.index("the query keys") < text.index("In short")
    assert json.loads((tmp_path / "q.jsonl").read_text().splitlines()[0])["minScre"] == 5
