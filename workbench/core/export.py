"""The current parameters in the target system's own terms.

A tuned parameter set is only useful once it is back in the system it was tuned for, so each
faithful model can register an exporter here, keyed by model id (`EXPORTERS`; an unknown id
raises an error listing the valid ones). An exporter turns resolved parameters into an `Export`:

- `settings`: what the target system reads, as it names it (pi-lodestone: the `PI_MEMORY_*`
  environment variables; OpenVault: its settings keys; obsidian-mcp: search_vault's
  arguments and OBSIDIAN_SEARCH_BATCH_SIZE), with `where` saying where it reads them;
- `changed`: every constant that differs from the original's default — the faithful models'
  parameter defaults are the originals' constants (REFERENCE.md), so "changed" is "differs
  from the schema default" — with its original default, its new value and the setting that
  carries it, if the target has one (else the change needs a code edit in the original).

Workbench-only parameters (query modes, normalisation experiments, embedding back-ends…) are
not the target's constants and never appear among them; but where one that changes scores
differs from the workbench default (a z-score normalisation, the documented variant's
constants), the figures measured with it cannot be had in the target: such values are listed
apart (`outside`), so an export or report never looks shippable while it is not. A value that
is idle (rrf k without rrf normalisation, a documented-only constant under the shipped
variant) and the evaluation's own settings (the clock, the query form) are not listed.
`write_export` writes the files atomically.
"""

from __future__ import annotations

import dataclasses
import json
import math
import posixpath
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.core.models import get_model
from workbench.core.params import ParamSchema, ParamValue
from workbench.core.store import atomic_write_many


@dataclass(frozen=True)
class Change:
    """One constant that differs from the original: `setting` is the target's name for it,
    None when the original hard-codes it."""

    name: str
    label: str
    original: ParamValue
    value: ParamValue
    setting: str | None
    # for a workbench-only value (`Export.outside`): why the target cannot take it, in words,
    # where the general "measured at …, where the target has …" would mislead
    why: str = ""
    # (original, value) as the target stores them, where the parameter's own form differs
    # (pi-lodestone's disabledProjects: a JSON list, [] for the workbench's "")
    stored: tuple[object, object] | None = None

    def as_json(self) -> dict[str, object]:
        original, value = self.stored or (self.original, self.value)
        return {"name": self.name, "label": self.label, "original": original,
                "value": value, "setting": self.setting}


@dataclass(frozen=True)
class Export:
    """A model's parameters as the target system reads them."""

    model: str
    target: str
    settings: dict[str, object]
    changed: tuple[Change, ...]
    env: tuple[tuple[str, str], ...] = ()  # environment variables, in the original's order
    # the target's own file that holds `settings`, relative to the folder it reads it from
    # (CodeLedger: .codeledger/config.json; OpenVault: SillyTavern's settings.json); None:
    # the target reads no file (obsidian-mcp: `settings` are each call's arguments)
    config_path: str | None = None
    # workbench-only values that change scores and that the target cannot take (see the
    # module docstring): the figures measured with them are not the shipped system's
    outside: tuple[Change, ...] = ()
    # where the target reads `settings` and `env` from, in words ("" where `config_path`
    # says it), and how to set what has no setting
    where: str = ""
    # each value of `settings` (its dotted key) → the parameters that set it: over a config
    # already there, `write_export` writes only those set explicitly (`given`)
    sources: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    # the other files `write_export` writes, (name, text), each in the shape its reader
    # takes: the variables as .env text, obsidian-mcp's call arguments and its MCP server
    # entry
    files: tuple[tuple[str, str], ...] = ()
    # what `settings` are, named where no file of the target holds them (a report's heading)
    settings_name: str = ""
    # where `settings` are a part of `config_path`, not the whole file, that part in words
    # (OpenVault's: SillyTavern's settings.json holds every extension's and more)
    fragment: str = ""
    # what the target's own data folder holds (pi-lodestone's memory folder: its
    # decisions.jsonl…): --out there writes `config_path` alone, none of the workbench's files
    home: tuple[str, ...] = ()
    # every value the figures were measured with that is off the workbench's default (the
    # evaluation's own settings too, which `changed` leaves out): the record keeps them as
    # `workbench_params`, which --params reads back (`record_values`)
    measured: Mapping[str, ParamValue] = dataclasses.field(default_factory=dict)
    # the advice against these values of the run that tuned them ("FILE: not recommended by
    # the run that tuned it — …"), kept in the record as `not_recommended`: the warning on
    # stderr is gone by the time a reviewer reads the repository (dr7 2); "" where none
    verdict: str = ""

    def outside_text(self) -> str:
        """The workbench-only values the figures were measured with that the target cannot
        take, in one sentence ("" when there are none)."""
        plain = [c for c in self.outside if not c.why]
        parts = [c.why for c in self.outside if c.why]
        if plain:
            one = len(plain) == 1
            parts.insert(0, "measured with " + ", ".join(f"{c.name} = {c.value!r}" for c in plain)
                         + f", which {self.target} cannot take (it has "
                         + ", ".join(f"{c.name} = {c.original!r}" for c in plain)
                         + f"): the settings leave {'it' if one else 'them'} out, and these "
                         "figures are not what it will score")
        return "not shippable as is: " + "; ".join(parts) if parts else ""

    def env_text(self, *, shell: bool = True) -> str:
        """The environment variables as a shell snippet (`export NAME=value`) or, with
        `shell=False`, as .env text (`NAME=value`); "" for a target without any."""
        if not self.env:
            return ""
        prefix = "export " if shell else ""
        lines = [f"# {self.target} settings from Scoring Workbench"]
        lines += [f"{prefix}{name}={value}" for name, value in self.env]
        hard = [c.name for c in self.changed if c.setting is None]
        if hard:
            lines.append(f"# also changed, with no environment variable (edit the source): "
                         f"{', '.join(hard)}")
        return "\n".join(lines) + "\n"

    def settings_json(self) -> str:
        return json.dumps(self.settings, indent=2, ensure_ascii=False) + "\n"

    def changes_json(self, kept: Sequence[tuple[str, object, object]] = (),
                     elsewhere: Sequence[tuple[str, Sequence[tuple[str, object, object]]]] = (),
                     ) -> str:
        """Every changed constant against the original's defaults, as JSON; and the
        workbench-only values the figures were measured with that the target cannot take
        (`not_in_target`: a z-score normalisation, …), so the record keeps them. `kept`: the
        settings a config already there kept its own value of (`Update.kept`: key, its
        value, the one measured), so the record does not claim them written; `elsewhere`:
        (file name, its `Update.kept`) for the variables' files there (decision-memory.env,
        mcp-server-env.json: dr3 5); each entry names its file. Each entry has both
        `measured` and `measured_not_passed`: a setting measured as not passed (search_vault's
        minScore at 0: the target's own default) is `"measured": null,
        "measured_not_passed": true`, so that a null there is never read as the file's null
        or as nothing measured (r50), and `entry["measured"]` is always there (dr1 7)."""
        doc: dict[str, object] = {"model": self.model, "target": self.target,
                                  **({"not_recommended": self.verdict} if self.verdict else {}),
                                  "changed": [c.as_json() for c in self.changed]}
        if self.outside:
            doc["not_in_target"] = [c.as_json() for c in self.outside]
        files = ([str(self.config_path)] if kept else []) + [n for n, k in elsewhere if k]
        if files:
            entries = [_kept_entry(str(name), key, old, new)
                       for name, its in [(self.config_path, kept), *elsewhere]
                       for key, old, new in its]
            unpassed = any(entry["measured_not_passed"] for entry in entries)
            doc["kept_in_config"] = {
                "note": f"{' and '.join(files)} kept {'its' if len(files) == 1 else 'their'} "
                        "own value of these (not set with -p or --params): the figures were "
                        "measured with the value under measured"
                        + (f"; where measured_not_passed is true, without the setting (not "
                           f"passed to {self.target}, which then takes its own default): to "
                           "match them, take each such setting out of the file named with it, "
                           "or export again setting it with -p as measured, which takes it out"
                           if unpassed else ""),
                "settings": entries}
        if self.measured:
            doc["workbench_params"] = dict(self.measured)
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


Exporter = Callable[[Mapping[str, ParamValue]], Export]


def _kept_entry(file: str, key: str, old: object, new: object) -> dict[str, object]:
    """One setting a config kept its own value of: the value measured (None where the figures
    were measured with the setting not passed) and whether it was not passed."""
    return {"setting": key, "in_config": old, "measured": new,
            "measured_not_passed": new is None, "file": file}


def _number(value: ParamValue) -> str:
    """A number as JavaScript's `Number()` reads it back: integers without a fraction."""
    x = float(value)
    return str(int(x)) if math.isfinite(x) and x.is_integer() else repr(x)


def _changes(schema: ParamSchema, params: Mapping[str, ParamValue],
             workbench_only: frozenset[str], settings: Mapping[str, str]) -> tuple[Change, ...]:
    return tuple(Change(p.name, p.label, p.default, params[p.name], settings.get(p.name))
                 for p in schema if p.name not in workbench_only and p.name in params
                 and params[p.name] != p.default)


def _outside(schema: ParamSchema, params: Mapping[str, ParamValue],
             workbench_only: frozenset[str]) -> tuple[Change, ...]:
    """The workbench-only values that change scores here and that the target cannot take:
    those of `workbench_only` that differ from the default, less the settings that change no
    score (`NOT_SCORING`) and those idle by the schema's `needs` (rrf k without rrf)."""
    return tuple(Change(p.name, p.label, p.default, params[p.name], None) for p in schema
                 if p.name in workbench_only and p.name not in NOT_SCORING
                 and p.name in params and params[p.name] != p.default
                 and not schema.idle_because(p.name, params))


# workbench-only settings that change how a run is made or evaluated, not any score
# (vector_candidates: how many memories prepare keeps per query; the rankings it serves are
# the all-pairs ones, so it is no code change to ship)
NOT_SCORING = frozenset(("batch_size", "now", "mode", "query_form", "embeddings",
                         "vector_candidates"))


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


# -- hybrid: OpenVault c112699, its extension settings --
OV_SETTINGS = {
    "alpha": "alpha",
    "combined_boost_weight": "combinedBoostWeight",
    "vector_threshold": "vectorSimilarityThreshold",
    "entity_boost_weight": "entityBoostWeight",
}
# REFERENCE §3: the settings panel's sliders (parameter, key, low, high, step)
OV_SLIDERS = (("alpha", "alpha", 0.0, 1.0, 0.05),
              ("combined_boost_weight", "combinedBoostWeight", 1.0, 30.0, 1.0),
              ("vector_threshold", "vectorSimilarityThreshold", 0.0, 1.0, 0.05))


def _on_slider(value: float, low: float, high: float, step: float) -> bool:
    return low - 1e-9 <= value <= high + 1e-9 and abs(
        round((value - low) / step) * step + low - value) < 1e-9


# REFERENCE §3: one prefix setting for both sides, chosen in the settings panel
OV_PROMPT = "the embedding prompt (settings panel; one for both sides)"
OV_WORKBENCH_ONLY = frozenset(("normalization", "rrf_k", "fields", "embeddings",
                               "embedding_model", "batch_size", "vector_candidates"))


def encoder_caveat(model: str) -> str:
    """Why hybrid's figures with embeddings=encoder are not quite OpenVault's: its vector share
    is of the vectors OpenVault's own embedding model stored with each memory."""
    name = model.rstrip("/").rsplit("/", 1)[-1] or model
    return (f"the vector share was measured with {name}'s embeddings, while OpenVault scores "
            "with the vectors its own embedding model stored with each memory: the figures "
            "hold for OpenVault as far as the two agree")


def export_hybrid(params: Mapping[str, ParamValue]) -> Export:
    from workbench.core.models.hybrid.scoring import effective_threshold

    schema = get_model("hybrid").schema
    values = schema.resolve(params)
    # as SillyTavern's settings.json holds them (REFERENCE §3: its extension settings)
    settings: dict[str, object] = {"extension_settings": {"openvault": {
        key: values[name] for name, key in OV_SETTINGS.items()}}}
    carried = {**OV_SETTINGS, "query_prompt": OV_PROMPT, "document_prompt": OV_PROMPT}
    outside = _outside(schema, values, OV_WORKBENCH_ONLY)
    prompt = str(values["document_prompt"])
    if values["query_prompt"] != prompt:  # the original prepends one prefix to both sides
        p = schema["query_prompt"]
        outside += (Change("query_prompt", p.label, prompt, values["query_prompt"], None),)
    where = ("OpenVault keeps these in SillyTavern's extension settings (its settings panel; "
             "extension_settings.openvault in SillyTavern's settings.json, in its user data "
             "folder such as data/default-user: --out that folder updates it, with "
             "SillyTavern closed, as it rewrites the file)")
    off = [f"{key} {_number(values[name])} ({low:g}–{high:g}, step {step:g})"
           for name, key, low, high, step in OV_SLIDERS
           if not _on_slider(float(values[name]), low, high, step)]
    if off:  # REFERENCE §3: the panel's sliders; a value off them is set in the file only
        one = len(off) == 1
        where += ("; its panel's sliders cannot show " + ", ".join(off)
                  + f": set {'it' if one else 'them'} in settings.json, or round "
                  f"{'it' if one else 'them'} to the slider")
    if values["embeddings"] == "encoder":  # the vector share is of this encoder's vectors
        where += ("; " + encoder_caveat(str(values["embedding_model"]))
                  + " (-p embeddings=stored measures with the stored ones)")
    if prompt != schema["document_prompt"].default:
        where += (f"; its embedding prompt is chosen in the same panel, one prefix for both "
                  f"sides ('custom' for another text): {prompt!r} — a new prompt re-embeds "
                  "every memory")
    # a parameter is in one section of the record: a query prompt OpenVault cannot take is
    # not also a change of its setting; and a threshold it reads as the same (0 is 0.5 there,
    # `threshold || 0.5`) is no change
    apart = {c.name for c in outside}
    changed = tuple(c for c in _changes(schema, values, OV_WORKBENCH_ONLY, carried)
                    if c.name not in apart and not (
                        c.name == "vector_threshold"
                        and effective_threshold(c.value) == effective_threshold(c.original)))
    return Export("hybrid", "OpenVault c112699", settings, changed, outside=outside,
                  where=where, config_path="settings.json", home=("chats", "characters"),
                  fragment="the extension_settings.openvault part of SillyTavern's "
                           "settings.json",
                  sources={f"extension_settings.openvault.{key}": (name,)
                           for name, key in OV_SETTINGS.items()})


# -- vault-search: obsidian-mcp (src/config/index.ts, src/types/toolArgs.ts) --
# what it takes without a code change: each search_vault call's arguments, and its batch size
# from the environment. Its scorer is built as `new SearchScorer()` (src/services/
# fileSystem.ts): the weights, though the constructor takes them, have no setting.
VS_ARGS = {"min_score": "minScore", "limit": "limit", "offset": "offset"}
VS_ENV = {"batch_size": "OBSIDIAN_SEARCH_BATCH_SIZE"}
VS_SETTINGS = {**{k: f"search_vault {v}" for k, v in VS_ARGS.items()}, **VS_ENV}
VS_WEIGHTS = {"w_tf": "termFrequency", "w_position": "position", "w_density": "density"}
# the workbench's options and the "documented" variant's constants: not in the shipped code
VS_WORKBENCH_ONLY = frozenset(("variant", "early_stop", "early_stop_threshold",
                               "tf_multiplier", "density_multiplier", "w_proximity",
                               "proximity_scale", "require_all_words"))


def export_vault_search(params: Mapping[str, ParamValue]) -> Export:
    """search_vault's arguments (those that act: minScore above 0, limit above 0 — 0 is
    "not passed" — and offset with a limit), OBSIDIAN_SEARCH_BATCH_SIZE; the weights are a
    change to its code, said in `where`."""
    schema = get_model("vault-search").schema
    values = schema.resolve(params)
    limit = int(values["limit"])
    args: dict[str, object] = {}
    if float(values["min_score"]) > 0:
        args["minScore"] = values["min_score"]
    if limit > 0:
        args["limit"] = limit
        if int(values["offset"]) > 0:
            args["offset"] = int(values["offset"])
    env = tuple((var, _number(values[name])) for name, var in VS_ENV.items())
    changed = _changes(schema, values, VS_WORKBENCH_ONLY, VS_SETTINGS)
    where = ("obsidian-mcp takes these as the arguments of each search_vault call (the "
             "agent's tool call), and OBSIDIAN_SEARCH_BATCH_SIZE from its environment: with "
             "--out, search_vault.args.json holds the arguments and mcp-server-env.json the "
             "variable as an MCP client's server entry (mcpServers) sets it — merge it into "
             "the entry that starts obsidian-mcp, whatever its name there")
    weights = {key: values[name] for name, key in VS_WEIGHTS.items()}
    if any(c.name in VS_WEIGHTS for c in changed):
        where += ("; its weights have no setting: pass them where src/services/fileSystem.ts "
                  f"builds its scorer, new SearchScorer({json.dumps(weights)})")
    if limit <= 0 and int(values["offset"]) > 0:
        where += (f"; offset {int(values['offset'])} is not passed: without a limit "
                  "search_vault returns every result and ignores it")
    # the early stop is the original's own behaviour, not a departure from it — but with a
    # limit it always stops early: figures measured without it are not what it returns
    outside = _outside(schema, values, VS_WORKBENCH_ONLY - {"early_stop", "early_stop_threshold"})
    if limit > 0 and not values["early_stop"]:
        p = schema["early_stop"]
        outside += (Change(p.name, p.label, True, False, None,
                           why="with a limit, obsidian-mcp always stops scanning early, and "
                           "these figures were measured without the early stop "
                           "(-p early_stop=true measures it as it runs)"),)
    entry = {"mcpServers": {"obsidian-mcp": {"env": dict(env)}}}
    files = (("search_vault.args.json", json.dumps(args, indent=2) + "\n"),
             ("mcp-server-env.json", json.dumps(entry, indent=2) + "\n"))
    return Export("vault-search", "obsidian-mcp", {"search_vault": args}, changed, env,
                  outside=outside, where=where, files=files,
                  settings_name="each search_vault call's arguments")


# -- codeledger: .codeledger/config.json (REFERENCE §2) --
CL_WEIGHTS = {f"w_{key}": key for key in ("keyword", "centrality", "churn", "recent_touch",
                                          "test_relevance", "size_penalty", "success_prior",
                                          "fail_prior")}
CL_SETTINGS = {**{k: f"selector.weights.{v}" for k, v in CL_WEIGHTS.items()},
               "token_budget": "selector.default_budget.tokens",
               "max_files": "selector.default_budget.max_files",
               "sufficiency": "selector.sufficiency_threshold",
               "excerpt_threshold_lines": "selector.excerpt_full_file_max_lines"}
CL_WORKBENCH_ONLY = frozenset(("task_type", "budget_preset"))


def export_codeledger(params: Mapping[str, ParamValue], model_id: str = "codeledger"
                      ) -> Export:
    """CodeLedger's config: the eight documented weights, the default budget, the sufficiency
    threshold and the excerpt threshold. The model's other constants (signal shapes,
    task-type multipliers, candidate stages, the weights the document does not name —
    content, named path, graph, non-code, error infrastructure, branch changed) have no
    documented key: they appear in `changed`, against the document's values, with no
    setting."""
    from workbench.core.models.codeledger.bundle import budget
    from workbench.core.models.codeledger.params import DOCUMENT_SCHEMA

    values = get_model(model_id).schema.resolve(params)
    schema = DOCUMENT_SCHEMA  # what changed is told against CodeLedger's own defaults
    tokens, files = budget(values)  # a preset wins over the sliders, as in the model
    selector: dict[str, object] = {
        "weights": {key: values[name] for name, key in CL_WEIGHTS.items()},
        "default_budget": {"tokens": tokens, "max_files": files},
        "sufficiency_threshold": values["sufficiency"],
        "excerpt_full_file_max_lines": values["excerpt_threshold_lines"],
    }
    changed = _changes(schema, values, CL_WORKBENCH_ONLY, CL_SETTINGS)
    # weights set beside signals CodeLedger lacks rank otherwise without them (ky: MRR@10
    # 0.549 → 0.450 with these weights and the document's signals alone)
    lacking = [c.name for c in changed if c.setting is None and c.name.startswith("w_")
               and float(c.value) != 0.0]
    where = ("CodeLedger reads these from .codeledger/config.json in the repository"
             + (f"; the weights here were set beside {', '.join(lacking)}, which it does not "
                "have: without them the same weights rank otherwise, and the figures measured "
                "here are not what it will score" if lacking else "")
             # written at any value: CodeLedger's own default is not the document's
             + "; excerpt_full_file_max_lines is written even at the document's 250 lines, "
             "since CodeLedger's versions that read it default to 200")
    sources = {key: (name, "budget_preset") if key.startswith("selector.default_budget.")
               else (name,) for name, key in CL_SETTINGS.items()}
    return Export(model_id, "CodeLedger", {"selector": selector}, changed,
                  config_path=".codeledger/config.json", where=where, sources=sources)


def _export_codeledger_document(params: Mapping[str, ParamValue]) -> Export:
    return export_codeledger(params, "codeledger-document")


EXPORTERS: dict[str, Exporter] = {
    "codeledger": export_codeledger,
    "codeledger-document": _export_codeledger_document,
    "decision-memory": export_decision_memory,
    "hybrid": export_hybrid,
    "vault-search": export_vault_search,
}


# where a constant with no setting lives in the target's code, as its documentation names it
# (the design documents and REFERENCE.md in the specs), for "none: edit …" — a reader told only
# "edit the source" did not know where; a constant not listed gets the target's source
_SCORER = "src/services/search/SearchScorer.ts"
SOURCE_OF: dict[str, dict[str, str]] = {
    # pi-lodestone: scoreDecision in extension/scoring.ts (decision-memory-scoring.md); the
    # search and the injection before each turn around it (REFERENCE §1) name no file
    "decision-memory": {
        **dict.fromkeys(("search_min_score", "prompt_min_chars", "query_min_chars"),
                        "pi-lodestone's search and injection code, around extension/scoring.ts"),
    },
    # obsidian-mcp: the weights are its scorer's constructor arguments (src/services/
    # fileSystem.ts builds it); the rest of the score in SearchScorer.ts, context and snippets
    # in MatchExtractor.ts (vault-search-scoring.md, Source Files)
    "vault-search": {
        **dict.fromkeys(VS_WEIGHTS, "the new SearchScorer(…) call in "
                                    "src/services/fileSystem.ts"),
        **dict.fromkeys(("tf_scale", "position_decay", "density_scale", "density_cap"), _SCORER),
        **dict.fromkeys(("context_lines", "max_snippet_length", "highlight_start",
                         "highlight_end"), "src/services/search/MatchExtractor.ts"),
        "early_stop_found": "obsidian-mcp's search_vault code, where it scans the files",
    },
    # OpenVault: calculateScore and scoreMemories score (hybrid-bm25-vector-blend.md §5); the
    # query they are given is built from the chat before them (extractQueryContext)
    "hybrid": dict.fromkeys(
        ("entity_lines", "entity_window", "recency_decay", "top_entities",
         "active_character_boost", "entity_max_share", "quote_min_chars", "quote_max_chars",
         "user_messages", "user_chars", "embedding_lines", "embedding_window",
         "embedding_entities", "embedding_chars"),
        "the code where OpenVault builds the query from the chat, around "
        "extractQueryContext"),
}
SOURCE_DEFAULT = {
    "decision-memory": "scoreDecision in extension/scoring.ts",
    "vault-search": "obsidian-mcp's source",
    "hybrid": "OpenVault's calculateScore and scoreMemories",
}


def no_setting_text(model_id: str, name: str) -> str:
    """What a changed constant with no setting takes, for a table's "setting" column: where to
    edit it ("none: edit src/services/search/SearchScorer.ts"); for CodeLedger, whose ranker
    is closed, that it cannot be set."""
    if model_id.startswith("codeledger"):
        return "none: CodeLedger cannot take it (its ranker is closed)"
    where = SOURCE_OF.get(model_id, {}).get(name) or SOURCE_DEFAULT.get(model_id)
    return f"none: edit {where}" if where else "none: edit the source"


def exporter_ids() -> list[str]:
    return list(EXPORTERS)


def export_params(model_id: str, params: Mapping[str, ParamValue] | None = None) -> Export:
    """The parameters (missing ones at their defaults, all validated) of `model_id` in its
    target system's terms."""
    try:
        exporter = EXPORTERS[model_id]
    except KeyError:
        raise KeyError(f"no exporter for model {model_id!r}; valid: "
                       f"{', '.join(EXPORTERS)}") from None
    schema = get_model(model_id).schema
    return dataclasses.replace(exporter(params or {}),
                               measured=schema.changed(schema.resolve(params or {})))


def unshippable(model_id: str, names: list[str]) -> tuple[list[str], list[str]]:
    """Of the parameters `names`, those a value of which the target cannot take as a setting:
    (hard-coded there: a change to its code; not in it at all: a workbench option), each
    found by exporting the parameter moved off its default. Empty for a model without a
    target."""
    if model_id not in EXPORTERS:
        return [], []
    schema = get_model(model_id).schema
    code: list[str] = []
    absent: list[str] = []
    for name in names:
        p = schema[name]
        other: ParamValue | None
        if p.kind in ("choice", "bool"):
            other = next((c for c in (p.choices if p.kind == "choice" else (True, False))
                          if c != p.default), None)
        elif p.kind in ("int", "float") and p.low is not None and p.high is not None:
            end = p.high if p.default != p.high else p.low
            other = int(end) if p.kind == "int" else float(end)
        else:
            continue  # text: not searched by the optimiser
        if other is None:
            continue
        values: dict[str, ParamValue] = {name: other}
        for need in p.needs:  # what makes it act (rrf k: normalisation rrf)
            key, equals, wanted = need.partition("=")
            if not key.startswith("!"):
                values[key] = wanted if equals else True
        try:
            export = export_params(model_id, values)
        except ValueError:  # ParamError: a value the schema refuses here; unknown, unsaid
            continue
        if any(c.name == name or c.name in values for c in export.outside):
            absent.append(name)
        elif any(c.name == name and c.setting is None for c in export.changed):
            code.append(name)
    return code, absent


@dataclass(frozen=True)
class Update:
    """What writing an export does to the target's config already in the folder, key by key
    (dotted keys): `written`, values set explicitly that replace others, (key, the value
    there, the one written) — or a value of another kind where an object goes, replaced
    whole; `kept`, values there that the export would have written otherwise but that were
    not set explicitly, (key, the value there, the export's); `added`, keys it lacked,
    (key, the value written). `text`: the file as written."""

    path: Path
    written: tuple[tuple[str, object, object], ...]
    kept: tuple[tuple[str, object, object], ...]
    added: tuple[tuple[str, object], ...]
    text: str


def plan_update(export: Export, folder: str | Path,
                given: Collection[str] | None = None) -> Update | None:
    """The target's config already in `folder` with `export` written over it; None where
    there is none. Only the values of parameters in `given` (those set explicitly: -p,
    --params) replace the ones there, every other key there is kept as it is; keys it lacks
    are added. `given` None: every value of the export replaces the one there. ValueError
    when the file is not a readable JSON object."""
    if not export.config_path:
        return None
    path = Path(folder) / export.config_path
    if not path.is_file():
        return None
    current = _read_object(path)
    written: list[tuple[str, object, object]] = []
    kept: list[tuple[str, object, object]] = []
    added: list[tuple[str, object]] = []

    def is_given(key: str) -> bool:
        names = export.sources.get(key)
        return given is None or names is None or any(n in given for n in names)

    def leaves(value: object, at: str) -> list[tuple[str, object]]:
        if isinstance(value, Mapping):
            return [leaf for k, v in value.items() for leaf in leaves(v, f"{at}.{k}")]
        return [(at, value)]

    def merge(into: dict[str, object], new: Mapping[str, object], at: str) -> None:
        for key, value in new.items():
            dotted = f"{at}{key}"
            if key not in into:
                into[key] = json.loads(json.dumps(value))  # a copy
                added.extend(leaves(value, dotted))
                continue
            old = into[key]
            if isinstance(value, Mapping):
                if isinstance(old, dict):
                    merge(old, value, f"{dotted}.")
                elif export.fragment:  # a file of others' settings: what is there is theirs
                    raise ValueError(f"{path}{_line_of_key(path, key)}: field '{dotted}': "
                                     f"cannot update it, expected a JSON object, found "
                                     f"{_kind(old)}: fix or remove it")
                else:  # `"selector": []` there: no key of it can be kept
                    into[key] = json.loads(json.dumps(value))
                    written.append((dotted, old, dict(value)))
            elif old == value and isinstance(old, bool) == isinstance(value, bool):
                continue  # the same (5000 and 5000.0 alike; true is not 1)
            elif is_given(dotted):
                into[key] = value
                written.append((dotted, old, value))
            else:
                kept.append((dotted, old, value))

    merge(current, export.settings, "")
    return Update(path, tuple(written), tuple(kept), tuple(added),
                  json.dumps(current, indent=2, ensure_ascii=False) + "\n")


# the files of `Export.files` that hold others' entries too, merged where one is there
SERVER_ENTRY = "mcp-server-env.json"
ENV_FILE = "decision-memory.env"
ARGS_FILE = "search_vault.args.json"
SERVERS = "mcpServers"


def plan_file_updates(export: Export, folder: str | Path,
                      given: Collection[str] | None = None) -> list[Update]:
    """The files of `Export.files` already in `folder` that hold others' entries too
    (decision-memory.env, mcp-server-env.json, search_vault.args.json) with the export's
    values written into them, as `plan_update` writes the target's config: every other line,
    server, key and variable kept; a value there that was not set explicitly (`given`) kept
    too. ValueError naming the file and line where one is not readable as what it is (ra 5:
    they had been replaced whole, the other servers, variables and arguments lost)."""
    names = dict(export.files)
    by_var = {var: name for name, var in {**PI_ENV, **VS_ENV}.items()}
    new = dict(export.env)
    out = []
    if ARGS_FILE in names and (Path(folder) / ARGS_FILE).is_file():
        out.append(_merged_args(Path(folder) / ARGS_FILE, json.loads(names[ARGS_FILE]), given))
    for name in (SERVER_ENTRY, ENV_FILE):
        path = Path(folder) / name
        if name not in names or not path.is_file():
            continue
        written: list[tuple[str, object, object]] = []
        kept: list[tuple[str, object, object]] = []
        added: list[tuple[str, object]] = []

        def put(current: Mapping[str, str], var: str,
                written: list[tuple[str, object, object]] = written,
                kept: list[tuple[str, object, object]] = kept) -> str | None:
            """The value to write for `var` where `current` holds its own (None: keep)."""
            old, value = current[var], new[var]
            if old == value:
                return None
            if given is None or by_var.get(var) in given:
                written.append((var, old, value))
                return value
            kept.append((var, old, value))
            return None

        if name == SERVER_ENTRY:
            text = _merged_server_entry(path, new, put, added)
        else:
            text = _merged_env_file(path, new, put, added)
        out.append(Update(path, tuple(written), tuple(kept), tuple(added), text))
    return out


def _merged_args(path: Path, args: Mapping[str, object],
                 given: Collection[str] | None) -> Update:
    """search_vault.args.json with the arguments the workbench writes (`VS_ARGS`: minScore,
    limit, offset) set as `args` has them, every other key kept as it is. One that `args`
    leaves out (0 is "not passed") is taken out where its parameter was set explicitly
    (`given`: written as None), else kept; one not set explicitly is kept as `plan_update`
    keeps a config's own. The file keeps its form: a byte-order mark, CRLF line ends, its
    indent (a file on one line stays on one line). A file in a tool call's form (`{"name":
    "search_vault", "arguments": {…}}`) has them written in its `arguments` (dr1 7: a stray
    top-level `limit` had been added beside them)."""
    whole = _read_object(path)
    raw = path.read_bytes()
    current, at = whole, ""
    if "arguments" in whole or whole.get("name") == "search_vault":
        inner = whole.get("arguments")
        if not isinstance(inner, dict):
            found = "no arguments" if "arguments" not in whole else _kind(inner)
            line = _line_of_key(path, "arguments") or _line_of_key(path, "name")
            raise ValueError(f"{path}{line}: field 'arguments': cannot update it, expected a "
                             f"JSON object (a tool call's search_vault arguments), found "
                             f"{found}: fix it, or give the arguments object itself")
        current, at = inner, "arguments."
    written: list[tuple[str, object, object]] = []
    kept: list[tuple[str, object, object]] = []
    added: list[tuple[str, object]] = []
    for name, key in VS_ARGS.items():
        old, value = current.get(key), args.get(key)
        if key not in current:
            if value is not None:
                current[key] = value
                added.append((at + key, value))
        elif value is not None and old == value and isinstance(old, bool) == isinstance(
                value, bool):
            continue  # the same (5 and 5.0 alike; true is not 1)
        elif value is None and key == "minScore" and _min_score_off(old):
            continue  # the same: minScore acts only above 0, as not passed (dr1 6)
        elif given is None or name in given:
            if value is None:
                del current[key]
            else:
                current[key] = value
            written.append((at + key, old, value))
        else:
            kept.append((at + key, old, value))
    return Update(path, tuple(written), tuple(kept), tuple(added), _json_in_form(whole, raw))


def _min_score_off(value: object) -> bool:
    """Whether search_vault's minScore `value` acts as not passed: null, or a number not above
    0 (obsidian-mcp applies it only above 0)."""
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool)
                             and value <= 0)


def _json_in_form(value: object, raw: bytes) -> str:
    """`value` as JSON in the form of `raw`, the file it replaces: its byte-order mark, its
    line ends (CRLF where most are), its indent (tabs or the first indented line's spaces;
    on one line where it was) and its last newline."""
    text = raw.decode("utf-8-sig", errors="replace")
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
    end = "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\n"
    indent: int | str | None = None
    if "\n" in text.strip():
        lead = next((line[:len(line) - len(line.lstrip(" \t"))]
                     for line in text.splitlines()[1:] if line.strip()), "")
        indent = "\t" if lead.startswith("\t") else len(lead)
    body = json.dumps(value, indent=indent, ensure_ascii=False)  # "\n" only between values
    return bom + body.replace("\n", end) + (end if text.endswith("\n") else "")


def _merged_server_entry(path: Path, new: Mapping[str, str],
                         put: Callable[[Mapping[str, str], str], str | None],
                         added: list[tuple[str, object]]) -> str:
    """mcp-server-env.json with the variables in the env of the server that runs
    obsidian-mcp, whatever its name (`_obsidian_server`)."""
    current = _read_object(path)
    servers = current.get(SERVERS)
    if not isinstance(servers, dict):
        raise ValueError(f"{path}{_line_of_key(path, SERVERS)}: field '{SERVERS}': cannot "
                         "update it, " + (f"expected a JSON object, found {_kind(servers)}: "
                                          "fix or remove it" if SERVERS in current else
                                          f"missing: {SERVER_HELP}"))
    key = _obsidian_server(path, servers)
    server = servers[key]
    assert isinstance(server, dict)  # `_obsidian_server` takes objects alone
    env = server.setdefault("env", {})
    if not isinstance(env, dict):
        raise ValueError(f"{path}{_line_of_key(path, 'env')}: field '{SERVERS}.{key}.env': "
                         f"cannot update it, expected a JSON object, found {_kind(env)}: fix "
                         "or remove it")
    for var in new:
        if var not in env:
            env[var] = new[var]
            added.append((var, new[var]))
        elif not isinstance(env[var], str):
            raise ValueError(f"{path}{_line_of_key(path, var)}: field '{SERVERS}.{key}.env."
                             f"{var}': cannot update it, expected a string (an environment "
                             f"variable's value), found {_kind(env[var])}")
        else:
            value = put({var: str(env[var])}, var)
            if value is not None:
                env[var] = value
    return json.dumps(current, indent=2, ensure_ascii=False) + "\n"


SERVER_HELP = ("set OBSIDIAN_SEARCH_BATCH_SIZE in the env of the server that runs "
               "obsidian-mcp yourself, or give --out another folder")


def _obsidian_server(path: Path, servers: Mapping[str, object]) -> str:
    """The key of the one server in `servers` that runs obsidian-mcp: its command or an
    argument names obsidian-mcp, or its env sets an OBSIDIAN_ variable. ValueError where none
    or several do (dr3 3: a server of another name had been left at its old value, and a
    second one with no command added beside it)."""
    def runs_it(server: object) -> bool:
        if not isinstance(server, dict):
            return False
        command, args, env = server.get("command"), server.get("args"), server.get("env")
        words = [command] + (args if isinstance(args, list) else [])
        named = any(isinstance(w, str) and "obsidian-mcp" in w for w in words)
        return named or (isinstance(env, dict) and any(k.startswith("OBSIDIAN_") for k in env))

    found = [key for key, server in servers.items() if runs_it(server)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise ValueError(f"{path}{_line_of_key(path, SERVERS)}: field '{SERVERS}': cannot "
                         "update it, no server there runs obsidian-mcp (its command or args "
                         "naming obsidian-mcp, or its env an OBSIDIAN_ variable): "
                         + SERVER_HELP)
    raise ValueError(f"{path}{_line_of_key(path, found[1])}: field '{SERVERS}': cannot update "
                     f"it, {len(found)} servers there run obsidian-mcp ({', '.join(found)}):"
                     " keep one, or set OBSIDIAN_SEARCH_BATCH_SIZE in the env of the one the "
                     "client uses yourself")


def _merged_env_file(path: Path, new: Mapping[str, str],
                     put: Callable[[Mapping[str, str], str], str | None],
                     added: list[tuple[str, object]]) -> str:
    """decision-memory.env with the variables set: `NAME=value` lines (`export NAME=value`
    too), blank and `#` lines kept as they are; any other line is an error naming it. A value
    is read as the shell and dotenv read it (quotes taken off, a ` # comment` after it left
    out: dr3 4), and rewritten in its own quotes with its comment kept; a variable set on
    several lines is rewritten on each, since the last one is the one that counts (dr3 2).
    CRLF line ends and a byte-order mark stay as they were."""
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.object[:exc.start].count(b"\n") + 1
        raise ValueError(f"{path}:{bad}: cannot update it, not UTF-8 text") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot update it ({exc.strerror or exc})") from None
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
    lines = text.split("\n")
    ends = ["\r" if line.endswith("\r") else "" for line in lines]
    lines = [line.removesuffix("\r") for line in lines]
    if lines[-1] == "":  # the file's last newline
        lines.pop()
        ends.pop()
    sets: dict[str, list[tuple[int, _EnvValue]]] = {}
    for i, line in enumerate(lines):
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        setting = _env_line(line)
        if setting is None:
            raise ValueError(f"{path}:{i + 1}: cannot update it, not a NAME=value line "
                             f"({line[:60]!r}): fix or remove it")
        if isinstance(setting, str):
            raise ValueError(f"{path}:{i + 1}: cannot update it, {setting}: fix it")
        if setting.name in new:
            sets.setdefault(setting.name, []).append((i, setting))
    for var, where in sets.items():
        written = put({var: where[-1][1].value}, var)  # the last line's value is the one read
        if written is not None:
            for i, setting in where:
                lines[i] = setting.head + setting.quote + written + setting.quote + setting.tail
    end = "\r" if ends and ends.count("\r") * 2 >= len(ends) else ""
    for var in new:
        if var not in sets:
            lines.append(f"{var}={new[var]}")
            ends.append(end)
            added.append((var, new[var]))
    return bom + "".join(f"{line}{cr}\n" for line, cr in zip(lines, ends, strict=True))


@dataclass(frozen=True)
class _EnvValue:
    """A .env line's setting: `head` is the line up to the value (`export NAME=`), `quote`
    the quote around it (or ""), `value` what the shell and dotenv read, `tail` what follows
    (the closing quote aside: spaces and a comment)."""

    name: str
    head: str
    quote: str
    value: str
    tail: str


_ENV_LINE = re.compile(r"(\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*)(.*)")


def _env_line(line: str) -> _EnvValue | str | None:
    """A `NAME=value` line read as the shell and dotenv read it: `'…'` as it is, `"…"` with
    `\\"` and `\\\\` unescaped, an unquoted value up to a ` #` comment, spaces round it
    left out. None for a line that sets nothing; a string saying what is wrong where a quote
    is not closed, or text follows the closing one."""
    match = _ENV_LINE.fullmatch(line)
    if match is None:
        return None
    head, name, rest = match.group(1), match.group(2), match.group(3)
    if rest[:1] in ("'", '"'):
        quote = rest[0]
        close = rest.find(quote, 1)
        while quote == '"' and close > 0 and _escaped(rest, close):
            close = rest.find(quote, close + 1)
        if close < 0:
            return f"field '{name}': the quote ({quote}) is not closed"
        inner, tail = rest[1:close], rest[close + 1:]
        if tail.strip() and not re.match(r"\s+#", tail):
            return (f"field '{name}': text after the closing quote ({tail.strip()[:30]!r}); "
                    "put a comment after a space and #")
        if quote == '"':
            inner = re.sub(r'\\(["\\$`])', r"\1", inner)
        return _EnvValue(name, head, quote, inner, tail)
    comment = re.search(r"\s+#", rest)
    value = rest[:comment.start()] if comment else rest.rstrip()
    return _EnvValue(name, head, "", value.rstrip(), rest[len(value.rstrip()):])


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd number of backslashes."""
    run = len(text[:at]) - len(text[:at].rstrip("\\"))
    return run % 2 == 1


def _kind(value: object) -> str:
    """A JSON value's kind, in words."""
    from workbench.core.formats._common import _json_type

    return _json_type(value)


def _line_of_key(path: Path, key: str) -> str:
    """":LINE" of the first line of `path` holding `"key":`, "" where none does."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, ValueError):
        return ""
    quoted = json.dumps(key)
    return next((f":{i}" for i, line in enumerate(lines, 1)
                 if quoted in line and line.split(quoted, 1)[1].lstrip().startswith(":")), "")


def write_export(export: Export, folder: str | Path,
                 given: Collection[str] | None = None) -> list[Path]:
    """Write the export's files (`Export.files`: pi-lodestone's variables as `.env` text,
    obsidian-mcp's call arguments and server entry), the target's own config file where it
    reads one (CodeLedger's `.codeledger/config.json`, SillyTavern's `settings.json`,
    pi-lodestone's `settings.json`) and the record of changes, `<model>.changes.json`
    (`changes_path`: in `.codeledger/` for CodeLedger), into `folder`, all atomically (all of
    them or none); returns the paths written. Into the target's own data folder (`is_home`),
    the config file alone, if any. A target config already there is updated, not replaced:
    only the values of the parameters in `given` replace its own (`plan_update`; None: every
    value), and its other keys are kept. ValueError when `folder` is a file or the existing
    config is not a JSON object, or when the folder above `folder` does not exist."""
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{root}: not a folder (the export writes several files into one)")
    if not root.parent.exists():  # the folder itself is made, not a missing one above it
        raise ValueError(f"{root}: folder {root.parent} does not exist")
    update = plan_update(export, root, given)
    home = is_home(export, root)  # the target's own folder: its own file alone
    files = {} if home else dict(export.files)
    others = [] if home else plan_file_updates(export, root, given)
    for other in others:
        files[other.path.name] = other.text
    root.mkdir(exist_ok=True)
    if export.config_path and export.settings:
        files[export.config_path] = update.text if update else export.settings_json()
    if not home:
        files[changes_path(export)] = export.changes_json(
            update.kept if update else (), [(o.path.name, o.kept) for o in others])
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
    written = [root / name for name in files]
    atomic_write_many([(path, text.encode("utf-8"))  # all of them or none
                       for path, text in zip(written, files.values(), strict=True)])
    return written


def changes_path(export: Export) -> str:
    """Where `write_export` puts the record of changes, relative to its folder: beside the
    target's config where that has a folder of its own (CodeLedger's `.codeledger/`: one
    folder to commit or ignore, not a stray file at the repository's root), else
    `<model>.changes.json` in the folder itself."""
    name = f"{export.model}.changes.json"
    folder = posixpath.dirname(export.config_path or "")
    return f"{folder}/{name}" if folder else name


def is_home(export: Export, folder: str | Path) -> bool:
    """Whether `folder` is the target's own data folder (`Export.home`: pi-lodestone's memory
    folder, SillyTavern's user folder), where `write_export` writes the target's config file
    alone: neither the variables' file nor the record of changes, which it does not read."""
    return any((Path(folder) / name).exists() for name in export.home)


def _read_object(path: Path) -> dict[str, object]:
    """The JSON object in `path`; ValueError naming the file (and line) when it is not one."""
    try:
        current = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:  # FILE:LINE, as every reader names a bad line
        from workbench.core.formats._common import json_problem

        # "Unterminated string starting at, column 65" had spliced the parser's words (ra 10)
        raise ValueError(f"{path}:{exc.lineno}: cannot update it, not readable JSON "
                         f"({json_problem(exc)})") from None
    except (OSError, ValueError) as exc:  # ValueError: bad UTF-8
        raise ValueError(f"{path}: cannot update it, not readable JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{path}: cannot update it, not readable JSON (nested too "
                         "deeply)") from None
    if not isinstance(current, dict):
        raise ValueError(f"{path}: cannot update it, not a JSON object")
    return current


# -- reading back: what `write_export` wrote, given to --params --
RECORD_SUFFIX = ".changes.json"  # `<model>.changes.json`, `Export.changes_json`
# the variables each exporter writes (a .env of them parses as TOML: NAME=value) → (its
# model, the system that reads them)
ENV_MODEL = {**{var: ("decision-memory", "pi-lodestone") for var in PI_ENV.values()},
             **{var: ("vault-search", "obsidian-mcp") for var in VS_ENV.values()}}


def is_record(doc: object) -> bool:
    """Whether a JSON document is a record of changes (`Export.changes_json`)."""
    return isinstance(doc, dict) and "changed" in doc and "model" in doc


def record_values(path: Path, doc: Mapping[str, object]) -> tuple[str, dict[str, object]]:
    """A record of changes read back as parameters: (the model it names, name → value), the
    values the figures were measured with (those a config kept its own of, too), every other
    parameter at its default: its `workbench_params`; in a record written before it kept
    them, each changed constant and each workbench-only value (`not_in_target`) — a value
    stored in the target's form (disabled_projects: a JSON list) given as the text its
    parameter reads — less the evaluation's own settings (mode, clock), which it never held.
    ValueError naming the file and the field where it is not such a record, or where it
    cannot say the values (CodeLedger's changes are told against its document's values)."""
    model = doc.get("model")
    if not isinstance(model, str) or not model:
        raise ValueError(f"{path}: field 'model': expected the model's id, found {model!r}")
    if "workbench_params" in doc:
        values = doc["workbench_params"]
        if not isinstance(values, dict):
            raise ValueError(f"{path}: field 'workbench_params': expected an object of "
                             "parameter values")
        return model, dict(values)
    if model.startswith("codeledger"):
        raise ValueError(f"{path}: a record of changes written before it kept the values "
                         "measured (workbench_params): its changes are told against "
                         "CodeLedger's document, not the workbench's defaults, so the values "
                         "cannot be read from it; export again, or give a TOML file")
    out: dict[str, object] = {}
    for part in ("changed", "not_in_target"):
        entries = doc.get(part, [])
        if not isinstance(entries, list):
            raise ValueError(f"{path}: field '{part}': expected a list of changes")
        for i, entry in enumerate(entries):
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(entry, dict) or not isinstance(name, str) or "value" not in entry:
                raise ValueError(f"{path}: field '{part}[{i}]': expected an object with a "
                                 "name and a value")
            value = entry["value"]
            out[name] = (json.dumps(value, ensure_ascii=False) if isinstance(value, list)
                         else value)
    return model, out


def written_file_text(path: Path, doc: object) -> str:
    """What a JSON file that `write_export` wrote, other than the record, is — in words,
    for the error that says it is not a parameter file ("" where it is none of them)."""
    if isinstance(doc, dict) and "disabledProjects" in doc:
        return "pi-lodestone's settings.json (its disabled projects)"
    if isinstance(doc, dict) and "mcpServers" in doc:
        return "an MCP server entry (obsidian-mcp's environment)"
    if path.name == "search_vault.args.json":
        return "obsidian-mcp's search_vault arguments"
    if path.name == "config.json" and path.parent.name == ".codeledger":
        return "CodeLedger's config"
    return ""


def instead_text(path: Path, model: str | None = None) -> str:
    """What to give --params in place of a file `write_export` wrote: the record of changes
    beside it where there is one, else where one comes from."""
    beside = sorted(path.parent.glob(f"*{RECORD_SUFFIX}"))
    if model is not None:
        beside = [p for p in beside if p.name == f"{model}{RECORD_SUFFIX}"] or beside
    if len(beside) == 1:
        return f"give --params the record of changes beside it, {beside[0]}"
    return (f"give --params the record of changes that `workbench export --out` writes "
            f"beside it (MODEL{RECORD_SUFFIX}), or a TOML file of NAME = VALUE lines "
            "(`workbench models MODEL --toml` prints one)")
