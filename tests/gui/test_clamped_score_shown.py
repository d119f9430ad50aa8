"""A vault-search score clamped to 1 shows as 1.0000 in the ranked table and the preview, as
`workbench rank` prints it (rv52 9: "1" where every score shown was clamped to 1)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from workbench.gui.main_window import MainWindow
from workbench.gui.palette import score_decimals


def _vault(tmp_path: Path) -> Path:
    """"budget" alone in z.md and a/b.md: tf, position and density 1 each, so with every
    weight 1 the sum 3 is clamped to 1 (clamp −2); other.md holds no "budget"."""
    vault = tmp_path / "v"
    notes = vault / "notes"
    (notes / "a").mkdir(parents=True)
    (notes / "z.md").write_text("budget", encoding="utf-8")
    (notes / "a" / "b.md").write_text("budget", encoding="utf-8")
    (notes / "other.md").write_text("nothing here", encoding="utf-8")
    (vault / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "budget"}) + "\n",
                                         encoding="utf-8")
    return vault


def test_scores_clamped_to_one_show_four_decimals(qtbot: object, tmp_path: Path) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.open_path(_vault(tmp_path), model="vault-search",
                       params={"w_tf": 1.0, "w_position": 1.0, "w_density": 1.0})
    table = w.ranked.model
    shown = [t[4] for t in table._texts if t[4]]
    assert shown == ["1.0000", "1.0000"]
    s = w.session
    doc = int(s.result.scores.docs[s.result.scores.row(s.query)][0])
    text = re.sub("<[^>]+>", "", w.preview._breakdown(doc))
    assert "score 1.0000 = " in text and "−2.0000" in text, text
    w.close()


@pytest.mark.parametrize(("scores", "terms", "decimals"), [
    ([1.0, 1.0], None, 4), ([1.0, 0.0], None, 4), ([1.0, 0.5735], None, 4),
    ([0.0, 0.0], None, 4),
    ([1.0], [1.0, 1.0, 1.0, -2.0], 4),  # a clamp term past 1 makes no score whole
    ([54.0], [6.0, 48.0], 0),  # decision-memory's whole numbers stay whole
    ([2.0], [2.5, -0.5], 3),
])
def test_whole_needs_a_score_past_one(scores: list[float], terms: list[float] | None,
                                      decimals: int) -> None:
    assert score_decimals(scores, terms) == decimals


def test_whole_is_the_results_not_one_querys() -> None:
    """decision-memory's query whose rows score 1 and 0 shows them whole, as its other
    queries' 54 (its column is measured over every query: dr3 6); a clamped result never."""
    every = np.array([54.0, 12.0, 1.0, 0.0])
    assert score_decimals([1.0, 0.0], every=every) == 0
    assert score_decimals([1.0], [1.0, 0.0], every) == 0
    assert score_decimals([1.0, 0.0], every=np.array([1.0, 0.5735, 0.0])) == 4
    assert score_decimals([1.0, 0.0], every=np.array([1.0, 0.0])) == 4
