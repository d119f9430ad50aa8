"""The charts: each query's difference as a bar, and each configuration's top-k scores,
relevant against the rest."""

from __future__ import annotations

from html import escape

import numpy as np

from workbench.core.comparison import Comparison, higher_is_better
from workbench.report import svg
from workbench.report.html.cells import _minus
from workbench.report.text import (
    delta_text,
    has_judgments,
    headline_metric,
    is_count,
    nouns,
    per_query,
    trained_pair,
)


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
