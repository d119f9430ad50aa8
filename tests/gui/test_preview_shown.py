"""The preview shows what the source system shows: the snippet and the injected block."""

from __future__ import annotations

from workbench.gui.preview import shown_html


def test_snippet_and_block_are_shown_escaped() -> None:
    page = shown_html({"snippet": "a <b> \u2026", "memory_block": "## Pi memory (verify)\n- [x] t"})
    assert "snippet: a &lt;b&gt; \u2026" in page
    assert "<pre" in page and "## Pi memory (verify)\n- [x] t" in page


def test_an_empty_block_says_nothing_is_injected_and_other_models_show_nothing() -> None:
    assert "nothing injected" in shown_html({"memory_block": ""})
    assert shown_html({"score": 1.0}) == ""


def test_the_breakdown_has_one_count_of_decimals_and_real_minus_signs(qtbot: object) -> None:
    """It mixed "content 1", "cochange 0.05243" and "churn 0.003851" beside a 2.395 in the
    table: now the score and every term have the ranked table's decimals."""
    import re
    from pathlib import Path

    from workbench.gui.main_window import MainWindow
    from workbench.gui.palette import number

    assert number(-0.0001, 3) == "0.000" and number(-2.5, 1) == "−2.5" and number(1, 3) == "1.000"
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.open_path(Path(__file__).resolve().parents[2] / "sample_corpora" / "code-repo")
    s = w.session
    doc = int(s.result.scores.docs[s.result.scores.row(s.query)][0])
    text = re.sub("<[^>]+>", "", w.preview._breakdown(doc))
    figures = re.findall(r"[−-]?\d+\.\d+|\b\d+\b", text.split("=", 1)[1])
    assert len(figures) > 5 and len({len(f.partition(".")[2]) for f in figures}) == 1, text
    assert "-" not in text.replace("non-", "")
    w.close()


def test_importance_shows_its_score_as_importance_times_relevance(qtbot: object) -> None:
    """The preview gave only the sum, "relevance 0.000" for the most relevant memory."""
    import re
    from pathlib import Path

    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.open_path(Path(__file__).resolve().parents[2] / "sample_corpora" / "memories")
    w.preview.refresh()
    text = re.sub("<[^>]+>", "", w.preview.browser.toHtml())
    assert re.search(r"score [\d.]+ = importance [\d.]+ × relevance [\d.]+", text), text[:400]
    assert "as contributions (the bars; they add up to it):" in text
    w.close()


def test_a_word_is_marked_where_its_stem_is_a_matched_term() -> None:
    """bm25's matched terms are Snowball stems, and a stem is not always a prefix of its
    word: "study" (stem "studi") and "body" stayed plain beside a marked "studies"."""
    import re

    from workbench.gui.preview import highlight

    page = highlight("This study of body therapy applies to studies; we apply therapies.",
                     {"studi", "therapi", "appli", "bodi"})
    marked = re.findall(r"<span[^>]*>([^<]*)</span>", page)
    assert marked == ["study", "body", "therapy", "applies", "studies", "apply", "therapies"]
    # a term that is a word's start still marks it (codeledger's keywords); none marks nothing
    assert re.findall(r"<span[^>]*>([^<]*)</span>", highlight("Retrying a <b>", {"retry"})) \
        == ["Retrying"]
    assert highlight("a <b>", set()) == "a &lt;b&gt;"
    # vault-search splits on whitespace: a term may hold punctuation, marked whole
    assert re.findall(r"<span[^>]*>([^<]*)</span>",
                      highlight("Pour-over ratios on node.js and e-mail", {
                          "pour-over", "ratio", "node.js", "e-mail"})) == [
        "Pour-over", "ratios", "node.js", "e-mail"]


def test_the_title_is_marked_as_the_text_is(qtbot: object) -> None:
    """The heading had been escaped only: a title bm25 scored showed no marked word."""
    import re
    from pathlib import Path

    from snowballstemmer.english_stemmer import EnglishStemmer

    from workbench.gui.main_window import MainWindow

    stemmer = EnglishStemmer()
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.open_path(Path(__file__).resolve().parents[2] / "sample_corpora" / "tea-beir",
                       model="bm25")
    s = w.session
    ds = s.dataset
    # the first top document whose title holds a matched word
    for q in range(len(ds.queries)):
        s.select_query(q)
        doc = int(s.result.ranking.docs[q, 0])
        terms = w.preview.terms
        title = ds.corpus[doc].title.lower()
        if any(stemmer.stemWord(word) in terms for word in re.findall(r"\w+", title)):
            break
    else:
        raise AssertionError("no top title holds a matched word")
    heading = w.preview._html.split("</h3>")[0]
    assert "<span" in heading, (ds.queries[q].text, ds.corpus[doc].title, w.preview.terms)
    w.close()


def test_the_models_whole_breakdown_is_under_the_document(qtbot: object) -> None:
    """The window showed the signals' sum; explain's breakdown (a gate's reason, vault
    search's words and positions, hybrid's similarity against its threshold) only the CLI
    printed. It is now under the document, line for line as `workbench explain` prints it."""
    import html
    from pathlib import Path

    from workbench.gui.main_window import MainWindow
    from workbench.textout import explain_lines

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.open_path(Path(__file__).resolve().parents[2] / "sample_corpora" / "vault")
    s = w.session
    doc = int(s.result.ranking.docs[s.query, 0])
    w.preview.refresh()
    page = w.preview._html
    details = s.model.explain(s.prepared, s.dataset, s.query, doc, s.params)
    # less the signals 0 for every pair here, as explain leaves them out (vault-search's
    # proximity and clamp when shipped)
    idle = s.model.idle_signals(s.prepared, s.params)
    assert idle
    lines = explain_lines({k: v for k, v in details.items()
                           if k not in ("snippet", "doc", "query")}, idle)  # shown above already
    assert len(lines) > 3
    assert "the model's breakdown" in page and html.escape("\n".join(lines)) in page
    assert not any(f"{name}=" in page for name in idle)
    w.close()
