"""The ranked table says where the shown query's results tie at 1 (clamped) within the top k,
in rank's words: it shows vault-search's ties by file path, beside a per-query nDCG that reads
them by document id descending (trec_eval's order), and obsidian-mcp may order them otherwise
(rv2 1, said by rank, sweep and compare; the window had said nothing)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.ranked_table import RankedTable


def _vault(tmp_path: Path) -> Path:
    """As tests/test_cli_clamp_ties_said.py: "budget" alone in a/b.md and first of three lines
    in z.md (judged relevant to q1); at the default weights a/b.md sums to exactly 1, no
    clamp; with w_position = 1 both pass 1 and are clamped to it, tied."""
    root = tmp_path / "v"
    notes = root / "notes"
    (notes / "a").mkdir(parents=True)
    (notes / "z.md").write_text("budget\nfoo bar baz\nqux quux", encoding="utf-8")
    (notes / "a" / "b.md").write_text("budget", encoding="utf-8")
    (notes / "other.md").write_text("nothing here", encoding="utf-8")
    (root / "queries.jsonl").write_text('{"_id": "q1", "text": "budget"}\n'
                                        '{"_id": "q2", "text": "nothing"}\n', encoding="utf-8")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\tz.md\t1\nq2\tother.md\t1\n", encoding="utf-8")
    return root


def test_a_clamp_tie_in_the_top_k_is_said_with_both_orders(qtbot: QtBot,
                                                            tmp_path: Path) -> None:
    s = TuningSession()
    s.open(_vault(tmp_path))
    s.set_model("vault-search")
    s.recompute()
    table = RankedTable(s)
    qtbot.addWidget(table)
    table.refresh()
    assert "tied at 1" not in table.notes.plain_text()  # 0.4 + 0.3 + 0.3: no clamp made it
    s.set_param("w_position", 1.0)
    s.recompute()
    table.refresh()
    assert table.notes.plain_text() == "2 results tied at 1 (clamped)"
    assert table.notes.isVisibleTo(table)
    assert table.notes.toolTip().endswith(
        "2 results tied at 1 (clamped): shown by file path (the model's order), not by a "
        "score; the metrics read them by document id descending, as trec_eval reads a run "
        "file and eval --run writes it (z.md first), and this query's metrics count that "
        "order; obsidian-mcp keeps tied notes in the order it meets them (a stable sort by "
        "score), which may be neither")
    s.select_query(1)  # "nothing": other.md alone
    table.refresh()
    assert "tied at 1" not in table.notes.plain_text()
