"""vault-search's exporter: obsidian-mcp's search_vault arguments and its batch size
variable."""

from __future__ import annotations

import json
from collections.abc import Mapping

from workbench.core.export.base import Change, Export, _changes, _number, _outside
from workbench.core.models import get_model
from workbench.core.params import ParamValue

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
                           "(-p early_stop=true measures it as it runs)",
                           always="your figures at this limit (eval, compare) should be "
                           "measured with -p early_stop=true to match obsidian-mcp, which "
                           "always stops scanning early with a limit"),)
    entry = {"mcpServers": {"obsidian-mcp": {"env": dict(env)}}}
    files = (("search_vault.args.json", json.dumps(args, indent=2) + "\n"),
             ("mcp-server-env.json", json.dumps(entry, indent=2) + "\n"))
    return Export("vault-search", "obsidian-mcp", {"search_vault": args}, changed, env,
                  outside=outside, where=where, files=files,
                  settings_name="each search_vault call's arguments")
