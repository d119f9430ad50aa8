"""The Bundle tab's summary counts the tasks the metric strip counts: where the live values
were tuned on some tasks, the others, said so (rv2 1: on ky the strip said bundle recall 0.80
over the 51 tasks not tuned on, the Bundle tab 0.88 over all 103, training scores mixed in).
The figures are checked against the model's own evaluation of the held-out tasks alone,
built here from the sample's files."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json

import numpy as np
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.tuned_on import TunedOn
from workbench.gui.charts import ContextBundle
from workbench.gui.charts._standalone import open_session

CODE = SAMPLES / "code-repo"
TUNED = {"sufficiency": 0.5, "w_keyword": 2.0}


def _ids() -> list[str]:
    lines = (CODE / "tasks.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line)["id"] for line in lines]


def test_the_summary_counts_only_the_tasks_not_tuned_on(qtbot: QtBot) -> None:
    ids = _ids()
    trained, held = tuple(ids[:5]), ids[5:]
    s = open_session(CODE)
    panel = ContextBundle(s)
    qtbot.addWidget(panel)
    panel.resize(1200, 360)
    panel.show()
    qtbot.waitExposed(panel)
    s.set_params({**s.params, **TUNED},
                 tuned_on=TunedOn(s.dataset.name if s.dataset else "", "none", trained,
                                  "bundle_recall"))
    s.recompute()  # as the window does on params_changed
    # the model's own figures from the files, apart from the session, over the held-out tasks
    ds = load_dataset(CODE)
    got = Pipeline(get_model("codeledger"), ds, {**s.params}).run(["ndcg@10"])
    rows = [i for i, q in enumerate(ds.queries.ids) if q in held]
    recall = float(np.mean(got.per_query["bundle_recall"][rows]))
    assert f"recall {recall:.3f}" != f"recall {got.means['bundle_recall']:.3f}"  # tells apart
    files = float(np.mean(got.per_query["bundle_files"][rows]))
    tokens = float(np.mean(got.per_query["bundle_tokens"][rows]))
    text = panel.summary.text()
    assert text.startswith(f"the {len(held)} tasks not tuned on ({len(trained)} set aside): ")
    assert f"recall {recall:.3f}" in text  # to the cards' 3 decimals (rn 6)
    assert f"files {files:.1f}" in text and f"tokens {tokens:,.0f}" in text
    # back to values tuned on nothing: every task again
    s.set_params({**s.params}, tuned_on=None)
    s.recompute()
    assert panel.summary.text().startswith(f"all {len(ids)} tasks: ")
