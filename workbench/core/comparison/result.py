"""What a comparison holds once run (`Comparison` and its `MetricRow`s) and what a reader must
know of its data (`data_notes`): the one record compare, the report and the window read."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.compare import Agreement, Mover, agreement, movers
from workbench.core.comparison.configuration import READING_PARAMS, Configuration, differing
from workbench.core.comparison.values import EMPTY, shown_value
from workbench.core.data import Dataset
from workbench.core.engine import Model, Scores
from workbench.core.metrics.significance import NO_CHANGE
from workbench.core.params import ParamValue
from workbench.core.pipeline import Result

if TYPE_CHECKING:
    from workbench.core.cost import CostSection


@dataclass(frozen=True)
class MetricRow:
    """One metric across the configurations; entry i is configuration i (deltas, tests and
    counts against configuration 0, so their entry 0 is 0 / None). improved / worsened count
    the queries that got better / worse: for a bundle's files or tokens, fewer is better."""

    metric: str
    means: list[float]
    deltas: list[float]
    p_values: list[float | None]
    improved: list[int]
    worsened: list[int]


@dataclass
class Comparison:
    model: Model
    dataset: Dataset
    configs: list[Configuration]
    results: list[Result]
    metrics: list[str]
    rows: list[MetricRow] = field(default_factory=list)
    # what a reader must know to read the figures (which queries, tuned on which): shown with
    # what was compared
    notes: list[str] = field(default_factory=list)
    # judged queries whose judgments were set aside (a configuration was tuned on them):
    # `dataset` counts the others only
    set_aside: int = 0
    # of them, those set aside only as repeats of queries tuned on (`twins_set_aside`): the
    # values saw none of them, so they are not called "tuned on" (dJ 1)
    set_aside_twins: int = 0
    # what each configuration's selection returns (`selection_figures.compare_figures`:
    # results, empty, injected tokens), where asked for or where nothing is judged: the
    # figures an unjudged comparison has, shown by compare and the report alike
    figures: list[Any] = field(default_factory=list)
    # the queries of the query file left out as unjudged, said beside the judged count
    # ("36 without judgments left out"; `core.checks.left_out_text`); "" where none was
    left_out: str = ""
    # the files the figures come from, said with what was compared (a report of SciFact's
    # train split had read as one of its test split): the query file ("queries.test.jsonl",
    # a --queries path; "" where unknown) and the judgments, as eval words them ("split test
    # (qrels/test.tsv), binary; relevant: grade ≥ 1"; "" where there are none)
    queries_from: str = ""
    judgments: str = ""
    # configurations whose figures count queries they were tuned on (k-fold values, or
    # --all-queries): training scores, marked as such wherever the figures are shown
    training: frozenset[str] = frozenset()
    # each configuration's `[tuned]` record (tune --out), by name: its held-out figures
    tuned: dict[str, Any] = field(default_factory=dict)
    # per configuration, the parameters no score can move with on this data, with why
    # (`Model.inert_params`: an eval case's own top K replaces inject_limit)
    inert: list[dict[str, str]] = field(default_factory=list)
    # where there are no judgments, what to give to measure ("--qrels FILE"): said last, after
    # what the comparison does show (it had led the report, a command line before any figure)
    measure_hint: str = ""
    # `core.shipped.as_shipped`'s runs, by configuration index (a report asks twice)
    shipped_runs: dict[int, Any] = field(default_factory=dict, repr=False)
    # each configuration's prepared state (`compare_configurations` keeps them): where a
    # model kept only the pairs a ranking to the depth compared can reach (hybrid), a place
    # past that depth is counted over every pair, as `explain` counts it
    prepared: list[Any] = field(default_factory=list, repr=False)
    # per configuration, the queries its selection figures count as turns and what they
    # leave out (`diagnostics.counted_queries`, as eval and sweep count them); None where
    # every query counts (a model without query modes)
    turns: list[Any] = field(default_factory=list, repr=False)
    _whole: dict[int, Scores] = field(default_factory=dict, repr=False)
    # (configuration, the setting undone alone, "" for none) → that run's places and totals
    # (`comparison.undo`): each mover of a configuration reads the same runs
    undone_runs: dict[tuple[int, str], Any] = field(default_factory=dict, repr=False)
    # what each configuration costs, measured (`core.cost.cost_section`), where asked for
    # (`report --cost`): shown under what was compared; None where not asked for
    cost: CostSection | None = field(default=None, repr=False)

    def whole_scores(self, j: int) -> Scores | None:
        """Configuration j's scores of every pair its model scores (`Model.combine`), where
        the comparison's own table left some out (`Scores.elsewhere`); None where it left
        none out or the prepared state is not at hand. Computed once per configuration."""
        if self.results[j].scores.elsewhere is None or j >= len(self.prepared):
            return None
        if j not in self._whole:
            model = self.model_of(j)
            self._whole[j] = model.combine(self.prepared[j],
                                           model.schema.resolve(self.configs[j].params))
        return self._whole[j]

    @property
    def judged_text(self) -> str:
        """"25 judged", or "5 judged and counted, 5 tuned on set aside"; repeats of queries
        tuned on said as such: "807 judged and counted, 2 set aside: they repeat queries
        tuned on" (dJ 1: "2 tuned on set aside" had sat above a note that the values were
        tuned on none of them)."""
        from workbench.core.tuning.data import dataset_nouns, one_of

        judged = len(self.dataset.qrels or {})
        left_out = f" ({self.left_out})" if self.left_out else ""
        if not self.set_aside:
            return f"{judged:,} judged{left_out}"
        n, twins = self.set_aside, min(self.set_aside_twins, self.set_aside)
        qs = dataset_nouns(self.dataset)[1]
        repeat = (f"1 repeats a {one_of(qs)} tuned on" if twins == 1 else
                  f"{twins:,} repeat {qs} tuned on")
        aside = (f"{n:,} tuned on set aside" if not twins else
                 f"1 set aside: it repeats a {one_of(qs)} tuned on" if n == 1 else
                 f"{n:,} set aside: they repeat {qs} tuned on" if twins == n else
                 f"{n:,} set aside: {n - twins:,} tuned on, {repeat}")
        return f"{judged:,} judged and counted, {aside}{left_out}"

    def model_of(self, i: int) -> Model:
        """The model configuration i is of."""
        return self.configs[i].model or self.model

    @property
    def mixed(self) -> bool:
        """Whether the configurations are of more than one model (codeledger against bm25):
        their scores are then on no common scale, and only places and metrics compare."""
        return len({self.model_of(i).id for i in range(len(self.configs))}) > 1

    def same_model(self, i: int, j: int = 0) -> bool:
        """Whether configurations i and j are of one model, or of a model and its preset
        (codeledger and codeledger-document): the same parameters and signals, so that their
        scores and signals compare."""
        a, b = self.model_of(i), self.model_of(j)
        return a.id == b.id or (
            [p.name for p in a.schema] == [p.name for p in b.schema]
            and [s.name for s in a.signals] == [s.name for s in b.signals])

    @property
    def model_ids(self) -> list[str]:
        """The models compared, each once, in the configurations' order."""
        return list(dict.fromkeys(self.model_of(i).id for i in range(len(self.configs))))

    @property
    def differing(self) -> dict[str, list[ParamValue | None]]:
        configs = self.configs
        if self.mixed:  # every configuration with its model: `differing` then reads each
            configs = [c if c.model is not None else replace(c, model=self.model)
                       for c in configs]
        return differing(configs)

    @property
    def counted(self) -> NDArray[np.bool_]:
        """bool (Q,): the queries the means count — the judged ones (those a configuration was
        tuned on are no longer judged here), every query where nothing is judged."""
        qrels = self.dataset.qrels
        if not qrels:
            return np.ones(len(self.dataset.queries), bool)
        return np.fromiter((bool(qrels.get(q)) for q in self.dataset.queries.ids), bool,
                           len(self.dataset.queries))

    def turn_masks(self) -> list[NDArray[np.bool_] | None]:
        """Per configuration, bool (Q,): the queries its selection figures count
        (`turns`); None where every query counts."""
        return [None if t is None else np.asarray(t[0], np.bool_) for t in self.turns]

    def per_query_delta(self, metric: str, i: int) -> NDArray[np.float64]:
        """float64 (Q,): configuration i − configuration 0 per query, NaN where a query is not
        counted (unjudged, or set aside as tuned on): a bundle's files and tokens exist for
        every task, and an interval or chart over them must count what the means count.
        A difference within NO_CHANGE (float noise) is 0, so no count of queries improved
        takes it for one."""
        missing = np.full(len(self.dataset.queries), np.nan)  # a model without the figure
        a = self.results[0].per_query.get(metric, missing)
        b = self.results[i].per_query.get(metric, missing)
        d = b - a
        d = np.where(np.abs(d) <= NO_CHANGE, 0.0, d)
        return np.where(self.counted, d, np.nan).astype(np.float64)

    def untested(self, i: int) -> dict[str, str]:
        """The parameters configuration i changes from the first that have no effect on this
        data under either (each with why): the comparison measured nothing about them."""
        if not self.inert or not self.same_model(i):
            return {}
        return {n: self.inert[i].get(n) or self.inert[0][n]
                for n, v in self.differing.items() if v[0] != v[i]
                and n in self.inert[0] and n in self.inert[i]}

    def lengths(self, j: int) -> NDArray[np.int64]:
        """int64 (counted queries,): how many results configuration j returns per query."""
        return self.results[j].ranking.count[self.counted].astype(np.int64)

    def cut_short(self, i: int) -> bool:
        """Whether configuration 0 and configuration i return lists of different lengths for
        some counted query (a limit or min score cuts one of them): a metric at a depth past
        the shorter list then counts fewer results, not a different order."""
        return bool((self.lengths(0) != self.lengths(i)).any())

    def same_order(self, i: int) -> bool:
        """Whether, on every counted query, the shorter of the two lists is the start of the
        longer: the two configurations rank alike and differ only in where they stop."""
        a, b = self.results[0].ranking, self.results[i].ranking
        for q in np.flatnonzero(self.counted):
            m = int(min(a.count[q], b.count[q]))
            if not np.array_equal(a.docs[q, :m], b.docs[q, :m]):
                return False
        return True

    def stops_only(self, i: int) -> bool:
        """Whether configurations 0 and i rank alike and differ only in where they stop; not
        where one returns nothing at all (no order to share: "the order is the same; one
        stops sooner" had been said of a model that ranked nothing)."""
        return (self.cut_short(i) and bool(self.lengths(0).any()) and bool(self.lengths(i).any())
                and self.same_order(i))

    def agreement(self, i: int, k: int = 10) -> Agreement:
        """How alike configuration i's top k is to configuration 0's, over the counted
        queries (judged or not: it needs no judgment); where the two differ only in where
        they stop, over the shorter list of each query ("same order 5 of 20" had read as a
        change of order where one list only stopped at 5)."""
        return agreement(self.results[i], self.results[0], k, self.counted,
                         shorter=self.stops_only(i))

    def movers(self, i: int, k: int = 10, top: int = 50) -> list[Mover]:
        """Documents that moved between configuration 0 and configuration i, largest first;
        where queries a configuration was tuned on are set aside, of the counted ones only
        (a move on a training query shows what the tuning fitted, not what it does)."""
        counted = self.counted if self.set_aside else None
        return movers(self.results[i], self.results[0], k, top, counted)


def data_notes(comp: Comparison) -> list[str]:
    """What a reader of the comparison must know of the data, as `compare`, `report` and the
    window say it: each model's `data_warnings` (what eval warns of: decision-memory on
    records that are no decisions), then each configuration that returns nothing on any
    counted query, pointing to the warning where its model has one (a loss "beyond chance
    … from the cut" had explained a model that read nothing)."""
    out: list[str] = []
    warned: set[str] = set()
    seen: set[str] = set()
    for j in range(len(comp.configs)):
        m = comp.model_of(j)
        if m.id in seen:
            continue
        seen.add(m.id)
        for line in m.data_warnings(comp.dataset, m.schema.resolve(comp.configs[j].params)):
            warned.add(m.id)
            # named by its model where models are compared, unless the line names it first
            out.append(f"{m.id}: {line}" if comp.mixed and not line.startswith(m.id) else line)
    out += reading_notes(comp)
    n = int(comp.counted.sum())
    for j, c in enumerate(comp.configs):
        if not n or comp.lengths(j).any():
            continue
        mid = comp.model_of(j).id
        why = ("see the warning above" if mid in warned else
               f"eval -m {mid} says what it reads of this data" if comp.mixed else
               "nothing passes its settings")
        out.append(f"{c.name} returns nothing on any of the {n:,} queries counted: {why}")
    return out


def reading_notes(comp: Comparison) -> list[str]:
    """Where models are compared and they read the documents differently (a parameter of
    `READING_PARAMS` with other values in configurations of different models: hybrid's
    fields = text beside bm25's title+text), that the comparison is not like for like, in
    one line (rb 4: "hybrid against bm25" had read as the same documents scored two ways).
    A value varied within one model (bm25 stemmer=none beside bm25's defaults) is the
    experiment, not a caveat: it is said only beside the model's own, in brackets (dr5 4).
    Both prompts alike are said once; bm25 beside hybrid, that each tokenizes its own way
    (hybrid's BM25 half keeps OpenVault's stop list and length rule, constants; dr5 7)."""
    if not comp.mixed:
        return []
    said = []
    clauses: dict[str, tuple[list[tuple[str, list[str]]], list[str]]] = {}
    for name in READING_PARAMS:
        found = _reading_clause(comp, name)
        if found is not None:
            clauses[name] = found
    prompts = clauses.get("query_prompt")
    both = prompts is not None and prompts == clauses.get("document_prompt")
    for name, (groups, aside) in clauses.items():
        if name == "fields":
            said += [f"{_names(who)} read{'s' if len(who) == 1 else ''} {value}"
                     + (" only" if "+" not in value else "") for value, who in groups]
            said[-1] += _aside(aside)
        elif both and name == "document_prompt":
            continue
        elif both:
            said.append("prompts: " + ", ".join(
                f"{v}" + (" for queries and documents" if v != EMPTY else "")
                + f" ({_names(w)})" for v, w in groups) + _aside(aside))
        else:
            said.append(f"{name}: {', '.join(f'{v} ({_names(w)})' for v, w in groups)}"
                        + _aside(aside))
    if not said:
        return []
    ids = {comp.model_of(j).id for j in range(len(comp.configs))}
    if {"bm25", "hybrid"} <= ids:
        said.append("bm25 and hybrid each tokenize their own way")
    return ["not like-for-like: " + "; ".join(said) + ": part of any difference "
            "between these models is what each reads, not how it scores (Parameters that "
            "differ)"]


def _reading_clause(comp: Comparison, name: str
                    ) -> tuple[list[tuple[str, list[str]]], list[str]] | None:
    """What parameter `name` reads in each model, where it differs between configurations of
    different models: the configurations at their model's own value (its first
    configuration's), grouped by value, and, aside, each configuration that varies it within
    its model ("stemmer=none reads none"); None where no two models read it differently."""
    values: list[tuple[str, str, str]] = []  # (model, configuration, value)
    for j, c in enumerate(comp.configs):
        model = comp.model_of(j)
        params = model.schema.resolve(c.params)
        if name in params:
            values.append((model.id, c.name, _reading_value(
                params[name], model.schema[name].kind == "text")))
    if not any(m != n and v != w for m, _, v in values for n, _, w in values):
        return None
    base: dict[str, str] = {}
    for model_id, _, value in values:
        base.setdefault(model_id, value)
    groups: dict[str, list[str]] = {}
    aside = []
    for model_id, config, value in values:
        if value == base[model_id]:
            groups.setdefault(value, []).append(config)
        else:
            like = next((m for m, v in base.items() if v == value and m != model_id), None)
            aside.append(f"{config}, of {model_id}, reads {value}"
                         + (f" as {like} does" if like else ""))
    return list(groups.items()), aside


def _aside(aside: list[str]) -> str:
    return f" ({'; '.join(aside)})" if aside else ""


def _reading_value(value: Any, text: bool = False) -> str:
    """A value as the note says it: as the parameter table and the movers (`shown_value`: a
    prompt quoted, an empty one ''); any other, a name with spaces quoted."""
    if text:
        return shown_value(value, True)
    return repr(value) if isinstance(value, str) and " " in value else str(value)


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
