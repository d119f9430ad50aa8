"""Plain-text presentation for the CLI: aligned tables and progress bars on stderr."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import time
import unicodedata
from collections.abc import Iterator, Sequence, Set
from contextlib import contextmanager
from typing import Any

from workbench.core.engine import ProgressFn

LOG_EVERY_S = 30.0  # without a tty: a line at least this often while the message moves
LOG_AFTER_S = 3.0  # without a terminal, work shorter than this stays quiet


def format_table(header: Sequence[str], rows: Sequence[Sequence[Any]], *, indent: str = "",
                 wrap_last: int | None = None) -> str:
    """Columns padded to their widest cell; numbers right-aligned. `wrap_last` wraps the last
    column (e.g. help text) at that many characters, continuing under itself."""
    cells = [[str(c) for c in header]] + [["" if c is None else str(c) for c in r] for r in rows]
    ncol = len(header)
    last_lines: list[list[str]] = []
    for r in cells:
        text = r[-1]
        lines = textwrap.wrap(text, wrap_last) if wrap_last and text else [text]
        last_lines.append(lines or [""])
    widths = [max(display_width(r[i]) for r in cells) for i in range(ncol - 1)]
    numeric = [all(_is_number(r[i]) for r in cells[1:] if r[i]) for i in range(ncol)]
    if numeric[-1] and not wrap_last and ncol > 1:  # a last column of numbers lines up too
        last = max(display_width(r[-1]) for r in cells)
        last_lines = [[_pad(ls[0], last, right=n > 0)] for n, ls in enumerate(last_lines)]
    out: list[str] = []
    for n, r in enumerate(cells):
        parts = [_pad(r[i], widths[i], right=numeric[i] and n > 0) for i in range(ncol - 1)]
        lead = "  ".join(parts)
        pad = " " * display_width(lead)
        for j, piece in enumerate(last_lines[n]):
            out.append(indent + ((lead if j == 0 else pad) + "  " + piece).rstrip()
                       if ncol > 1 else indent + piece)
        if n == 0:
            out.append(indent + "  ".join("-" * w for w in widths)
                       + ("  " + "-" * max(len(x) for ls in last_lines for x in ls)
                          if ncol > 1 else ""))
    return "\n".join(out)


def text_width() -> int:
    """The columns prose is wrapped at: the terminal's ($COLUMNS, else the terminal standard
    output is), 100 where there is none (a pipe, a file), never under 60 — as `models` and
    --help wrap. A table is never wrapped: its rows would no longer line up."""
    return max(60, shutil.get_terminal_size((100, 24)).columns)


def table_width() -> int | None:
    """The columns a table is narrowed to fit (titles clipped, columns left out): the
    terminal's (`text_width`) where standard output is a terminal or $COLUMNS is set; None for
    a file or a pipe without $COLUMNS, whose reader scrolls or searches: the whole table, as
    it always was (dr1 4: a saved table had lost 9 of its 13 signals to a width of 100)."""
    if os.environ.get("COLUMNS", "").strip().isdigit():
        return text_width()
    try:
        return text_width() if sys.stdout.isatty() else None
    except (AttributeError, ValueError):  # no stdout, or a closed one
        return None


def wrap(text: str, width: int | None = None, *, hang: int = 2) -> str:
    """Each line of `text` wrapped at `width` (`text_width()`) on spaces, its continuation
    lines indented by its own leading spaces and `hang` more; a word longer than the line (a
    path, a URL, a -p value) is kept whole, so it can still be copied. A single line of 1,087
    characters had been broken by the terminal mid-word ("the grad / e")."""
    width = width or text_width()
    out = []
    for line in text.split("\n"):
        if display_width(line) <= width:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip(" "))]
        out.append(textwrap.fill(_keep_paths(line.strip(" ")), width, initial_indent=lead,
                                 subsequent_indent=lead + " " * hang, break_long_words=False,
                                 break_on_hyphens=False).replace(_JOIN, " "))
    return "\n".join(out)


_JOIN = "\x1f"  # stands for a space inside a path while a line is wrapped
_TRAILING = ".,:;)'\""


def _keep_paths(line: str) -> str:
    """`line` with the spaces inside the paths it names (those that exist: the data read, the
    file just written) held, so that wrapping never breaks "My Work Folder/x.toml" across
    two lines, which a copy from the terminal would then carry."""
    words = line.split(" ")
    i = 0
    while i < len(words):
        if "/" in words[i] or words[i].startswith("~"):
            best = i
            for j in range(i + 1, min(len(words), i + 12)):
                candidate = " ".join(words[i:j + 1]).rstrip(_TRAILING).lstrip("('\"")
                if os.path.exists(os.path.expanduser(candidate)):
                    best = j
            if best > i:
                words[i:best + 1] = [_JOIN.join(words[i:best + 1])]
        i += 1
    return " ".join(words)


def say(text: str = "", *, file: Any = None, hang: int = 2) -> None:
    """`print` for prose (notes, verdicts, explanations): wrapped as `wrap` does. Tables go
    through `print`: a wrapped row no longer lines up."""
    print(wrap(text, hang=hang), file=file)


def p_equals(p: float) -> str:
    """A p-value as every command says it: "p = 0.382", "p < 0.001", "p = —" (none); three
    decimals, as compare's and report's p column (tune had said "p 1", sweep "p = 0.0014")."""
    if p != p:  # NaN
        return "p = —"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def display_width(text: str) -> int:
    """Columns a terminal gives `text`: two for a wide character (CJK, a full-width form),
    none for a combining mark (a title in Japanese shifted the columns after it)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _pad(text: str, width: int, *, right: bool) -> str:
    room = " " * max(0, width - display_width(text))
    return room + text if right else text + room


def _is_number(text: str) -> bool:
    """"0.6131", "+0.0008", "1,354.0" (a count with thousands separators)."""
    try:
        float(text.replace(",", "") if "," in text and " " not in text else text)
    except ValueError:
        return False
    return True


def warn_above_progress(line: str) -> None:
    """`warning: line` on stderr while a progress bar may be drawn there (tqdm's write clears
    the bar, prints, and draws it again below), so the bar does not run through the line."""
    from tqdm import tqdm

    tqdm.write(f"warning: {line}", file=sys.stderr)


@contextmanager
def progress_bar(label: str) -> Iterator[ProgressFn]:
    """A progress callable drawing a tqdm bar on stderr when stderr is a terminal; otherwise
    (a log, a CI job) one line per tenth of the way, once the work has run a few seconds, so
    that a long prepare or embedding is not silence."""
    from tqdm import tqdm

    if not sys.stderr.isatty():
        start = time.monotonic()
        shown = [-1]
        last_at, last_said = [start], [""]  # when the last line was printed, and its message

        def log(fraction: float, message: str) -> None:
            tenth = int(fraction * 10)
            now = time.monotonic()
            if now - start < LOG_AFTER_S:
                return
            # a tenth further on, or news after a quiet half minute (the first tenth of an
            # embedding on two cores took five minutes of silence)
            if tenth > shown[0] or (now - last_at[0] >= LOG_EVERY_S
                                    and message != last_said[0]):
                shown[0] = max(shown[0], tenth)
                last_at[0], last_said[0] = now, message
                print(f"{label}: {int(fraction * 100)}% {message}".rstrip(), file=sys.stderr,
                      flush=True)

        yield log
        return
    # the message after the bar as the description, not tqdm's postfix (which it writes after
    # a ", ": "| , embedding 64/5,183 documents"); the label is fixed text in the format
    fixed = label.replace("{", "{{").replace("}", "}}")
    bar = tqdm(total=1000, file=sys.stderr, leave=False,
               bar_format=fixed + ": {percentage:3.0f}%|{bar}| {desc}")

    def update(fraction: float, message: str) -> None:
        bar.n = int(fraction * 1000)
        bar.set_description_str(message, refresh=False)
        bar.refresh()

    try:
        yield update
    finally:
        bar.close()


def explain_lines(details: dict[str, Any], idle: Set[str] = frozenset()) -> list[str]:
    """A model's explain breakdown as `workbench explain` prints it under a result, and the
    window's preview under the document: a line per value, a list of records (matched
    terms, entities) one line each, at most twelve. `idle`: signals 0 for every pair at the
    values in use (`Model.idle_signals`), left out of a table of names as the score's sum
    leaves them out (vault-search's proximity=0, clamp=0 when shipped)."""
    out: list[str] = []
    for key, value in details.items():
        if key == "memory_block":  # printed whole after the results
            continue
        if key == "snippet":  # the source system's own snippet, whole
            out.append(f"snippet: {value}")
        elif isinstance(value, dict):  # a table of names: every entry, none cut (rv51 4:
            # the bonuses were cut before age, the total not to be reconciled)
            out.append(f"{key}: " + (", ".join(f"{k}={_short(v)}" for k, v in value.items()
                                               if k not in idle) or "none"))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out.append(f"{key}:")
            for item in value[:12]:
                out.append("  - " + ", ".join(f"{k}={_short(v)}" for k, v in item.items()))
            if len(value) > 12:
                out.append(f"  … {len(value) - 12} more")
        else:
            out.append(f"{key}: {_short(value)}")
    return out


def _short(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    text = str(value).replace("\n", "⏎")
    return text if len(text) <= 100 else text[:99] + "…"
