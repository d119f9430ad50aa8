"""A comparison of configurations as text (`workbench compare`) and as Markdown (`workbench
report --format md`, for a pull request): what was compared, the parameters that differ, the
metric table with differences, p-values and queries improved/worsened against the first
configuration, and the documents that moved most with their explain diff."""

from __future__ import annotations

from workbench.core.comparison import (
    Comparison,
)
from workbench.report.text.agreement import AGREEMENT_NOTE, agreement_summary, agreement_table
from workbench.report.text.best import best_line
from workbench.report.text.caps import (
    SELECTION_GATES,
    cap_note,
    cut_counts,
    every_list_capped,
    lists_cut,
)
from workbench.report.text.cases import case_change, case_lines, case_results, cases_passed
from workbench.report.text.chance import (
    BEYOND,
    MANY_TESTS,
    WEAK,
    evidence,
    evidence_key,
    many_tests_note,
    tests_shown,
    weak_p,
)
from workbench.report.text.compared import (
    MEASURE_TEXT,
    _and,
    has_judgments,
    made_by,
    measure_text,
    models_text,
    no_judgments_lead,
    nouns,
    origin,
    shown_name,
    singular,
    sources_line,
    subject,
    trained_pair,
)
from workbench.report.text.cuts import relevant_left_out
from workbench.report.text.headline import (
    PerQuery,
    chart_metric,
    headline_metric,
    per_query,
    tied_gain,
)
from workbench.report.text.held_out import held_out_estimate, held_out_verdict
from workbench.report.text.lengths import length_notes
from workbench.report.text.markup import (
    FLAG,
    _md_table,
    code_span,
    flags_as_code,
    md,
    ticks_as_code,
)
from workbench.report.text.meanings import (
    DELTA_LEGEND,
    DELTA_TEXT,
    MOVED_TEXT,
    P_TEXT,
    metric_meaning,
    metric_meanings,
)
from workbench.report.text.movers import CROSS_MODEL_NOTE, judged_first, mover_lines, movers_heading
from workbench.report.text.numbers import (
    LEVEL,
    MORE_DIGITS,
    delta_text,
    difference_interval,
    figure_base,
    figure_digits,
    figure_text,
    interval_text,
    is_count,
    mean_text,
    minus_text,
    p_text,
    pair_texts,
    row_digits,
)
from workbench.report.text.settings import (
    changed_params_toml,
    not_recommended,
    settings_leads,
    settings_lines,
    ship_caveat,
    shipped_figures,
    untested_text,
    verdict_lead,
)
from workbench.report.text.summary import figure_summary, summary_lines
from workbench.report.text.tables import (
    TRAINED_NOTE,
    figure_notes,
    figure_table,
    markdown_metric_table,
    metric_table,
    moved_text,
    params_table,
)


def markdown(comp: Comparison, *, k: int = 10, top: int = 5) -> str:
    """The comparison as a Markdown document."""
    lines = ["# Ranking comparison", "", *(f"{md(s)}  " for s in subject(comp)),
             md(made_by()), ""]
    lead = no_judgments_lead(comp)
    if lead:
        lines += [md(lead), ""]
    for note in comp.notes:
        lines += [f"> **Note:** {ticks_as_code(note, code_span, md)}", ""]
    summary = summary_lines(comp, k)
    if summary:
        lines += ["## In short", "", *(f"- {md(line)}" for line in summary), ""]
    header, rows = params_table(comp)
    lines += ["## Parameters that differ", ""]
    lines += (_md_table(header, rows, numeric_from=len(header)) if rows
              else ["None: the configurations are identical."])
    if comp.rows:
        lines += ["", "## Metrics", ""]
        for i in range(1, len(comp.configs)):
            header, rows = markdown_metric_table(comp, i)
            if len(comp.configs) > 2:
                lines += [f"### {md(comp.configs[i].name)} against {md(comp.configs[0].name)}",
                          ""]
            lines += [*_md_table(header, rows), ""]
        lines += [md(evidence_key(comp))]
        lines += [line for note in length_notes(comp) for line in ("", f"**Note:** {md(note)}.")]
    elif has_judgments(comp):
        lines += ["", "## Metrics", "", "None: no metric was computed."]
    if comp.figures:  # what each returns: an unjudged comparison's only figures
        header, rows = figure_table(comp, real_minus=True)
        lines += ["", "## What each returns", "", *_md_table(header, rows), "",
                  *(f"- {md(line)}" for line in figure_notes(comp))]
    if any(trained_pair(comp, i) for i in range(1, len(comp.configs))):
        lines += ["", md(TRAINED_NOTE)]
    many = many_tests_note(comp)
    if many:
        lines += ["", md(many)]
    cases = case_lines(comp)
    if cases:
        lines += ["", *(f"- {md(line)}" for line in cases)]
    if comp.rows:
        lines += ["", "How to read it:", "",
                  *(f"- {md(line)}" for line in metric_meanings(comp)),
                  f"- {LEVEL:.0%} CI of Δ: the range the mean per-query difference lies in "
                  f"with {LEVEL:.0%} confidence (Student's t over the queries with a value "
                  "on both sides; blank with fewer than two); where it holds 0, the "
                  "difference may be chance"]
    from workbench.report.pairs import pair_note, pair_summary, pair_table, pairs

    found = pairs(comp)
    if found:  # three or more: every pair, not only each against the first
        lines += ["", "## Every pair", "", md(pair_summary(comp, found))]
        if found.found:
            header, rows = pair_table(comp, found, minus=True, star=True)
            lines += ["", *_md_table(header, rows, numeric_from=3), "",
                      md(pair_note(comp) + ". ★: Holm p below 0.05, a difference beyond "
                         "chance among all the pairs.")]
    header, rows = agreement_table(comp, k)
    lines += ["", f"## How alike the rankings are (top {k})", "",
              *_md_table(header, rows, numeric_from=1), "",
              md(AGREEMENT_NOTE.format(k=k, docs=nouns(comp)[0], queries=nouns(comp)[1]))]
    metric = chart_metric(comp)
    if metric:  # which queries won or lost (the HTML's chart), in words
        lines += ["", f"## Per-query differences: {md(metric)}", ""]
        for i in range(1, len(comp.configs)):
            pq = per_query(comp, i, metric, name=code_span)
            said = ("no query changed" if not pq.up and not pq.down
                    else "; ".join([pq.tally, *pq.most]))
            lines.append(f"- {md(comp.configs[i].name)} − {md(comp.configs[0].name)}: "
                         + said)
    for i in range(1, len(comp.configs)):
        lines += ["", f"## Moved most: {md(comp.configs[0].name)} → {md(comp.configs[i].name)} "
                  f"({movers_heading(comp, k, i)})", ""]
        moved = mover_lines(comp, i, k=k, top=top, markdown=True)
        lines += ([f"- {m}" for m in moved] if moved else
                  ["No document moved." if top else "Not asked for."])
    lines += ["", "## Settings to ship", "", *settings_lines(comp)]
    if comp.measure_hint:
        lines += ["", f"{md(MEASURE_TEXT)} "
                  f"{flags_as_code(comp.measure_hint, code_span, md)}."]
    return "\n".join(lines) + "\n"

__all__ = [
    "AGREEMENT_NOTE",
    "BEYOND",
    "CROSS_MODEL_NOTE",
    "DELTA_LEGEND",
    "DELTA_TEXT",
    "FLAG",
    "LEVEL",
    "MANY_TESTS",
    "MEASURE_TEXT",
    "MORE_DIGITS",
    "MOVED_TEXT",
    "P_TEXT",
    "SELECTION_GATES",
    "TRAINED_NOTE",
    "WEAK",
    "PerQuery",
    "_and",
    "agreement_summary",
    "agreement_table",
    "best_line",
    "cap_note",
    "case_change",
    "case_lines",
    "case_results",
    "cases_passed",
    "changed_params_toml",
    "chart_metric",
    "code_span",
    "cut_counts",
    "delta_text",
    "difference_interval",
    "every_list_capped",
    "evidence",
    "evidence_key",
    "figure_base",
    "figure_digits",
    "figure_notes",
    "figure_summary",
    "figure_table",
    "figure_text",
    "flags_as_code",
    "has_judgments",
    "headline_metric",
    "held_out_estimate",
    "held_out_verdict",
    "interval_text",
    "is_count",
    "judged_first",
    "length_notes",
    "lists_cut",
    "made_by",
    "many_tests_note",
    "markdown",
    "markdown_metric_table",
    "md",
    "mean_text",
    "measure_text",
    "metric_meaning",
    "metric_meanings",
    "metric_table",
    "minus_text",
    "models_text",
    "moved_text",
    "mover_lines",
    "movers_heading",
    "no_judgments_lead",
    "not_recommended",
    "nouns",
    "origin",
    "p_text",
    "pair_texts",
    "params_table",
    "per_query",
    "relevant_left_out",
    "row_digits",
    "settings_leads",
    "settings_lines",
    "ship_caveat",
    "shipped_figures",
    "shown_name",
    "singular",
    "sources_line",
    "subject",
    "summary_lines",
    "tests_shown",
    "ticks_as_code",
    "tied_gain",
    "trained_pair",
    "untested_text",
    "verdict_lead",
    "weak_p",
]
