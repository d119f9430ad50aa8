"""The search space of a study, taken from a model's parameter schema.

By default every live parameter a tuner can sensibly move (numeric, choice or bool, and not
marked `tunable=False` — paging, display and speed knobs are) is a dimension over its whole
schema range; `--tune a,b,c` names a subset (prepare-stage choices included: each distinct
prepared state is then built once and cached), `--range a=0.3:0.9` narrows one.

A float with a schema step is searched on that step's grid (the slider's resolution), so a
grid sampler can enumerate it; the grid counts in integer steps (STYLE: sweeps count in
integers) and `values()` divides.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.core.metrics import metric_label
from workbench.core.params import Param, ParamError, ParamSchema, ParamValue, value_text
from workbench.core.selection_figures import SELECTION_PARAMS
from workbench.core.tuning.objectives import MODEL_FIGURES, cut_only_lowers

if TYPE_CHECKING:
    from workbench.core.engine import Model

MAX_GRID_POINTS = 100_000
_FLOAT_GRID_STEPS = 20  # a float without a schema step is searched continuously; a grid uses 20


@dataclass(frozen=True)
class Dimension:
    """One tuned parameter: its kind and the part of its range searched."""

    name: str
    kind: str  # "float", "int", "choice", "bool"
    stage: str
    low: float = 0.0
    high: float = 0.0
    step: float | None = None
    choices: tuple[ParamValue, ...] = ()

    def values(self) -> list[ParamValue]:
        """Every value a grid visits (low to high inclusive, in integer steps)."""
        if self.kind in ("choice", "bool"):
            return list(self.choices)
        step = self.step or (self.high - self.low) / _FLOAT_GRID_STEPS
        n = math.floor((self.high - self.low) / step + 1e-9) if step > 0 else 0
        out = [self.low + i * step for i in range(n + 1)]
        if self.kind == "int":
            return [round(v) for v in out]
        return [round(v, 10) for v in out]

    def snap(self, value: Any) -> ParamValue:
        """A sampled value as the slider would hold it: on the step grid, within range."""
        if self.kind in ("choice", "bool"):
            return value  # type: ignore[no-any-return]
        if self.kind == "int":
            return int(value)
        v = min(self.high, max(self.low, float(value)))
        if self.step:
            v = self.low + round((v - self.low) / self.step) * self.step
        return round(min(self.high, v), 10)

    def describe(self) -> str:
        if self.kind in ("choice", "bool"):
            return "{" + ", ".join(value_text(c) for c in self.choices) + "}"  # true, not True
        step = f" step {self.step:g}" if self.step else ""
        return f"[{self.low:g}, {self.high:g}]{step}"


@dataclass(frozen=True)
class SearchSpace:
    dimensions: tuple[Dimension, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dimensions)

    def snap(self, params: Mapping[str, Any]) -> dict[str, ParamValue]:
        """Sampled parameters (an optuna trial's) as the trial evaluated them."""
        dims = {d.name: d for d in self.dimensions}
        return {k: dims[k].snap(v) if k in dims else v for k, v in params.items()}

    def prepare_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dimensions if d.stage == "prepare")

    def grid(self) -> dict[str, list[ParamValue]]:
        """The exhaustive grid, refused past MAX_GRID_POINTS points."""
        grid = {d.name: d.values() for d in self.dimensions}
        size = math.prod(len(v) for v in grid.values())
        if size > MAX_GRID_POINTS:
            raise ParamError(f"the grid over {', '.join(grid)} has {big_count(size)} points "
                             "(more than "
                             f"{MAX_GRID_POINTS:,}); narrow it with --range or pick another "
                             "sampler")
        return grid

    def grid_size(self) -> int:
        return math.prod(len(d.values()) for d in self.dimensions)

    def to_json(self) -> list[dict[str, Any]]:
        return [{"name": d.name, "kind": d.kind, "low": d.low, "high": d.high, "step": d.step,
                 "choices": list(d.choices)} for d in self.dimensions]


def default_names(schema: ParamSchema) -> list[str]:
    """The parameters tuned when none are named."""
    return [p.name for p in schema if p.stage == "live" and p.tunable
            and p.kind in ("float", "int", "choice", "bool")]


def model_names(model: Model) -> list[str]:
    """What a search of `model` takes when none are named: `default_names`, narrowed to the
    model's `tuned_by_default` where it has one."""
    keep = set(model.tuned_by_default)
    return [n for n in default_names(model.schema) if not keep or n in keep]


def cut_offs(names: Sequence[str], objectives: Sequence[str],
             params: Mapping[str, Param] | None = None) -> dict[str, str]:
    """Of `names`, the selection cut-offs (`selection_figures.SELECTION_PARAMS`: a min score,
    a limit) where every one of `objectives` (the constraints' figures too) is a ranking
    metric, each with why: a cut drops the end of each ranking, so such a metric can only stay
    or fall (`objectives.cut_only_lowers`) and the loosest value scores best — a search over a
    min score that starts at 0 can never beat its start. A limit can also raise one where it
    splits documents of equal score (the metrics order ties by id, as trec_eval does, not as
    the model cut them): a gain by chance. A default search leaves them out; `cases`, a model's
    bundle figures and the selection figures keep them (a cut can drop a forbidden id, shrink
    a bundle, save tokens).

    With `params` (the model's parameters by name), also those declared `figures_only` (the
    bundle's stop rule and budget) where none of `objectives` is one of the model's own
    figures: they move nothing else, so every value scores alike and a search would ship a
    value drawn at random (ky: sufficiency 0.95 → 0.55 under ndcg@10, bundle recall −0.13)."""
    if not objectives:
        return {}
    out = _figures_only(names, objectives, params or {})
    if not all(cut_only_lowers(o) for o in objectives):
        return out
    said = " and ".join(dict.fromkeys(metric_label(o) for o in objectives))
    by_score = (f"a cut drops the end of each ranking, which can only lower {said}, so the "
                "loosest value scores best")
    by_count = (f"a limit drops the end of each ranking, which can lower {said} and raise it "
                "only where it splits documents of equal score, by chance")
    return {**out, **{n: by_count if n.endswith("limit") else by_score
                      for n in names if n in SELECTION_PARAMS}}


def _figures_only(names: Sequence[str], objectives: Sequence[str],
                  params: Mapping[str, Param]) -> dict[str, str]:
    """Of `names`, those `params` declares `figures_only`, with why, where no objective is
    one of the model's own figures (`cut_offs`)."""
    if any(o in MODEL_FIGURES for o in objectives):
        return {}
    labels = list(dict.fromkeys(metric_label(o) for o in objectives))
    why = (f"it moves only the bundle figures, which {' and '.join(labels)} "
           f"{'does' if len(labels) == 1 else 'do'} not read: every value scores alike")
    return {n: why for n in names if n in params and params[n].figures_only}


def idle_names(schema: ParamSchema, names: Sequence[str],
               params: Mapping[str, object]) -> dict[str, str]:
    """Of `names`, those idle at `params` by the schema's `needs` (rrf k while the
    normalisation is not rrf, the documented variant's constants under the shipped one) whose
    needed parameters are not searched too, each with why: a default search leaves them out,
    as their values change no score."""
    searched = set(names)
    out = {}
    for name in names:
        why = schema.idle_because(name, params)
        needed = {n.removeprefix("!").partition("=")[0] for n in schema[name].needs}
        if why and not needed & searched:
            out[name] = f"no effect while {why}"
    return out


def build_space(schema: ParamSchema, names: Sequence[str] | None = None,
                ranges: Mapping[str, tuple[float, float]] | None = None) -> SearchSpace:
    """Dimensions for `names` (None: `default_names`), `ranges` narrowing numeric ones. No
    names is nothing to tune, refused: a default search left with none on some data (each
    parameter moving no score there) had become the whole default set again, budget and all."""
    chosen = list(names) if names is not None else default_names(schema)
    if not chosen:
        raise ParamError("no parameter to tune" if names is not None
                         else "this model has no parameter to tune")
    ranges = dict(ranges or {})
    for name in ranges:
        if name not in chosen:
            raise ParamError(f"--range names {name}, which is not tuned (tuned: "
                             f"{', '.join(chosen)})")
    dims = [_dimension(schema[name], ranges.get(name)) for name in chosen]
    if len(set(chosen)) != len(chosen):
        raise ParamError("--tune names a parameter twice")
    return SearchSpace(tuple(dims))


def _dimension(p: Param, narrowed: tuple[float, float] | None) -> Dimension:
    if p.kind == "text":
        raise ParamError(f"parameter {p.name} is free text and cannot be tuned; set it with -p")
    if p.kind in ("choice", "bool"):
        if narrowed is not None:
            raise ParamError(f"--range applies to numeric parameters; {p.name} is a {p.kind}")
        choices: tuple[ParamValue, ...] = p.choices if p.kind == "choice" else (False, True)
        return Dimension(p.name, p.kind, p.stage, choices=choices)
    assert p.low is not None and p.high is not None
    low, high = narrowed if narrowed is not None else (p.low, p.high)
    if low > high:
        raise ParamError(f"--range {p.name}={low:g}:{high:g}: low is above high")
    for end in (low, high):
        try:
            p.validate(end)
        except ParamError as exc:  # said of the --range given, not of a value set
            raise ParamError(f"--range {p.name}={low:g}:{high:g}: {exc}") from None
    step = p.step if p.kind == "float" else (p.step or 1)
    if p.kind == "int":
        low, high = math.ceil(low), math.floor(high)
        if low > high:
            raise ParamError(f"--range for {p.name} holds no whole number")
    if step:
        # the searched values stay on the slider's grid, p.low + i·step: a narrowed low end
        # rounded up onto it, the high end down (a low of 0.33 moved every point off it)
        lo_i = math.ceil((low - p.low) / step - 1e-9)
        hi_i = math.floor((high - p.low) / step + 1e-9)
        if lo_i > hi_i:
            raise ParamError(f"--range {p.name}={low:g}:{high:g} holds no value on the "
                             f"slider's step ({step:g} from {p.low:g})")
        low, high = round(p.low + lo_i * step, 10), round(p.low + hi_i * step, 10)
    return Dimension(p.name, p.kind, p.stage, float(low), float(high), step)


def parse_names(spec: str | None, schema: ParamSchema) -> list[str] | None:
    """`--tune alpha,k1,b` → names (each checked against the schema)."""
    if spec is None:
        return None
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:  # "" fell back to every parameter unsaid
        raise ParamError("--tune names no parameter (leave it out to tune the default set)")
    # each by the schema's own name, in any case as -p reads it (dr7 4); raises with the
    # valid names
    out: list[str] = []
    typed: dict[str, str] = {}  # the schema's name → as first typed
    for n in names:
        name = schema.name_of(n)
        if name in typed:  # said by name, as typed both times (dr8 5: 'a parameter twice')
            both = "" if typed[name] == n == name else f" ({typed[name]}, {n})"
            raise ParamError(f"--tune names {name} twice{both}: keep one")
        typed[name] = n
        out.append(name)
    return out


def parse_ranges(items: Iterable[str], schema: ParamSchema | None = None,
                 warn: Callable[[str], None] | None = None,
                 ) -> dict[str, tuple[float, float]]:
    """`["alpha=0.3:0.9"]` → {"alpha": (0.3, 0.9)}; each name checked against `schema` where
    given (a misspelt name had reached the plan and raised a KeyError there). A parameter
    given twice (k1 and K1 too) keeps the last range, said to `warn` as a repeated -p is."""
    out: dict[str, tuple[float, float]] = {}
    typed: dict[str, str] = {}  # the schema's name → as first typed
    for item in items:
        name, sep, span = item.partition("=")
        low, colon, high = span.partition(":")
        try:
            if not sep or not colon:
                raise ValueError
            bounds = (float(low), float(high))
        except ValueError:
            raise ParamError(f"--range expects name=low:high, got {item!r}") from None
        if not all(math.isfinite(b) for b in bounds):
            raise ParamError(f"--range expects finite bounds, got {item!r}")
        name = given = name.strip()
        if schema is not None:  # K1 is k1, as -p reads it (dr7 4)
            try:
                name = schema.name_of(name)  # raises with the valid names
            except ParamError as e:
                raise ParamError(f"--range {item}: {e}") from None
        first = typed.setdefault(name, given)
        if name in out and warn is not None:  # the last had been kept unsaid (dr8 5)
            also = "" if first == given else f" (as {first} too)"
            warn(f"--range {given} given more than once{also}; using {given}={low.strip()}:"
                 f"{high.strip()}")
        out[name] = bounds
    return out


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def big_count(n: int) -> str:
    """A count in full, or as a power of ten where it would take a line ("4.2 × 10⁴⁵"): the
    CLI had printed a grid's 61 digits where the window said 2.0 × 10⁶¹ (rt 10)."""
    if n < 10**12:
        return f"{n:,}"
    mantissa, exponent = f"{n:.1e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"
