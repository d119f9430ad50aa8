"""Files a repository marks binary, or whose content opens with a binary format's signature,
though no NUL byte comes in their first 8 KiB (the index's test, REFERENCE §2): a PDF or an
Illustrator file (`.ai`, a PDF) opens with kilobytes of text metadata before its first NUL.

The index keeps them, as CodeLedger does (`codeledger-document` sees what it sees), and records
why each is binary by these other accounts (`binary_mark`); `codeledger` leaves them out of its
candidates (`skip_marked_binary`).

- `.gitattributes` in the tree of the commit (every folder's): a path whose `diff` attribute is
  unset — by `binary` (the macro `-diff -merge -text`), by `-diff`, or by a `[attr]` macro that
  unsets it — is binary by git's own account (`git diff --numstat` counts it `-`). `-text` alone
  is not: it only turns line-ending conversion off (gitattributes(5)), and repositories set it
  on text fixtures that must keep their CRLF.
- A signature at the start of the content (`SIGNATURES`).

The gitattributes patterns follow gitattributes(5): one without a `/` matches the file name at
any depth below its file's folder, one with a `/` the path relative to it; `*` and `?` stop at
`/`, `**` crosses it; deeper files win over shallower, later lines over earlier.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["ATTRIBUTES_FILE", "SIGNATURES", "Attributes", "binary_mark", "signature_of"]

ATTRIBUTES_FILE = ".gitattributes"
# (leading bytes, format) of binary formats; those that may go 8 KiB without a NUL first
SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "PDF"),  # also Illustrator .ai files
    (b"\x89PNG\r\n\x1a\n", "PNG"), (b"GIF87a", "GIF"), (b"GIF89a", "GIF"),
    (b"\xff\xd8\xff", "JPEG"), (b"PK\x03\x04", "ZIP"), (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"7z\xbc\xaf\x27\x1c", "7-Zip"),
    (b"Rar!\x1a\x07", "RAR"), (b"\x7fELF", "ELF"), (b"wOFF", "WOFF"), (b"wOF2", "WOFF2"),
    (b"OggS", "Ogg"), (b"fLaC", "FLAC"), (b"ID3", "MP3"), (b"\x1aE\xdf\xa3", "Matroska"),
    (b"\xca\xfe\xba\xbe", "Java class"), (b"\xcf\xfa\xed\xfe", "Mach-O"),
)
_MACROS = {"binary": ("-diff", "-merge", "-text")}


def signature_of(data: bytes) -> str | None:
    """The binary format `data` opens with, or None."""
    return next((name for magic, name in SIGNATURES if data.startswith(magic)), None)


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """gitattributes' glob as a regex over a `/`-separated path."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:end]
                out.append("[" + ("^" + body[1:] if body[:1] in "!^" else body) + "]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


@dataclass(frozen=True)
class _Rule:
    folder: str  # the folder of the .gitattributes file, "" at the root
    regex: re.Pattern[str]
    anchored: bool  # matched against the path below `folder`, else against the file name
    unset: bool  # the line unsets `diff` (else it sets it, a driver, or `!diff`)
    text: str  # the line as written, for the reason


@dataclass(frozen=True)
class Attributes:
    """The `diff` attribute rules of a tree's .gitattributes files, in the order they apply."""

    rules: tuple[_Rule, ...] = ()

    @classmethod
    def of(cls, files: Mapping[str, str]) -> Attributes:
        """From {path of a .gitattributes file: its text}."""
        ordered = sorted(files, key=lambda p: (p.count("/"), p))  # shallower first
        macros: dict[str, tuple[str, ...]] = dict(_MACROS)
        rules = []
        for path in ordered:
            folder = posixpath.dirname(path)
            for raw in files[path].splitlines():
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                pattern, *attrs = line.split()
                if pattern.startswith("[attr]"):  # macros count only at the root
                    if not folder:
                        macros[pattern[6:]] = tuple(attrs)
                    continue
                diff = _diff_state(attrs, macros)
                if not diff:
                    continue
                anchored = "/" in pattern.rstrip("/")
                if pattern.endswith("/"):  # a folder: never a file's attributes
                    continue
                rules.append(_Rule(folder, _glob_regex(pattern.lstrip("/")), anchored,
                                   diff == "unset", f"`{line}` in {path}"))
        return cls(tuple(rules))

    def binary_by(self, path: str) -> str | None:
        """The line that leaves `path`'s diff attribute unset, or None."""
        said: _Rule | None = None
        for rule in self.rules:
            if rule.folder and not path.startswith(rule.folder + "/"):
                continue
            rel = path[len(rule.folder) + 1:] if rule.folder else path
            if rule.regex.match(rel if rule.anchored else posixpath.basename(rel)):
                said = rule
        return said.text if said is not None and said.unset else None


def _diff_state(attrs: Sequence[str], macros: Mapping[str, tuple[str, ...]],
                depth: int = 0) -> str:
    """What a line's attributes do to `diff`, the last that touches it winning: "unset",
    "set" (also a driver, `diff=x`), "unspecified" (`!diff`), or "" (nothing)."""
    state = ""
    for a in attrs:
        name = a.lstrip("-!").partition("=")[0]
        if name in macros and not a.startswith(("-", "!")) and depth < 8:
            state = _diff_state(macros[name], macros, depth + 1) or state
        elif name == "diff":
            state = "unset" if a.startswith("-") else "unspecified" if a.startswith("!") \
                else "set"
    return state


def binary_mark(path: str, data: bytes, attributes: Attributes) -> str:
    """Why `path` (of content `data`) is binary by the repository's attributes or its
    signature, "" when it is not."""
    line = attributes.binary_by(path)
    if line:
        return f"{line} marks it binary"
    kind = signature_of(data)
    return f"its content opens with the {kind} signature" if kind else ""
