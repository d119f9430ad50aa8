"""The Tune tab's result table marks a value no score reads beside the others (vault-search's
tf_scale while the variant is not shipped) as having no effect, greyed, as the command line's
table and --out file mark it (dI 4: it was listed plain)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES


def test_the_tune_tab_marks_a_value_no_score_reads(qtbot, tmp_path: Path) -> None:
    from workbench.core.session import TuningSession
    from workbench.core.tuning.job import job_from_session, run_job
    from workbench.gui.tune_results import TuneView

    s = TuningSession()
    s.open(SAMPLES / "vault")
    s.set_model("vault-search", {"variant": "documented"})
    s.recompute()
    job = job_from_session(s, ["tf_scale", "w_tf"], validation="none", trials=4, pick="best",
                           storage=str(tmp_path / "w.db"))
    outcome = run_job(job)
    view = TuneView()
    qtbot.addWidget(view)
    view.show_outcome(outcome, job)
    table = view.results.table
    cells = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    label = job.model.schema["tf_scale"].label
    tf = cells[label]
    assert table.item(tf, 2).text().endswith("(no effect)")
    assert table.item(tf, 2).toolTip() == "no effect: Variant is not shipped"
    w_tf = cells[job.model.schema["w_tf"].label]
    assert "no effect" not in table.item(w_tf, 2).text()
