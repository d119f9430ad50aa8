"""Queries, tasks and judgments opened apart from the dataset: File ▸ Open queries or tasks… and
Open judgments… read the open dataset again with them (model and values kept), a saved session
and the Recent menu remember them, and bad input changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.core.session import TuningSession
from workbench.gui import settings as st
from workbench.gui.main_window import MainWindow

SAMPLES = Path(__file__).resolve().parents[2] / "sample_corpora"


def _some_tasks(tmp_path: Path, n: int) -> Path:
    """The code sample's first n tasks, as tasks-from-git wrote them."""
    lines = (SAMPLES / "code-repo" / "tasks.jsonl").read_text().splitlines()[:n]
    out = tmp_path / "tasks.jsonl"
    out.write_text("\n".join(lines) + "\n")
    return out


def test_a_task_set_for_the_open_repository(window: MainWindow, tmp_path: Path) -> None:
    s = window.session
    assert window.open_path(SAMPLES / "code-repo")
    all_tasks = len(s.dataset.queries)
    s.set_params({"w_content": 0.4})
    tasks = _some_tasks(tmp_path, 3)
    assert all_tasks > 3
    assert window.open_with(queries=str(tasks))
    assert list(s.dataset.queries.ids) == [
        json.loads(line)["id"] for line in tasks.read_text().splitlines()]
    assert s.model.id == "codeledger" and s.params["w_content"] == 0.4  # kept
    assert s.queries_file == str(tasks) and s.qrels_file is None
    assert s.result is not None and len(s.result.ranking.docs) == 3
    assert "queries from tasks.jsonl" in window.statusBar().currentMessage()
    # a saved session opens with the same tasks
    saved = tmp_path / "session.json"
    s.save(saved)
    assert json.loads(saved.read_text())["queries"] == str(tasks)
    again = TuningSession()
    again.load(saved)
    assert again.dataset is not None and len(again.dataset.queries) == 3
    assert again.queries_file == str(tasks)
    # the Recent menu (and the next launch) open it with them; an explicit open without
    # them forgets them
    assert window.open_path(SAMPLES / "vault")
    assert window.reopen(str(SAMPLES / "code-repo"))
    assert len(s.dataset.queries) == 3
    assert window.open_path(SAMPLES / "code-repo")
    assert len(s.dataset.queries) == all_tasks and s.queries_file is None
    assert st.recalled_files(str(SAMPLES / "code-repo")) == (None, None, "test")


def test_bad_queries_or_judgments_change_nothing(window: MainWindow, tmp_path: Path) -> None:
    s = window.session
    assert window.open_path(SAMPLES / "code-repo")
    before = (s.dataset, s.source, s.queries_file)
    bad = tmp_path / "tasks.jsonl"
    good = json.loads((SAMPLES / "code-repo" / "tasks.jsonl").read_text().splitlines()[0])
    bad.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "x", "files": 3}) + "\n")
    assert not window.open_with(queries=str(bad))
    assert (s.dataset, s.source, s.queries_file) == before
    assert window.error_box is not None
    assert f"{bad}:2: field 'files'" in window.error_box.text()  # file, line and field
    # a repository's tasks name their files: judgments are refused, in one message
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nc1\tapi/shorty/app.py\t1\n")
    assert not window.open_with(qrels=str(qrels))
    assert (s.dataset, s.source, s.queries_file) == before
    assert "give tasks (queries) only" in window.error_box.text()


def test_a_relative_file_is_kept_whole(window: MainWindow, tmp_path: Path,
                                       monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A query file named relative to the folder the window started in is remembered (and
    saved in a session) by its whole path, so it is found from anywhere later."""
    assert window.open_path(SAMPLES / "code-repo")
    _some_tasks(tmp_path, 2)
    monkeypatch.chdir(tmp_path)
    assert window.open_with(queries="tasks.jsonl")
    assert window.session.queries_file == str(tmp_path / "tasks.jsonl")
    assert st.recalled_files(str(SAMPLES / "code-repo"))[0] == str(tmp_path / "tasks.jsonl")


def test_judgments_for_queries_given_apart(window: MainWindow, tmp_path: Path) -> None:
    """A BEIR folder read with another query file is unjudged until judgments are opened."""
    s = window.session
    assert window.open_path(SAMPLES / "tea-beir")
    queries = tmp_path / "queries.jsonl"
    lines = (SAMPLES / "tea-beir" / "queries.jsonl").read_text().splitlines()
    queries.write_text("\n".join(lines[:4]) + "\n")
    assert window.open_with(queries=str(queries))
    assert len(s.dataset.queries) == 4 and s.judgments is None
    # judgments of queries the set does not hold are left aside, as trec_eval leaves them,
    # and said; a file judging none of them is one message naming file, line and field
    full = SAMPLES / "tea-beir" / "qrels" / "test.tsv"
    assert window.open_with(qrels=str(full))
    assert window.error_box is not None and "judgments of 21 queries the query set lacks " \
        "left aside" in window.error_box.text()
    assert s.judgments is not None and len(s.dataset.queries) == 4
    window.error_box = None
    wrong = tmp_path / "wrong.tsv"
    wrong.write_text("zz\td001\t1\n")
    assert not window.open_with(qrels=str(wrong))
    assert window.error_box is not None and f"{wrong}:1" in window.error_box.text()
    assert "field 'query-id'" in window.error_box.text()
    ids = {json.loads(x)["_id"] for x in lines[:4]}
    rows = full.read_text().splitlines()
    mine = [r for r in rows[1:] if r.split("\t")[0] in ids]
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("\n".join([rows[0], *mine]) + "\n")
    assert window.open_with(qrels=str(qrels))
    assert s.queries_file == str(queries) and s.qrels_file == str(qrels)  # queries kept
    assert s.judgments is not None and s.result is not None
    assert set(s.dataset.queries.ids) == {r.split("\t")[0] for r in mine}
    assert window.menu_actions.open_qrels.isEnabled()
