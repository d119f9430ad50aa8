"""The ranked table's title column: a corpus whose titles are labels many documents share
(OpenVault's event types) shows each label with the document's first line; distinct titles
are shown as they are."""

from __future__ import annotations

from workbench.core.data import Corpus, Document
from workbench.core.data import display_title as _title


def test_shared_labels_get_the_text_beside_them() -> None:
    labels = Corpus([Document(f"m{i}", "action" if i % 2 else "revelation",
                              f"Suzy did thing {i}\nmore") for i in range(20)])
    assert _title(labels, labels[3]) == "action: Suzy did thing 3"
    titled = Corpus([Document(f"d{i}", f"Paper {i}", "abstract") for i in range(20)])
    assert _title(titled, titled[3]) == "Paper 3"
    untitled = Corpus([Document("d", "", "first line\nsecond")])
    assert _title(untitled, untitled[0]) == "first line"
