"""A configuration: a name and one model's parameter values (a params file, the sliders, a
tuned result), and which of them set configurations apart (`differing`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.core.engine import Model
from workbench.core.params import Params, ParamValue, resolve_file


@dataclass(frozen=True)
class Configuration:
    """A named set of parameter values of one model (every parameter, resolved)."""

    name: str
    params: Params
    source: str = ""  # the file it was read from, if any
    # the model these values are of, where a comparison sets models against each other
    # (codeledger against bm25 on one repository); None: the comparison's own model
    model: Model | None = None


def configuration_file(model: Model, path: str | Path, name: str | None = None) -> Configuration:
    """A params TOML file as a configuration named after the file (ParamError when a value is
    unknown or out of range, naming the file)."""
    p = Path(path)
    params = model.schema.resolve(resolve_file(model.schema, p))
    # a file name's newline or tab would split every table that heads a column with it
    return Configuration(name or " ".join(p.stem.split()) or p.stem, params, str(p))


# prepare-stage parameters that mean the same in every model that has them: what a model
# reads of each document and how it reads it. Where models are compared, one that differs is
# shown though each model is at its own defaults (rb 4: hybrid's fields = text beside bm25's
# title+text had been left out, so "hybrid against bm25" read as like for like)
READING_PARAMS = ("fields", "stop_words", "stemmer", "embedding_model", "query_prompt",
                  "document_prompt")


def differing(configs: Sequence[Configuration]) -> dict[str, list[ParamValue | None]]:
    """The parameters whose values are not the same in every configuration, with each one's
    value, in the schema's order. Configurations of models with different parameters (each
    with its `Configuration.model`; a preset such as codeledger-document has its model's):
    each parameter any of them has, in the order met, where the configurations having it
    differ or one sets it away from its own model's defaults, or where one of
    `READING_PARAMS` (what a model reads, the same in each) differs across models; None where
    a configuration's model has no such parameter (every parameter of two models at their
    defaults had filled a table with nothing either changed)."""
    if not configs:
        return {}
    if (any(c.model is not None for c in configs)
            and any(list(c.params) != list(configs[0].params) for c in configs[1:])):
        out: dict[str, list[ParamValue | None]] = {}
        for c in configs:
            for n in c.params:
                if n in out:
                    continue
                # a value set apart among configurations of one set of parameters (a model
                # and its preset), or away from its own model's defaults; not a name two
                # models share for different things (bm25's variant and vault-search's)
                kin: dict[tuple[str, ...], set[str]] = {}
                for d in configs:
                    if n in d.params:
                        kin.setdefault(tuple(d.params), set()).add(repr(d.params[n]))
                moved = any(len(values) > 1 for values in kin.values()) or any(
                    d.model is not None and n in d.params
                    and d.model.schema.defaults().get(n, d.params[n]) != d.params[n]
                    for d in configs) or (
                    n in READING_PARAMS
                    and len({repr(d.params[n]) for d in configs if n in d.params}) > 1)
                if moved:
                    out[n] = [d.params.get(n) for d in configs]
        return out
    names = list(configs[0].params)
    return {n: [c.params.get(n) for c in configs] for n in names
            if any(c.params.get(n) != configs[0].params[n] for c in configs[1:])}
