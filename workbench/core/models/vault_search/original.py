"""obsidian-mcp's scoring and match extraction, ported function by function.

Source: markheramis/obsidian-mcp@993a9d3, `src/services/search/SearchScorer.ts` and
`MatchExtractor.ts` (REFERENCE.md §5). Each public function here is one method of the original
with the same edge cases; the golden cases in `specs/examples/vault_search.jsonl` call them.
The component curves accept numpy arrays too: `VaultSearchModel.combine` evaluates the very
same expressions over every (query, candidate) pair.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from workbench.core.models.vault_search.jsstring import (
    canonicalize,
    count_words,
    find_all,
    from_units,
    js_lower,
    to_units,
)

# -- SearchScorer ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoringWeights:
    """SearchScorer's weights; not forced to sum to 1 (the score is clamped instead)."""

    term_frequency: float = 0.4
    position: float = 0.3
    density: float = 0.3

    def as_dict(self) -> dict[str, float]:
        return {"termFrequency": self.term_frequency, "position": self.position,
                "density": self.density}


def resolve_weights(overrides: Mapping[str, float | None] | None = None) -> ScoringWeights:
    """`new SearchScorer(weights)`: each of termFrequency, position, density `?? default`."""
    o = overrides or {}
    d = ScoringWeights()

    def pick(key: str, default: float) -> float:
        v = o.get(key)
        return default if v is None else float(v)

    return ScoringWeights(pick("termFrequency", d.term_frequency),
                          pick("position", d.position), pick("density", d.density))


def tf_curve(raw_tf: ArrayLike, scale: float = 100.0) -> NDArray[np.float64]:
    """min(1, log1p(raw·scale) / log1p(scale)); raw = occurrences / words."""
    r = np.asarray(raw_tf, np.float64)
    out: NDArray[np.float64] = np.minimum(1.0, np.log1p(r * scale) / math.log1p(scale))
    return out


def position_curve(ratio: ArrayLike, decay: float = 3.0) -> NDArray[np.float64]:
    """exp(−ratio·decay); ratio = (earliest matching line − 1) / total lines."""
    r = np.asarray(ratio, np.float64)
    out: NDArray[np.float64] = np.exp(-r * decay)
    return out


def density_curve(ratio: ArrayLike, scale: float = 100.0,
                  cap: float = 50.0) -> NDArray[np.float64]:
    """min(1, log1p(ratio·scale) / log1p(cap)); ratio = matching lines / total lines."""
    r = np.asarray(ratio, np.float64)
    out: NDArray[np.float64] = np.minimum(1.0, np.log1p(r * scale) / math.log1p(cap))
    return out


def total_lines(content: str) -> int:
    """`content.split('\\n').length` (CRLF keeps its `\\r`)."""
    return content.count("\n") + 1


def term_count(content: str, query: str) -> int:
    """countOccurrences(content.toLowerCase(), query.toLowerCase()): non-overlapping."""
    if not content or not query:
        return 0
    needle = js_lower(query)
    return js_lower(content).count(needle) if needle else 0


def term_frequency(content: str, query: str) -> float:
    """calculateTermFrequency: the tf curve of occurrences / whitespace-split words."""
    if not content or not query:
        return 0.0
    words = count_words(content)
    if words == 0:
        return 0.0
    return float(tf_curve(term_count(content, query) / words))


def position_bonus(match_lines: Sequence[int], n_lines: int) -> float:
    """calculatePositionBonus: only the earliest matching line counts."""
    if not match_lines or n_lines == 0:
        return 0.0
    return float(position_curve((min(match_lines) - 1) / n_lines))


def density_bonus(match_lines: Sequence[int], n_lines: int) -> float:
    """calculateDensityBonus: matching lines per 100 lines, log-scaled, capped at 1."""
    if not match_lines or n_lines == 0:
        return 0.0
    return float(density_curve(len(match_lines) / n_lines))


@dataclass(frozen=True)
class ScoreComponents:
    tf: float
    position: float
    density: float
    total_lines: int


def score_components(match_lines: Sequence[int], content: str, query: str) -> ScoreComponents:
    """The three components as calculateScore computes them (also when it returns 0)."""
    n = total_lines(content)
    return ScoreComponents(term_frequency(content, query), position_bonus(match_lines, n),
                           density_bonus(match_lines, n), n)


def calculate_score(match_lines: Sequence[int], content: str, query: str,
                    weights: ScoringWeights | None = None) -> float:
    """calculateScore: clamp to [0, 1] of the weighted sum; 0 without matches, content or
    query."""
    if not match_lines or not content or not query:
        return 0.0
    w = weights or ScoringWeights()
    c = score_components(match_lines, content, query)
    combined = c.tf * w.term_frequency + c.position * w.position + c.density * w.density
    return min(1.0, max(0.0, combined))


# -- MatchExtractor --------------------------------------------------------------------------


@dataclass(frozen=True)
class ExtractorConfig:
    context_lines: int = 2
    max_snippet_length: int = 200
    highlight_start: str = "**"
    highlight_end: str = "**"

    def as_dict(self) -> dict[str, object]:
        return {"contextLines": self.context_lines, "maxSnippetLength": self.max_snippet_length,
                "highlightStart": self.highlight_start, "highlightEnd": self.highlight_end}


def extractor_config(overrides: Mapping[str, object] | None = None) -> ExtractorConfig:
    """`new MatchExtractor(config)`: each field `?? default` (camelCase keys, as the original)."""
    o = overrides or {}
    d = ExtractorConfig()
    ctx, size = o.get("contextLines"), o.get("maxSnippetLength")
    start, end = o.get("highlightStart"), o.get("highlightEnd")
    return ExtractorConfig(
        context_lines=d.context_lines if ctx is None else _as_int(ctx),
        max_snippet_length=d.max_snippet_length if size is None else _as_int(size),
        highlight_start=d.highlight_start if start is None else str(start),
        highlight_end=d.highlight_end if end is None else str(end),
    )


def _as_int(value: object) -> int:
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"expected a number, got {value!r}")


@dataclass(frozen=True)
class Match:
    line: int  # 1-indexed
    context: str
    snippet: str
    column: int  # 0-indexed, UTF-16 units


def extract_context(lines: Sequence[str], match_index: int, context_lines: int) -> str:
    """extractContext: the match line marked `> `, its neighbours indented two spaces."""
    if not lines or match_index < 0 or match_index >= len(lines):
        return ""
    start = max(0, match_index - context_lines)
    end = min(len(lines) - 1, match_index + context_lines)
    return "\n".join(("> " if i == match_index else "  ") + lines[i]
                     for i in range(start, end + 1))


def _substitute(template: str, matched: str, before: str, after: str) -> str:
    """`String.prototype.replace` replacement patterns ($$, $&, $`, $'); a regex without
    groups leaves every other `$` literal."""
    out: list[str] = []
    i = 0
    while i < len(template):
        ch = template[i]
        nxt = template[i + 1] if i + 1 < len(template) else ""
        if ch == "$" and nxt in ("$", "&", "`", "'"):
            out.append({"$": "$", "&": matched, "`": before, "'": after}[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def highlight_units(line: str, canon_query: str, config: ExtractorConfig) -> str:
    """`line.replace(/query/gi, start + '$&' + end)` then truncateSnippet, on unit strings."""
    if not line:
        return ""
    hs, he = to_units(config.highlight_start), to_units(config.highlight_end)
    template = hs + "$&" + he
    plain = "$" not in hs + he
    parts: list[str] = []
    pos = 0
    for i in find_all(canonicalize(line), canon_query):
        j = i + len(canon_query)
        parts.append(line[pos:i])
        if plain:
            parts += [hs, line[i:j], he]
        else:
            parts.append(_substitute(template, line[i:j], line[:i], line[j:]))
        pos = j
    parts.append(line[pos:])
    return truncate_snippet("".join(parts), config)


def truncate_snippet(highlighted: str, config: ExtractorConfig) -> str:
    """truncateSnippet on a unit string: centre a `max`-unit window on the first highlight
    start marker (the markers count), `...` at cut ends; a first marker at index 0 (or none)
    keeps the first `max` units."""
    size = config.max_snippet_length
    if len(highlighted) <= size:
        return highlighted
    pos = highlighted.find(to_units(config.highlight_start))
    if pos > 0:
        start = max(0, pos - size // 2)
        end = min(len(highlighted), start + size)
        cut = highlighted[start:end]
        return ("..." if start > 0 else "") + cut + ("..." if end < len(highlighted) else "")
    return highlighted[:size] + "..."


def highlight_match(line: str, query: str, config: ExtractorConfig | None = None) -> str:
    """highlightMatch: every occurrence wrapped in the markers, cut to maxSnippetLength."""
    if not line or not query:
        return line or ""
    cfg = config or ExtractorConfig()
    return from_units(highlight_units(to_units(line), canonicalize(to_units(query)), cfg))


def find_column_position(line: str, query: str) -> int:
    """findColumnPosition: the first match's index in UTF-16 units, −1 when none."""
    if not line or not query:
        return -1
    return canonicalize(to_units(line)).find(canonicalize(to_units(query)))


def extract_matches(content: str, query: str, context_lines: int | None = None,
                    config: ExtractorConfig | None = None) -> list[Match]:
    """extractMatches: one match per line holding the whole query (first occurrence),
    lines split on `\\n` only."""
    if not content or not query:
        return []
    cfg = config or ExtractorConfig()
    ctx = cfg.context_lines if context_lines is None else context_lines
    lines = to_units(content).split("\n")
    cq = canonicalize(to_units(query))
    out: list[Match] = []
    for index, line in enumerate(lines):
        column = canonicalize(line).find(cq)
        if column < 0:
            continue
        out.append(Match(line=index + 1, column=column,
                         context=from_units(extract_context(lines, index, ctx)),
                         snippet=from_units(highlight_units(line, cq, cfg))))
    return out


def shipped_score(content: str, query: str,
                  weights: ScoringWeights | None = None) -> float:
    """One file as searchVaultWithOptions scores it: extractMatches then calculateScore."""
    lines = [m.line for m in extract_matches(content, query)]
    return calculate_score(lines, content, query, weights)
