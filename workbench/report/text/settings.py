"""Settings to ship: each configuration in its target system's terms, what cannot
ship as measured, and a params TOML for a workbench-only model."""

from __future__ import annotations

import re
from collections.abc import Callable

from workbench.core.comparison import Comparison, higher_is_better
from workbench.core.export.base import Change, Export
from workbench.core.params import value_text as param_value
from workbench.report.text.chance import side_look
from workbench.report.text.compared import _and, nouns, shown_name, trained_pair
from workbench.report.text.markup import _md_table, code_span, md
from workbench.report.text.numbers import mean_text, minus_text, p_text, row_digits


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
    from workbench.core.export import export_params, exporter_ids

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
                             [[c.name, c.label,
                               *change_values(comp, comp.configs.index(config), c),
                               setting_cell(model, c)] for c in export.changed],
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
            out += [f"{where}{nothing_to_pass(export)}:", "", "```json",
                    export.settings_json().rstrip(), "```", ""]
        if export.where:
            out += [f"Where they go: {md(export_named(model, export.where))}.", ""]
    return out


def nothing_to_pass(export: Export) -> str:
    """" (no arguments to pass)" after the heading of a settings block whose every part is
    empty (vault-search at obsidian-mcp's defaults: {"search_vault": {}} had stood alone,
    unsaid); "" otherwise."""
    blocks = list(export.settings.values())
    empty = bool(blocks) and all(isinstance(b, dict) and not b for b in blocks)
    return " (no arguments to pass)" if empty and export.model == "vault-search" else ""


def change_values(comp: Comparison, i: int, change: Change) -> tuple[str, str]:
    """A changed constant's original and value (configuration i's) as the settings table
    shows them: a text parameter's quoted, an empty one '', as compare and the parameter
    table write it (`shown_value`; dr6 3: the prompt had lost its trailing space here and an
    empty one read as a blank cell)."""
    from workbench.core.comparison.values import shown_value, text_params

    text = change.name in text_params([comp.model_of(i).schema])
    return shown_value(change.original, text), shown_value(change.value, text)


def export_named(model: str, text: str) -> str:
    """An exporter's words with its `--out` named as the export command's flag (rv 10: a
    report, which has no --out of that kind, had said "with --out, search_vault.args.json
    holds …")."""
    command = f"workbench export -m {model} --params FILE.toml --out"
    # "with --out, …" names no folder; "--out that folder" does
    return re.sub(r"(?:\bexport )?(?<![\w-])--out\b(,?)",
                  lambda m: command + (" DIR," if m.group(1) else ""), text)


def setting_cell(model: str, change: Change) -> str:
    """A changed value's setting as Settings to ship lists it: the target's name for it, said
    to be set by hand where the export does not write it (dr3 1: OpenVault's embedding
    prompt had read as shipped with the rest), or why it has none."""
    from workbench.core.export import no_setting_text

    if change.setting is None:
        return no_setting_text(model, change.name)
    return (f"{change.setting} — set by hand (export does not write it)" if change.by_hand
            else change.setting)


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
                     f"{side_look(comp, p, shipped.moved_on(metric))}): "
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
