"""pi-lodestone's text rules (REFERENCE.md §1, k0udo/pi-lodestone 418f9a1, extension/scoring.ts
and the injection hook of extension/index.ts), ported one by one.

- `tokenize`: lowercase; maximal runs of 3+ characters of `[a-z0-9_./:-]` (ASCII only, so
  `café` gives `caf`); strip leading and trailing `.`, `:`, `-`; keep runs still 3+ long that
  are not stop words; duplicates kept, in order.
- `infer_tags`: the five intent tags, from the regexes of `inferTags`.
- `is_operational_title`, `has_durable_tag`: the two non-manual injection gates' tests.
- `sanitize_prompt`, `compact_query`, `injection_query`: what the injection hook does to a
  prompt before it searches.

JavaScript details kept: regex `\\b` is ASCII (`re.ASCII`), `/i` without the `u` flag folds
ASCII only, `.` stops at LF, CR, U+2028 and U+2029, `\\s` and `trim` are JavaScript's
whitespace, lengths and `slice` count UTF-16 units, and `sort` compares UTF-16 units.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from workbench.core.models.vault_search.jsstring import JS_WHITESPACE, from_units, to_units

STOP_WORDS = frozenset((
    "the and for with that this from have has was were are not you your but all can into use "
    "using any what when where why how who did does their there").split())
# the word lists below are the original's, in its order; each is a prepare parameter too
# (`generic_terms`, `operational_words`, `durable_tags`, `injection_stop_words`)
GENERIC_WORDS: tuple[str, ...] = tuple(
    "decision decided preference workflow implementation manual important pinned".split())
GENERIC_TERMS = frozenset(GENERIC_WORDS)
OPERATIONAL_WORDS = ("read", "ran", "executed", "wrote", "edited", "listed", "searched",
                     "fetched", "opened")
DURABLE_TAGS = ("decision", "preference", "workflow")
# the injection hook's extra stop words (INJECTION_QUERY_STOP_WORDS, 44)
INJECTION_STOP_LIST: tuple[str, ...] = tuple((
    "again another assessment begin changes check closing commit complete complete-ness "
    "completeness designed detail enhancement enhancements explicit explict fix fixing follow "
    "function gap happen let make mind more nature needed next one operation pass perform plan "
    "push reload review should steps system then time valuable").split())
INJECTION_STOP_WORDS = frozenset(INJECTION_STOP_LIST)

MIN_TOKEN_LENGTH = 3  # the original's `{3,}` and `length >= 3`
_TOKEN = re.compile(r"[a-z0-9_./:-]{3,}")
_EDGES = re.compile(r"^[.:-]+|[.:-]+$")


def word_list(text: str, lower: bool = True) -> tuple[str, ...]:
    """A word-list parameter's entries: comma-separated, each trimmed (inner runs of spaces
    made one), lower case unless `lower` is off (tags are compared as written); blanks and
    repeats dropped, the first kept."""
    seen: dict[str, None] = {}
    for part in text.split(","):
        word = " ".join(part.split())
        if word:
            seen.setdefault(word.lower() if lower else word)
    return tuple(seen)


@functools.lru_cache(maxsize=16)
def _operational(words: tuple[str, ...]) -> re.Pattern[str] | None:
    if not words:
        return None
    return re.compile(r"^(?:" + "|".join(re.escape(w) for w in words) + r")\b",
                      re.ASCII | re.I)


_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_NOT_EOL = "[^\n\r\u2028\u2029]"  # JavaScript's `.`
_INTENTS = tuple((tag, re.compile(r"\b(?:" + body + r")\b", re.ASCII)) for tag, body in (
    ("decision", rf"decision|decided|choose|chose|use {_NOT_EOL}+ because|architectural decision"),
    ("preference", r"preference|prefer|always|never|do not|don't|avoid|standing instruction"),
    ("workflow", r"workflow|process|procedure|steps|runbook|playbook|command sequence"),
    ("bugfix", r"bug|bugfix|fix|fixed|error|failed|failure|root cause|regression|traceback"),
    ("implementation", r"implemented|added|updated|created|refactored|commit|committed|push|"
                       r"pushed|migration|phase"),
))
_PRIVATE = re.compile(r"<private>[\s\S]*?</private>", re.ASCII | re.I)
_SECRET_ASSIGN = re.compile(
    r"\b([A-Za-z0-9_]*?(?:TOKEN|SECRET|PASSWORD|API[_-]?KEY)[A-Za-z0-9_]*?)" + _WS + "*="
    + _WS + "*[^" + re.escape(JS_WHITESPACE) + "]+", re.ASCII | re.I)
_BEARER = re.compile(r"Bearer" + _WS + r"+[A-Za-z0-9._~+\-/]+=*", re.ASCII | re.I)
_SK = re.compile(r"sk-[A-Za-z0-9]{20,}", re.ASCII)


def tokenize(text: str, min_length: int = MIN_TOKEN_LENGTH) -> list[str]:
    """`tokenize` of scoring.ts: lowercase, runs of `[a-z0-9_./:-]{3,}`, edges stripped, 3+
    characters left (3: `min_length`)."""
    out: list[str] = []
    pattern = _TOKEN if min_length == MIN_TOKEN_LENGTH else _token_pattern(min_length)
    for run in pattern.findall(text.lower()):
        token = _EDGES.sub("", run)
        if len(token) >= min_length and token not in STOP_WORDS:
            out.append(token)
    return out


@functools.lru_cache(maxsize=8)
def _token_pattern(min_length: int) -> re.Pattern[str]:
    return re.compile(rf"[a-z0-9_./:-]{{{max(1, min_length)},}}")


def js_sorted(values: Iterable[str]) -> list[str]:
    """`[...values].sort()`: by UTF-16 code units, as JavaScript compares strings."""
    return sorted(values, key=lambda s: s.encode("utf-16-be", "surrogatepass"))


def infer_tags(title: str, text: str, existing: Iterable[str] = ()) -> list[str]:
    """`inferTags`: the existing tags (empty ones dropped) plus each intent tag whose regex
    finds a word in `title\\ntext\\nexisting` lowercased, sorted."""
    given = list(existing)
    result = {t for t in given if t}
    body = f"{title}\n{text}\n{' '.join(given)}".lower()
    for tag, pattern in _INTENTS:
        if pattern.search(body):
            result.add(tag)
    return js_sorted(result)


def is_operational_title(title: str, words: tuple[str, ...] = OPERATIONAL_WORDS) -> bool:
    """The title starts with an operational word (of `words`, the original's by default) and
    a word boundary, any case ("Ran tests" yes, "Ranked list" no)."""
    pattern = _operational(tuple(words))
    return pattern is not None and pattern.search(title) is not None


def has_durable_tag(tags: Iterable[str], durable: Iterable[str] = DURABLE_TAGS) -> bool:
    """Some tag is exactly one of `durable` (decision, preference or workflow)."""
    wanted = set(durable)
    return any(t in wanted for t in tags)


def is_generic(token: str, generic: frozenset[str] = GENERIC_TERMS) -> bool:
    return token in generic


def js_trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def utf16_len(text: str) -> int:
    return len(to_units(text))


def sanitize_prompt(prompt: str, max_chars: int = 4000) -> str:
    """`sanitize`: private blocks replaced, secrets masked, trimmed, cut to `max_chars` UTF-16
    units."""
    text = _PRIVATE.sub("[private omitted]", prompt)
    text = _SECRET_ASSIGN.sub(lambda m: f"{m.group(1)}=[redacted]", text)
    text = _BEARER.sub("Bearer [redacted]", text)
    text = _SK.sub("sk-[redacted]", text)
    return from_units(to_units(js_trim(text))[:max_chars])


def compact_query(text: str, max_tokens: int = 32, min_length: int = MIN_TOKEN_LENGTH,
                  stop_words: frozenset[str] = INJECTION_STOP_WORDS) -> str:
    """`compactQuery`: tokens without the injection stop words (`stop_words`), first
    occurrence of each, the first max(1, max_tokens) of them, joined by spaces."""
    seen: dict[str, None] = {}
    for token in tokenize(text, min_length):
        if token not in stop_words:
            seen.setdefault(token, None)
    return " ".join(list(seen)[: max(1, max_tokens)])


def injection_query(prompt: str, *, max_tokens: int = 32, min_prompt_chars: int = 8,
                    min_query_chars: int = 3, max_chars: int = 4000,
                    min_length: int = MIN_TOKEN_LENGTH,
                    stop_words: frozenset[str] = INJECTION_STOP_WORDS) -> tuple[str, str]:
    """(query, reason) the injection hook searches for a prompt: the compact query and "",
    or "" and why nothing is searched (a prompt under 8 characters after sanitising, or a
    compact query under 3)."""
    clean = sanitize_prompt(prompt, max_chars)
    if utf16_len(clean) < min_prompt_chars:
        return "", f"prompt under {min_prompt_chars} characters"
    query = compact_query(clean, max_tokens, min_length, stop_words)
    if len(query) < min_query_chars:
        return "", f"compact query under {min_query_chars} characters"
    return query, ""
