"""The header's counts and the typing box's hint say the data's own nouns (rn 6): a
repository's files and tasks (the Bundle panel's "all 12 tasks"), OpenVault's memories and
chat moments, pi-lodestone's decisions and cases; documents and queries otherwise."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.session import TuningSession
from workbench.gui.header import Header, counted, doc_words
from workbench.gui.query_list import QueryList


# the counts as the samples' own files have them (tasks.jsonl's 12 lines, memories.json's 155
# entries, eval.jsonl's 30, corpus.jsonl's 151); code-repo's 29 files as the header said them
@pytest.mark.parametrize(("sample", "line", "hint"), [
    ("code-repo", "dataset: code-repo (29 files, 12 tasks, 12 judged)", "Type a task"),
    ("story", "dataset: story (155 memories, 26 chat moments, 26 judged)",
     "Type a chat moment"),
    ("decisions-eval", "dataset: decisions-eval (86 decisions, 30 cases, 30 judged)",
     "Type a query"),  # a typed row is no case (dA 1)
    ("tea-beir", "dataset: tea-beir (151 docs, 25 queries, 25 judged)", "Type a query"),
])
def test_the_header_and_the_typing_box_say_the_datas_nouns(qtbot: QtBot, sample: str,
                                                           line: str, hint: str) -> None:
    s = TuningSession()
    s.open(SAMPLES / sample)
    header = Header(s)
    qtbot.addWidget(header)
    assert header.dataset_label._plain == line
    queries = QueryList(s)
    qtbot.addWidget(queries)
    assert queries.ask_edit.placeholderText() == f"{hint}, press Enter to rank it"
    # the filter box counts in the header's word (dA 2: "Filter queries" beside 26 chat moments)
    many = line.split(", ")[1].split(" ", 1)[1]
    assert queries.filter_edit.placeholderText() == f"Filter {many} (Ctrl+F)"


def test_one_of_each_is_singular() -> None:
    assert counted(1, *doc_words("files")) == "1 file"
    assert counted(1, *doc_words("memories")) == "1 memory"  # not "1 memorie"
    assert counted(1, *doc_words("documents")) == "1 doc"
    assert counted(2_000, *doc_words("documents")) == "2,000 docs"


def test_a_typed_query_is_counted_apart_from_the_cases(qtbot: QtBot) -> None:
    """dA 1: a query typed on decisions-eval made the header say "31 cases, 30 judged" while
    the cases card said 20 / 30: it is a query with no expectations, not an eval case."""
    from workbench.core.cases import check_cases
    from workbench.gui.charts._standalone import open_session

    s = open_session(SAMPLES / "decisions-eval")
    header = Header(s)
    qtbot.addWidget(header)
    s.add_query("how should we roll back a failed deploy")
    s.recompute()
    assert s.dataset is not None and s.result is not None
    assert header.dataset_label._plain == (
        "dataset: decisions-eval (86 decisions, 30 cases, 1 typed query, 30 judged)")
    # as many cases as eval.jsonl has lines, and as the cases card counts
    lines = (SAMPLES / "decisions-eval" / "eval.jsonl").read_text("utf-8").splitlines()
    assert len(check_cases(s.dataset, s.result.ranking).cases) == len(lines) == 30


def test_a_typed_query_on_plain_queries_is_one_of_them(qtbot: QtBot) -> None:
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    header = Header(s)
    qtbot.addWidget(header)
    s.add_query("green tea")
    assert header.dataset_label._plain == "dataset: tea-beir (151 docs, 26 queries, 25 judged)"


@pytest.mark.parametrize(("sample", "shown"), [
    ("story", "story (26 chat moments)"),
    ("code-repo", "code-repo (12 tasks)"),
])
def test_at_1024_the_counts_are_shortened_not_cut(qtbot: QtBot, styled: object, sample: str,
                                                  shown: str) -> None:
    """dA 4: at 1,024 × 768 with a baseline pinned the line read "dataset: story (155
    memories, 26 c…": now the judged count (every one is judged), "dataset: " and the
    docs' count give way before a word is cut, the whole in the tooltip."""
    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1024, 768)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / sample)
    w.session.pin_baseline()
    qtbot.wait(10)
    header = w.findChild(Header)
    assert header is not None
    label = header.dataset_label
    assert label.text().replace("<b>", "").replace("</b>", "") == shown
    assert label.ideal_width() > label.width()  # the whole does not fit
    assert label.toolTip().splitlines()[0] == label._plain
    w.close()
