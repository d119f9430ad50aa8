"""decision-memory's exporter: pi-lodestone's PI_MEMORY_* variables and its memory folder's
settings.json."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from workbench.core.export.base import Export, _changes, _number
from workbench.core.models import get_model
from workbench.core.params import ParamValue

# -- decision-memory: pi-lodestone 418f9a1, extension/config.ts --
PI_TARGET = "pi-lodestone 418f9a1"
# parameter → environment variable, in config.ts's order. The original also cuts stored
# decision text to PI_MEMORY_MAX_TEXT_CHARS, not only prompts: changing it changes both.
PI_ENV = {
    "prompt_max_chars": "PI_MEMORY_MAX_TEXT_CHARS",
    "global_inject": "PI_MEMORY_GLOBAL_AUTO_INJECT",
    "inject_limit": "PI_MEMORY_INJECT_LIMIT",
    "inject_min_score": "PI_MEMORY_INJECT_MIN_SCORE",
    "inject_snippet_chars": "PI_MEMORY_INJECT_SNIPPET_CHARS",
    "query_max_tokens": "PI_MEMORY_INJECT_QUERY_MAX_TOKENS",
    "search_limit": "PI_MEMORY_SEARCH_DEFAULT_LIMIT",
    "search_snippet_chars": "PI_MEMORY_SEARCH_SNIPPET_CHARS",
}
# the memory folder's settings.json (REFERENCE §1: {"disabledProjects": [cwd, ...]})
PI_SETTINGS = {"disabled_projects": "settings.json disabledProjects"}
PI_WORKBENCH_ONLY = frozenset(("mode", "query_form", "now", "replay_as_of_turn"))


def export_decision_memory(params: Mapping[str, ParamValue]) -> Export:
    """The PI_MEMORY_* environment variables; with `disabled_projects` set, also the memory
    folder's settings.json that names them (written into `--out`, merged with one there)."""
    from workbench.core.formats.pi_memory_settings import parse_disabled_list

    schema = get_model("decision-memory").schema
    values = schema.resolve(params)
    env = tuple((var, ("true" if values[name] else "false") if isinstance(values[name], bool)
                 else _number(values[name])) for name, var in PI_ENV.items())
    changed = _changes(schema, values, PI_WORKBENCH_ONLY, {**PI_ENV, **PI_SETTINGS})
    disabled = parse_disabled_list(str(values["disabled_projects"]))
    # recorded as settings.json holds it: a list ("" — no list given — is pi-lodestone's
    # [] without a settings.json), not the parameter's text
    # ([] given is pi-lodestone's own default: no change, though settings.json is written)
    changed = tuple(dataclasses.replace(c, stored=([], list(disabled or ())))
                    if c.name == "disabled_projects" else c for c in changed
                    if not (c.name == "disabled_projects" and not disabled))
    also = ""
    if any(c.name == "prompt_max_chars" for c in changed):  # the one with a side effect
        also = ("; PI_MEMORY_MAX_TEXT_CHARS also cuts the text of every decision it stores "
                "from then on, which the figures here (the prompt's cut alone) do not show")
    if disabled is None:  # "": the memory folder's own settings.json stands (it reads no
        # other key: the variables are all there is)
        out = Export("decision-memory", PI_TARGET, {}, changed, env,
                     where="pi-lodestone reads these from its environment" + also)
    else:
        out = Export("decision-memory", PI_TARGET, {"disabledProjects": list(disabled)},
                     changed, env, config_path="settings.json",
                     sources={"disabledProjects": ("disabled_projects",)},
                     where="pi-lodestone reads the variables from its environment, and "
                     "disabledProjects from settings.json in its memory folder" + also)
    # the variables as .env text, for the environment pi-lodestone runs in
    return dataclasses.replace(out, files=(("decision-memory.env", out.env_text(shell=False)),),
                               home=("decisions.jsonl", "injections.jsonl"))
