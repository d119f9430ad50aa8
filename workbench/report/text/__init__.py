"""A comparison of configurations as text (`workbench compare`) and as Markdown (`workbench
report --format md`, for a pull request): what was compared, the parameters that differ, the
metric table with differences, p-values and queries improved/worsened against the first
configuration, and the documents that moved most with their explain diff."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from workbench.core.comparison import (
    Comparison,
    higher_is_better,
)
from workbench.core.params import value_text as param_value
from workbench.report.text.agreement import AGREEMENT_NOTE, agreement_summary, agreement_table
from workbench.report.text.best import _not_among_pairs, best_line
from workbench.report.text.caps import (
    SELECTION_GATES,
    cap_note,
    cut_counts,
    every_list_capped,
    lists_cut,
)
from workbench.report.text.cases import (
    _disagree,
    case_change,
    case_lines,
    case_results,
    cases_passed,
)
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
from workbench.report.text.cuts import _cut_cost, _cut_verdict, _shorter_lists, relevant_left_out
from workbench.report.text.headline import (
    PerQuery,
    chart_metric,
    headline_metric,
    per_query,
    tied_gain,
)
from workbench.report.text.held_out import _has_held_out, held_out_estimate, held_out_verdict
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


def changed_params_toml(comp: Comparison, i: int) -> str:
    """Configuration i of a workbench-only model as a params file of the values that differ
    from the model's defaults alone (the file still loads: the rest are the defaults) — the
    whole set, 58 lines for importance, had to be compared by eye."""
    from workbench.core.params import params_toml

    config = comp.configs[i]
    model = comp.model_of(i)
    defaults = model.schema.resolve({})
    changed = {n: v for n, v in config.params.items() if defaults.get(n) != v}
    note = ("every value at the model's default" if not changed
            else "only the values that differ from the model's defaults")
    head = model.id if config.name == model.id else f"{model.id}: {config.name}"
    warning = not_recommended(comp, i)  # first, as GUI export and tune --out write it
    said = verdict_lead(comp, i).replace("not recommended", "NOT RECOMMENDED", 1)
    return params_toml(changed, [*([f"{said} — {warning}"] if warning else []), head, note])


def not_recommended(comp: Comparison, i: int) -> str:
    """The advice against configuration i of the run that tuned it (its `[tuned]` verdict:
    "keep the starting values; …"), "" where it gave none: said under its heading in
    Settings to ship, the section a reader copies from (dr5 3: only a note at the top had
    said it)."""
    record = comp.tuned.get(comp.configs[i].name)
    return str(getattr(record, "verdict", "") or "")


def verdict_lead(comp: Comparison, i: int) -> str:
    """How configuration i's verdict is headed (`TunedOn.lead`): a carried one names whose
    run gave it (dr8 4)."""
    record = comp.tuned.get(comp.configs[i].name)
    return record.lead() if record is not None else "not recommended by the run that tuned it"


def settings_lines(comp: Comparison) -> list[str]:
    """Each configuration in its target system's terms (the HTML report's "Settings to
    ship"), as Markdown; a params TOML file for a workbench-only model."""
    from workbench.core.export import export_params, exporter_ids, no_setting_text

    out: list[str] = []
    said: set[str] = set()
    for config in comp.configs:
        model = comp.model_of(comp.configs.index(config)).id
        if model not in said:  # what a model's settings are, said once, before its first
            said.add(model)
            for caveat, text in settings_leads(model, code_span, str):
                if text not in said:  # CodeLedger's caveat once for it and its preset
                    said.add(text)
                    out += [("> " if caveat else "") + text, ""]
        out += [f"### {md(config.name)}", ""]
        warning = not_recommended(comp, comp.configs.index(config))
        if warning:
            headed = verdict_lead(comp, comp.configs.index(config))
            out += [f"> **{md(headed[:1].upper() + headed[1:])}:** {md(warning)}.", ""]
        if model not in exporter_ids():
            out += ["```toml", changed_params_toml(comp, comp.configs.index(config)).rstrip(),
                    "```", ""]
            continue
        export = export_params(model, config.params)
        figures = shipped_figures(comp, comp.configs.index(config))
        if export.outside and figures is None:  # no run to show (CodeLedger): said alone
            out += ["> **Cannot be shipped as is:** " + md(
                f"its figures depend on values {export.target} cannot take — "
                # "measured at … where it has …": early_stop "true → false" read as a
                # change someone made, where no one had (obsidian-mcp's own early stop)
                + "; ".join(f"{c.label} ({c.name}) measured at {param_value(c.value)}, where "
                            f"{export.target} has {param_value(c.original)}"
                            for c in export.outside)
                + ". The settings below leave them out, and may score differently."), ""]
        out += [f"In {export.target}'s terms.", ""]
        untested = untested_text(comp, comp.configs.index(config), to_ship=True)
        if untested:
            out += [f"> **Not tested:** {md(untested)}", ""]
        if figures is not None:
            sentence, header, rows, cases = figures
            lead, _, rest = sentence.partition(": ")
            out += [f"> **{md(lead)}:** {md(rest)}", "", *_md_table(header, rows), ""]
            out += [md(cases), ""] if cases else []
        if export.changed:
            out += _md_table(["constant", "label", "original", "here", "setting"],
                             [[c.name, c.label, param_value(c.original), param_value(c.value),
                               c.setting or no_setting_text(model, c.name)]
                              for c in export.changed],
                             numeric_from=5)
            out.append("")
        else:
            out += [f"Every constant at {export.target}'s default.", ""]
        env = export.env_text()
        if env:
            out += ["Environment:", "", "```sh", env.rstrip(), "```", ""]
        if export.settings:
            where = (md(export.fragment) if export.fragment
                     else f"`{export.config_path}`" if export.config_path
                     else md(export.settings_name or f"{export.model}'s settings"))
            out += [f"{where}:", "", "```json", export.settings_json().rstrip(), "```", ""]
        if export.where:
            out += [f"Where they go: {md(export.where)}.", ""]
    return out


def settings_leads(model: str, code: Callable[[str], str],
                   prose: Callable[[str], str]) -> list[tuple[bool, str]]:
    """What "Settings to ship" says first of `model`'s settings, as paragraphs, each with
    whether it is a caveat: a workbench-only model ships none; CodeLedger's settings are not
    its ranker. `code` marks a flag up, `prose` the words around it (Markdown or HTML)."""
    from workbench.core.export import exporter_ids

    out = []
    if model not in exporter_ids():
        out.append((False, prose(
            f"{model} is a workbench-only model: there is no target system to export its "
            "settings to; each configuration's values that differ from the model's defaults "
            "are below as a params TOML file, for ") + code("--params FILE.toml")
            + prose(" (or ") + code("-c FILE.toml") + prose(" in ") + code("compare")
            + prose(" and ") + code("report") + prose(").")))
    if model.startswith("codeledger"):  # the preset too: the same model on the document
        out.append((True, prose(
            "These figures are the workbench's codeledger model, its own model on "
            "CodeLedger's documented signals. CodeLedger reads only the settings in each "
            "config.json below, and its ranker is closed: a row with no setting cannot be "
            "shipped to it, and CodeLedger will not score as here.")))
    return out


def untested_text(comp: Comparison, i: int, *, to_ship: bool = False) -> str:
    """A sentence naming the changes of configuration i that no score here can move with
    ("" for none): a comparison of eval cases that each set their own top K says nothing of
    inject_limit, though "no metric moved" read as if it had been tried and found harmless.
    `to_ship`: only the values it sets away from its own model's defaults (what its
    settings carry: a preset's own default is nothing to hold back)."""
    untested = comp.untested(i)
    if to_ship:
        defaults = comp.model_of(i).schema.defaults()
        untested = {n: why for n, why in untested.items()
                    if comp.configs[i].params.get(n) != defaults.get(n)}
    if not untested:
        return ""
    _, queries = nouns(comp)
    one = len(untested) == 1
    whys = (next(iter(untested.values())) if one
            else "; ".join(f"{n}: {why}" for n, why in untested.items()))
    return (f"{_and(list(untested))} "
            f"{'has' if one else 'have'} no effect on these {queries} ({whys}), so this "
            f"comparison says nothing about {'it' if one else 'them'}.")


def figure_summary(comp: Comparison, i: int) -> str:
    """In short's sentence of what configuration i returns against the first (" Per query:
    results 0.95 → 0.71 (p 0.062), empty 33.3% → 42.9%, injected tokens 33.8 → 24.5."),
    "" without figures (review rv3, F7: the token cost a min score trades was left out)."""
    said = []
    for r in comp.figures:
        if r.deltas[i] == 0 and not r.more[i] and not r.fewer[i]:
            continue
        unit = "%" if r.figure == "empty" else ""
        p = r.p_values[i]
        digits, _ = figure_digits(r)  # as the table shows them
        said.append(f"{r.figure.replace('_', ' ')} "
                    f"{figure_text(r.figure, r.means[0], digits=digits)}{unit} "
                    f"→ {figure_text(r.figure, r.means[i], digits=digits)}{unit}"
                    + (f" (p {p_text(p)})" if p is not None and not trained_pair(comp, i)
                       else ""))
    if not said:
        return " It returns the same: " + ", ".join(
            f"{r.figure.replace('_', ' ')} {figure_text(r.figure, r.means[0])}"
            for r in comp.figures) + "." if comp.figures else ""
    _, queries = nouns(comp)
    return f" What it returns, mean a {singular(queries)}: {'; '.join(said)}."


def summary_lines(comp: Comparison, k: int = 10) -> list[str]:
    """The comparison in a few sentences, for a reader who will not read the tables: per
    configuration, its headline metric against the first (held out, or training scores),
    whether the difference is more than chance, and whether its settings ship as they are."""
    from workbench.core.export import export_params, exporter_ids
    from workbench.core.shipped import NOT_SCORED, as_shipped

    metric = headline_metric(comp)
    row = next((r for r in comp.rows if r.metric == metric), None)
    pairs = {i: headline_metric(comp, i) for i in range(1, len(comp.configs))}
    if not any(pairs.values()) and not has_judgments(comp):  # no metric: how alike they rank
        return [agreement_summary(comp, i, k) + figure_summary(comp, i)
                for i in range(1, len(comp.configs))]
    if not any(pairs.values()):
        return []
    overall = metric, row
    passed = cases_passed(comp)
    first = comp.configs[0].name
    _, queries = nouns(comp)
    n = int(comp.counted.sum())
    one = singular(queries)
    counted = f"{n:,} {queries}" if n != 1 else f"1 {one}"
    out = []
    for i in range(1, len(comp.configs)):
        name = comp.configs[i].name
        # each pair on the headline both have (codeledger and its preset: their bundles)
        metric = pairs[i]
        pair_row = next((r for r in comp.rows if r.metric == metric), None)
        if pair_row is None:  # no figure both have: how alike they rank
            out.append(agreement_summary(comp, i, k) + figure_summary(comp, i))
            continue
        row = pair_row
        a, b, delta = pair_texts(row.means[0], row.means[i], row.deltas[i])
        move = f"{metric} {a} → {b} ({delta})"
        same_values = comp.same_model(i) and (
            dict(comp.model_of(i).schema.resolve(comp.configs[i].params))
            == dict(comp.model_of(0).schema.resolve(comp.configs[0].params)))
        if trained_pair(comp, i) and same_values:
            # tune kept the starting values: one configuration, not a slightly worse one
            estimate = held_out_estimate(comp, name if name in comp.training else first,
                                         metric)
            verdict = held_out_verdict(comp, name if name in comp.training else first,
                                       metric)
            said = (f"{name} against {first}: the same settings, so the same rankings: tune "
                    f"found nothing surer than its starting values, and "
                    f"{name if name in comp.training else first} is them (tune keeps its "
                    "starting values where no trial's gain over them is sure)"
                    + (f"; {estimate}" if estimate else "")
                    + (f": {verdict}." if estimate and verdict else "."))
        elif trained_pair(comp, i) and not comp.same_model(i):
            # tune's held-out figures set a model's tuned values against its own starting
            # values: no verdict between two models ("dense against tea_bm25: no clear
            # difference held out" had been bm25 against bm25)
            tuned = [c for c in (first, name) if c in comp.training]
            said = (f"{name} against {first}: {move} — {_and(tuned)}'s figures are training "
                    f"scores (tuned on these {queries}), so there is no test between the two "
                    f"models here; compare them on {queries} neither was tuned on.")
        elif trained_pair(comp, i):
            who = "it was" if name in comp.training else f"{first} was"
            estimate = held_out_estimate(comp, name if name in comp.training else first,
                                         metric)
            if estimate:  # the honest figure first, with what it means: a reader may
                # stop after it (a bare "p 0.844" beside a training "+0.0371" read as a gain)
                verdict = held_out_verdict(comp, name if name in comp.training else first,
                                           metric)
                said = (f"{name} against {first}: {estimate}"
                        + (f": {verdict}" if verdict else "")
                        + f". On the {queries} {who} tuned on, {move} — training scores, no "
                        f"evidence for new {queries}: the held-out figures are the estimate.")
            else:
                record = comp.tuned.get(name if name in comp.training else first)
                estimate_said = ("tune's held-out figures (the note above) are the estimate"
                                 if record is None or _has_held_out(record) else
                                 "tune held nothing out, so nothing here estimates what new "
                                 f"{queries} would see")
                said = (f"{name} against {first}: {move} on {queries} {who} tuned on — "
                        f"training scores, no evidence for new ones; {estimate_said}.")
        elif not row.improved[i] and not row.worsened[i]:
            changed_here = [n for n, v in comp.differing.items() if v[0] != v[i]]
            same = ("the settings are identical" if comp.same_model(i) and not changed_here
                    else "none of its changes can have an effect here"
                    if comp.same_model(i) and set(changed_here) <= comp.untested(i).keys()
                    else "other metrics moved: see Metrics" if _others_moved(comp, i, metric)
                    else "no metric moved")
            if not comp.same_model(i):  # not "the same settings": another model
                same = f"another model; {same}"
            said = (f"{name} against {first}: {metric} {mean_text(row.means[i])}, the same on "
                    + (f"every one of the {n:,} {queries}" if n != 1 else f"its one {one}")
                    + f" ({same}).")
            said += _also_beyond_chance(comp, i, metric)
        elif not comp.lengths(i).any() or not comp.lengths(0).any():
            # one returns nothing at all: no order to compare, no cut to blame (a model
            # that cannot read the data had read "the loss comes from the cut")
            j = i if not comp.lengths(i).any() else 0
            empty = comp.configs[j].name
            said = (f"{name} against {first}: {move}: {empty} returns nothing on any of the "
                    f"{counted}, so every figure of it is 0 (the notes above say why).")
        elif (cut := _cut_verdict(comp, i, metric)) is not None:
            said = (f"{name} against {first}: {move} over {counted}, {row.improved[i]} "
                    f"better and {row.worsened[i]} worse (p {p_text(row.p_values[i])}), but "
                    f"{cut}.")
        else:
            p = row.p_values[i]
            better = row.deltas[i] > 0 if higher_is_better(metric) else row.deltas[i] < 0
            changed = row.improved[i] + row.worsened[i]
            weak = weak_p(comp, p)
            verdict = (f"{'better' if better else 'worse'}: p below 0.05, but {weak}"
                       if weak else
                       "better, beyond chance" if p is not None and p < 0.05 and better
                       else "worse, beyond chance" if p is not None and p < 0.05
                       # 2^(1 − m): the smallest p a sign-flip test over m changed queries has
                       else f"too few {queries} changed ({changed}) for any test to tell it "
                       "from chance" if changed <= 5
                       else "no clear difference: it may be chance")
            said = (f"{name} against {first}: {move} over {counted}, "
                    f"{row.improved[i]} better and {row.worsened[i]} worse (p {p_text(p)}): "
                    f"{verdict}{_not_among_pairs(comp, i, metric, verdict)}.")
            cost, recall = _cut_cost(comp, i, metric)
            said += cost + _also_beyond_chance(comp, i, metric, recall, weak_said=bool(weak))
            said += _shorter_lists(comp, i)
            said += tied_gain(comp, i, metric)
        said += figure_summary(comp, i)
        untested = comp.untested(i)
        said += f" Not exercised: {untested_text(comp, i)}" if untested else ""
        if passed is not None and trained_pair(comp, i):  # pi-lodestone's own measure
            total = len(passed[0])
            said += (f" Cases passing: {sum(passed[0].values())}/{total} → "
                     f"{sum(passed[i].values())}/{total} (training scores).")
        elif passed is not None:
            # the fixture's own test, which `tune` optimises here by default, first; then
            # the metric, and where the two disagree, why
            lead = f"{name} against {first}: "
            cases = case_change(comp, i)
            if cases and said.startswith(lead):
                said = (lead + cases + ". " + said[len(lead):]
                        + _disagree(comp, i, metric, row))
        model = comp.model_of(i).id
        if model not in exporter_ids():
            ship = " Ships as its params TOML (a workbench-only model)."
        elif model in NOT_SCORED:
            ship = (" CodeLedger takes only its weights from config.json and ranks with its "
                    "own closed model: this is the workbench's model, not CodeLedger's.")
        else:
            shipped = as_shipped(comp, i)
            if shipped is None and untested:
                # a setting these queries never exercised is no result to ship
                ship = (" Every changed value has a setting, but " + _and(list(untested))
                        + f" {'was' if len(untested) == 1 else 'were'} not tested here: ship "
                        + ("it" if len(untested) == 1 else "them")
                        + " only on other evidence.")
            elif shipped is None and not export_params(model, comp.configs[i].params).changed:
                ship = " It is the target system's own defaults: nothing to change to ship it."
            elif shipped is None:
                ship = " Its settings ship as they are: every changed value has a setting."
                values = comp.configs[i].params
                if model == "hybrid" and values.get("embeddings") == "encoder":
                    from workbench.core.export import encoder_caveat

                    ship += " But " + encoder_caveat(str(values["embedding_model"])) + "."
            else:
                s_row = next((r for r in shipped.rows if r[0] == metric), None)
                test = ("training scores" if trained_pair(comp, i)
                        else f"p {p_text(s_row[5])}" if s_row else "")
                # "values it cannot take": a changed constant with no setting, a value the
                # target does not have, or its own behaviour turned off (a limit without
                # obsidian-mcp's early stop, which nobody changed)
                left = len(shipped.left_out)  # not `n`, the queries' count, used again
                # none ships: no value it changed has a setting (whatever the first is)
                nothing = not any(c.setting for c in
                                  export_params(model, comp.configs[i].params).changed)
                ship = (f" None of it ships: {shipped.target} cannot take "
                        + ("the value" if left == 1 else f"any of the {left} values")
                        + f" it changed, so as shipped it runs {shipped.target}'s own "
                        "settings: what it measured needs a change to the source — see "
                        "Settings to ship."
                        if nothing else
                        f" Only part of it ships: {left} of the values it was measured with "
                        f"{shipped.target} cannot take"
                        + (f"; the settings alone score {metric} "
                           f"{_alone_text(s_row)} against {first}, {test})"
                           if s_row else "") + " — see Settings to ship.")
        # nothing to ship where it returns nothing ("its settings ship as they are")
        out.append(said + (ship if comp.lengths(i).any() else ""))
    metric, overall_row = overall
    best = best_line(comp, metric, overall_row) if overall_row is not None else ""
    return out + ([best] if best else [])


def _alone_text(s_row: Sequence[Any]) -> str:
    """"0.7003 (−0.0042": a shipped row's mean and its Δ against the first's, to decimals at
    which the first's mean as Settings to ship shows it agrees (`row_digits`)."""
    _, alone, delta = pair_texts(s_row[1], s_row[3], s_row[4])
    return f"{alone} ({delta}"


def _others_moved(comp: Comparison, i: int, metric: str) -> bool:
    return any(r.improved[i] + r.worsened[i] > 0 for r in comp.rows if r.metric != metric)


def _also_beyond_chance(comp: Comparison, i: int, metric: str, said_too: str = "", *,
                        weak_said: bool = False) -> str:
    """The other metrics whose difference is beyond chance, in a sentence ("" for none): a
    headline with no clear difference hid an r@100 that fell with p 0.006; a bundle's files
    or tokens are said as fewer or more. `said_too`: a metric the sentence before named;
    `weak_said`: the sentence before said why a p under 0.05 is weak evidence here."""
    said: list[str] = []
    weak: list[str] = []  # below 0.05 only, among many tests (`weak_p`)
    for r in comp.rows:
        p = r.p_values[i]
        if r.metric in (metric, said_too) or r.metric.startswith("judged@") or p is None \
                or p >= 0.05:
            continue
        into = weak if weak_p(comp, p) else said
        if is_count(r.metric):  # a bundle's files or tokens: a cost, fewer or more (a
            # token saving beyond chance went unsaid beside an unchanged recall)
            a, b, delta = pair_texts(r.means[0], r.means[i], r.deltas[i], count=True)
            into.append(f"{r.metric} {a} → {b} ({delta}, p {p_text(p)}, "
                        f"{'fewer' if r.deltas[i] < 0 else 'more'})")
            continue
        better = r.deltas[i] > 0 if higher_is_better(r.metric) else r.deltas[i] < 0
        a, b, delta = pair_texts(r.means[0], r.means[i], r.deltas[i])
        into.append(f"{r.metric} {a} → {b} ({delta}, p {p_text(p)}, "
                    f"{'better' if better else 'worse'})")
    out = f" Beyond chance on other metrics: {'; '.join(said)}." if said else ""
    if weak:
        out += (f" Below 0.05 on {'other metrics' if not said else 'others'}, "
                + ("as weak evidence" if weak_said else
                   f"but {weak_p(comp, 0.0, always=True)}") + f": {'; '.join(weak)}.")
    return out


def ship_caveat(comp: Comparison, i: int) -> str:
    """One statement of what configuration i's figures hold that its target cannot take,
    each value with why, and what the shipped settings do instead ("" where nothing): two
    banners had named different values (one the workbench-only ones, the other every value
    left out) and read as disagreeing."""
    from workbench.core.export import export_params, no_setting_text

    model = comp.model_of(i).id
    export = export_params(model, comp.configs[i].params)
    target = export.target
    items = [f"{c.name} {param_value(c.original)} → {param_value(c.value)} has no setting "
             f"({no_setting_text(model, c.name).removeprefix('none: ')})"
             for c in export.changed if c.setting is None]
    items += [f"{c.name}: {c.why}" if c.why else
              f"{c.name} was measured at {param_value(c.value)}, which {target} does not "
              f"have (it has {param_value(c.original)})" for c in export.outside]
    if not items:
        return ""
    one = len(items) == 1
    count = "one value" if one else f"{len(items)} values"
    return (f"Cannot be shipped exactly as measured: {count} it was measured with {target} "
            "cannot take — " + "; ".join(items)
            + f". Shipped as below, {target} keeps its own value"
            + ("" if one else "s") + " there, so it may not score as the figures above: the "
            "table scores these settings alone, on the same queries.")


def shipped_figures(comp: Comparison, i: int) -> tuple[str, list[str], list[list[str]],
                                                       str] | None:
    """What configuration i scores as its exported settings ship it (`core.shipped`): a
    sentence, a table (header, rows) and the cases line ("" without cases); None where the
    export carries every changed value, or the model has no run to show (CodeLedger)."""
    from workbench.core.shipped import as_shipped

    shipped = as_shipped(comp, i)
    if shipped is None:
        return None
    first, name = comp.configs[0].name, comp.configs[i].name
    worse = ""
    if shipped.rows:
        metric, _, _, _, delta, p = shipped.rows[0]
        down = delta < 0 if higher_is_better(metric) else delta > 0
        if down and name in comp.training:  # worse even on the queries it was tuned on
            worse = (f" Alone, they do worse than {first!r} on {metric} ({minus_text(delta)}) "
                     "even on the queries they were tuned on: ship them only with the source "
                     "changes.")
        elif down and trained_pair(comp, i):  # the first's training scores: no test
            worse = (f" Alone, they score lower than {first!r} on {metric} "
                     f"({minus_text(delta)}), whose figures here are training scores.")
        elif down and p is not None and p < 0.05:
            row = next((r for r in comp.rows if r.metric == metric), None)
            also = row is not None and (row.deltas[i] < 0 if higher_is_better(metric)
                                        else row.deltas[i] > 0)
            worse = (f" Alone, they do worse than {first!r} on {metric} ({minus_text(delta)}, "
                     f"p {p_text(p)}): "
                     # with the source changes it did worse too: nothing to ship it with
                     + (f"as compared, with the values it cannot take, it does worse as well "
                        f"({minus_text(row.deltas[i])}): better not shipped at all."
                        if also and row is not None else
                        "ship them only with the source changes."))
    sentence = ship_caveat(comp, i) + worse
    mark = " (training scores)" if name in comp.training else ""
    fitted = trained_pair(comp, i)  # either side fitted to these queries: no test
    header = ["metric", shown_name(comp, first), f"{name} as compared{mark}",
              f"as shipped{mark}", f"Δ vs {first}", "p"]
    rows = []
    for m, a, b, c, d, p in shipped.rows:
        # Δ is of the shipped settings (c) against the first (a): those two agree as shown
        digits, (_, shown) = row_digits([a, c], [0.0, d])
        rows.append([m, mean_text(a, digits=digits), mean_text(b, digits=digits),
                     mean_text(c, digits=digits), minus_text(shown, digits=digits),
                     "—" if fitted else p_text(p)])
    cases = ""
    if shipped.cases is not None:
        a, b, c, n = shipped.cases
        cases = f"cases passing: {first} {a}/{n}, {name} as compared {b}/{n}, as shipped {c}/{n}"
    return sentence, header, rows, cases

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
