"""The files of a TREC folder that are not text to read: archives and compressed files (a
`disk4.zip`, a `backup.7z`, a `fbis.tar`, a `latimes.bz2`), passed over with the command that
unpacks them, and other binary files (a PDF of the collection's documentation, a PNG),
passed over and named. Each is told by its name's ending or its first bytes (a magic number,
or a NUL byte, which no TREC SGML holds), as `file(1)` tells them; a `.gz` by its
decompressed bytes, as `trec_docs` reads it. A file whose first tag is a <DOC> is never one
of them, whatever its name: it is read. Nor is a Unix compress file named so (.Z, .0z: its
reading refuses it with how to decompress the tree), or anything not a regular file (a named
pipe, never opened here: its reading refuses it). An empty file named as an archive is said
empty; UTF-16 text without its byte order mark is said as such, to save as UTF-8.

Anserini's TrecCollection reads every such file as text and finds no documents in it (a .7z
it opens as Unix compress, and fails): here each is said apart, with what to do, and never
read whole (a 4 GB tar beside the files had been read into memory).
"""

from __future__ import annotations

import gzip
import os
import re
import shlex
import zlib
from collections.abc import Callable
from pathlib import Path

HEAD = 4096  # the bytes sniffed; a tar's "ustar" is at offset 257
UTF16 = (b"\xff\xfe", b"\xfe\xff")  # UTF-16 text holds NULs: its reading says save as UTF-8

# what each kind of archive or compressed file is called, and the command unpacking FILE
# beside itself (into its folder DIR; "" where the command writes there anyway)
Unpack = Callable[[str, str], str]


def _in(command: str, option: str) -> Unpack:
    return lambda file, into: " ".join(
        [command] + ([option.format(shlex.quote(into))] if into and option else [])
        + [shlex.quote(file)])


PACKED: dict[str, tuple[str, Unpack]] = {
    "7z": ("7-Zip archive", lambda f, d: "7z x " + (f"{shlex.quote('-o' + d)} " if d else "")
           + shlex.quote(f)),
    "zip": ("zip archive", _in("unzip", "-d {}")),
    "tar": ("tar archive", lambda f, d: f"tar -xf {shlex.quote(f)}"
            + (f" -C {shlex.quote(d)}" if d else "")),
    "rar": ("RAR archive", lambda f, d: f"unrar x {shlex.quote(f)}"
            + (f" {shlex.quote(d + '/')}" if d else "")),
    "bzip2": ("bzip2-compressed file", _in("bzip2 -d", "")),  # no .bz2: it writes FILE.out
    # xz and zstd refuse a name without their suffix: given it, the file keeps its name
    "xz": ("xz-compressed file", lambda f, d: _suffixed(f, ".xz", ".txz", "xz -d")),
    "zstd": ("zstd-compressed file", lambda f, d: _suffixed(f, ".zst", ".tzst", "zstd -d --rm")),
    # Unix compress under another name than .Z (a .Z is refused when read, as it was): gzip
    # reads it, given the suffix (dr1 1)
    "compress": ("Unix compress file not named .Z",
                 lambda f, d: _suffixed(f, ".z", "", "gzip -d", "Z")),
    # gzip's bytes under another name than .gz: renamed, the folder reads it decompressed
    "gzip": ("gzip-compressed file not named .gz",
             lambda f, d: f"mv {shlex.quote(f)} {shlex.quote(f + '.gz')}"),
}
# how names end, the longest first (a .tar.gz is a tar archive, not a .gz to read)
PACKED_NAMES = (
    (".tar.gz", "tar"), (".tar.bz2", "tar"), (".tar.xz", "tar"), (".tar.zst", "tar"),
    (".tgz", "tar"), (".tbz", "tar"), (".tbz2", "tar"), (".txz", "tar"), (".tar", "tar"),
    (".7z", "7z"), (".zip", "zip"), (".rar", "rar"), (".bz2", "bzip2"), (".xz", "xz"),
    (".zst", "zstd"),
)
PACKED_MAGIC = (
    (b"7z\xbc\xaf\x27\x1c", "7z"), (b"PK\x03\x04", "zip"), (b"PK\x05\x06", "zip"),
    (b"Rar!\x1a\x07", "rar"), (b"\xfd7zXZ\x00", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"\x1f\x8b", "gzip"), (b"\x1f\x9d", "compress"),
)
# Unix compress as the TREC disks name it (.Z, .z, FR94's .0z), as `trec_docs` refuses it
COMPRESSED = re.compile(r"(?!.*\.7z$).*\.\d*z$", re.I)
BZIP2 = re.compile(rb"BZh[1-9](?:1AY&SY|\x17rE8P\x90)")  # a block, or the end of an empty one
# binary files that are not archives, by their magic number (file(1)'s), and what they are
BINARY_MAGIC = (
    (b"%PDF-", "a PDF"), (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"), (b"GIF89a", "a GIF image"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Office document"), (b"\x7fELF", "a program"),
)
# zip archives that are documents, not a collection packed (unzip would not help)
ZIPPED_DOCUMENTS = (".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".epub", ".jar")
NUL = "binary (NUL bytes)"
UTF16_NO_BOM = "UTF-16 text without a byte order mark, it seems: save it as UTF-8"
EMPTY = "empty (0 bytes)"
# the kinds whose archive is left beside what it unpacks: read again next time, warned of again
KEPT = frozenset(("7z", "zip", "tar", "rar"))


def _suffixed(file: str, suffix: str, also: str, command: str, given: str = "") -> str:
    """`command FILE`, FILE first renamed to end in `suffix` (`given`, in that case) where its
    name does not end in it or `also`: xz and zstd refuse a name without their suffix."""
    if file.lower().endswith(suffix) or (also and file.lower().endswith(also)):
        return f"{command} {shlex.quote(file)}"
    named = file + "." + (given or suffix.lstrip("."))
    return f"mv {shlex.quote(file)} {shlex.quote(named)} && {command} {shlex.quote(named)}"


def not_read_as(path: Path, starts_as_trec: Callable[[bytes], bool]) -> str | None:
    """Why `path`, a file of a TREC folder, is passed over unread: a key of PACKED (an
    archive or compressed file) or what binary file it is ("a PDF", NUL); None for a file to
    read: one whose first bytes (decompressed, for a .gz) `starts_as_trec`, a text file, or
    one that cannot be read or decompressed (its reading says why)."""
    if not path.is_file() or COMPRESSED.match(path.name):
        return None  # its reading refuses a named pipe, and a .Z with how to decompress it
    head = _head(path)
    if head is None or starts_as_trec(head):
        return None
    name = path.name.lower()
    if not head:  # named as an archive, an empty file is none: no command unpacks it
        return EMPTY if any(name.endswith(e) for e, _ in PACKED_NAMES) else None
    kind = next((k for ending, k in PACKED_NAMES if name.endswith(ending)), None)
    if kind is None and head[257:262] == b"ustar":
        kind = "tar"
    if kind is None and BZIP2.match(head):
        kind = "bzip2"
    kind = kind or next((k for magic, k in PACKED_MAGIC if head.startswith(magic)), None)
    if kind == "zip" and name.endswith(ZIPPED_DOCUMENTS):
        return "a packed document (" + name[name.rindex("."):] + ")"
    if kind is not None:
        return kind
    what = next((w for magic, w in BINARY_MAGIC if head.startswith(magic)), None)
    if what is None and b"\0" in head and not head.startswith(UTF16):
        what = UTF16_NO_BOM if _utf16(head) else NUL
    return what if what is None or path.suffix.lower() != ".gz" else f"{what}, gzip-compressed"


def _utf16(head: bytes) -> bool:
    """Whether `head` reads as UTF-16 without its byte order mark: mostly text of one byte a
    character, a NUL every other byte (after each, LE; before, BE), never two NULs in one
    character."""
    pairs = len(head) // 2
    if pairs < 4:
        return False
    low, high = head[0:pairs * 2:2], head[1:pairs * 2:2]
    return any(zeros.count(0) >= 0.9 * pairs and other.count(0) == 0
               for zeros, other in ((high, low), (low, high)))


def _head(path: Path) -> bytes | None:
    try:
        if path.suffix.lower() == ".gz":
            with gzip.open(path, "rb") as f:
                return f.read(HEAD)
        with path.open("rb") as f:
            return f.read(HEAD)
    except (EOFError, zlib.error, gzip.BadGzipFile, OSError):
        return None


def packed_noun(kinds: list[str]) -> str:
    """"a 7-Zip archive", "2 zip archives", "3 archives or compressed files" (kinds mixed)."""
    one = len(kinds) == 1
    if len(set(kinds)) == 1:
        noun = PACKED[kinds[0]][0]
        article = "an" if noun.startswith(("xz", "RAR")) else "a"
        return f"{article} {noun}" if one else f"{len(kinds):,} {_plural(noun)}"
    return f"{len(kinds):,} archives or compressed files"


def _plural(noun: str) -> str:
    head, sep, tail = noun.partition(" not named")
    return head + "s" + sep + tail


def unpack_commands(files: list[tuple[str, str]]) -> str:
    """The command unpacking the first file of each kind ((file, kind) pairs) into its own
    folder, by its absolute path, so that it works from any folder (dr1 9), "; " between
    them, then ", and so on" where more files are left."""
    firsts: dict[str, str] = {}
    for file, kind in files:
        firsts.setdefault(kind, os.path.abspath(file))
    said = "; ".join(PACKED[kind][1](file, str(Path(file).parent))
                     for kind, file in firsts.items())
    return said + (", and so on" if len(files) > len(firsts) else "")


def then_move(kinds: list[str], one: bool) -> str:
    """", then move it out of the folder" where an archive stays beside what it unpacked (it
    would be warned of again; ", then move the zip and tar archives …" where other kinds of
    file are gone once unpacked), else "" (dr1 11)."""
    kept = [kind for kind in PACKED if kind in KEPT and kind in kinds]
    if not kept:
        return ""
    if one or set(kinds) <= KEPT:
        return f", then move {'it' if one else 'them'} out of the folder"
    names = [PACKED[kind][0].split()[0] for kind in kept]  # "zip", "7-Zip"
    return (f", then move the {', '.join(names[:-1]) + ' and ' if len(names) > 1 else ''}"
            f"{names[-1]} archives out of the folder")
