"""A document's display title where it is the first line of its text (OpenVault memories:
"type: first line"): a long line is cut at a word, with "…"."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.data import display_title
from workbench.core.formats import load_dataset


def test_a_long_first_line_is_cut_at_a_word_with_an_ellipsis() -> None:
    # the story report's title read "…bought up half the abandoned obse" (120 characters,
    # cut mid-word, no mark), then the memory's text followed in full
    corpus = load_dataset(SAMPLES / "story").corpus
    doc = corpus[corpus.index["ev057"]]
    assert display_title(corpus, doc) == (
        "revelation: Maribel revealed that I. Vance was Isadora Vance, an instrument dealer "
        "who had quietly bought up half the abandoned…")
    other = corpus[corpus.index["ev060"]]  # it read "…longer than most clock ma"
    assert display_title(corpus, other).endswith(" instructions longer than most clock…")
