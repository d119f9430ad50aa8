"""The codeledger model's parameters and signals, declared once as data.

Defaults: codeledger-scoring.md's weights and stop rule, REFERENCE §2's recovered constants;
where both are silent, the choice named in the help text (and in `model`'s docstring).
Prepare-stage: what changes the candidate set or the excerpts (stages, depths, caps, excerpt
threshold and window). Everything else — weights, multipliers, churn/recency constants, the
ledger maturity, the stop rule, auto-scope on/off, confidence thresholds — is live.
"""

from __future__ import annotations

from dataclasses import replace

from workbench.core.engine import Signal
from workbench.core.models.codeledger.text import TASK_TYPES
from workbench.core.params import Param, ParamSchema
from workbench.core.repo.history import KEEP_COMMIT_FILES
from workbench.core.repo.lang import (
    DEFAULT_TOKENS_PER_LINE,
    KEYWORD_HEAD_LINES,
    KEYWORD_MIN_CHARS,
    MAX_KEYWORDS,
    TOKENS_PER_LINE,
)

GATES = ("out_of_scope",)
GATE_LABELS = {"out_of_scope": "off-scope"}

# (name, label, config key, sign, default weight, help); weight parameters are `w_<config key>`.
# Weights are relative: the ranking depends on their ratios only (the stop rule's
# overshoot_min_score and sufficiency see the scale), so their ranges reach well past 1.
_SIGNALS: tuple[tuple[str, str, str, int, float, str], ...] = (
    ("keyword", "Keyword match", "keyword", 1, 0.30,
     "IDF mass of the task terms found in the path or symbols (+ content weight × those "
     "found only in content keywords) ÷ the task's informative IDF mass, capped at 1."),
    ("content", "Content relevance", "content", 1, 0.0,
     "BM25 of the task text over the file's content, path tokens counted path_weight times "
     "(identifiers split and whole, code stop words out, Snowball stems) ÷ the task's best "
     "BM25 over every file: 1 for the best file. Not in CodeLedger's document."),
    ("mention", "Named in the task", "mention", 1, 0.0,
     "1 when the task names the file's path (`src/a.py`, `a.py:12`, a stack-trace path; a "
     "bare name that several files share names none). Not in CodeLedger's document."),
    ("graph", "Next to a match", "graph", 1, 0.0,
     "max(share · best content relevance among the files it imports, is imported by or is "
     "paired with as test/source, share² · the best two hops away). Not in CodeLedger's "
     "document."),
    ("cochange", "Changed together", "cochange", 1, 0.0,
     "max over the task's content matches g of relevance(g) · c(f, g) / (n_g + 1): c commits "
     "changed both f and g, n_g changed g (history before the indexed commit). Not in "
     "CodeLedger's document."),
    ("similar", "Similar past commits", "similar", 1, 0.0,
     "Files changed by the past commits whose messages read most like the task: BM25 of the "
     "task over commit messages; each of the similar_commits best commits gives its score "
     "÷ √(files it changed) to every file it changed; ÷ the task's best file: 1 for the "
     "best. History before the indexed commit only. Not in CodeLedger's document."),
    ("centrality", "Centrality", "centrality", 1, 0.15,
     "(imports + dependents) / the largest such count in the repository."),
    ("churn", "Churn", "churn", 1, 0.15,
     "min(1, commits in window / churn_commits · exp(−days since last / churn_decay_days))."),
    ("recency", "Recent touch", "recent_touch", 1, 0.10,
     "Band of days since the last commit: ≤7 → 1, ≤30 → 0.6, ≤90 → 0.3, else 0.1."),
    ("test_relevance", "Test relevance", "test_relevance", 1, 0.10,
     "1 when its test (or source) is a candidate by a stage other than the test "
     "neighbourhood; test_mapped_value when it merely has a mapped test; else 0."),
    ("success_prior", "Success prior", "success_prior", 1, 0.05,
     "Ledger: min(1, rate · maturity), rate = success / (success + fail)."),
    ("error_infrastructure", "Error infrastructure", "error_infrastructure", 1, 0.05,
     "1 for error classes, validators and middleware (bug-fix tasks only by default)."),
    ("branch_changed", "Branch changed", "branch_changed", 1, 0.10,
     "1 when the file has uncommitted or branch-diffed changes."),
    ("size_penalty", "Size penalty", "size_penalty", -1, 0.10,
     "min(1, tokens it would cost (excerpt tokens when excerpted) / size_penalty_tokens)."),
    ("fail_prior", "Fail prior", "fail_prior", -1, 0.05,
     "Ledger: min(1, (1 − rate) · maturity)."),
    ("non_code", "Not source code", "non_code", -1, 0.0,
     "1 for documentation, configuration and data files (Markdown, JSON, YAML, TOML, go.mod, "
     "files of no known language), else 0. Not in CodeLedger's document."),
)
WEIGHT_HIGH = 5.0
# the weights CodeLedger's config reads (the document's `selector.weights`)
CONFIG_WEIGHTS = frozenset({"keyword", "centrality", "churn", "recent_touch", "test_relevance",
                            "size_penalty", "success_prior", "fail_prior"})
SIGNAL_NAMES: tuple[str, ...] = tuple(s[0] for s in _SIGNALS)
WEIGHT_PARAMS: tuple[str, ...] = tuple(f"w_{s[2]}" for s in _SIGNALS)
SIGNS: tuple[int, ...] = tuple(s[3] for s in _SIGNALS)
SIGNALS = tuple(Signal(n, lab, h + (" Subtracted." if sign < 0 else ""))
                for n, lab, _, sign, _, h in _SIGNALS)
# each signal's name as its weight's slider says it ("named in the task" for mention): the one
# name the window shows it by, in every parameter's label and help that speaks of it
SIGNAL_LABELS: dict[str, str] = {n: lab.lower() for n, lab, *_ in _SIGNALS}

# (name, default): task-type multipliers that differ from 1 (REFERENCE §2, test tasks)
MULTIPLIERS: tuple[tuple[str, str, float], ...] = (
    ("test_update", "test_relevance", 2.5),
    ("test_update", "centrality", 0.5),
    ("test_update", "churn", 0.5),
)
BUDGET_PRESETS: dict[str, tuple[int, int]] = {
    "tight": (3000, 10), "default": (8000, 25), "generous": (15000, 40)}
# tokens per line by language (REFERENCE §2); "other": every language not named
TOKEN_RATES: tuple[tuple[str, str, float], ...] = (
    ("python", "Python", TOKENS_PER_LINE["python"]),
    ("typescript", "TypeScript", TOKENS_PER_LINE["typescript"]),
    ("java", "Java", TOKENS_PER_LINE["java"]),
    ("other", "other", DEFAULT_TOKENS_PER_LINE))
TOKEN_RATE_LANGUAGES = tuple(t[0] for t in TOKEN_RATES)
STOP_REASONS = ("candidates_exhausted", "file_limit", "token_budget", "sufficiency")


def _f(name: str, label: str, default: float, help: str, low: float = 0.0,
       high: float = 1.0, step: float = 0.05, stage: str = "live") -> Param:
    return Param(name, label, default, low=low, high=high, step=step, help=help,
                 stage="prepare" if stage == "prepare" else "live")


def _i(name: str, label: str, default: int, low: int, high: int, help: str,
       stage: str = "live") -> Param:
    return Param(name, label, default, kind="int", low=low, high=high, step=1, help=help,
                 stage="prepare" if stage == "prepare" else "live")


def _shown(p: Param) -> Param:
    """A parameter that only changes what is reported (confidence), not the ranking: left out
    of tuning unless named."""
    return replace(p, tunable=False)


def _yours(p: Param) -> Param:
    """The budget (and the task-type override): what the user sets, not what scores the files.
    Left out of tuning unless named — a bigger budget always finds more of the files a task
    needs, so a search for bundle recall would only raise it."""
    return replace(p, tunable=False, help=f"{p.help} Not tuned unless named.")


def _cut(p: Param) -> Param:
    """The bundle's stop rule and budget: they cut the bundle from the ranking and move only
    the bundle figures, never a score or the ranking (a search for a ranking metric leaves
    them at their start)."""
    return replace(p, figures_only=True)


def _b(name: str, label: str, default: bool, help: str) -> Param:
    return Param(name, label, default, kind="bool", help=help)


def _b_prep(name: str, label: str, default: bool, help: str) -> Param:
    return Param(name, label, default, kind="bool", help=help, stage="prepare")


DOCUMENT_SCHEMA = ParamSchema([
    *(_f(w, f"Weight: {s[1].lower()}", s[4], f"Weight of the “{s[1].lower()}” signal ("
         + (f"config key selector.weights.{s[2]}" if s[2] in CONFIG_WEIGHTS else
            "no key in CodeLedger's config: `export` cannot carry it")
         + "). Relative: only the ratios between weights order the files.",
         high=WEIGHT_HIGH, step=0.01)
      for w, s in zip(WEIGHT_PARAMS, _SIGNALS, strict=True)),
    _yours(Param("task_type", "Task type", "auto", kind="choice", choices=("auto", *TASK_TYPES),
                 help="auto: detected from the task text (first regex hit); else forced "
                      "for every task.")),
    *(_f(f"mult_{t}_{s}", f"×{SIGNAL_LABELS[s]} on {t}", v,
         f"Multiplier of the “{SIGNAL_LABELS[s]}” weight for {t} tasks.", high=5.0)
      for t, s, v in MULTIPLIERS),
    _b("error_infra_bug_fix_only", "Error infrastructure: bug fixes only", True,
       "Count error infrastructure only for bug_fix tasks (0 for other task types)."),
    _f("keyword_content_weight", "Keyword match: content weight", 0.3,
       "Weight of a term found only in the content keywords, against 1 in path or symbols."),
    _f("graph_share", "Next to a match: share per hop", 0.5,
       "Share of a neighbour's content relevance a file takes per hop (the “next to a match” "
       "signal, graph in explain's figures)."),
    _i("graph_hops", "Next to a match: hops", 1, 0, 2,
       "Hops the “next to a match” signal looks across: 0 off, 1 direct neighbours, 2 their "
       "neighbours."),
    _f("churn_commits", "Churn: commits for full", 20, "Commits within the churn window at which "
        "churn reaches 1 (a file touched today).",
       low=1, high=200, step=1),
    _f("churn_decay_days", "Churn: decay days", 30, "Churn fades as exp(−days since the last "
        "commit / this): after this many days it is down to 37 %.",
       low=1, high=365, step=1),
    _f("churn_window_days", "Churn: window days", 90, "Commits younger than this count.",
       low=1, high=3650, step=1),
    *(_f(f"recency_days_{i}", f"Recent touch: band {i} days", d, f"Files last touched at most this "
        f"many days ago get band {i}'s value (bands are tried 1, 2, 3 in order).",
         low=0, high=3650, step=1) for i, d in ((1, 7), (2, 30), (3, 90))),
    *(_f(f"recency_value_{i}", f"Recent touch: band {i} value", v,
         f"Recent touch within band {i}.")
      for i, v in ((1, 1.0), (2, 0.6), (3, 0.3))),
    _f("recency_else", "Recent touch: older", 0.1, "Recent touch of files older than band 3."),
    _f("no_history_days", "No history: days", 90, "Age assumed for a file without commits.",
       low=0, high=3650, step=1),
    _f("test_mapped_value", "Test relevance: mapped only", 0.5,
       "test_relevance of a file that has a mapped test (or source) which no other stage brought: "
           "it joined only through the test neighbourhood."),
    _f("ledger_half_life_days", "Ledger: half-life (days)", 30.0,
       "Ledger entries weigh 0.5^(age / this): REFERENCE §2's 30 days.", low=1.0,
       high=3650.0, step=1.0, stage="prepare"),
    _i("maturity_min", "Ledger: immature below", 10, 0, 1000,
       "Ledger priors count only once the ledger names a file this often: maturity 0 below."),
    _i("maturity_full", "Ledger: mature at", 50, 1, 1000,
       "Ledger maturity reaches 1 at this many entries naming the file (linear in between); "
           "priors = rate × maturity."),
    _f("size_penalty_tokens", "Size penalty: tokens for full", 4000,
       "Tokens at which the size penalty reaches 1 (half the default budget).",
       low=100, high=100000, step=100),
    _cut(_yours(Param("budget_preset", "Budget preset", "custom", kind="choice",
                      choices=("custom", *BUDGET_PRESETS),
                      help="tight 3000 tokens/10 files, default 8000/25, generous 15000/40 — "
                           "a preset overrides Max files and Token budget; custom uses those "
                           "two."))),
    _cut(_yours(_i("max_files", "Max files", 25, 1, 500,
                   "Stop rule (a): at most this many files."))),
    _cut(_yours(_i("token_budget", "Token budget", 8000, 100, 1000000,
                   "Stop rule (b): token budget."))),
    _cut(_yours(_f("overshoot", "Budget overshoot", 0.10, "A high-value file may exceed the "
                   "budget while the total stays within budget · (1 + overshoot).", high=1.0,
                   step=0.01))),
    _cut(_yours(_f("overshoot_min_score", "Overshoot: min score", 0.3,
                   "A file is high-value (may overshoot) when its score is at least this "
                   "(scores can be negative: the penalties are subtracted).", low=-1.0))),
    _cut(_i("skip_limit", "Skip when over budget", 0, 0, 100,
            "Stop rule (b) again: a file that does not fit the token budget is skipped and "
            "the next one tried, up to this many files a task; then the next that does not "
            "fit stops the bundle. 0: the first file that does not fit stops it (CodeLedger's "
            "document), so a first file over the whole budget leaves the bundle empty.")),
    _cut(_f("sufficiency", "Sufficiency", 0.85, "Stop rule (c): stop once the files taken "
            "hold this share of the positive score mass of all ranked candidates (1 = off).")),
    _b("auto_scope", "Auto-scope", True, "Gate candidates outside the directory the task "
       "names (compound identifier, else a top-level directory name)."),
    _b("scope_keeps_tests", "Scope keeps tests", True,
       "Tests (and sources) paired with an in-scope file pass the scope gate."),
    _shown(_f("confidence_high_keyword", "Confidence: strong match", 0.6,
           "HIGH needs a best path/symbol match at least this.")),
    _shown(_f("confidence_low_keyword", "Confidence: weak match", 0.25,
           "LOW below this best path/symbol match.")),
    _shown(_i("confidence_min_terms", "Confidence: min terms", 2, 0, 20,
           "LOW with fewer informative task terms than this.")),
    _shown(_i("confidence_max_candidates", "Confidence: max keyword files", 20, 1, 1000,
           "HIGH needs at most this many keyword candidates (else the task is broad).")),
    _f("broad_df_ratio", "Informative term: max share", 0.25,
       "A task term is informative when found in at most this share of the files."),
    # prepare stage: the candidate set and the excerpts
    _i("keyword_max_candidates", "Keyword stage: max files", 60, 1, 10000,
       "At most this many keyword matches (by path/symbol IDF mass, then content).",
       stage="prepare"),
    _i("content_max_candidates", "Content stage: max files", 0, 0, 10000,
       "The best files by content BM25 (score > 0) that join as candidates; 0: no content "
       "stage (CodeLedger's document has none).", stage="prepare"),
    _i("cochange_max_candidates", "Co-change stage: max files", 0, 0, 10000,
       "The files with the highest co-change (> 0) that join as candidates; 0: no co-change "
       "stage (CodeLedger's document has none).", stage="prepare"),
    _i("similar_commits", "Similar commits: how many", 10, 0, 1000,
       "The past commits most like the task (BM25 over commit messages) that vote for the "
       "files they changed (similar signal); 0: none.", stage="prepare"),
    _i("similar_max_candidates", "Similar-commits stage: max files", 0, 0, 10000,
       "The files with the most votes from similar past commits (> 0) that join as "
       "candidates; 0: no such stage (CodeLedger's document has none).", stage="prepare"),
    _b_prep("skip_marked_binary", "Leave out marked binaries", False,
            "Files the repository's .gitattributes marks binary (`binary`, `-diff`) or whose "
            "content opens with a binary format's signature (PDF, PNG, ZIP, …) are never "
            "candidates, though no NUL byte comes in their first 8 KiB (an Illustrator .ai, a "
            "PDF: kilobytes of text metadata first). CodeLedger's scan skips only files with "
            "a NUL there (REFERENCE §2), so off in codeledger-document."),
    _b_prep("mention_stage", "Named-path stage", False,
            "Files whose path the task names join as candidates (CodeLedger's document has no "
            "such stage)."),
    _f("content_k1", "Content BM25: k1", 1.2, "Term-frequency saturation of the content BM25.",
       high=5.0, stage="prepare"),
    _f("content_b", "Content BM25: b", 0.75, "Length normalisation of the content BM25 "
       "(0 none, 1 full).", stage="prepare"),
    _f("path_weight", "Content BM25: path weight", 2.0,
       "Times a path token counts against one in the content (the path as a field).",
       high=20.0, step=0.5, stage="prepare"),
    _i("hot_zone_files", "Hot zone: files", 5, 0, 200,
       "Most-churned files added to every task (and as many within its scope).",
       stage="prepare"),
    _i("dep_depth", "Dependency depth", 1, 0, 5,
       "Import/dependent hops walked from the keyword matches (and the content and "
       "named-path stages' files).", stage="prepare"),
    _i("dep_max_candidates", "Dependency stage: max files", 0, 0, 10000,
       "At most this many files added by the dependency walk alone, those next to the most "
       "content-relevant files first, then the most central; 0: no cap (CodeLedger's "
       "document walks every import and dependent).", stage="prepare"),
    _i("tests_max_per_file", "Test stage: max per file", 0, 0, 1000,
       "At most this many tests (or sources) of each candidate join, those paired by name "
       "(test_x.py ↔ x.py) before those paired through imports; 0: all (CodeLedger's "
       "document).",
       stage="prepare"),
    _i("fanout_min", "Fan-out: min sharers", 3, 2, 100,
       "Keyword matches importing one file that trigger fan-out.", stage="prepare"),
    _i("fanout_max", "Fan-out: max files", 30, 0, 1000,
       "At most this many dependents added per fan-out hub, in path order; 0: no cap, "
       "the full set CodeLedger's document includes.", stage="prepare"),
    _i("max_commit_files", "History: largest commit", 50, 1, KEEP_COMMIT_FILES,
       "Commits that changed more files than this are left out of every history signal "
       "(churn, recency, co-change, similar commits): REFERENCE §2's 50. The index keeps "
       f"commits of up to {KEEP_COMMIT_FILES:,} files.", stage="prepare"),
    _i("max_keywords", "Keywords: at most", MAX_KEYWORDS, 1, 10000,
       "A file's content keywords (the keyword signal's content half): at most this many, "
       "in order of first appearance (REFERENCE §2's 100).", stage="prepare"),
    _i("keyword_head_lines", "Keywords: first lines", KEYWORD_HEAD_LINES, 0, 100000,
       "Content keywords come from a file's first this many lines and its definition or "
       "export lines after them (REFERENCE §2's 50).", stage="prepare"),
    _i("keyword_min_chars", "Keywords: min characters", KEYWORD_MIN_CHARS, 1, 20,
       "A content keyword has at least this many characters (REFERENCE §2: over 2).",
       stage="prepare"),
    _i("excerpt_threshold_lines", "Excerpt above lines", 250, 1, 100000,
       "Files longer than this count with their excerpt's tokens.", stage="prepare"),
    _i("excerpt_window", "Excerpt window", 5, 0, 200,
       "Lines kept either side of a keyword hit.", stage="prepare"),
    _b_prep("excerpt_cited_lines", "Excerpt: lines the task cites", False,
            "A line the task cites in a file (`client.py:88`, a stack trace's `File "
            "\"…/client.py\", line 88`) is kept in that file's excerpt with the excerpt "
            "window, as a keyword hit is (CodeLedger's document keeps keyword hits only)."),
    _b_prep("tokens_long_lines_by_size", "Tokens: long lines by size", False,
            "A file of very long lines (over 400 characters a line on average and over 4 KiB: "
            "minified, generated, an SVG) costs at least ceil(characters / 4) tokens, not "
            "lines × rate alone (a 40 KB one-line logo: 10,000 tokens, not 4). CodeLedger "
            "counts lines × rate (REFERENCE §2)."),
    *(_yours(_f(f"tokens_per_line_{lang}", f"Tokens per line: {label}", rate,
                f"The token estimate of a {label} file (or excerpt): ceil(lines · this), "
                f"REFERENCE §2's {rate:g}. Counts the budget and the size penalty; a token "
                "count the corpus states is kept.", low=0.5, high=20.0, step=0.1,
                stage="prepare"))
      for lang, label, rate in TOKEN_RATES),
]).with_slider_tops({
    # where the sliders end (a larger value is typed): the useful span, not the
    # whole range, whose default sat at its left end
    "churn_window_days": 365, "recency_days_1": 365, "recency_days_2": 365, "recency_days_3": 365,
    "no_history_days": 365, "ledger_half_life_days": 365, "maturity_min": 200, "maturity_full": 200,
    "size_penalty_tokens": 20000, "token_budget": 64000, "confidence_max_candidates": 200,
    "keyword_max_candidates": 500, "content_max_candidates": 500, "cochange_max_candidates": 500,
    "similar_commits": 100, "similar_max_candidates": 500, "dep_max_candidates": 500,
    "tests_max_per_file": 20, "fanout_max": 100, "max_commit_files": 200, "max_keywords": 1000,
    "keyword_head_lines": 1000, "excerpt_threshold_lines": 2000
})

# The `codeledger` defaults: fitted with the workbench's tools on development histories only
# (this repository, sample_corpora/code-repo, httpx and ky; older half of each history's tasks,
# the newer half held out) and rounded; see docs/codeledger.md. The rest
# keep the document's values (no history there to fit them on: ledger, branch, error
# infrastructure). `codeledger-document` keeps every value of DOCUMENT_SCHEMA.
FITTED: dict[str, float | int | bool] = {
    "w_keyword": 0.8, "w_content": 1.0, "w_mention": 1.5, "w_graph": 0.3, "graph_share": 0.9,
    "graph_hops": 2, "w_cochange": 0.35, "w_centrality": 0.55, "w_churn": 0.02,
    "w_recent_touch": 0.02, "w_test_relevance": 0.01,
    "w_non_code": 0.75, "keyword_content_weight": 0.35, "sufficiency": 0.95,
    # up to 3 files skipped for the budget: on the older halves (each task at a snapshot at
    # most 10 commits before it) bundle recall 0.809 → 0.833 on httpx, 0.942 → 0.951 on ky,
    # this repository's unchanged; 1 gives 0.822 and 0.942, 5 0.834 and 0.951, no limit
    # 0.838 and 0.953 (each skip a round of the live path)
    "skip_limit": 3,
    # similar past commits: a grid on the older halves with each task at a snapshot at most 10
    # commits before it (`bench --code`'s second table), the other weights as above; the 10
    # commits that vote (`similar_commits`) are the schema's own default (not in the document)
    "w_similar": 0.25, "similar_max_candidates": 20,
    "content_max_candidates": 40, "mention_stage": True, "hot_zone_files": 10,
    # the line a trace points at, kept in the excerpt of the file it names (no change on the
    # mined histories, whose commit messages cite no lines)
    "excerpt_cited_lines": True,
    # a binary git itself counts as one (`*.ai binary`, numstat `-`): no agent reads it
    "skip_marked_binary": True,
    "tokens_long_lines_by_size": True,
    "auto_scope": False,
    # caps that keep a large repository's candidate lists short (no change on the four
    # histories' older halves; 1,022 → 209 candidates a task on `bench --code-scale 1500`)
    "dep_max_candidates": 20, "tests_max_per_file": 2, "fanout_max": 5,
}


# fitted parameters whose codeledger-document value is CodeLedger's document's own
FROM_DOCUMENT = frozenset({
    "w_keyword", "w_centrality", "w_churn", "w_recent_touch", "w_test_relevance", "sufficiency",
    "skip_limit", "auto_scope", "dep_max_candidates", "tests_max_per_file"})
# … a stage the document names without a number: the value is the workbench's choice
CHOSEN = frozenset({"keyword_content_weight", "hot_zone_files"})
# … and where codeledger-document departs from the document, why
DEPARTS = {"fanout_max": "the document includes the full set, 0; the preset keeps the cap of "
                         "30 its figures were measured with"}


# … on in codeledger by choice, with nothing to fit it on, and why
UNFITTED = {"excerpt_cited_lines": "mined tasks cite no line to fit it on",
            "skip_marked_binary": "a binary is no context an agent can read",
            "tokens_long_lines_by_size": "the budget is to hold what a file costs"}


def _fitted(p: Param) -> Param:
    if p.name not in FITTED:
        return p
    if p.name in UNFITTED:
        return replace(p, default=FITTED[p.name],
                       help=f"{p.help} On here by the workbench's choice ("
                            f"{UNFITTED[p.name]}); codeledger-document: off.")
    was = ("on" if p.default else "off") if p.kind == "bool" else p.default
    source = ("CodeLedger's document's value" if p.name in FROM_DOCUMENT
              else "the document gives no number; the workbench's choice" if p.name in CHOSEN
              else DEPARTS.get(p.name, "off there: not in CodeLedger's document"))
    return replace(p, default=FITTED[p.name],
                   help=f"{p.help} Default fitted on real histories; codeledger-document: "
                        f"{was} ({source}).")


SCHEMA = ParamSchema(_fitted(p) for p in DOCUMENT_SCHEMA)
