"""What a configuration scores once shipped: the target system runs only what its export
carries.

A ported model's export writes the settings its target system reads (environment variables,
a settings file). A changed constant that the original hard-codes ("none: edit …" its code),
or a workbench-only value the target does not have (`Export.outside`), stays at the
original's value when those settings are shipped — so the shipped system does not score as
the comparison's figures say. `as_shipped` runs the configuration with exactly the shipped
values, on the queries the comparison counts, so a report can say what shipping gives.
CodeLedger is left out: its ranker is closed, so no run here is what it will do.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.comparison import Comparison, Configuration, MetricRow, compare_configurations
from workbench.core.export import export_params, exporter_ids
from workbench.core.params import Params

# a closed ranker (and the preset on its document): the workbench's run is not its own
NOT_SCORED = frozenset({"codeledger", "codeledger-document"})


@dataclass(frozen=True)
class Shipped:
    """Configuration `index` of a comparison as its exported settings ship it."""

    index: int
    params: Params  # every value the target system runs with
    left_out: tuple[str, ...]  # the changed constants the export cannot carry
    target: str
    # each metric: the first configuration, this one as compared, as shipped; Δ and p of
    # "as shipped" against the first (None: no test)
    rows: tuple[tuple[str, float, float, float, float, float | None], ...]
    cases: tuple[int, int, int, int] | None = None  # first, compared, shipped passing; of n
    # each metric against its own model's defaults, what runs today, where the first is not
    # them: (metric, the defaults' mean, as shipped, Δ, p); () where the first is (review rb,
    # 5: with bm25 first the shippable gain over the status quo was nowhere)
    status_quo: tuple[tuple[str, float, float, float, float | None], ...] = ()
    # per metric, the queries that moved (better or worse) as shipped against the first, and
    # against its model's defaults: how strong its p can be (dr6 5, the shipped p had read
    # "weak evidence" where too few moved for any side look to be more)
    moved: tuple[tuple[str, int], ...] = ()
    quo_moved: tuple[tuple[str, int], ...] = ()

    def moved_on(self, metric: str, *, quo: bool = False) -> int | None:
        """The queries that moved on `metric` as shipped against the first (`quo`: against
        its model's defaults); None where not known."""
        return dict(self.quo_moved if quo else self.moved).get(metric)


def as_shipped(comp: Comparison, index: int) -> Shipped | None:
    """None where the export carries every changed value (the figures are the shipped
    system's), for a model with no target, and for CodeLedger (see the module docstring)."""
    if index not in comp.shipped_runs:
        comp.shipped_runs[index] = _as_shipped(comp, index)
    result: Shipped | None = comp.shipped_runs[index]
    return result


def _as_shipped(comp: Comparison, index: int) -> Shipped | None:
    own = comp.model_of(index)
    model = own.id
    if model not in exporter_ids() or model in NOT_SCORED:
        return None
    config = comp.configs[index]
    export = export_params(model, config.params)
    left = [c for c in export.changed if c.setting is None] + list(export.outside)
    if not left:
        return None
    params = own.schema.resolve({**config.params, **{c.name: c.original for c in left}})
    first = comp.configs[0]
    runs = [first, Configuration(f"{config.name} as shipped", params, model=own)]
    shipped = compare_configurations(comp.model, comp.dataset, runs, comp.metrics,
                                     seed=0)
    by_metric: dict[str, MetricRow] = {r.metric: r for r in comp.rows}
    rows = []
    moved = []
    for row in shipped.rows:
        compared = by_metric.get(row.metric)
        if compared is None:
            continue
        rows.append((row.metric, row.means[0], compared.means[index], row.means[1],
                     row.deltas[1], row.p_values[1]))
        moved.append((row.metric, row.improved[1] + row.worsened[1]))
    quo, quo_moved = _status_quo(comp, index, params)
    return Shipped(index, params, tuple(c.name for c in left), export.target, tuple(rows),
                   _cases(comp, shipped, index), quo, tuple(moved), quo_moved)


def _status_quo(comp: Comparison, index: int, params: Params
                ) -> tuple[tuple[tuple[str, float, float, float, float | None], ...],
                           tuple[tuple[str, int], ...]]:
    """Configuration `index` as shipped (`params`) against its own model's defaults, on each
    metric the comparison has, and the queries that moved on each: () where the first
    configuration is those defaults already."""
    own = comp.model_of(index)
    defaults = own.schema.defaults()
    first = comp.model_of(0)
    if first.id == own.id and dict(first.schema.resolve(comp.configs[0].params)) == dict(defaults):
        return (), ()
    runs = [Configuration(f"{own.id} defaults", defaults, model=own),
            Configuration(f"{comp.configs[index].name} as shipped", params, model=own)]
    quo = compare_configurations(comp.model, comp.dataset, runs, comp.metrics, seed=0)
    return (tuple((r.metric, r.means[0], r.means[1], r.deltas[1], r.p_values[1])
                  for r in quo.rows),
            tuple((r.metric, r.improved[1] + r.worsened[1]) for r in quo.rows))


def _cases(comp: Comparison, shipped: Comparison,
           index: int) -> tuple[int, int, int, int] | None:
    from workbench.core.cases import check_cases, has_cases

    if not has_cases(comp.dataset):
        return None
    counted = {q.id for q, c in zip(comp.dataset.queries, comp.counted, strict=True) if c}

    def passing(ranking: object) -> tuple[int, int]:
        report = check_cases(comp.dataset, ranking)  # type: ignore[arg-type]
        mine = [c.passed for c in report.cases if c.query in counted]
        return sum(mine), len(mine)

    (a, n), (b, _), (c, _) = (passing(comp.results[0].ranking),
                              passing(comp.results[index].ranking),
                              passing(shipped.results[1].ranking))
    return a, b, c, n
