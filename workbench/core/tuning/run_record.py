"""How a tuning run found its values, as `[tuned]`'s `KEY = VALUE` lines (`tuned_on.RUN_KEYS`):
written by `tune --out` and by the window's Tune tab into the configuration it saves, from one
function so that the two cannot list different keys."""

from __future__ import annotations

from typing import Any


def run_lines(result: Any) -> list[str]:
    """`KEY = VALUE` lines of `[tuned]` on how the values were found (`tuned_on.RUN_KEYS`):
    the pick rule, sampler and seed, the trials each study holds, the trial kept (0 and up;
    "start" for the starting values), the parameters searched and their ranges ({low, high,
    step}, or the choices), the workbench version and when (ISO 8601, UTC). The file alone named
    none of them: a `--pick best` file read as a bound one (rb 4)."""
    from datetime import UTC, datetime

    from workbench import __version__
    from workbench.core.params import toml_string

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        return toml_string(str(v))

    spec, final = result.spec, result.final
    studies = [*result.folds, *([final] if final not in result.folds else [])]
    primary = spec.objectives[0]
    pick = (spec.pick if len(spec.objectives) == 1 else
            f"the Pareto front's best {primary} on training")
    def span(d: Any) -> str:  # {low, high, step}: the plan's "k1 [0, 3] step 0.05" (dr1 10)
        if d.kind in ("choice", "bool"):
            return "[" + ", ".join(value(v) for v in d.choices) + "]"
        num = int if d.kind == "int" else float
        return (f"{{low = {value(num(d.low))}, high = {value(num(d.high))}"
                + (f", step = {value(num(d.step))}" if d.step else "") + "}")

    ranges = {d.name: span(d) for d in spec.space.dimensions}
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return [
        f"pick = {toml_string(pick)}", f"sampler = {toml_string(spec.sampler)}",
        f"seed = {spec.seed}",
        "trials = {" + ", ".join(f"{toml_string(f.name)} = {f.trials}" for f in studies) + "}",
        "kept_trial = " + value("start" if final.kept_start or final.picked is None
                                else final.picked),
        "searched = [" + ", ".join(toml_string(n) for n in ranges) + "]",
        "ranges = {" + ", ".join(f"{toml_string(n)} = {r}" for n, r in ranges.items()) + "}",
        f"workbench_version = {toml_string(__version__)}", f"created = {toml_string(when)}"]
