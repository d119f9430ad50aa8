"""A comparison of configurations as ONE self-contained HTML file (`workbench report`): no
script, no network, no other file — inline CSS, inline SVG charts, the system's fonts — so it
can be mailed, attached to a ticket or printed.

Sections (each an element id, linked from the page's header):

- `compared`: dataset, model, workbench version, date, the configurations and their files;
  `parameters`: the parameters that differ, one column per configuration;
- `metrics`: per metric each configuration's mean, Δ against the first, the 95 % t-interval
  of the mean per-query difference (`difference_interval`), the paired randomisation p-value
  and queries improved/worsened;
- `per-query`: the first metric's per-query differences, sorted, as bars;
- `movers`: the documents that entered or left the top k and the biggest jumps, each with its
  explain diff (signals on both sides) and the text it matched, query terms marked;
- `distributions`: each configuration's top-k scores, relevant against judged non-relevant;
- `settings`: each configuration in the target system's own terms (`core.export`), or its
  params TOML for a workbench-only model.

Everything from the data or the user is escaped with `html.escape`.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np

from workbench.core.comparison import (
    Comparison,
    Configuration,
    higher_is_better,
)
from workbench.core.export import export_params, exporter_ids, no_setting_text
from workbench.core.params import value_text as param_value
from workbench.report import svg
from workbench.report.html.cells import _g, _minus, _table
from workbench.report.html.compared import _agreement, _compared, _judged_fact, _returns
from workbench.report.html.metrics import METRIC_TABLE_CONFIGS, _metrics, _pairs
from workbench.report.html.movers import _movers
from workbench.report.html.snippets import code_snippet_html, snippet_html
from workbench.report.html.style import CSS
from workbench.report.pairs import pairs
from workbench.report.text import (
    MEASURE_TEXT,
    changed_params_toml,
    chart_metric,
    delta_text,
    difference_interval,
    flags_as_code,
    has_judgments,
    headline_metric,
    is_count,
    not_recommended,
    nouns,
    per_query,
    settings_leads,
    shipped_figures,
    trained_pair,
    untested_text,
    verdict_lead,
)


def html_report(comp: Comparison, *, k: int = 10, top: int = 5) -> str:
    """The comparison as one self-contained HTML document (see the module docstring)."""
    first = comp.configs[0].name
    metric = chart_metric(comp)
    found = pairs(comp)
    # without judgments there are no metrics to show: no sections that say "None", no links
    # to them; what to give to measure is said last
    measured = bool(comp.rows) or has_judgments(comp)
    hint = (f'<p class="note">{escape(MEASURE_TEXT)} '
            f"{flags_as_code(comp.measure_hint, lambda c: f'<code>{escape(c)}</code>', escape)}."
            "</p>" if comp.measure_hint else "")
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Ranking comparison: {escape(_joined(comp.model_ids))} on "
        f"{escape(comp.dataset.name)}"
        "</title>", f"<style>{CSS}</style>", "</head>", "<body>", "<main>",
        "<header><h1>Ranking comparison</h1>",
        f"<p>{escape(_joined(comp.model_ids))} on {escape(comp.dataset.name)}: "
        f"{escape(', '.join(c.name for c in comp.configs))}; every difference against "
        f"{escape(first)}" + ("; every pair against each other under Every pair"
                              if found.found else "") + "</p>",
        _nav(measured, bool(comp.figures), bool(found)), _compared(comp, k),
        _metrics(comp) if measured else "", _pairs(comp, found), _returns(comp),
        _agreement(comp, k), _per_query(comp, metric) if measured else "",
        _movers(comp, k, top), _distributions(comp, k), _settings(comp),
        hint, "</main>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _joined(items: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _nav(measured: bool, returns: bool = False, every_pair: bool = False) -> str:
    """The links to the report's sections; those of the metrics only where there are some."""
    links = [("compared", "compared"), ("parameters", "parameters"),
             *([("metrics", "metrics")] if measured else []),
             *([("pairs", "every pair")] if every_pair else []),
             *([("returns", "what each returns")] if returns else []),
             ("agreement", "agreement"),
             *([("per-query", "per query")] if measured else []), ("movers", "movers"),
             ("distributions", "scores"), ("settings", "settings to ship")]
    return ("<nav>" + "".join(f'<a href="#{a}">{t}</a>' for a, t in links)
            + "</nav></header>")


def _per_query(comp: Comparison, metric: str) -> str:
    out = ['<section id="per-query"><h2>Per-query differences</h2>']
    if not metric:
        said = ("No metric was computed." if has_judgments(comp)
                else "None: no judgments, so no metric per query.")
        return f"{out[0]}<p>{said}</p></section>"
    ds = comp.dataset
    for i in range(1, len(comp.configs)):
        pq = per_query(comp, i, metric, mark=lambda kind, text: f'<span class="{kind}">'
                       f"{text}</span>", name=escape)
        d, order, values, up, down = pq.deltas, pq.order, pq.values, pq.up, pq.down
        count = is_count(metric)  # a bundle's files or tokens: a cost, no gain or loss
        titles = [f"{ds.queries[int(q)].id}: {ds.queries[int(q)].text} "
                  f"(Δ {_minus(delta_text(float(d[q]), count))})" for q in order]
        head = (f"<h3>{escape(comp.configs[i].name)} − {escape(comp.configs[0].name)}: "
                f"{escape(metric)}"
                + (" (training scores: fitted to these queries)" if trained_pair(comp, i)
                   else "") + "</h3>")
        headline = headline_metric(comp)
        if headline and headline != metric:  # the summary speaks of another metric
            head += (f'<p class="note">{escape(headline)}, the metric the summary speaks of, '
                     f"changed on no query; this chart shows {escape(metric)}.</p>")
        if not up and not down:  # a chart of nothing: said in words
            out.append(f"{head}<p>No query changed on {escape(metric)}: all {len(values)} "
                       "score the same under both.</p>")
            continue
        # training scores: neither coloured nor counted as gains, as the metric table
        # withholds its ▲/▼ (green "▲ 11 improved" sat under the table's "no evidence")
        fitted = trained_pair(comp, i)
        better = 0 if count or fitted else 1 if higher_is_better(metric) else -1
        chart = svg.bar_chart(values.tolist(), titles, y_label=f"Δ {metric}",
                              x_label=f"{len(values)} {nouns(comp)[1]}, sorted by Δ",
                              better=better)
        # the extremes in words too: a printed page has no tooltips
        tally, most = pq.tally, pq.most
        out.append(f"{head}<figure>{chart}<figcaption>{tally}; "
                   + "; ".join(t for t in most if t)
                   + "; hover a bar for its query.</figcaption></figure>")
    out.append("</section>")
    return "".join(out)


def _grades(comp: Comparison, docs: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """int64 like `docs` (R, k), row r the ranking of query `rows[r]`: each ranked document's
    grade, -1 when unjudged or padding."""
    qrels = comp.dataset.qrels or {}
    ids, queries = comp.dataset.corpus.documents, comp.dataset.queries
    out = np.full(docs.shape, -1, np.int64)
    for q in range(docs.shape[0]):
        judged = qrels.get(queries[int(rows[q])].id)
        if not judged:
            continue
        for j, d in enumerate(docs[q].tolist()):
            if d >= 0:
                out[q, j] = judged.get(ids[d].id, -1)
    return out


def _distributions(comp: Comparison, k: int) -> str:
    out = [f'<section id="distributions"><h2>Scores of the top {k}</h2><div class="charts">']
    counted = comp.counted  # the queries the metrics count, not those set aside
    # one meaning of the second series for every chart, from the judgments themselves: it
    # was chosen per configuration from its own top k, so neighbours plotted different things
    # in one colour, and one said no document was judged not relevant where some were
    qrels = comp.dataset.qrels or {}
    judged_non = any(g == 0 for q, c in zip(comp.dataset.queries, counted, strict=True) if c
                     for g in qrels.get(q.id, {}).values())
    judged_rel = any(g > 0 for q, c in zip(comp.dataset.queries, counted, strict=True) if c
                     for g in qrels.get(q.id, {}).values())
    for config, res in zip(comp.configs, comp.results, strict=True):
        docs = res.ranking.docs[counted, :k]
        scores = res.ranking.scores[counted, :k]
        real = (docs >= 0) & np.isfinite(scores)
        grades = _grades(comp, docs, np.flatnonzero(counted))
        rel, non, unjudged = real & (grades > 0), real & (grades == 0), real & (grades < 0)
        if judged_non:
            series = [("relevant", "rel", scores[rel]), ("judged not relevant", "nonrel",
                                                         scores[non])]
            legend = (f'<span class="key rel"></span>relevant ({int(rel.sum())})'
                      f'<span class="key nonrel"></span>judged not relevant ({int(non.sum())})'
                      f"; {int(unjudged.sum())} unjudged left out")
        elif judged_rel:  # judgments that list only relevant documents, as many BEIR sets
            series = [("relevant", "rel", scores[rel]), ("unjudged", "nonrel", scores[unjudged])]
            legend = (f'<span class="key rel"></span>relevant ({int(rel.sum())})'
                      f'<span class="key nonrel"></span>unjudged ({int(unjudged.sum())}; '
                      "the judgments list no document as not relevant)")
        else:
            series = [("all", "all", scores[real])]
            legend = f'<span class="key all"></span>every top-{k} score ({int(real.sum())})'
        chart = svg.histogram(series, x_label="score")
        out.append(f"<figure><h3>{escape(config.name)}</h3>{chart}<figcaption>{legend}"
                   "</figcaption></figure>")
    out.append('</div><p class="note">Each series as its share of its own documents per '
               "score bin; hover a bar for its count. Each configuration on its own score "
               "axis: what to read is how well it separates relevant from other documents, "
               "not its scores against another's (a weight or a normalisation rescales "
               "them).</p></section>")
    return "".join(out)



def _settings(comp: Comparison) -> str:
    out = ['<section id="settings"><h2>Settings to ship</h2>']
    said: set[str] = set()
    for i, config in enumerate(comp.configs):
        model = comp.model_of(i).id
        if model not in said:  # what a model's settings are, said once, before its first
            said.add(model)
            for caveat, text in settings_leads(model, lambda c: f"<code>{escape(c)}</code>",
                                               escape):
                if text not in said:  # CodeLedger's caveat once for it and its preset
                    said.add(text)
                    out.append(('<p class="caveat">' if caveat else "<p>") + text + "</p>")
        warning = not_recommended(comp, i)  # dr5 3: under its heading, the part copied from
        headed = verdict_lead(comp, i)  # whose run, where the verdict is carried (dr8 4)
        out.append(f"<h3>{escape(config.name)}</h3>"
                   + (f'<p class="caveat"><b>{escape(headed[:1].upper() + headed[1:])}:</b> '
                      f"{escape(warning)}.</p>" if warning else "")
                   + _ship(model, config, comp, i))
    out.append("</section>")
    return "".join(out)


def _ship(model: str, config: Configuration, comp: Comparison, i: int) -> str:
    if model not in exporter_ids():
        toml = changed_params_toml(comp, i)
        return f"<pre>{escape(toml)}</pre>"
    export = export_params(model, config.params)
    figures = shipped_figures(comp, i)
    shipped = ""
    if figures is not None:
        sentence, header, rows, cases = figures
        lead, _, rest = sentence.partition(": ")
        shipped = (f'<p class="caveat"><b>{escape(lead)}:</b> {escape(rest)}</p>'
                   + _table(header, rows) + (f"<p>{escape(cases)}</p>" if cases else ""))
    if export.changed:
        changed = _table(["constant", "label", "original", "here", "setting"],
                         [[c.name, c.label, param_value(c.original), param_value(c.value),
                           c.setting or no_setting_text(model, c.name)]
                          for c in export.changed],
                         numeric_from=2)
    else:
        changed = f"<p>Every constant at {escape(export.target)}'s default.</p>"
    where = (export.fragment or export.config_path or export.settings_name
             or f"{export.model}'s settings")
    env = export.env_text()

    if export.outside and figures is None:  # no run to show (CodeLedger): said alone
        changed = (f'<p class="caveat"><b>Cannot be shipped as is:</b> its figures depend on '
                   f"{'a value' if len(export.outside) == 1 else 'values'} "
                   f"{escape(export.target)} cannot take — "
                   + "; ".join(f"{escape(c.label)} ({escape(c.name)}) measured at "
                               f"{escape(param_value(c.value))}, where "
                               f"{escape(export.target)} has "
                               f"{escape(param_value(c.original))}" for c in export.outside)
                   + ". The settings below leave "
                   f"{'it' if len(export.outside) == 1 else 'them'} out, and may score "
                   "differently.</p>" + changed)
    untested = untested_text(comp, i, to_ship=True)
    if untested:  # a value these queries never exercised is no tested result to ship
        shipped = f'<p class="caveat"><b>Not tested:</b> {escape(untested)}</p>' + shipped
    return (f"<p>In {escape(export.target)}'s terms.</p>{shipped}{changed}"
            + (f"<h4>Environment</h4><pre>{escape(env)}</pre>" if env else "")
            + (f"<h4>{escape(where)}</h4><pre>{escape(export.settings_json())}</pre>"
               if export.settings else "")
            + (f"<p>Where they go: {escape(export.where)}.</p>" if export.where else ""))

__all__ = [
    "CSS",
    "METRIC_TABLE_CONFIGS",
    "_g",
    "_judged_fact",
    "chart_metric",
    "code_snippet_html",
    "difference_interval",
    "html_report",
    "snippet_html",
]
