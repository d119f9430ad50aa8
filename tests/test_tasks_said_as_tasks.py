"""On repository tasks, tune's closing lines, eval's header, export's warning and the compare
window's metric head say "tasks", as the notes beside them do (review dr7 3: "6 held-out
queries" beside "only 6 held-out tasks")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

REPO = str(SAMPLES / "code-repo")


def test_tune_on_tasks_says_tasks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "cr.toml"
    assert main(["tune", REPO, "-m", "codeledger", "--time-split", "0.5", "--metric",
                 "ndcg@10", "--tune", "w_keyword", "--trials", "2", "--storage",
                 str(tmp_path / "s.db"), "--out", str(out_file)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("code-repo: 29 documents, 12 judged tasks; model codeledger")
    assert "6 held-out tasks" in out and "held-out queries" not in out
    assert "the same held-out tasks, other measures" in out
    # the start kept unchanged: tuned on no task (rv 6), said in tasks too
    assert ("tuned on no task (this run fitted nothing): eval, compare and report on "
            "code-repo count every task as held out") in out
    # the plan's pick, the result table's column, the --out head: tasks too (dr9 5)
    assert "on the training tasks is surest" in out and "training tasks)" in out
    assert " p tasks " in out
    assert "queries" not in out
    head_lines = [line for line in out_file.read_text(encoding="utf-8").splitlines()
                  if line.startswith("#")]
    assert any(line.endswith(" 6 tasks)") for line in head_lines)
    assert not any("quer" in line for line in head_lines)
    # values a trial fitted (the start out of range, --pick best): tuned on the 6 older tasks
    assert main(["tune", REPO, "-m", "codeledger", "--time-split", "0.5", "--metric",
                 "ndcg@10", "--tune", "w_keyword", "--trials", "2", "--range", "w_keyword=1:2",
                 "--pick", "best", "--storage", str(tmp_path / "t.db"), "--out",
                 str(out_file)]) == 0
    assert "a rough figure under 10 tasks, as they say" in " ".join(
        capsys.readouterr().out.split())
    # eval of the file: its header, as its note below it
    assert main(["eval", REPO, "-m", "codeledger", "--params", str(out_file)]) == 0
    head = " ".join(capsys.readouterr().out.split())
    assert head.startswith("code-repo: 29 documents, 6 judged tasks (6 the values were tuned "
                           "on, left out")


def test_exports_warning_says_tasks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cl = tmp_path / "cl.toml"
    cl.write_text('[params]\nw_keyword = 0.36\n\n[tuned]\nverdict = "keep the starting values; '
                  'held-out ndcg@10 0.6098 → 0.5099"\ndataset = "code-repo"\n'
                  'validation = "time split (by date): 6 older tasks tune, 6 newer held out"\n'
                  'metric = "ndcg@10"\nheld_out_default = 0.6098\nheld_out_tuned = 0.5099\n'
                  'held_out_p = 0.125\nheld_out_queries = 6\nmodel = "codeledger"\n'
                  'trained_on = ["c45484912fc"]\n', encoding="utf-8")
    assert main(["export", "--model", "codeledger", "--params", str(cl)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "(p = 0.125, 6 held-out tasks)" in err


def test_the_compare_windows_metric_head_says_tasks() -> None:
    pytest.importorskip("PySide6")
    from workbench.core.comparison import Configuration, compare_configurations
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model
    from workbench.gui.compare.metric_table import MetricTable

    model = get_model("codeledger")
    ds = load_dataset(SAMPLES / "code-repo")
    comp = compare_configurations(
        model, ds, [Configuration("defaults", model.schema.defaults()),
                    Configuration("other", model.schema.resolve({"w_keyword": 2.0}))],
        ["ndcg@10"], n_resamples=50)
    assert MetricTable._header_tip(comp, 0) == "metric (mean over the judged tasks)"
