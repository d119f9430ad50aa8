"""The preview marks what vault-search matched: in the shipped variant the whole query where
it occurs on a matching line, never its single words (rv52 1: "Backups", "restic" and
"Backup retention" were marked where tf counted one "restic backup"); the documented variant,
which matches the words apart, keeps marking each word."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.core.models.vault_search.spans import phrase_spans
from workbench.gui.preview import mark_spans

TEXT = "Restic Backup here \u2615 restic backup\n## Backups\nrestic only\n"


def test_phrase_spans_are_characters_across_an_astral_character() -> None:
    # ☕ is one character but two UTF-16 units: the second occurrence starts at unit 22,
    # character 21; "Backups" and the lone "restic" are no match of the phrase
    assert phrase_spans(TEXT, "restic backup", [1]) == [(0, 13), (21, 34)]
    assert phrase_spans(TEXT, "restic backup", [2, 3]) == []
    assert mark_spans("a <b> c", [(2, 5)]) == (
        "a <span style='background:#fff3a3;font-weight:600'>&lt;b&gt;</span> c")


def _vault(tmp_path: Path) -> Path:
    notes = tmp_path / "v" / "notes"
    notes.mkdir(parents=True)
    (notes / "server.md").write_text(TEXT, encoding="utf-8")
    (tmp_path / "v" / "queries.jsonl").write_text('{"_id": "q1", "text": "restic backup"}\n',
                                                   encoding="utf-8")
    return tmp_path / "v"


def _marked(page: str) -> list[str]:
    return re.findall(r"<span style='background:#fff3a3;font-weight:600'>(.*?)</span>", page)


def test_the_shipped_variant_marks_the_phrase_and_no_word(qtbot: object,
                                                         tmp_path: Path) -> None:
    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    assert w.open_path(_vault(tmp_path), model="vault-search")
    page = w.preview._html
    assert _marked(page) == ["Restic Backup", "restic backup"]
    assert w.preview.terms == set()
    assert ("marked: the whole query &#x27;restic backup&#x27; where the model matched it, 2 "
            "occurrences (it matches the query as one phrase, never its single words)") in page
    # the documented variant matches each word: each is marked, "Backups" too (a prefix)
    w.session.set_params({"variant": "documented"})
    w.session.recompute()
    w.preview.refresh()
    assert w.preview.spans is None and w.preview.terms == {"restic", "backup"}
    assert _marked(w.preview._html) == ["Restic", "Backup", "restic", "backup", "Backups",
                                        "restic"]
    w.close()
