"""The vault-search model's parameters, signals and gates, declared once as data.

Every constant the original hard-codes is a parameter whose default is that constant
(REFERENCE.md conventions); sources are obsidian-mcp@993a9d3 unless a line says otherwise.
A range holds every value the original accepts that behaves differently there (minScore
above 1, maxSnippetLength 0) and says in its help how the values beyond it behave.
"""

from __future__ import annotations

from workbench.core.engine import Signal
from workbench.core.params import Param, ParamSchema

VARIANTS = ("shipped", "documented")
GATES = ("early_stop", "missing_word")
GATE_LABELS = {"early_stop": "stopped", "missing_word": "no word"}

SIGNALS = (
    Signal("tf", "Term frequency", "w_tf × the term-frequency component."),
    Signal("position", "Position", "w_position × the position component (earlier is higher)."),
    Signal("density", "Density", "w_density × the density component."),
    Signal("proximity", "Proximity", "Documented variant: bonus for query words near each "
           "other (always 0 when shipped)."),
    Signal("clamp", "Clamp", "What clamping the sum to [0, 1] removed (≤ 0) or added (≥ 0)."),
)

_SHIPPED = "Shipped variant. "
_DOC = "Documented variant. "

SCHEMA = ParamSchema([
    Param("variant", "Variant", "shipped", kind="choice", choices=VARIANTS, stage="prepare",
          help="shipped: faithful to obsidian-mcp's code; documented: the formulas of "
               "docs/features/scoring-algorithm.md."),
    # SearchScorer DEFAULT_WEIGHTS; the document's table says the same 40 / 30 / 30 %
    Param("w_tf", "Weight: term frequency", 0.4, low=0.0, high=1.0, step=0.01,
          help="Weight of the term-frequency component (weights need not sum to 1; the "
               "score is clamped to [0, 1], so a weight above 1 adds nothing new)."),
    Param("w_position", "Weight: position", 0.3, low=0.0, high=1.0, step=0.01,
          help="Weight of the position component."),
    Param("w_density", "Weight: density", 0.3, low=0.0, high=1.0, step=0.01,
          help="Weight of the density component."),
    # SearchResultFilter.processResults / search_vault's minScore, limit, offset
    Param("min_score", "Min score", 0.0, low=0.0, high=2.0, step=0.01,
          help="Drop results scoring below this; applies only when > 0 (minScore). Range: "
               "the original takes any number; scores are clamped to [0, 1], so above 1 "
               "nothing passes (every such value alike) and a negative one filters nothing, "
               "as 0."),
    Param("limit", "Limit", 0, tunable=False, kind="int", low=0, high=100_000, step=1,
          zero="all",
          help="Results returned; 0 = not passed, as search_vault's code then returns every "
               "result and ignores offset (its tool text claims a default of 100)."),
    Param("offset", "Offset", 0, tunable=False, kind="int", low=0, high=100_000, step=1,
          needs=("limit",),
          help="Results skipped before the limit (only when limit > 0)."),
    # fileSystem.ts searchVaultWithOptions + SearchResultFilter.shouldStopEarly
    Param("early_stop", "Early stop", False, tunable=False, kind="bool", needs=("limit",),
          help="Reproduce the original's early stop (needs limit > 0): files are scanned in "
               "batches in file order, and scanning stops after the batch where `limit` "
               "results score ≥ the threshold and 2·limit (early_stop_found) were found. Off "
               "by default: it makes results depend on file order."),
    Param("early_stop_threshold", "Early stop: high-quality score", 0.7, tunable=False,
          needs=("early_stop", "limit"),
          low=0.0, high=1.0, step=0.01,
          help="Score a result needs to count as high quality for the early stop."),
    Param("batch_size", "Early stop: batch size", 10, tunable=False, kind="int", low=1,
          needs=("early_stop", "limit"),
          high=10_000, step=1,
          help="Files read per batch (OBSIDIAN_SEARCH_BATCH_SIZE, default 10)."),
    Param("early_stop_found", "Early stop: results found × limit", 2, tunable=False, kind="int",
          low=1, high=100, step=1, needs=("early_stop", "limit"),
          help="Scanning stops only once this many times `limit` results were found (the "
               "original's 2·limit)."),
    # SearchScorer constants
    Param("tf_scale", "tf log scale", 100.0, low=1.0, high=10_000.0, step=1.0,
          needs=("variant=shipped",),
          help=_SHIPPED + "tf = min(1, ln(1 + scale·r) / ln(1 + scale)), r = occurrences / "
               "words."),
    Param("position_decay", "Position decay", 3.0, low=0.0, high=50.0, step=0.1,
          needs=("variant=shipped",),
          help=_SHIPPED + "position = exp(−decay · (first matching line − 1) / lines)."),
    Param("density_scale", "Density per N lines", 100.0, low=1.0, high=10_000.0, step=1.0,
          needs=("variant=shipped",),
          help=_SHIPPED + "d = scale · matching lines / lines (matches per 100 lines)."),
    Param("density_cap", "Density cap", 50.0, low=1.0, high=10_000.0, step=1.0,
          needs=("variant=shipped",),
          help=_SHIPPED + "density = min(1, ln(1 + d) / ln(1 + cap))."),
    # docs/features/scoring-algorithm.md
    Param("tf_multiplier", "tf multiplier", 10.0, low=0.1, high=1000.0, step=0.1,
          needs=("variant=documented",),
          help=_DOC + "tfScore = min(tf · multiplier, 1) · w_tf, tf = matches / words."),
    Param("density_multiplier", "Density multiplier", 20.0, low=0.1, high=1000.0, step=0.1,
          needs=("variant=documented",),
          help=_DOC + "densityScore = min(density · multiplier, 1) · w_density."),
    Param("w_proximity", "Weight: proximity", 0.1, low=0.0, high=1.0, step=0.01,
          needs=("variant=documented",),
          help=_DOC + "Bonus w · (found / k) · exp(−gap / scale) when ≥ 2 of the k query "
               "words occur; gap = extra words in the tightest stretch holding them all."),
    Param("proximity_scale", "Proximity scale (words)", 5.0, low=0.1, high=1000.0, step=0.1,
          needs=("variant=documented",),
          help=_DOC + "Extra words between the query words that cut the bonus by 1/e."),
    Param("require_all_words", "Require all words", False, kind="bool",
          needs=("variant=documented",),
          help=_DOC + "Gate documents missing any query word (else each missing word "
               "scores 0 in the average)."),
    # MatchExtractor DEFAULT_CONFIG; display only (explain), so live and never tuned
    Param("context_lines", "Context lines", 2, tunable=False, kind="int", low=0, high=100,
          step=1,
          help="Lines shown before and after each match (the document says 1; the code 2; "
               "0 = the match line alone)."),
    Param("max_snippet_length", "Snippet length", 200, tunable=False, kind="int", low=0,
          high=100_000, step=1,
          help="Snippet cut, in UTF-16 units, the highlight markers included "
               "(maxSnippetLength; the original keeps 0 too: every cut line is '...')."),
    Param("highlight_start", "Highlight start", "**", tunable=False, kind="text",
          help="Put before every occurrence in a snippet (highlightStart, e.g. <mark>); it "
               "counts toward the snippet length and the cut centres on its first use. "
               "JavaScript replacement patterns ($&, $$, $`, $') act as in the original."),
    Param("highlight_end", "Highlight end", "**", tunable=False, kind="text",
          help="Put after every occurrence in a snippet (highlightEnd, e.g. </mark>)."),
]).with_slider_tops({
    # where the sliders end (a larger value is typed): the useful span, not the
    # whole range, whose default sat at its left end
    "min_score": 1.0, "limit": 100, "offset": 100, "batch_size": 100, "tf_scale": 1000,
    "density_scale": 1000, "density_cap": 1000, "tf_multiplier": 100, "density_multiplier": 100,
    "proximity_scale": 50, "max_snippet_length": 2000
})


# the parameter panel's groups, by meaning (by name prefix, Limit and Offset had sat under
# "Weight" and the snippet settings under "Density"): key, title, members
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("weight", "Weight", ("w_tf", "w_position", "w_density", "w_proximity")),
    ("results", "Results", ("limit", "offset")),
    ("shapes", "Signal shapes (shipped)", ("tf_scale", "position_decay", "density_scale",
                                           "density_cap")),
    ("documented", "Documented variant", ("tf_multiplier", "density_multiplier",
                                          "proximity_scale", "require_all_words")),
    ("early", "Early stop", ("early_stop", "early_stop_threshold", "batch_size",
                             "early_stop_found")),
    ("snippets", "Snippets", ("context_lines", "max_snippet_length", "highlight_start",
                              "highlight_end")),
)
