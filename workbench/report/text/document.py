"""The whole comparison as one Markdown document (`workbench report --format md`)."""

from __future__ import annotations

from workbench.core.comparison import Comparison
from workbench.report.query_notes import grouped_notes
from workbench.report.text.agreement import AGREEMENT_NOTE, agreement_table
from workbench.report.text.cases import case_lines
from workbench.report.text.chance import evidence_key, many_tests_note
from workbench.report.text.compared import (
    MEASURE_TEXT,
    has_judgments,
    made_by,
    no_judgments_lead,
    nouns,
    subject,
    trained_pair,
)
from workbench.report.text.cost import cost_markdown
from workbench.report.text.headline import chart_metric, per_query
from workbench.report.text.lengths import length_notes
from workbench.report.text.markup import _md_table, code_span, flags_as_code, md, ticks_as_code
from workbench.report.text.meanings import metric_meanings
from workbench.report.text.movers import mover_lines, movers_text, settings_key
from workbench.report.text.numbers import LEVEL
from workbench.report.text.settings import settings_lines
from workbench.report.text.summary import summary_lines
from workbench.report.text.tables import (
    TRAINED_NOTE,
    figure_notes,
    figure_table,
    markdown_metric_table,
    params_table,
)


def markdown(comp: Comparison, *, k: int = 10, top: int = 5) -> str:
    """The comparison as a Markdown document."""
    lines = ["# Ranking comparison", "", *(f"{md(s)}  " for s in subject(comp)),
             md(made_by()), ""]
    lead = no_judgments_lead(comp)
    if lead:
        lines += [md(lead), ""]
    for note in grouped_notes(comp):
        if isinstance(note, list):  # the query file's, one box (dr5 12)
            lines += ["> **Note:** the query file, as read:", ">",
                      *(f"> - {ticks_as_code(n, code_span, md)}" for n in note), ""]
        else:
            lines += [f"> **Note:** {ticks_as_code(note, code_span, md)}", ""]
    summary = summary_lines(comp, k)
    if summary:
        lines += ["## In short", "", *(f"- {md(line)}" for line in summary), ""]
    header, rows = params_table(comp)
    lines += ["## Parameters that differ", ""]
    lines += (_md_table(header, rows, numeric_from=len(header)) if rows
              else ["None: the configurations are identical."])
    cost = cost_markdown(comp)  # with what was compared, where asked for (rb 6)
    if cost:
        lines += ["", *cost]
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
                  f"with {LEVEL:.0%} confidence, from the p column's test: the shifts at "
                  "which the randomisation test of the differences minus the shift gives p ≥ "
                  f"{1 - LEVEL:.2f} (the same seeded sign flips, over the queries with a value "
                  "on both sides; blank with fewer than six: no shift could be left out); "
                  "where it holds 0, the difference may be chance, as p says, up to the "
                  "resampling's noise near 0.05"]
    from workbench.report.pairs import pair_note, pair_summary, pair_table, pairs

    found = pairs(comp)
    if found:  # three or more: every pair, not only each against the first
        lines += ["", "## Every pair", "", md(pair_summary(comp, found))]
        if found.found:
            header, rows = pair_table(comp, found, minus=True, star=True)
            lines += ["", *_md_table(header, rows, numeric_from=3), "",
                      md(pair_note(comp, found) + ". ★: Holm p below 0.05, a difference beyond "
                         "chance by the rule under Metrics.")]
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
        # a short heading, what the list holds under it (rb 11: the whole sentence in the
        # heading had rendered as a three-line H2)
        lines += ["", f"## Moved most: {md(comp.configs[0].name)} → {md(comp.configs[i].name)}",
                  "", md(movers_text(comp, k, i)), ""]
        moved = mover_lines(comp, i, k=k, top=top, markdown=True)
        lines += ([f"- {m}" for m in moved] if moved else
                  ["No document moved." if top else "Not asked for."])
        lines += [line for key in settings_key(moved)
                  for line in ("", md(f"{key[0].upper()}{key[1:]}."))]
    lines += ["", "## Settings to ship", "", *settings_lines(comp)]
    if comp.measure_hint:
        lines += ["", f"{md(MEASURE_TEXT)} "
                  f"{flags_as_code(comp.measure_hint, code_span, md)}."]
    return "\n".join(lines) + "\n"
