"""A repository's own CodeLedger settings (`repo.config.read_selector`) as the codeledger
model's parameters: what `export` writes, read back.

They are not the values a measurement starts from: `eval`, `sweep`, `tune` and the window score
at the model's defaults and what -p/--params set, so that one command measures the same on
every clone, and the figures of a configured repository compare with another's. Where the
repository's config sets other values, that is said once (`config_note`), with the -p that
measures CodeLedger as the repository configures it.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.core.models.codeledger.bundle import budget
from workbench.core.params import ParamError, Params, ParamSchema, ParamValue
from workbench.core.repo.config import SELECTOR_SETTINGS

__all__ = ["PARAM_OF", "config_note"]

# each setting under `selector` → the parameter that carries it (export's, reversed)
PARAM_OF: dict[str, str] = {
    **{s: f"w_{s.removeprefix('weights.')}" for s in SELECTOR_SETTINGS
       if s.startswith("weights.")},
    "default_budget.tokens": "token_budget", "default_budget.max_files": "max_files",
    "sufficiency_threshold": "sufficiency",
    "excerpt_full_file_max_lines": "excerpt_threshold_lines"}
_BUDGET = ("token_budget", "max_files")


def config_note(selector: Sequence[Sequence[object]], params: Params,
                schema: ParamSchema) -> str | None:
    """The line that says a repository's config sets values other than those measured, and
    the -p that measures them; None when it sets none other (or none at all). A value the
    parameter cannot take (out of its range) is passed over: nothing measures it."""
    in_use: dict[str, ParamValue] = dict(params)
    in_use["token_budget"], in_use["max_files"] = budget(params)  # a preset wins, as scored
    differ: list[tuple[str, str, ParamValue, ParamValue]] = []
    beyond: list[str] = []  # set, but outside what the parameter can take
    for setting, value in selector:
        name = PARAM_OF.get(str(setting))
        if name is None or not isinstance(value, int | float):
            continue
        param = schema[name]
        try:
            theirs = param.validate(int(value) if param.kind == "int" and value == int(value)
                                    else value)
        except ParamError:
            beyond.append(f"selector.{setting} {_num(value)} (this model's {name} takes "
                          f"{param.range_text()})")
            continue
        if theirs != in_use[name]:
            differ.append((str(setting), name, theirs, in_use[name]))
    if not differ and not beyond:
        return None
    out = ("this repository's .codeledger/config.json (CodeLedger's own settings) is not what "
           "is measured here")
    if differ:
        preset = ("-p budget_preset=custom " if str(params["budget_preset"]) != "custom"
                  and any(n in _BUDGET for _, n, _, _ in differ) else "")
        out += (": it sets "
                + ", ".join(f"selector.{s} {_num(v)}" for s, _, v, _ in differ)
                + ", where this run has " + ", ".join(f"{n} {_num(w)}" for _, n, _, w in differ)
                + " (the model's defaults, -p and --params); to measure it as configured: "
                + preset + " ".join(f"-p {n}={_num(v)}" for _, n, v, _ in differ))
    if beyond:
        out += ("; it also sets " + ", ".join(beyond) + ", which cannot be measured here")
    return out


def _num(value: object) -> str:
    """A value as typed back with -p: exact (0.123456789, not 0.123457), whole numbers whole
    (1000000, not 1e+06)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))
