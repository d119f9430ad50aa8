"""A markdown vault (Obsidian-style folder of notes) as a corpus, with optional judgments.

Every `*.md` file at any depth is a note (the ending as written: `x.MD` is not one), skipping
the tool folders obsidian-mcp skips (`.obsidian`, `.git`, `node_modules`; Obsidian's `.trash`
of deleted notes is searched, as obsidian-mcp searches it). A note's id is its path relative to
the vault in posix form (`projects/alpha.md`); its text is the raw file, front matter included
and `\\r\\n` kept, because a search model scores the raw file and splits it on `\\n` only.

Layout: when the folder has a `notes/` subfolder, the vault is `notes/` and the folder holds
`queries.jsonl` and `qrels/<split>.tsv`; a vault folder named `notes` finds them in its parent.

A note with a flaw raises its FormatError. Given a `skipped` list, the notes load as
obsidian-mcp reads them, each flaw appended to the list instead: bytes that are not UTF-8 read
as U+FFFD (Node's `readFile(…, 'utf-8')`), NUL bytes kept, and front matter that cannot be
parsed (never closed, a line that is not `key: value`) taken as text with no fields, as its
front-matter parser returns the content it could not parse: each a `NoteReadAsText`. A note
that cannot be read at all (a folder named `x.md`) is an `UnreadableNote`, left out while the
other notes load. A symbolic link is no note, as obsidian-mcp lists regular files only: each
`*.md` link (`.MD` too), and each link to a folder (not entered), is a `LinkNotListed` in
`skipped`. What obsidian-mcp's listing keeps and a user may not expect is said there too: the
notes in `.trash` (searched: `InTrash`) and the files ending `.MD` or `.Md` (no notes:
`NotNoteEnding`).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

from workbench.core.checks import refuse_unjudgeable
from workbench.core.data import Corpus, Dataset, Document, FormatError, QuerySet
from workbench.core.formats._common import StrPath, judged_subset, read_text
from workbench.core.formats.beir import read_qrels_tsv
from workbench.core.formats.frontmatter import FrontMatter, parse_front_matter
from workbench.core.formats.plain import read_queries

IGNORED_DIRS = frozenset({".obsidian", ".git", "node_modules"})  # REFERENCE §5
TRASH_DIR = ".trash"  # Obsidian's deleted notes: searched, as obsidian-mcp searches them
COUNT_MAX = 1000  # notes counted under a folder link (a link to `/` is not walked whole):
FOLDER_MAX = 2000  # nor more folders than this (about 0.2 s of a walk of /usr)
COUNT_SECONDS = 0.25  # nor for longer (a slow network mount)
NOTES_DIR = "notes"
NOTE_ENDING = ".md"  # case-sensitive, as obsidian-mcp's `endsWith('.md')`
_HEADING = re.compile(r"^ {0,3}#[ \t]+(\S.*?)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_CODE_SPAN = re.compile(r"`+[^`]*`+")
# Obsidian tags: `#` after whitespace or line start, then letters, digits, `_`, `-`, `/`.
_TAG = re.compile(r"(?<!\S)#([\w/-]+)")


class UnreadableNote(FormatError):
    """A note left out of the corpus (see the module docstring); str() names file, line and
    field as any FormatError does."""


class FolderNotListed(FormatError):
    """A folder of the vault that could not be listed (no permission): its notes are left
    out, said as an unreadable note is (`find_notes`)."""


class LinkNotListed(FormatError):
    """A `*.md` symbolic link, passed over as obsidian-mcp passes it over (`find_notes`)."""


class InTrash(FormatError):
    """A note in Obsidian's `.trash` of deleted notes, searched as obsidian-mcp searches it."""


class NotNoteEnding(FormatError):
    """A file ending `.md` in another case (`README.MD`), no note to obsidian-mcp, whose
    `endsWith('.md')` is case-sensitive."""


class NoteReadAsText(FormatError):
    """A flaw in a note that was loaded all the same, as obsidian-mcp reads it (see the module
    docstring)."""


def vault_layout(folder: StrPath) -> tuple[Path, Path | None]:
    """(notes folder, folder holding queries.jsonl and qrels/ or None) for a vault path."""
    folder = Path(folder)
    if (folder / NOTES_DIR).is_dir():
        return folder / NOTES_DIR, folder
    homes = [folder, folder.parent] if folder.resolve().name == NOTES_DIR else [folder]
    return folder, next((h for h in homes if _has_judgments(h)), None)


def _has_judgments(folder: Path) -> bool:
    return (folder / "queries.jsonl").is_file() or (folder / "qrels").is_dir()


def has_notes(folder: StrPath) -> bool:
    """Whether `folder` is a vault: it has a `notes/` subfolder or a `*.md` file at any depth."""
    root = Path(folder)
    return (root / NOTES_DIR).is_dir() or next(note_names(root), None) is not None


def note_names(root: Path) -> Iterator[str]:
    """The relative posix path of each `*.md` file under `root`, the tool folders aside, as
    the folder is walked (unsorted; links not told apart: a sniff, not `find_notes`)."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in IGNORED_DIRS]
        for name in filenames:
            if name.endswith(NOTE_ENDING):
                yield (Path(dirpath) / name).relative_to(root).as_posix()


def find_notes(root: Path, links: list[Path] | None = None,
               unlisted: list[FormatError] | None = None,
               endings: list[Path] | None = None) -> list[tuple[str, Path]]:
    """(relative posix path, file) of every note under `root`, sorted by relative path. A
    symbolic link is no note, to a file or to a folder (not entered): obsidian-mcp lists the
    vault with `readdir(…, {recursive, withFileTypes})` and keeps `entry.isFile()`, false for
    a link. Each `*.md` link (any case) and each link to a folder passed over is appended to
    `links` when given, each folder that cannot be listed to `unlisted` (a FolderNotListed;
    os.walk drops them silently), and each file ending `.md` in another case to `endings`."""
    found: list[tuple[str, Path]] = []

    def cannot_list(err: OSError) -> None:
        if unlisted is not None:
            where = Path(err.filename) if err.filename else root
            unlisted.append(FolderNotListed(where, f"cannot list this folder: "
                                            f"{err.strerror or err}; its notes are left out"))

    # links to folders are not entered (os.walk lists them among the folders, unfollowed)
    for dirpath, dirnames, filenames in os.walk(root, onerror=cannot_list):
        dirnames[:] = [d for d in dirnames if d not in IGNORED_DIRS]
        base = Path(dirpath)
        if links is not None:
            links.extend(base / d for d in dirnames if (base / d).is_symlink())
        for fname in filenames:
            path = base / fname
            if fname.endswith(NOTE_ENDING):
                if path.is_symlink():
                    if links is not None:
                        links.append(path)
                    continue
                found.append((path.relative_to(root).as_posix(), path))
            elif fname.lower().endswith(NOTE_ENDING):  # `README.MD`
                if path.is_symlink():  # renamed `.md`, still a link (dr7 5)
                    if links is not None:
                        links.append(path)
                elif endings is not None:
                    endings.append(path)
    return sorted(found)


def passed_link(link: Path, root: Path) -> LinkNotListed:
    """What a symbolic link passed over leaves out: a note, or the notes of a folder (counted
    by `_count_notes`, without following any link under it, so a loop is never walked)."""
    if not link.is_dir():
        return LinkNotListed(link, "a symbolic link: not searched")
    said = "a symbolic link to a folder: not entered"
    try:
        target = link.resolve(strict=True)
        home = root.resolve(strict=True)
    except (OSError, RuntimeError):  # a loop of links: nothing under it to count
        return LinkNotListed(link, said)
    if target == home or home.is_relative_to(target):
        return LinkNotListed(link, f"{said} (it holds this vault)")
    if target.is_relative_to(home):
        inside = target.relative_to(home)
        tool = next((part for part in inside.parts if part in IGNORED_DIRS), None)
        if tool is not None:  # find_notes prunes it: its notes are searched nowhere (dr7 1)
            where = "" if inside.as_posix() == tool else f", inside {tool}/"
            return LinkNotListed(link, f"{said}; it points to {inside.as_posix()}/{where}, "
                                 "which obsidian-mcp does not search either")
        return LinkNotListed(link, f"{said}; its notes are searched at {inside.as_posix()}/")
    notes, stopped = _count_notes(target)
    return LinkNotListed(link, f"{said}, {notes} under it not searched{stopped}")


def _count_notes(folder: Path) -> tuple[str, str]:
    """("12 note(s)", "") under `folder`, the tool folders aside and no link followed. The walk
    stops past COUNT_MAX notes, FOLDER_MAX folders or COUNT_SECONDS, since a link to `/` or to
    a network mount would be walked on every load (dr7 6): ("at least 12 note(s)",
    " (stopped counting after 2,000 folders)") then."""
    notes = 0
    deadline = time.monotonic() + COUNT_SECONDS
    # links under it are not followed
    for folders, (_, dirnames, filenames) in enumerate(os.walk(folder), start=1):
        dirnames[:] = [d for d in dirnames if d not in IGNORED_DIRS]
        notes += sum(1 for f in filenames if f.endswith(NOTE_ENDING))
        if notes > COUNT_MAX:
            return f"more than {COUNT_MAX:,} notes", ""
        if folders >= FOLDER_MAX:
            return (f"at least {notes:,} note(s)",
                    f" (stopped counting after {folders:,} folders)")
        if time.monotonic() > deadline:
            return (f"at least {notes:,} note(s)", f" (stopped counting after "
                    f"{COUNT_SECONDS:g} s, {folders:,} folders)")
    return f"{notes:,} note(s)", ""


def read_note(path: Path, rel: str, flaws: list[FormatError] | None = None) -> Document:
    """One note as a Document (see the module docstring). A flaw raises its FormatError, or,
    given `flaws`, is appended there as a `NoteReadAsText` and the note read as the original
    reads it."""
    def flaw(err: FormatError) -> None:
        if flaws is None:
            raise err
        flaws.append(NoteReadAsText(err.path, err.message, line=err.line, field=err.field))

    if path.exists() and not path.is_file():  # a named pipe would wait for a writer
        raise FormatError(path, "not a regular file (a named pipe or a device): not read")
    try:
        text = read_text(path, strip_bom=False)
    except FormatError as err:
        if err.field != "encoding":  # no file to read: nothing to search
            raise
        flaw(FormatError(err.path, f"{err.message}: read with U+FFFD for each bad byte",
                         line=err.line, field=err.field))
        text = path.read_bytes().decode("utf-8", errors="replace")
    nul = text.find("\0")
    if nul >= 0:  # valid UTF-8 but not text: an attachment saved as .md
        flaw(FormatError(path, f"binary content (a NUL byte at character {nul}): searched as "
                         "text", line=text.count("\n", 0, nul) + 1, field="encoding"))
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    try:
        fm = parse_front_matter(lines, path)
    except FormatError as err:
        flaw(FormatError(err.path, f"{err.message}: taken as text, with no front-matter fields",
                         line=err.line, field=err.field))
        fm = FrontMatter()
    body = _outside_code(lines[fm.body_start:])

    title = fm.values.get("title")
    if title is None or isinstance(title, list | dict) or not str(title).strip():
        heading = next((m.group(1) for line in body if (m := _HEADING.match(line))), None)
        title = heading if heading is not None else path.stem

    tags: dict[str, None] = {}  # an ordered set
    for tag in _front_matter_tags(fm.values.get("tags")):
        tags.setdefault(tag, None)
    for line in body:
        for tag in _TAG.findall(_CODE_SPAN.sub(" ", line)):
            if not tag.isdigit():  # `#2024` is not a tag in Obsidian
                tags.setdefault(tag, None)

    return Document(
        id=rel,
        title=str(title),
        text=text,
        tags=tuple(tags),
        metadata={"path": rel, "frontmatter": fm.values, "mtime": path.stat().st_mtime},
    )


def _front_matter_tags(value: object) -> list[str]:
    """`tags: [a, b]`, a block list, or one string (split on commas and spaces); `#` dropped."""
    if value is None:
        return []
    items = value if isinstance(value, list) else re.split(r"[,\s]+", str(value))
    out = [str(item).strip().lstrip("#") for item in items if item is not None]
    return [t for t in out if t]


def _outside_code(lines: list[str]) -> list[str]:
    """The lines outside fenced code blocks (where `#` words are code, not tags)."""
    out: list[str] = []
    fence: str | None = None
    for line in lines:
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and m and m.group(1) == fence:
            fence = None
        elif fence is None:
            out.append(line)
    return out


def read_vault_notes(folder: StrPath, *, name: str | None = None,
                     skipped: list[FormatError] | None = None) -> Corpus:
    """The notes of a vault folder (no judgments); no note at all is an error, and so is a
    vault whose every note is unreadable (the first one's error)."""
    root = Path(folder)
    if not root.is_dir():
        raise FormatError(root, "no such folder", field="notes")
    links: list[Path] = []
    unlisted: list[FormatError] = []
    endings: list[Path] = []
    notes = find_notes(root, links, unlisted, endings)
    if not notes:
        if unlisted:  # the vault itself, or every folder with notes, is closed to us
            raise unlisted[0]
        raise FormatError(root, "no markdown notes (*.md) in this folder" + (
            f" (only {len(links)} symbolic link(s), which obsidian-mcp does not list)"
            if links else ""), field="notes")
    docs: list[Document] = []
    unreadable: list[FormatError] = []
    flaws: list[FormatError] | None = None if skipped is None else []
    for rel, path in notes:
        try:
            docs.append(read_note(path, rel, flaws))
        except FormatError as err:
            if skipped is None:
                raise
            unreadable.append(UnreadableNote(err.path, err.message, line=err.line,
                                             field=err.field))
    if not docs:
        raise unreadable[0]
    if skipped is not None:
        passed = [passed_link(p, root) for p in sorted(links)]
        trash = [InTrash(path, "in Obsidian's .trash of deleted notes: searched (empty the "
                         "trash to leave it out)") for rel, path in notes
                 if rel.split("/", 1)[0] == TRASH_DIR]
        cased = [NotNoteEnding(p, f"ends {p.name[-3:]!r}, not '.md': not searched (rename "
                               "it to search it)") for p in sorted(endings)]
        skipped.extend([*unlisted, *unreadable, *(flaws or []), *passed, *trash, *cased])
    return Corpus(docs, name=name or root.resolve().name)


def read_vault(folder: StrPath, split: str = "test", *,
               skipped: list[FormatError] | None = None) -> Dataset:
    """A vault as a Dataset, with `queries.jsonl` and `qrels/<split>.tsv` where present.

    Queries take `id` or `_id`; judgments name notes by relative path. With judgments the
    query set is the judged queries, as in `read_beir`. `skipped`: see the module docstring.
    """
    folder = Path(folder)
    notes_dir, home = vault_layout(folder)
    resolved = folder.resolve()
    # `sample/notes` is the `sample` vault
    name = resolved.parent.name if resolved.name == NOTES_DIR and home != folder else resolved.name
    corpus = read_vault_notes(notes_dir, name=name, skipped=skipped)
    queries = QuerySet((), name=name)
    qrels = None
    if home is not None:
        qrels_path = home / "qrels" / f"{split}.tsv"
        if not (home / "queries.jsonl").is_file():
            if qrels_path.is_file():
                raise FormatError(home, f"qrels/{split}.tsv without queries.jsonl",
                                  field="queries")
            return Dataset(name=name, corpus=corpus, queries=queries, source=str(folder))
        queries = read_queries(home / "queries.jsonl", name=name)
        if qrels_path.is_file():
            qrels = read_qrels_tsv(qrels_path, query_ids=queries.index)
            refuse_unjudgeable(qrels, corpus, qrels_path)
    judged = judged_subset(queries, qrels)
    return Dataset(name=name, corpus=corpus, queries=judged, qrels=qrels, source=str(folder),
                   unjudged_left_out=len(queries) - len(judged))
