"""A vault with unreadable notes loads the rest and names each one left out (core and CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset, read_vault


def broken_vault(root: Path) -> Path:
    """Two good notes and four a reader cannot take: unclosed front matter, Latin-1 bytes,
    binary content that is valid UTF-8 (NUL bytes) and a link to nothing."""
    root.mkdir()
    (root / "good.md").write_text("# Good\ngreen tea notes\n", encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "also.md").write_text("black tea\n", encoding="utf-8")
    (root / "open.md").write_text("---\ntitle: never closed\n\ntea body\n", encoding="utf-8")
    (root / "latin.md").write_bytes(b"# Caf\xe9 au lait\n")
    (root / "blob.md").write_bytes(b"tea\n\x00\x01\x02\x03")
    (root / "gone.md").symlink_to(root / "nowhere.md")
    return root


def test_unreadable_notes_are_skipped_and_named(tmp_path: Path) -> None:
    root = broken_vault(tmp_path / "vault")
    skipped: list[FormatError] = []
    ds = load_dataset(root, skipped=skipped)
    assert ds.corpus.ids == ["good.md", "sub/also.md"]
    found = {Path(e.path).name: (e.line, e.field) for e in skipped}
    assert found == {"blob.md": (2, "encoding"), "gone.md": (None, None),
                     "latin.md": (1, "encoding"), "open.md": (1, "front matter")}
    assert "binary content" in str(next(e for e in skipped if e.path.endswith("blob.md")))


def test_without_a_skipped_list_the_first_unreadable_note_raises(tmp_path: Path) -> None:
    root = broken_vault(tmp_path / "vault")
    with pytest.raises(FormatError, match="binary content"):
        read_vault(root)


def test_a_vault_of_only_unreadable_notes_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "latin.md").write_bytes(b"Caf\xe9\n")
    skipped: list[FormatError] = []
    with pytest.raises(FormatError, match="not UTF-8") as info:
        read_vault(tmp_path, skipped=skipped)
    assert f"{tmp_path / 'latin.md'}:1:" in str(info.value)


def test_cli_warns_for_each_skipped_note(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    root = broken_vault(tmp_path / "vault")
    assert main(["rank", str(root), "-m", "bm25", "-q", "tea"]) == 0
    out, err = capsys.readouterr()
    assert "good.md" in out
    assert "warning: 4 unreadable note(s) skipped" in err
    for name, where in (("open.md", ":1: field 'front matter'"),
                        ("latin.md", ":1: field 'encoding'"), ("blob.md", ":2: field 'encoding'"),
                        ("gone.md", ": no such file")):
        assert f"{root / name}{where}" in err
    assert "Traceback" not in err
