"""The sections that say what was compared and what each configuration returns,
and how alike the rankings are."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import escape

import workbench
from workbench.core.comparison import Comparison
from workbench.report.html.cells import _table
from workbench.report.html.cost import _cost
from workbench.report.query_notes import grouped_notes
from workbench.report.text import (
    AGREEMENT_NOTE,
    agreement_table,
    figure_notes,
    figure_table,
    models_text,
    no_judgments_lead,
    nouns,
    origin,
    params_table,
    summary_lines,
    ticks_as_code,
)


def _judged_fact(text: str) -> str:
    """`judged_text` under the heading "judged queries": the count without the word ("25";
    "15 counted, 10 tuned on set aside"), a left-out note after it kept whole."""
    m = re.match(r"([\d,]+) judged( and counted)?", text)
    if m is None:
        return text
    return m.group(1) + (" counted" if m.group(2) else "") + text[m.end():]


def _compared(comp: Comparison, k: int = 10) -> str:
    ds = comp.dataset
    version = getattr(workbench, "__version__", None)
    docs, queries = nouns(comp)
    facts = [("dataset", ds.name + (f" ({origin(ds.source)})" if ds.source else "")),
             (docs, f"{len(ds.corpus):,}"), (queries, f"{len(ds.queries):,}"),
             # under "judged queries": "25", "15 counted, 10 tuned on set aside" (it read
             # "15 and counted, …")
             (f"judged {queries}", _judged_fact(comp.judged_text)),
             # which files: SciFact's train and test splits had read alike (`sources_line`)
             *([(f"{queries} read from", comp.queries_from)] if comp.queries_from else []),
             *([("judgments", comp.judgments)] if comp.judgments else []),
             ("model" if not comp.mixed else "models", models_text(comp))]
    if version:
        facts.append(("workbench", str(version)))
    facts.append(("generated", datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")))
    dl = "".join(f"<dt>{escape(a)}</dt><dd>{escape(b)}</dd>" for a, b in facts)
    configs = _table(["configuration", "read from"],
                     [[c.name, c.source or "—"] for c in comp.configs], numeric_from=2)
    header, rows = params_table(comp)
    params = (_table(header, rows) if rows
              else "<p>None: the configurations are identical.</p>")
    lead = no_judgments_lead(comp)
    def shown(n: str) -> str:
        return ticks_as_code(n, lambda c: f"<code>{escape(c)}</code>", escape)

    # the query file's notes in one box, a list (dr5 12)
    notes = (f"<p>{escape(lead)}</p>" if lead else "") + "".join(
        '<div class="caveat">the query file, as read:<ul>'
        + "".join(f"<li>{shown(x)}</li>" for x in n) + "</ul></div>" if isinstance(n, list)
        else f'<p class="caveat">{shown(n)}</p>' for n in grouped_notes(comp))
    summary = summary_lines(comp, k)
    if summary:
        notes += ('<div class="summary"><h3>In short</h3><ul>'
                  + "".join(f"<li>{escape(line)}</li>" for line in summary) + "</ul></div>")
    return (f'<section id="compared"><h2>What was compared</h2>{notes}<dl>{dl}</dl>'
            f"<h3>Configurations</h3>{configs}"
            f'<h3 id="parameters">Parameters that differ</h3>{params}{_cost(comp)}</section>')



def _returns(comp: Comparison) -> str:
    """What each configuration's selection returns (results, empty, injected tokens), as
    `workbench compare` prints it: an unjudged comparison's only figures (review rv3, F7)."""
    if not comp.figures:
        return ""
    header, rows = figure_table(comp, real_minus=True)
    notes = "".join(f'<p class="note">{escape(line)}</p>' for line in figure_notes(comp))
    return (f'<section id="returns"><h2>What each returns</h2>'
            f'<div class="wide">{_table(header, rows)}</div>{notes}</section>')


def _agreement(comp: Comparison, k: int) -> str:
    header, rows = agreement_table(comp, k)
    note = AGREEMENT_NOTE.format(k=k, docs=nouns(comp)[0], queries=nouns(comp)[1])
    return (f'<section id="agreement"><h2>How alike the rankings are (top {k})</h2>'
            f'{_table(header, rows)}<p class="note">{escape(note)}</p></section>')
