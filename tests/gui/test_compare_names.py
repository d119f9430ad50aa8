"""Configuration names in the compare view's column heads: whole where they fit, on two
lines rather than elided where they do not (review F, 9: "w_mention…lity=0.2" above a column
with room)."""

from __future__ import annotations

from workbench.gui.compare.metric_table import NAME_CHARS, fold_name


def test_a_short_name_is_whole() -> None:
    assert fold_name("current (unsaved)") == "current (unsaved)"


def test_a_long_name_of_words_goes_onto_two_lines_at_the_best_space() -> None:
    assert fold_name("w_mention=3 w_centrality=0.2") == "w_mention=3\nw_centrality=0.2"
    assert fold_name("a b c d e f g h i j k l m n o p") == "a b c d e f g h\ni j k l m n o p"


def test_a_one_word_name_is_whole_a_little_past_the_line() -> None:
    assert fold_name("inject_min_score=30") == "inject_min_score=30"  # 19 characters
    long = "x" * (2 * NAME_CHARS)
    assert len(fold_name(long)) == NAME_CHARS * 3 // 2 and "…" in fold_name(long)


def test_each_line_is_cut_only_past_the_line() -> None:
    # broken after "the": 23 and 23 characters (after "on": 19 and 27), each cut to 18
    top, bottom = fold_name("short docs tuned on the train split, second try").split("\n")
    assert top.startswith("short") and top.endswith("the") and "…" in top
    assert bottom.startswith("train") and bottom.endswith("try") and "…" in bottom
    assert len(top) == len(bottom) == NAME_CHARS


def test_a_documents_id_keeps_most_of_a_narrow_row() -> None:
    """A 200-px row, an id of 170 px and a title of 120 (review F, 8: "brewi…ry.md" at 45 %):
    the id keeps 70 % (140 px), the title the rest; a shorter id is whole; both fit: all."""
    from workbench.gui.compare.rank_rows import id_width

    assert id_width(200, 170, 120) == 140
    assert id_width(200, 100, 150) == 100
    assert id_width(200, 150, 40) == 200
    assert id_width(200, 185, 30) == 170  # a short title leaves the id more than 70 %
