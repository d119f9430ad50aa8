"""The tables of a comparison as rows of text: parameters that differ, metrics
against the first configuration, and what each selection returns."""

from __future__ import annotations

import math

from workbench.core.comparison import Comparison, MetricRow
from workbench.core.comparison.values import shown_value, text_params
from workbench.report.text.chance import BEYOND, evidence
from workbench.report.text.compared import nouns, shown_name, singular, trained_pair
from workbench.report.text.numbers import (
    LEVEL,
    _digits,
    delta_text,
    difference_interval,
    figure_digits,
    figure_text,
    interval_text,
    is_count,
    mean_text,
    minus_text,
    p_text,
    row_digits,
)


def params_table(comp: Comparison) -> tuple[list[str], list[list[str]]]:
    """The parameters whose values differ, one column per configuration; where models are
    compared, each configuration's model first, then the values any sets away from its own
    model's defaults ("—": its model has no such parameter)."""
    header = ["parameter", *(c.name for c in comp.configs)]
    models = ([["model", *(comp.model_of(i).id for i in range(len(comp.configs)))]]
              if comp.mixed else [])
    # a text value (a prompt) quoted, an empty one '', as the reading note and the
    # movers say them: a blank cell read as a value missing (dr5 7), and the bare "none" of
    # an empty prompt as the prompt "none" (rm 1)
    texts = text_params(comp.model_of(j).schema for j in range(len(comp.configs)))
    return header, models + [[name, *("—" if v is None else shown_value(v, name in texts)
                                      for v in values)]
                             for name, values in comp.differing.items()]


def metric_table(comp: Comparison, *, intervals: bool = False, agree: bool = False
                 ) -> tuple[list[str], list[list[str]]]:
    """One row per metric: the first configuration's mean, then for each other its mean, the
    difference, (with `intervals`) the 95% confidence interval of the difference, the p-value
    and queries improved/worsened. `agree` (compare's table): to the decimals at which each
    Δ is the difference of the means shown (`row_digits`), as compare, the reports and the
    window show them; else 4 (a count 1)."""
    header = ["metric", shown_name(comp, comp.configs[0].name)]
    for c in comp.configs[1:]:
        header += [shown_name(comp, c.name), "Δ", *([f"{LEVEL:.0%} CI of Δ"] if intervals
                                                    else []), "p", "▲/▼"]
    rows = []
    for r in comp.rows:
        count = is_count(r.metric)
        # one number of decimals a row, at which each Δ is the difference of the means shown
        digits, deltas = (row_digits(r.means, r.deltas, count=count) if agree
                          else (_digits(count), r.deltas))
        row = [r.metric, mean_text(r.means[0], count, digits)]
        for i in range(1, len(comp.configs)):
            # a test against training scores reads as evidence it is not: "—"
            fitted = trained_pair(comp, i)
            row += [mean_text(r.means[i], count, digits), delta_text(deltas[i], count, digits)]
            if intervals:
                row.append("—" if fitted else interval_text(
                    difference_interval(comp.per_query_delta(r.metric, i)), count,
                    digits=digits))
            row += ["—" if fitted else p_text(r.p_values[i]),
                    "—" if fitted else moved_text(r, i)]
        rows.append(row)
    return header, rows


def markdown_metric_table(comp: Comparison, i: int) -> tuple[list[str], list[list[str]]]:
    """Configuration i against the first, one row per metric, for Markdown: headers that name
    the configuration (one table of 17 columns had repeated "Δ | p" for each, its name only
    above its mean), a real minus, and a difference with p below 0.05 starred (nothing had
    marked which were beyond chance)."""
    name, first = shown_name(comp, comp.configs[i].name), shown_name(comp, comp.configs[0].name)
    header = ["metric", first, name, f"Δ ({name})", f"{LEVEL:.0%} CI of Δ", "p", "▲/▼"]
    fitted = trained_pair(comp, i)  # a test against training scores is no evidence: "—"
    rows = []
    for r in comp.rows:
        count = is_count(r.metric)
        p = r.p_values[i]
        # the decimals of the whole row (every configuration's), so that the first's mean
        # reads the same in each table
        digits, deltas = row_digits(r.means, r.deltas, count=count)
        delta = minus_text(deltas[i], count, digits)
        mark = evidence(comp, r, i)
        if mark:
            delta = f"{delta} {'★' if mark == BEYOND else '☆'}"
        ci = interval_text(difference_interval(comp.per_query_delta(r.metric, i)), count,
                           digits=digits)
        rows.append([r.metric, mean_text(r.means[0], count, digits),
                     mean_text(r.means[i], count, digits),
                     delta, "—" if fitted else ci.replace("-", "−"),
                     "—" if fitted else p_text(p), "—" if fitted else moved_text(r, i)])
    return header, rows


def moved_text(row: MetricRow, i: int, sep: str = "/") -> str:
    """Queries improved / worsened ("14/4"); for a cost (a bundle's files or tokens) queries
    with fewer / more ("↓6/↑0"): fewer is no gain where recall fell with it. "" where one
    side has no such figure (bm25's bundle beside codeledger's)."""
    if math.isnan(row.deltas[i]):
        return ""
    if is_count(row.metric):
        return f"↓{row.improved[i]}{sep}↑{row.worsened[i]}"
    return f"{row.improved[i]}{sep}{row.worsened[i]}"


TRAINED_NOTE = ("—: no p-value, interval or ▲/▼ against training scores — fitted to these "
                "queries, a difference there is no evidence of what new ones would see")


def figure_table(comp: Comparison, *, real_minus: bool = False
                 ) -> tuple[list[str], list[list[str]]]:
    """What each configuration's selection returns (`Comparison.figures`), with each
    difference against the first: Δ, p and the queries with more / fewer. `real_minus`: Δ
    with U+2212, as the report's other tables write it (the command line's tables, ASCII)."""
    header = ["returns", shown_name(comp, comp.configs[0].name)]
    for c in comp.configs[1:]:
        header += [shown_name(comp, c.name), "Δ", "p", "more/fewer"]
    table = []
    for r in comp.figures:
        digits, deltas = figure_digits(r)
        row = [r.figure, figure_text(r.figure, r.means[0], digits=digits)]
        for i in range(1, len(comp.configs)):
            fitted = trained_pair(comp, i)
            row += [figure_text(r.figure, r.means[i], digits=digits),
                    _minus_sign(figure_text(r.figure, deltas[i], signed=True,
                                            digits=digits), real_minus),
                    "—" if fitted else p_text(r.p_values[i]),
                    f"{r.more[i]:,}/{r.fewer[i]:,}"]
        table.append(row)
    return header, table


def _minus_sign(text: str, real: bool) -> str:
    return text.replace("-", "−") if real else text


def turn_notes(comp: Comparison) -> list[str]:
    """What the selection figures leave out (`Comparison.turns`: a manual search beside
    injections, a disabled project's turn), each line said once, as eval says it; where the
    configurations leave out different queries, each line after the ones it is of."""
    found = [(c.name, t[1] if t is not None else None)
             for c, t in zip(comp.configs, comp.turns, strict=False)]
    kinds = list(dict.fromkeys(left for _, left in found if left is not None))
    if len(kinds) == 1 and all(left is not None for _, left in found):
        return list(kinds[0].lines())
    lines: dict[str, list[str]] = {}
    for name, left in found:
        for line in left.lines() if left is not None else ():
            lines.setdefault(line, []).append(name)
    return [f"{', '.join(names)}: {line}" for line, names in lines.items()]


def tokens_of(comp: Comparison) -> str:
    """How injected_tokens is estimated, for each configuration with its values (its snippet
    lengths): one gloss where they agree, else each one's, named (rv 3: of models apart, the
    first model's method alone had been said)."""
    from workbench.core.selection_figures import tokens_gloss, tokens_glosses

    by_model: dict[str, list[int]] = {}
    for i in range(len(comp.configs)):
        by_model.setdefault(comp.model_of(i).id, []).append(i)
    glosses = []
    for ids in by_model.values():
        model = comp.model_of(ids[0])
        values = [model.schema.resolve(comp.configs[i].params) for i in ids]
        own = [tokens_gloss(model, params=v) for v in values]
        if len(set(own)) == 1:
            glosses += [(comp.configs[i].name, g) for i, g in zip(ids, own, strict=True)]
            continue
        # one method, the lengths that differ left unnamed in it; a search's length cuts no
        # injected snippet (a search injects nothing), so only inject_snippet_chars is listed,
        # each length with its configuration's name quoted: a name holds "=" and spaces
        # ("inject_snippet_chars=300 search_snippet_chars=50 300" had read as one run,
        # dC 6, dJ 7)
        differ = {p for p in ("inject_snippet_chars", "search_snippet_chars")
                  if len({str(v.get(p)) for v in values}) > 1}
        method = tokens_gloss(model, params={k: v for k, v in values[0].items()
                                             if k not in differ})
        listed = ("; inject_snippet_chars: " + ", ".join(
            f"{v['inject_snippet_chars']} in {comp.configs[i].name!r}"
            for i, v in zip(ids, values, strict=True))
            if "inject_snippet_chars" in differ else "")
        glosses.append((", ".join(comp.configs[i].name for i in ids), method + listed))
    return tokens_glosses(glosses)


def figure_notes(comp: Comparison) -> list[str]:
    """What figure_table's rows and columns say: neither way better."""
    from workbench.core.metrics import metric_label
    _, queries = nouns(comp)
    one = singular(queries)
    n = int(comp.counted.sum())
    noun = f"judged {queries}" if comp.dataset.qrels else queries
    sizes = {n if m is None else int((comp.counted & m).sum()) for m in comp.turn_masks()}
    if not sizes or sizes == {n}:
        over = f"over the {n:,} {noun}" if comp.dataset.qrels else f"over all {n:,} {noun}"
    elif len(sizes) == 1:  # eval's words (`cli.evaluate.counted.counted_text`)
        over = f"over the {sizes.pop():,} of the {n:,} {noun} counted (see the notes)"
    else:
        over = f"over the {queries} each counts, of the {n:,} {noun} (see the notes)"
    # in the data's noun, as the mean's (dC 5: "tokens injected per query" over "cases")
    label = {"results": f"results per {one}", "empty": f"% of {queries} returning nothing",
             "injected_tokens": f"tokens injected per {one}"}
    lines = [f"{r.figure}: {label.get(r.figure, metric_label(r.figure))}, mean {over}"
             + (f", {tokens_of(comp)}"
                if r.figure == "injected_tokens" else "") for r in comp.figures]
    lines += turn_notes(comp)
    lines.append(f"Δ against {comp.configs[0].name!r}, neither way better: these say how "
                 f"much is returned, not how well. more/fewer: the {queries} on which it "
                 "returns more / less" + (" (empty: newly empty / no longer)" if any(
                     r.figure == "empty" for r in comp.figures) else "") + ". p: paired "
                 f"randomisation test of the per-{one} differences, whether it returns a "
                 f"different amount beyond {one}-to-{one} chance (blank: no {one} differs)")
    return lines
