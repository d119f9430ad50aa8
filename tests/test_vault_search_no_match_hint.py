"""vault-search's words where a query matches nothing (rv52 5): the phrase advice only for a
query of several words, variant=documented said to be no setting of obsidian-mcp, and a
judged note that is not UTF-8 named as the cause where the query has non-ASCII characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


def _vault(tmp_path: Path) -> Path:
    """a.md holds "Café" in Latin-1 (0xe9), b.md is UTF-8; q1 "café" judges a.md, q2
    "kombucha" and q3 "kombucha tea" judge b.md."""
    home = tmp_path / "v"
    notes = home / "notes"
    notes.mkdir(parents=True)
    (notes / "a.md").write_bytes(b"# Import\n\nCaf\xe9 au lait\n")
    (notes / "b.md").write_text("plain tea\n", encoding="utf-8")
    (home / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "café"}\n{"_id": "q2", "text": "kombucha"}\n'
        '{"_id": "q3", "text": "kombucha tea"}\n', encoding="utf-8")
    (home / "qrels").mkdir()
    (home / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\ta.md\t1\nq2\tb.md\t1\nq3\tb.md\t1\n", encoding="utf-8")
    return home


def _said(capsys: pytest.CaptureFixture[str]) -> str:
    got = capsys.readouterr()
    return " ".join((got.out + got.err).split())


def test_one_word_gets_no_phrase_advice(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_vault(tmp_path)), "-m", "vault-search", "-q", "kombucha"]) == 0
    said = next(line for line in capsys.readouterr().out.splitlines()
                if line.startswith("no results"))
    assert said == "no results: no line of any note contains 'kombucha'"


def test_several_words_get_it_with_documented_said_not_to_ship(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_vault(tmp_path)), "-m", "vault-search", "-q",
                 "kombucha tea"]) == 0
    said = _said(capsys)
    assert ("no line of any note contains the phrase 'kombucha tea': vault-search matches the "
            "whole query as one phrase within a line, as obsidian-mcp does (search a shorter "
            "phrase; variant=documented matches the words apart, but is not what obsidian-mcp "
            "runs)") in said


def test_a_judged_note_that_is_not_utf8_is_named_as_the_cause(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vault = _vault(tmp_path)
    assert main(["explain", str(vault), "-m", "vault-search", "--query-id", "q1",
                 "--relevant"]) == 0
    said = _said(capsys)
    assert ("a.md (judged 1): not ranked — no candidate of this query (no line of it contains "
            "'café'; it is not UTF-8: 'Caf\\xe9' read as 'Caf\ufffd'; a query with characters "
            "outside ASCII cannot match what those bytes held: re-save it as UTF-8)") in said
    # the whole query's reason names it too (eval's "e.g." line, the window's "no result")
    ds = load_dataset(vault, skipped=[])
    pipe = Pipeline(get_model("vault-search"), ds, {})
    why = pipe.model.not_a_candidate(pipe.prepared, ds, 0, None, pipe.params)
    assert why.endswith("; judged a.md is not UTF-8: 'Caf\\xe9' read as 'Caf\ufffd'; a query "
                        "with characters outside ASCII cannot match what those bytes held: "
                        "re-save it as UTF-8")
    # and the preview's reason (explain's)
    reason = pipe.model.explain(pipe.prepared, ds, 0, ds.corpus.index["a.md"],
                                pipe.params)["reason"]
    assert reason.startswith("no line holds the query; it is not UTF-8: 'Caf\\xe9'")


def test_an_ascii_query_or_a_utf8_note_says_no_flaw(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vault = _vault(tmp_path)
    ds = load_dataset(vault, skipped=[])
    pipe = Pipeline(get_model("vault-search"), ds, {})
    a, b = ds.corpus.index["a.md"], ds.corpus.index["b.md"]
    # "kombucha" is ASCII: a.md's flaw cannot be why it misses
    assert "UTF-8" not in pipe.model.not_a_candidate(pipe.prepared, ds, 1, a, pipe.params)
    assert "UTF-8" not in pipe.model.not_a_candidate(pipe.prepared, ds, 0, b, pipe.params)


def test_a_utf8_note_or_a_jsonl_text_holding_u_fffd_is_not_called_not_utf8(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr7 2: a valid UTF-8 note holding a literal U+FFFD (pasted mojibake), and a JSON-lines
    text holding one, were called "not UTF-8 … re-save it as UTF-8"; re-saving mends
    neither."""
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "pasted.md").write_bytes(b"# Pasted\nCaf\xef\xbf\xbd menu copied from a web page\n")
    (vault / "other.md").write_text("plain tea\n", encoding="utf-8")
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "d1", "text": "Caf\\ufffd menu"}\n'
                      '{"id": "d2", "text": "plain tea"}\n', encoding="utf-8")
    for where, doc in ((vault, "pasted.md"), (corpus, "d1")):
        assert main(["explain", str(where), "-m", "vault-search", "-q", "café",
                     "--doc", doc]) == 0
        said = _said(capsys)
        assert f"{doc}: not ranked — no candidate of this query (no line of it contains " \
               "'café')" in said
        assert "UTF-8" not in said
