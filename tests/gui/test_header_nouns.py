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
     "Type a case"),
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


def test_one_of_each_is_singular() -> None:
    assert counted(1, *doc_words("files")) == "1 file"
    assert counted(1, *doc_words("memories")) == "1 memory"  # not "1 memorie"
    assert counted(1, *doc_words("documents")) == "1 doc"
    assert counted(2_000, *doc_words("documents")) == "2,000 docs"
