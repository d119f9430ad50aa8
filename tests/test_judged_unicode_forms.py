"""rv2 4: a note whose file name macOS stores decomposed (NFD), judged as an editor types it
(NFC), was "not in the corpus" though the two print alike. Judged ids are matched after NFC
where the corpus holds exactly one such id, said once; where it holds two, the warning says
so; an id that matches exactly is left as it is."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from workbench.core.checks import load_warnings
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset

NFC = "people/zo\u00eb.md"  # ë as one code point, as typed
NFD = "people/zoe\u0308.md"  # e and a combining diaeresis, as macOS stores the name


def vault(root: Path, judged: list[tuple[str, int]], names: tuple[str, ...] = (NFD,)) -> Path:
    (root / "notes" / "people").mkdir(parents=True)
    (root / "notes" / "book.md").write_text("book club\n")
    for name in names:
        (root / "notes" / name).write_text("# Zoë\nZoë runs the book club.\n")
    (root / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "book club"}) + "\n")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"q1\t{d}\t{g}\n" for d, g in judged))
    return root


def test_a_note_stored_in_nfd_is_matched_and_said_once(tmp_path: Path) -> None:
    assert NFC != NFD and unicodedata.normalize("NFC", NFD) == NFC
    # the only relevant judgment: refused as judging nothing in the corpus before
    ds = load_dataset(vault(tmp_path / "v", [(NFC, 2), ("book.md", 0)]))
    assert NFD in ds.corpus.index
    assert ds.qrels == {"q1": {NFD: 2, "book.md": 0}}
    assert load_warnings(ds) == [
        f"1 judged document id(s) matched to the corpus id that reads the same in another "
        f"Unicode form ({NFD} (judged in NFC, stored in NFD)): scored as that document; write "
        "the judgments' ids as the files are stored to drop this note"]


def test_beir_ids_are_matched_the_same(tmp_path: Path) -> None:
    folder = tmp_path / "b"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(json.dumps({"_id": i, "text": "x"}) + "\n"
                                                 for i in ("caf\u00e9", "other")))
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "x"}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n"
                                               "q1\tcafe\u0301\t1\nq1\tother\t1\n")
    ds = load_dataset(folder)
    assert ds.qrels == {"q1": {"caf\u00e9": 1, "other": 1}}
    assert any("judged in NFD, stored in NFC" in w for w in load_warnings(ds))


def test_an_exact_match_is_left_alone(tmp_path: Path) -> None:
    # both forms are notes: each judgment names its own, nothing is matched or said
    ds = load_dataset(vault(tmp_path / "v", [(NFC, 1), (NFD, 2)], names=(NFC, NFD)))
    assert ds.qrels == {"q1": {NFC: 1, NFD: 2}}
    assert load_warnings(ds) == []
    assert "qrels_unicode_matched" not in ds.settings


def test_two_notes_in_other_forms_are_named_not_guessed(tmp_path: Path) -> None:
    # ệ typed (NFC) against two names that each compose to it, in mixed forms
    typed = "people/\u1ec7.md"
    stored = ("people/\u1eb9\u0302.md", "people/\u00ea\u0323.md")
    ds = load_dataset(vault(tmp_path / "v", [(typed, 1), ("book.md", 1)], names=stored))
    assert ds.qrels == {"q1": {typed: 1, "book.md": 1}}
    (said,) = load_warnings(ds)
    assert said.startswith(f"1 relevant judgment(s) name documents not in the corpus "
                           f"(q1→{typed}): ")
    assert said.endswith(
        f"; the corpus holds ids that read the same in another Unicode form ({typed} (NFC): "
        f"{sorted(stored)[0]!r} (a mixed form) and {sorted(stored)[1]!r} (a mixed form)): "
        "write the judgment's id as the document's is stored")


def test_only_other_forms_of_two_notes_is_still_refused(tmp_path: Path) -> None:
    typed = "people/\u1ec7.md"
    stored = ("people/\u1eb9\u0302.md", "people/\u00ea\u0323.md")
    with pytest.raises(FormatError, match="none of the 1 relevant judgment"):
        load_dataset(vault(tmp_path / "v", [(typed, 1)], names=stored))
