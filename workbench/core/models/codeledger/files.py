"""Per-file facts of a code corpus, read once from the documents' metadata.

One `Document` per repository file: id = the repo-relative path, text = its content, metadata
as the repository index writes it (see the package docstring). Every key may be missing — a
plain documents corpus still works:

- lines: the text's line count; tokens: `repo.lang.token_estimate(lines, language)`;
- keywords: `repo.lang.keywords` of the title (when it differs from the id) and the text;
- symbols, imports, dependents, tests, commit_days: empty; days_since_last: none (no history);
- centrality, ledger: 0; is_test, error_infrastructure, branch_changed: False;
- binary_mark (why the repository marks it binary): "".

Paths named in imports/dependents/tests that are not in the corpus are dropped.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Document
from workbench.core.models.codeledger.text import plural_key, words
from workbench.core.repo.lang import (
    KEYWORD_HEAD_LINES,
    KEYWORD_MIN_CHARS,
    MAX_KEYWORDS,
    keywords,
    token_estimate,
)

__all__ = ["DOCUMENT_KEYWORDS", "FileFacts", "KeywordRule", "long_lines", "read_files"]

# (at most, from the first lines, min characters) of a file's content keywords
KeywordRule = tuple[int, int, int]
DOCUMENT_KEYWORDS: KeywordRule = (MAX_KEYWORDS, KEYWORD_HEAD_LINES, KEYWORD_MIN_CHARS)
DOCUMENT_MAX_COMMIT_FILES = 50  # REFERENCE §2: commits of more files are ignored
# a file of very long lines (minified, generated, an SVG, data): lines × rate, as CodeLedger
# counts tokens, says a 40 KB one-line logo costs 4 tokens
LONG_LINE_CHARS = 400  # characters a line (on average) above which no hand-written source
LONG_LINES_BYTES = 4096  # … and only a file big enough for it to matter
CHARS_PER_TOKEN = 4.0  # the usual estimate for English text and code


def long_lines(text: str) -> bool:
    """Whether `text` is a file of very long lines (`LONG_LINE_CHARS`, `LONG_LINES_BYTES`)."""
    return len(text) > LONG_LINES_BYTES and len(text) / (text.count("\n") + 1) > LONG_LINE_CHARS


@dataclass(frozen=True)
class FileFacts:
    """N files, in corpus order.

    lines, tokens:      int64 / float64 (N,)
    centrality:         float64 (N,)
    days_since_last:    float64 (N,)   NaN: no history
    ages, age_ptr:      float64 (C,), int64 (N + 1,)  commit ages of file f, ascending:
                        ages[age_ptr[f]:age_ptr[f + 1]]
    success, fail:      float64 (N,)   decayed ledger weights; entries int64 (N,)
    is_test, error_infrastructure, branch_changed: bool (N,)
    imports, dependents, tests: per file, positions of the files named
    strong:             per file, plural keys of its path segments and exported symbols
    content:            per file, plural keys of its content keywords
    df:                 plural key → files holding it (strong or content)
    """

    paths: tuple[str, ...]
    languages: tuple[str, ...]
    lines: NDArray[np.int64]
    tokens: NDArray[np.float64]
    centrality: NDArray[np.float64]
    days_since_last: NDArray[np.float64]
    ages: NDArray[np.float64]
    age_ptr: NDArray[np.int64]
    success: NDArray[np.float64]
    fail: NDArray[np.float64]
    entries: NDArray[np.int64]
    is_test: NDArray[np.bool_]
    error_infrastructure: NDArray[np.bool_]
    branch_changed: NDArray[np.bool_]
    imports: tuple[tuple[int, ...], ...]
    dependents: tuple[tuple[int, ...], ...]
    tests: tuple[tuple[int, ...], ...]
    strong: tuple[frozenset[str], ...]
    content: tuple[frozenset[str], ...]
    df: Mapping[str, int]
    # per file, why the repository (or the file's signature) says it is binary though it has
    # no NUL in its first 8 KiB (`repo.binary`); "" when it does not; () when no file says
    binary_mark: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return len(self.paths)

    def idf(self, key: str) -> float:
        """ln(1 + N / df); 0 for a key no file holds (it cannot match, so it weighs nothing)."""
        df = self.df.get(key, 0)
        return math.log(1.0 + self.n / df) if df else 0.0


def file_lines(doc: Document) -> int:
    """A file's lines as the model counts them (the index's count; a trailing newline ends the
    last line, it starts none): `explain` said "0 of 890 lines" of an 889-line file."""
    return int(_num(doc.metadata, "lines", len(doc.text.splitlines())))


def _num(meta: Mapping[str, Any], key: str, default: float) -> float:
    v = meta.get(key)
    if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
        return float(v)
    return default


def _seq(meta: Mapping[str, Any], key: str) -> list[Any]:
    v = meta.get(key)
    return list(v) if isinstance(v, list | tuple) else []


def _keys(texts: Sequence[str]) -> frozenset[str]:
    return frozenset(plural_key(w) for t in texts for w in words(t))


def _tokens(meta: Mapping[str, Any], lines: int, lang: str,
            rates: Mapping[str, float] | None) -> float:
    """The estimate at `rates`; a count the corpus states is kept — one equal to the estimate at
    REFERENCE §2's rates is that estimate (the repository index writes it), so it follows
    `rates` too."""
    stated = _num(meta, "tokens", -1.0)
    if stated >= 0 and (rates is None or stated != token_estimate(lines, lang)):
        return stated
    return float(token_estimate(lines, lang, rates))


def _ledger(ledger: Mapping[str, Any], kind: str, half_life: float | None) -> float:
    """A file's decayed ledger weight of `kind` (success / fail): at `half_life` days from
    the entries' ages where the ledger keeps them, else the weight it states."""
    ages = ledger.get(f"{kind}_ages")
    if half_life is None or not isinstance(ages, list | tuple):
        return _num(ledger, kind, 0.0)
    return float(sum(0.5 ** (float(a) / half_life) for a in ages
                     if isinstance(a, int | float) and not isinstance(a, bool)))


def _kept_ages(meta: Mapping[str, Any], max_commit_files: int) -> list[float]:
    """The ages of the commits that touched a file, those of more than `max_commit_files`
    files left out where `commit_files` (one count per age) says how many each changed."""
    ages = [float(a) for a in _seq(meta, "commit_days")]
    sizes = _seq(meta, "commit_files")
    if len(sizes) != len(ages):  # a corpus that says no sizes: every age it gives
        return ages
    return [a for a, n in zip(ages, sizes, strict=True) if int(n) <= max_commit_files]


def read_files(docs: Sequence[Document], rates: Mapping[str, float] | None = None,
               half_life: float | None = None, keyword_rule: KeywordRule = DOCUMENT_KEYWORDS,
               max_commit_files: int = DOCUMENT_MAX_COMMIT_FILES,
               by_size: bool = False) -> FileFacts:
    """`rates`: tokens per line by language ("other" for the rest); None: REFERENCE §2's.
    `half_life`: the ledger's entries decay by 0.5^(age / half_life days); None: the weights
    the ledger states (REFERENCE §2's 30 days where the repository reader decayed them).
    `keyword_rule`: (at most this many, from the first this many lines, of at least this
    many characters); another than REFERENCE §2's reads every file's keywords again from its
    text, in place of those the index (or the corpus) states. `max_commit_files`: commits of
    more files are left out of a file's history where its `commit_files` say how many each
    changed (its days since the last commit then come from the commits kept). `by_size`: a
    file of very long lines (`long_lines`) costs at least ceil(characters / 4) tokens."""
    index = {d.id: i for i, d in enumerate(docs)}
    metas = [d.metadata for d in docs]
    langs = tuple(str(m.get("language") or "other") for m in metas)
    lines = np.array([file_lines(d) for d in docs], np.int64)
    tokens = np.array([_tokens(m, int(n), lang, rates)
                       for m, n, lang in zip(metas, lines, langs, strict=True)], np.float64)
    if by_size:
        for f, d in enumerate(docs):
            if long_lines(d.text):
                tokens[f] = max(tokens[f], math.ceil(len(d.text) / CHARS_PER_TOKEN))
    ages_l = [sorted(_kept_ages(m, max_commit_files)) for m in metas]
    since = [_num(m, "days_since_last", math.nan)
             if max_commit_files == DOCUMENT_MAX_COMMIT_FILES or not _seq(m, "commit_files")
             else (min(ages) if ages else math.nan) for m, ages in zip(metas, ages_l, strict=True)]
    age_ptr = np.zeros(len(docs) + 1, np.int64)
    np.cumsum([len(a) for a in ages_l], out=age_ptr[1:])
    ledgers: list[Mapping[str, Any]] = [
        lg if isinstance(lg := m.get("ledger"), Mapping) else {} for m in metas]

    def links(key: str) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(index[p] for p in _seq(m, key) if p in index) for m in metas)

    strong = []
    content = []
    df: dict[str, int] = defaultdict(int)
    for d, m, lang in zip(docs, metas, langs, strict=True):
        s = _keys([d.id, *map(str, _seq(m, "symbols"))])
        if "keywords" in m and (keyword_rule == DOCUMENT_KEYWORDS or not d.text):
            kw = [str(k) for k in _seq(m, "keywords")]
        else:
            head = [d.title] if d.title and d.title != d.id and "keywords" not in m else []
            kw = list(keywords(head + d.text.splitlines(), lang, *keyword_rule))
        c = _keys(kw)
        strong.append(s)
        content.append(c)
        for k in s | c:
            df[k] += 1
    return FileFacts(
        paths=tuple(d.id for d in docs), languages=langs, lines=lines, tokens=tokens,
        centrality=np.array([_num(m, "centrality", 0.0) for m in metas], np.float64),
        days_since_last=np.array(since, np.float64),
        ages=np.array([a for row in ages_l for a in row], np.float64), age_ptr=age_ptr,
        success=np.array([_ledger(lg, "success", half_life) for lg in ledgers], np.float64),
        fail=np.array([_ledger(lg, "fail", half_life) for lg in ledgers], np.float64),
        entries=np.array([int(_num(lg, "entries", 0)) for lg in ledgers], np.int64),
        is_test=np.array([m.get("is_test") is True for m in metas], bool),
        error_infrastructure=np.array([m.get("error_infrastructure") is True for m in metas],
                                      bool),
        branch_changed=np.array([m.get("branch_changed") is True for m in metas], bool),
        imports=links("imports"), dependents=links("dependents"), tests=links("tests"),
        strong=tuple(strong), content=tuple(content), df=dict(df),
        binary_mark=tuple(str(m.get("binary_mark") or "") for m in metas),
    )
