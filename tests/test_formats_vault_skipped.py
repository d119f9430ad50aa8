"""A vault with flawed notes: each flaw is named (file, line, field); the notes obsidian-mcp
searches all the same (bad UTF-8, NUL bytes, front matter it cannot parse) load as it reads
them, one that cannot be read at all is left out (core and CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.checks import skipped_report
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset, read_vault


def broken_vault(root: Path) -> Path:
    """Two good notes and four a reader cannot take as they are: unclosed front matter,
    Latin-1 bytes, binary content that is valid UTF-8 (NUL bytes) and a link to nothing."""
    root.mkdir()
    (root / "good.md").write_text("# Good\ngreen tea notes\n", encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "also.md").write_text("black tea\n", encoding="utf-8")
    (root / "open.md").write_text("---\ntitle: never closed\n\ntea body\n", encoding="utf-8")
    (root / "latin.md").write_bytes(b"# Caf\xe9 au lait\n")
    (root / "blob.md").write_bytes(b"tea\n\x00\x01\x02\x03")
    (root / "gone.md").symlink_to(root / "nowhere.md")
    return root


def test_flawed_notes_load_as_obsidian_mcp_reads_them(tmp_path: Path) -> None:
    root = broken_vault(tmp_path / "vault")
    skipped: list[FormatError] = []
    ds = load_dataset(root, skipped=skipped)
    assert ds.corpus.ids == ["blob.md", "good.md", "latin.md", "open.md", "sub/also.md"]
    found = {Path(e.path).name: (type(e).__name__, e.line, e.field) for e in skipped}
    assert found == {"blob.md": ("NoteReadAsText", 2, "encoding"),
                     "gone.md": ("LinkNotListed", None, None),
                     "latin.md": ("NoteReadAsText", 1, "encoding"),
                     "open.md": ("NoteReadAsText", 1, "front matter")}
    assert "binary content" in str(next(e for e in skipped if e.path.endswith("blob.md")))
    notes = {d.id: d for d in ds.corpus}
    # Node's readFile(…, 'utf-8'): the bad byte is U+FFFD, the rest of the file as it is
    assert notes["latin.md"].text == "# Caf\ufffd au lait\n"
    assert notes["blob.md"].text == "tea\n\x00\x01\x02\x03"
    # front matter never closed: the whole file is text, no fields, title from the file name
    assert notes["open.md"].text == "---\ntitle: never closed\n\ntea body\n"
    assert notes["open.md"].title == "open" and notes["open.md"].metadata["frontmatter"] == {}


def test_trash_and_the_ending_follow_obsidian_mcp(tmp_path: Path) -> None:
    """REFERENCE §5: every `*.md` except under .obsidian, .git, node_modules — `.trash` is
    searched, and the ending is case-sensitive (`endsWith('.md')`)."""
    root = tmp_path / "v"
    for rel in (".trash/deleted.md", ".obsidian/x.md", ".git/y.md", "node_modules/z.md",
                "Upper.MD", "a.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("dragon\n", encoding="utf-8")
    assert load_dataset(root).corpus.ids == [".trash/deleted.md", "a.md"]


def test_without_a_skipped_list_the_first_flaw_raises(tmp_path: Path) -> None:
    root = broken_vault(tmp_path / "vault")
    with pytest.raises(FormatError, match="binary content"):
        read_vault(root)


def test_a_vault_of_only_unreadable_notes_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "folder.md").mkdir()
    (tmp_path / "folder.md" / "x.txt").write_text("")
    skipped: list[FormatError] = []
    with pytest.raises(FormatError, match="no markdown notes"):
        read_vault(tmp_path, skipped=skipped)
    (tmp_path / "gone.md").symlink_to(tmp_path / "nowhere.md")
    with pytest.raises(FormatError, match=r"only 1 symbolic link\(s\), which obsidian-mcp "
                                          "does not list"):
        read_vault(tmp_path, skipped=skipped)


def test_symbolic_links_are_not_notes_as_obsidian_mcp_lists_none(tmp_path: Path) -> None:
    # readdir(…, {recursive, withFileTypes}) keeping entry.isFile(): a link, to a note or to
    # a folder, is passed over; searched here, a linked note ranked beside its own target
    root = tmp_path / "v"
    (root / "garden").mkdir(parents=True)
    (root / "garden" / "tomatoes.md").write_text("tomatoes\n")
    (root / "tomatoes-link.md").symlink_to(root / "garden" / "tomatoes.md")
    (root / "linked-folder").symlink_to(root / "garden", target_is_directory=True)
    skipped: list[FormatError] = []
    assert load_dataset(root, skipped=skipped).corpus.ids == ["garden/tomatoes.md"]
    assert [str(e) for e in skipped] == [
        f"{root / 'linked-folder'}: a symbolic link to a folder: not entered; its notes are "
        "searched at garden/",
        f"{root / 'tomatoes-link.md'}: a symbolic link: not searched"]


def test_a_link_to_a_folder_outside_says_how_many_notes_it_leaves_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rv2 3: a link to a shared folder was passed over without a word, its notes lost from
    every metric. Its notes are counted without following the links under it (a loop back
    up is not walked); a link to a folder holding the vault is not counted at all."""
    shared = tmp_path / "shared"
    (shared / "deep" / ".obsidian").mkdir(parents=True)
    for rel in ("a.md", "deep/b.md", "deep/.obsidian/c.md", "deep/d.txt"):
        (shared / rel).write_text("tomatoes\n")
    (shared / "deep" / "loop").symlink_to(shared, target_is_directory=True)
    root = tmp_path / "v"
    root.mkdir()
    (root / "own.md").write_text("tomatoes\n")
    (root / "shared").symlink_to(shared, target_is_directory=True)
    (root / "up").symlink_to(tmp_path, target_is_directory=True)
    skipped: list[FormatError] = []
    assert load_dataset(root, skipped=skipped).corpus.ids == ["own.md"]
    assert [str(e) for e in skipped] == [
        f"{root / 'shared'}: a symbolic link to a folder: not entered, 2 note(s) under it not "
        "searched",
        f"{root / 'up'}: a symbolic link to a folder: not entered (it holds this vault)"]
    assert main(["rank", str(root), "-m", "bm25", "-q", "tomatoes"]) == 0
    err = capsys.readouterr().err
    assert "warning: 2 symbolic link(s) not searched, as obsidian-mcp lists regular files" in err


def test_trash_and_a_capital_ending_are_said(tmp_path: Path) -> None:
    """rv2 3 (polish): a deleted note in .trash ranked with the others and README.MD was left
    out, both as obsidian-mcp lists them, neither said."""
    root = tmp_path / "v"
    for rel in (".trash/deleted.md", "README.MD", "sub/Plan.Md", "a.md", "b.mdx"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("dragon\n", encoding="utf-8")
    skipped: list[FormatError] = []
    assert load_dataset(root, skipped=skipped).corpus.ids == [".trash/deleted.md", "a.md"]
    assert [str(e) for e in skipped] == [
        f"{root / '.trash' / 'deleted.md'}: in Obsidian's .trash of deleted notes: searched "
        "(empty the trash to leave it out)",
        f"{root / 'README.MD'}: ends '.MD', not '.md': not searched (rename it to search it)",
        f"{root / 'sub' / 'Plan.Md'}: ends '.Md', not '.md': not searched (rename it to "
        "search it)"]
    assert [h for h, _ in skipped_report(skipped)] == [
        "1 deleted note(s) in .trash searched, as obsidian-mcp searches them",
        "2 file(s) ending .MD or the like not searched, as obsidian-mcp lists '*.md' only "
        "(the ending is case-sensitive)"]


def test_cli_warns_for_each_flawed_note(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    root = broken_vault(tmp_path / "vault")
    assert main(["rank", str(root), "-m", "bm25", "-q", "tea"]) == 0
    out, err = capsys.readouterr()
    assert "good.md" in out and "open.md" in out  # its body has "tea": searched
    assert "warning: 1 symbolic link(s) not searched, as obsidian-mcp lists regular files" in err
    assert "warning: 3 note(s) with a flaw searched all the same" in err
    for name, where in (("open.md", ":1: field 'front matter'"),
                        ("latin.md", ":1: field 'encoding'"), ("blob.md", ":2: field 'encoding'"),
                        ("gone.md", ": a symbolic link: not searched")):
        assert f"{root / name}{where}" in err
    assert "Traceback" not in err


def _closed(monkeypatch: pytest.MonkeyPatch, closed: Path) -> None:
    """os.scandir refuses `closed` as it does a folder without read permission (set by
    hand: chmod does not stop root, who runs these tests on some machines)."""
    import os

    real = os.scandir

    def scandir(path: object = ".") -> object:
        if Path(str(path)) == closed:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)


def test_a_folder_that_cannot_be_listed_is_said_with_its_notes_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """os.walk drops a folder it cannot list without a word: its notes vanished from the
    corpus, seen only as judgments naming missing documents."""
    root = tmp_path / "vault"
    (root / "journal").mkdir(parents=True)
    (root / "good.md").write_text("green tea\n", encoding="utf-8")
    (root / "journal" / "day.md").write_text("black tea\n", encoding="utf-8")
    _closed(monkeypatch, root / "journal")
    skipped: list[FormatError] = []
    ds = load_dataset(root, skipped=skipped)
    assert ds.corpus.ids == ["good.md"]
    assert [(type(e).__name__, Path(e.path)) for e in skipped] == [
        ("FolderNotListed", root / "journal")]
    # no judgments: eval counts what the selection returns (the one note left), and the
    # warning is said with it
    assert main(["eval", str(root), "-m", "vault-search", "--queries",
                 str(_queries(tmp_path))]) == 0
    err = capsys.readouterr().err
    assert "1 folder(s) that cannot be listed, their notes left out" in err
    assert f"{root / 'journal'}: cannot list this folder: Permission denied" in err


def test_a_vault_that_cannot_be_listed_says_so(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "good.md").write_text("green tea\n", encoding="utf-8")
    _closed(monkeypatch, root)
    with pytest.raises(FormatError, match="cannot list this folder: Permission denied"):
        read_vault(root)


def _queries(tmp_path: Path) -> Path:
    path = tmp_path / "q.jsonl"
    path.write_text('{"_id": "q1", "text": "tea"}\n', encoding="utf-8")
    return path


def test_a_link_into_a_tool_folder_is_not_said_to_be_searched(tmp_path: Path) -> None:
    """dr7 1: a link to .obsidian (or a folder under node_modules) was said to be "searched at
    .obsidian/", which find_notes prunes as obsidian-mcp does."""
    root = tmp_path / "v"
    for rel in ("own.md", ".obsidian/leak.md", "node_modules/pkg/docs/readme.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("tomatoes\n", encoding="utf-8")
    (root / "linked-obs").symlink_to(root / ".obsidian", target_is_directory=True)
    (root / "pkg-docs").symlink_to(root / "node_modules" / "pkg" / "docs",
                                   target_is_directory=True)
    skipped: list[FormatError] = []
    assert load_dataset(root, skipped=skipped).corpus.ids == ["own.md"]
    assert [str(e) for e in skipped] == [
        f"{root / 'linked-obs'}: a symbolic link to a folder: not entered; it points to "
        ".obsidian/, which obsidian-mcp does not search either",
        f"{root / 'pkg-docs'}: a symbolic link to a folder: not entered; it points to "
        "node_modules/pkg/docs/, inside node_modules/, which obsidian-mcp does not search "
        "either"]


def test_a_link_to_a_large_folder_stops_counting_after_so_many_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dr7 6: the count walked every folder under a link to /usr (15,706 of them, 1.3 s on
    every load) because it held fewer than 1,000 notes; it stops after FOLDER_MAX folders."""
    from workbench.core.formats import vault

    monkeypatch.setattr(vault, "FOLDER_MAX", 3)
    big = tmp_path / "big"
    for i in range(6):  # seven folders: big and six below it, one note in each of these
        (big / f"f{i}").mkdir(parents=True)
        (big / f"f{i}" / "n.md").write_text("tomatoes\n", encoding="utf-8")
    root = tmp_path / "v"
    root.mkdir()
    (root / "own.md").write_text("tomatoes\n", encoding="utf-8")
    (root / "big").symlink_to(big, target_is_directory=True)
    skipped: list[FormatError] = []
    load_dataset(root, skipped=skipped)
    assert [str(e) for e in skipped] == [
        f"{root / 'big'}: a symbolic link to a folder: not entered, at least 2 note(s) under "
        "it not searched (stopped counting after 3 folders)"]
    monkeypatch.setattr(vault, "FOLDER_MAX", 8)  # more than it holds: an exact count
    skipped.clear()
    load_dataset(root, skipped=skipped)
    assert [str(e) for e in skipped] == [
        f"{root / 'big'}: a symbolic link to a folder: not entered, 6 note(s) under it not "
        "searched"]


def test_a_link_ending_md_in_capitals_is_said_as_a_link(tmp_path: Path) -> None:
    """dr7 5: LINK.MD, a symbolic link, was told "rename it to search it"; renamed it is still
    a link, which obsidian-mcp does not list."""
    root = tmp_path / "v"
    root.mkdir()
    (root / "home-server.md").write_text("home server\n", encoding="utf-8")
    (root / "LINK.MD").symlink_to(root / "home-server.md")
    skipped: list[FormatError] = []
    assert load_dataset(root, skipped=skipped).corpus.ids == ["home-server.md"]
    assert [str(e) for e in skipped] == [f"{root / 'LINK.MD'}: a symbolic link: not searched"]
