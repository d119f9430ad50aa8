"""Metric vs parameter draws a selection figure (results, empty, injected tokens) over the
queries `workbench sweep` and eval count it over: the judged turns. An eval case with neither
expected_top_ids nor must_not_include is judged by nothing; the chart had counted it (1.75
results, 25 % empty, 4.0 tokens where sweep says 2.00, 0 %, 4.5 at the same settings)."""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from pytestqt.qtbot import QtBot

from workbench.gui.charts import MetricCurve
from workbench.gui.charts._standalone import open_session
from workbench.gui.metric_names import select_metric

NOW = "2026-03-10T12:00:00.000Z"
# by hand, from the cases below: each decision's snippet is "PgBouncer", 9 characters, and
# every title matches "connection pooling", so a case injects its topK of them: j1 3 results,
# ⌊27 / 4 + 0.5⌋ = 7 tokens; j2 1 result, ⌊9 / 4 + 0.5⌋ = 2 tokens. Over the two judged cases:
# 2 results, 0 % empty, 4.5 tokens; over all four (the unjudged u1's 3 results and 7 tokens,
# u2's "zebra", which matches nothing, with them) they would be 1.75, 25 % and 4.0
JUDGED = {"results": 2.0, "empty": 0.0, "injected_tokens": 4.5}
EVERY = {"results": 1.75, "empty": 25.0, "injected_tokens": 4.0}


def _cases(tmp_path: Path) -> Path:
    """Four pi-lodestone eval cases over the same six decisions, two of them judged."""
    corpus = [{"id": f"d{i}", "title": f"Connection pooling choice {i}", "text": "PgBouncer",
               "tags": ["decision"], "cwd": "/repos/app", "project": "app",
               "source": "manual", "important": False, "archived": False,
               "createdAt": f"2026-03-0{i + 1}T00:00:00.000Z", "retrievalCount": 0,
               "injectionCount": 0} for i in range(6)]
    cases = [("j1", "connection pooling", 3, ["d0"]), ("j2", "connection pooling", 1, ["d1"]),
             ("u1", "connection pooling", 3, []), ("u2", "zebra", 3, [])]
    path = tmp_path / "eval.jsonl"
    path.write_text("".join(json.dumps({
        "name": name, "query": text, "cwd": "/repos/app", "forInjection": True, "now": NOW,
        "topK": k, "projectOnly": True, "corpus": corpus, "expected_top_ids": expected}) + "\n"
        for name, text, k, expected in cases))
    return path


@pytest.mark.parametrize("figure", list(JUDGED))
def test_the_figure_curve_counts_the_judged_cases(
        qtbot: QtBot, tmp_path: Path, figure: str) -> None:
    s = open_session(_cases(tmp_path), "decision-memory")
    s.set_param("inject_limit", 3)  # sweep's rows "3" of the same cases say the same
    s.recompute()
    s.pin_baseline()
    assert s.judgments is not None and int(s.judgments.judged_mask.sum()) == 2  # the premise
    curve = MetricCurve(s, synchronous=True)
    qtbot.addWidget(curve)
    curve.resize(900, 420)
    curve.show()
    qtbot.waitExposed(curve)
    curve.param_name = "inject_limit"
    assert select_metric(curve.metric_box, figure)
    curve.request_sweep()
    drawn = dict(curve.points)
    assert drawn[3] == pytest.approx(JUDGED[figure])
    assert JUDGED[figure] != pytest.approx(EVERY[figure])  # the premise: the unjudged move it
    # the value in use and the baseline, drawn on the curve
    assert curve.current is not None and curve.current[1] == pytest.approx(JUDGED[figure])
    assert curve.baseline_value == pytest.approx(JUDGED[figure])
    assert "over the 2 judged cases" in curve.caption.text()
