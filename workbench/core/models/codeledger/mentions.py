"""Paths a task names: `src/client.py`, `client.py:123`, a stack-trace line
(`File "/venv/lib/httpx/_client.py", line 88`), `ky/source/core/Ky.ts`. Each is matched to
the repository's files by its longest suffix of path segments that some file's path ends with
(so an absolute path from another machine still finds the file); a bare file name that several
files share (`index.ts`, `__init__.py`) names none of them."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["cited_lines", "mentioned_files", "path_mentions"]

_EXT = ("py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|go|java|kt|rs|rb|php|cs|c|h|cc|cpp|hpp|swift|"
        "scala|sh|vue|svelte")
# a path with a code extension (optionally :line), or a path of two or more segments
_PATH = re.compile(r"(?<![\w/.:-])(/?(?:[\w.@-]+/)*[\w.@-]+\.(?:" + _EXT + r"))(?::\d+)*(?!\w)"
                   r"|(?<![\w/.:-])(/?(?:[\w.@-]+/)+[\w.@-]+)")


def path_mentions(text: str) -> list[str]:
    """The path-like strings of `text`, in order, without repeats (line numbers dropped)."""
    out: dict[str, None] = {}
    for with_ext, plain in _PATH.findall(text):
        m = (with_ext or plain).strip("./")
        if m and not m.startswith(("http:", "https:")) and "//" not in m:
            out.setdefault(m, None)
    return list(out)


# `path.py:123` (and `:123:45`), and a Python trace's `File "path.py", line 123`
_CITED = re.compile(r"(?<![\w/.:-])(/?(?:[\w.@-]+/)*[\w.@-]+\.(?:" + _EXT + r")):(\d+)"
                    r"|File \"([^\"]+)\", line (\d+)")


def cited_lines(text: str, paths: Sequence[str]) -> dict[int, tuple[int, ...]]:
    """File position → the 1-based lines the task cites in it (`client.py:88`, a stack
    trace's `File "…/client.py", line 88`), matched to files as `mentioned_files` matches."""
    out: dict[int, list[int]] = {}
    for path, line, trace_path, trace_line in _CITED.findall(text):
        named = mentioned_files(path or trace_path, paths)
        for f in named:
            out.setdefault(f, []).append(int(line or trace_line))
    return {f: tuple(dict.fromkeys(lines)) for f, lines in out.items()}


def mentioned_files(text: str, paths: Sequence[str]) -> dict[int, str]:
    """File position → the mention that names it."""
    by_suffix: dict[str, list[int]] = {}
    for f, p in enumerate(paths):
        parts = p.split("/")
        for i in range(len(parts)):
            by_suffix.setdefault("/".join(parts[i:]), []).append(f)
    out: dict[int, str] = {}
    for m in path_mentions(text):
        parts = m.split("/")
        for i in range(len(parts)):
            hit = by_suffix.get("/".join(parts[i:]))
            if hit:
                if len(hit) == 1 or (i < len(parts) - 1 and len(hit) <= 3):
                    for f in hit:
                        out.setdefault(f, m)
                break
    return out
