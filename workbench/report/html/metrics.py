"""The metric tables, against the first configuration and between every pair, with
the notes that say how to read them."""

from __future__ import annotations

from html import escape

import numpy as np

from workbench.core.comparison import Comparison, MetricRow
from workbench.core.metrics.significance import EXACT_MAX_NONZERO
from workbench.report.html.cells import _minus, _sign_class
from workbench.report.pairs import Pairs, pair_note, pair_summary, pair_table
from workbench.report.text import (
    BEYOND,
    LEVEL,
    TRAINED_NOTE,
    WEAK,
    case_lines,
    ceiling,
    delta_text,
    difference_interval,
    evidence,
    interval_text,
    is_count,
    length_notes,
    many_tests_note,
    mean_text,
    metric_meanings,
    moved_text,
    p_text,
    row_digits,
    shown_name,
    tests_shown,
    trained_pair,
)

# compared configurations a metric table holds (five columns each) before it is split
METRIC_TABLE_CONFIGS = 2


def _moved(row: MetricRow, i: int) -> str:
    if is_count(row.metric) or np.isnan(row.deltas[i]):
        return moved_text(row, i, " ")
    return f"▲{row.improved[i]} ▼{row.worsened[i]}"


def _interval_text(ci: tuple[float, float] | None, count: bool = False,
                   digits: int | None = None) -> str:
    return _minus(interval_text(ci, count, between="[{}, {}]", digits=digits))


def _metrics(comp: Comparison) -> str:
    if not comp.rows:
        return ('<section id="metrics"><h2>Metrics</h2><p>None: no judgments, so whether a '
                "configuration ranks better is not measured. How alike "
                "the rankings are, below, needs none.</p></section>")
    # five columns a compared configuration: three of them (16 in all) no longer fit the
    # page's 1,020 px, and the browser then squeezed the metric names to a letter a line and
    # hid the last one behind a scrollbar; past two, the table is split, each part
    # repeating the metric and the first configuration's mean
    compared = list(range(1, len(comp.configs)))
    parts = [compared[k:k + METRIC_TABLE_CONFIGS]
             for k in range(0, len(compared), METRIC_TABLE_CONFIGS)]
    tables = "".join(_metric_table(comp, part, "metric-table" if n == 0
                                   else f"metric-table-{n + 1}")
                     for n, part in enumerate(parts))
    notes = (f'<p class="note">¹ {LEVEL:.0%} confidence interval of the mean per-query '
             "difference (this configuration − the first), from the p column's test: the "
             "shifts δ at which the randomisation test of the differences minus δ gives p ≥ "
             "0.05 (the same seeded sign flips), over the queries with a value on both "
             "sides (blank with fewer than six: no shift could be left out). It leaves out 0 "
             "where p is below 0.05, up to the resampling's noise near 0.05. "
             "² Two-sided paired randomisation test (sign flips of the per-query "
             f"differences: every pattern counted where at most {EXACT_MAX_NONZERO} queries "
             "differ, else 10,000 random ones) against "
             f"{escape(comp.configs[0].name)}. ▲/▼: queries "
             "improved / worsened. A Δ is coloured (green better, red worse) only where the "
             "difference is beyond chance by the rule under the table"
             + ("" if not any(evidence(comp, r, i) == WEAK for r in comp.rows
                              for i in range(1, len(comp.configs))) else
                " (☆: p below 0.05 alone, but a side look, and no side look in this table "
                "can be beyond chance: the note under the table says why)" if ceiling(comp) else
                " (☆: p below 0.05 alone, but not after Holm's adjustment: weak evidence)"
                if any(evidence(comp, r, i) == WEAK for r in comp.rows
                       for i in range(1, len(comp.configs))) else "")
             + "; a bundle's files and tokens, a cost, and judged@, coverage, never.</p>")
    many = many_tests_note(comp)
    if many:
        notes += f'<p class="caveat">{escape(many)}</p>'
    if any(trained_pair(comp, i) for i in range(1, len(comp.configs))):
        notes = f'<p class="note">{escape(TRAINED_NOTE)}.</p>' + notes
    cases = "".join(f'<p class="cases">{escape(line)}</p>' for line in case_lines(comp))
    key = ('<details class="key-box"><summary>How to read it</summary><ul>'
           + "".join(f"<li>{escape(line)}</li>" for line in metric_meanings(comp))
           + "</ul></details>")
    cases += key
    # beside the figures it qualifies: a list cut at 5 read as a better ranking at @10
    tables += "".join(f'<p class="caveat">{escape(note)}.</p>' for note in length_notes(comp))
    return (f'<section id="metrics"><h2>Metrics</h2>{tables}{cases}{notes}</section>')


def _pairs(comp: Comparison, found: Pairs) -> str:
    """Every pair set against each other (three or more configurations: the metric table
    sets each against the first only), B − A coloured where the pair differs beyond chance;
    "" with fewer."""
    if not found:
        return ""
    summary = f"<p>{escape(pair_summary(comp, found))}</p>"
    if not found.found:  # too many configurations: said, no table
        return f'<section id="pairs"><h2>Every pair</h2>{summary}</section>'
    header, rows = pair_table(comp, found, minus=True)
    num = ' class="num"'
    head = "".join(f"<th{num if j >= 3 else ''}>{escape(h)}</th>"
                   for j, h in enumerate(header))
    body = []
    for f, row in zip(found.found, rows, strict=True):
        tone = _sign_class(f.delta, f.metric) if f.beyond_chance else ""
        cells = [f"<td>{escape(c)}</td>" for c in row[:3]]
        cells += [f'<td class="num{" " + tone if j == 5 and tone else ""}">{escape(c)}</td>'
                  for j, c in enumerate(row) if j >= 3]
        body.append(f"<tr>{''.join(cells)}</tr>")
    return ('<section id="pairs"><h2>Every pair</h2>' + summary
            + f'<div class="wide"><table id="pair-table"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>'
            f'<p class="note">{escape(pair_note(comp, found))}. B − A is coloured only where the '
            "pair differs beyond chance.</p></section>")


def _metric_table(comp: Comparison, compared: list[int], table_id: str) -> str:
    """The metric table of the first configuration against those at `compared`."""
    top = (f'<tr><th rowspan="2">metric</th><th class="group">'
           f"{escape(shown_name(comp, comp.configs[0].name))}</th>"
           + "".join(f'<th class="group" colspan="5">'
                     f"{escape(shown_name(comp, comp.configs[i].name))}</th>"
                     for i in compared) + "</tr>")
    # training scores are no evidence either way: their differences are not coloured
    training = comp.configs[0].name in comp.training
    sub = ('<tr><th class="num">mean</th>' + ''.join(
        '<th class="num">mean</th><th class="num">Δ</th><th class="num">95% CI of Δ¹</th>'
        '<th class="num">p²</th><th class="num">▲/▼</th>' for _ in compared) + "</tr>")
    body = []
    for r in comp.rows:
        count = is_count(r.metric)
        # one number of decimals a row, at which each Δ is the difference of the means shown
        digits, deltas = row_digits(r.means, r.deltas, count=count)
        cells = [f'<th class="metric">{escape(r.metric)}</th>',
                 f'<td class="num">{mean_text(r.means[0], count, digits)}</td>']
        for i in compared:
            ci = difference_interval(comp.per_query_delta(r.metric, i))
            # judged@k is coverage, not quality: neither gain nor loss
            # nor is a bundle's size: fewer files is no gain where recall fell with it
            # and a difference within chance is no win or loss to a reader's eye either
            # by the rule the Markdown stars with and In short words (`evidence`): a p
            # below 0.05 that is weak among many shown is marked ☆, not coloured
            mark = "" if training else evidence(comp, r, i)
            tone = _sign_class(r.deltas[i], r.metric) if mark == BEYOND else ""
            weak = (' <span class="weak" title="p below 0.05 alone, but exploratory and not '
                    "below 0.05 after Holm's adjustment over the "
                    f'{tests_shown(comp)} p-values shown">☆</span>' if mark == WEAK else "")
            fitted = trained_pair(comp, i)  # no test against training scores: "—"
            cells += [f'<td class="num">{mean_text(r.means[i], count, digits)}</td>',
                      f'<td class="num {tone}">'
                      f'{_minus(delta_text(deltas[i], count, digits))}{weak}</td>',
                      f'<td class="num">'
                      f'{"—" if fitted else _interval_text(ci, count, digits)}</td>',
                      f'<td class="num">{"—" if fitted else escape(p_text(r.p_values[i]))}'
                      "</td>",
                      f'<td class="num">'
                      f'{"—" if fitted else _moved(r, i)}</td>']
        body.append(f'<tr data-metric="{escape(r.metric)}">{"".join(cells)}</tr>')
    return (f'<div class="wide"><table id="{table_id}" class="metrics-table"><thead>{top}{sub}'
            f'</thead><tbody>{"".join(body)}</tbody></table></div>')
