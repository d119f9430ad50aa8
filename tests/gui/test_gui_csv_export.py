"""The ranked table's CSV export writes a formula-looking title as text."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.gui.export_csv import write_ranked_csv
from workbench.gui.main_window import MainWindow


def test_a_title_that_is_a_formula_is_exported_as_text(window: MainWindow,
                                                      tmp_path: Path) -> None:
    folder = tmp_path / "beir"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text(json.dumps(
        {"_id": "d1", "title": "=HYPERLINK(\"http://x\")", "text": "green tea"}) + "\n")
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "tea"}) + "\n")
    assert window.open_path(folder, model="bm25")
    path = tmp_path / "out.csv"
    assert write_ranked_csv(window.session, path) == 1
    assert ",\"'=HYPERLINK(\"\"http://x\"\")\"," in path.read_text()
