"""Settings to ship: each configuration in its target system's own terms, or its
params TOML for a workbench-only model."""

from __future__ import annotations

from html import escape

from workbench.core.comparison import Comparison, Configuration
from workbench.core.export import export_params, exporter_ids
from workbench.core.params import value_text as param_value
from workbench.report.html.cells import _table
from workbench.report.text import (
    changed_params_toml,
    export_named,
    not_recommended,
    setting_cell,
    settings_leads,
    shipped_figures,
    untested_text,
    verdict_lead,
)
from workbench.report.text.settings import change_values, nothing_to_pass


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
                         [[c.name, c.label, *change_values(comp, i, c),
                           setting_cell(model, c)] for c in export.changed],
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
            + (f"<h4>{escape(where + nothing_to_pass(export))}</h4>"
               f"<pre>{escape(export.settings_json())}</pre>"
               if export.settings else "")
            + (f"<p>Where they go: {escape(export_named(model, export.where))}.</p>"
               if export.where else ""))
