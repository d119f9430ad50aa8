"""`workbench compare` and `workbench report` (one self-contained HTML file, or Markdown):
several configurations of one model (params TOML files, and the model's defaults) on one
dataset, for people who do not drive sliders — the metric table with differences, p-values and
queries improved/worsened against the first configuration, and the documents that moved most
with their explain diff."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.cli.args import warn_repeated, whole
from workbench.cli.common import (
    EXIT_OK,
    MODEL_HELP,
    UsageError,
    add_data,
    informative_metrics,
    left_out_note,
    load_data,
    metric_list,
    model_list,
    say_fitted,
)
from workbench.cli.evaluate import (
    CODE_METRICS,
    check_bundle_metrics,
    code_tasks,
    judgments_hint,
    judgments_line,
    no_judgments,
)
from workbench.cli.output import check_output, check_outputs_apart, input_files, write_outputs
from workbench.core.comparison import (
    Configuration,
    compare_configurations,
    configuration_file,
    data_notes,
)
from workbench.core.cost import COST_HEADER, CostSection, cost_rows, cost_section
from workbench.core.data import Dataset
from workbench.core.engine import Progress
from workbench.core.metrics import BUNDLE_METRICS
from workbench.core.models import get_model, model_ids
from workbench.core.params import ParamError, file_model, parse_assignments, resolve_file
from workbench.core.pipeline import DEFAULT_METRICS
from workbench.core.selection_figures import (
    FIGURES,
    FigureRow,
    compare_figures,
    selects,
    snippet_chars,
)
from workbench.core.tuned_on import (
    TunedOn,
    held_out_queries,
    judged_count,
    read_tuned_on,
    training_configurations,
    twins_set_aside,
)
from workbench.report.html import html_report
from workbench.report.pairs import holm_rule, pair_summary, pair_table, pairs
from workbench.report.text import (
    DELTA_LEGEND,
    TRAINED_NOTE,
    agreement_table,
    case_lines,
    figure_notes,
    figure_table,
    length_notes,
    many_tests_note,
    markdown,
    mean_text,
    metric_table,
    minus_text,
    mover_lines,
    movers_heading,
    p_text,
    pair_texts,
    params_table,
    row_digits,
    settings_key,
    subject,
    trained_pair,
)
from workbench.textout import format_table, progress_bar, wrap

FORMATS = ("html", "md")
DEFAULTS = "defaults"  # the name of a model's defaults as a configuration
# for code tasks: eval's ranking metrics, then (a model that selects bundles) what the bundle
# handed to the agent holds and costs
CODE_COMPARE_METRICS = f"{CODE_METRICS},{','.join(BUNDLE_METRICS)}"


class ParamsFile(argparse.Action):
    """--params FILE: a configuration, in its place among the --config files, and the file
    --param's values are set over (`params_files`)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                  values: Any, option_string: str | None = None) -> None:
        namespace.config = [*(getattr(namespace, "config", None) or []), values]
        namespace.params_files = [*(getattr(namespace, "params_files", None) or []), values]


def add_commands(sub: Any) -> None:
    for name, helptext in (
            ("compare", "several configurations side by side: metrics with Δ, p-values and "
                        "▲/▼ against the first, the documents that moved most and why"),
            ("report", "the comparison as a file to share: one self-contained HTML page "
                       "(charts, movers and why, the settings to ship) or Markdown for a pull "
                       "request")):
        p = sub.add_parser(name, help=helptext)
        add_data(p)
        p.add_argument("--model", "-m", required=True, type=model_list, action="append",
                       help=MODEL_HELP + "; several, comma-separated or repeated, to compare "
                       "models on the same data (-m codeledger,bm25 or -m codeledger -m bm25): "
                       "each model with no --config of its own is "
                       "compared at its defaults, named by the model, the first model's "
                       "first configuration is what the others are compared with, a --config "
                       "file goes to the model it names (else to the one whose parameters it "
                       "sets), and --param sets the first model's values")
        p.add_argument("--config", "-c", action="append", metavar="FILE.toml",
                       default=[],
                       help="a configuration: a params TOML file (what `tune --out` writes), "
                       "named by its file name; repeat for each; the first is what the others "
                       "are compared with")
        # --params: every other command's name for a params file, and as there what -p's
        # values are set over (it had been an alias of --config, and -p beside it had
        # silently started again from the defaults: review rn 4)
        p.add_argument("--params", action=ParamsFile, metavar="FILE.toml",
                       help="a configuration as --config is, and (as in eval) the values "
                       "--param sets its own over: --params mine.toml -p b=0.5 compares mine "
                       "with 'mine + b=0.5'")
        p.add_argument("--defaults", action="store_true",
                       help="the model's defaults as the first configuration (with several "
                       "models: each model's defaults)")
        p.add_argument("--param", "-p", action="append", metavar="NAME=VALUE", default=[],
                       help="one more configuration, after the --config files: the model's "
                       "defaults (or the --params file's values) with these values, named by "
                       "them (-p k1=1.6 -p b=0.5: 'k1=1.6 b=0.5'; beside a --config file, "
                       "which it does not build on: 'defaults + k1=1.6 b=0.5'); repeat for "
                       "each value it sets")
        p.add_argument("--metrics",
                       help=f"comma-separated metrics (default {','.join(DEFAULT_METRICS)}, "
                       "judged@10 left out where every judgment is of a relevant document: "
                       "it is p@10 there; "
                       f"on a git repository or for a model that selects bundles "
                       f"{CODE_COMPARE_METRICS})")
        p.add_argument("--all-queries", action="store_true",
                       help="compare on every judged query, also those a configuration written "
                       "by `tune --out` was tuned on (by default they are left out: there its "
                       "figures are training scores)")
        p.add_argument("--top", "--k", dest="k", type=whole(1), default=10, metavar="K",
                       help="the top k: movers enter or leave it, and how alike the "
                       "rankings are is counted over it (default 10)")
        p.add_argument("--movers", type=whole(0), default=5, metavar="N",
                       help="documents that moved most shown per configuration (default 5; "
                       "the HTML report shows N of each kind: entered, left, jumped)")
        p.add_argument("--cost", action="store_true",
                       help="also what each configuration costs, measured on this "
                       "machine: its build (timed whole, seconds to minutes; the "
                       "documents embedded and read from the cache counted), the vectors' "
                       "store and the documents' index, a query answered (p50/p95 over a "
                       "sample) and a query embedded with the real encoder; what a change "
                       "between them costs (re-embedding, or nothing for a live value)"
                       + ("; a report shows it under what was compared"
                          if name == "report" else ""))
        if name == "report":
            p.add_argument("--format", choices=FORMATS, default=None,
                           help="html: one self-contained page, no network or other files "
                           "needed; md: Markdown (default: by --out's ending, .html/.htm or "
                           ".md/.markdown, html for -; another ending needs --format)")
            p.add_argument("--out", "-o", required=True, metavar="FILE", help="where to write "
                           "it (- for standard output)")
        p.set_defaults(func=cmd_compare if name == "compare" else cmd_report)


def _comparison(args: argparse.Namespace, with_figures: bool = False,
                echo_fitted: bool = False) -> tuple[Any, list[FigureRow]]:
    """The configurations compared on the data; with `with_figures` (compare and report),
    the selection figures --metrics names (all three by default without judgments, for a
    model with a min score or limit), each configuration's against the first's;
    `echo_fitted`: the fitted-history note said on stderr as well as kept in the notes."""
    models = _models(args.model)
    model = models[0]
    said: list[str] = []
    configs = _told_apart(_configurations(args, models, said))
    named = [m.strip() for m in (args.metrics or "").split(",") if m.strip()]
    figures = list(dict.fromkeys(m.lower() for m in named if m.lower() in FIGURES))
    asked = ",".join(m for m in named if m.lower() not in FIGURES)
    metrics = (metric_list(asked if args.metrics is not None  # "" names none: refused
                           else _default_metrics(args, models))
               if asked or not figures else [])
    # a bundle figure needs one model that selects bundles; the others' rows are blank
    check_bundle_metrics(metrics, next((m for m in models if hasattr(m, "bundles")), model))
    dataset = load_data(args)
    if not dataset.qrels and not len(dataset.queries):
        no_judgments(args, dataset, "compare")
    if (with_figures and not dataset.qrels and args.metrics is None
            and any(selects(m) for m in models)):
        # what each returns, judged or not (as eval and sweep do); not beside a model with
        # no min score or limit, whose "results" would be every candidate (bm25's 2,571 a
        # query, and tokens to match) where nothing selects
        unselecting = [m.id for m in models if not selects(m)]
        if unselecting:
            said.append(f"what each returns (results, empty queries, injected tokens) is "
                        f"left out: {_and_ids(unselecting)} "
                        f"{'has' if len(unselecting) == 1 else 'have'} no min score or limit "
                        "to select with (--metrics results,empty,injected_tokens counts "
                        "them all the same)")
        else:
            figures = list(FIGURES)
    metrics = informative_metrics(metrics, dataset, bool(args.metrics))
    lacking = [m.id for m in models if not hasattr(m, "bundles")]
    if lacking and len(lacking) < len(models) and any(m in BUNDLE_METRICS for m in metrics):
        said.append(f"{_and_ids(lacking)} select{'s' if len(lacking) == 1 else ''} no "
                    "bundle: the bundle rows are blank there")
    before = dataset
    dataset, notes = held_out(dataset, configs, args.all_queries, model)
    with progress_bar("comparing") as bar:
        comp = compare_configurations(model, dataset, configs, metrics,
                                      progress=Progress(on_progress=bar))
    if not dataset.qrels:  # the rankings side by side: how alike, and what moved
        comp.measure_hint = judgments_hint(args, dataset)
    # as eval, rank and explain say it: a figure on tasks the defaults were fitted on is no
    # unseen test of them (rv2 4); once a model, however many configurations it has; of the
    # tasks the table counts (dr8 5: "103 of 103" beside a table of the 51 held out), and
    # among the notes, so that a report's file holds it (the report says it on stderr too)
    counted = {q for q, c in zip(dataset.queries.ids, comp.counted, strict=True) if c}
    fitted = [say_fitted(one, dataset, counted, "compared", echo=echo_fitted)
              for one in {m.id: m for m in models}.values()]
    comp.notes = (notes + said + [n.removeprefix("note: ") for n in fitted if n]
                  + data_notes(comp))
    comp.set_aside = judged_count(before) - judged_count(dataset)
    if comp.set_aside:  # of them, repeats of queries tuned on: not called tuned on (dJ 1)
        comp.set_aside_twins = twins_set_aside(
            before, tuned_notes(configs, model), [q for q, d in (before.qrels or {}).items() if d])
    comp.left_out = left_out_note(args, before).strip().removeprefix("(").removesuffix(")")
    from workbench.core.cases import has_cases
    from workbench.core.tuning.data import is_task_set

    comp.queries_from = queries_file(args)
    if before.qrels:  # eval's words: "split test (qrels/test.tsv), binary; relevant: …"
        comp.judgments = judgments_line(args, before, metrics).removeprefix("judgments: ")
        if comp.queries_from and comp.judgments.startswith("from the data") and (
                is_task_set(before) or has_cases(before)):  # the task or case file's own
            comp.judgments = comp.judgments.replace("from the data",
                                                    f"in {comp.queries_from}", 1)
    comp.training = training_configurations(dataset, tuned_notes(configs, model))
    comp.tuned = dict(tuned_notes(configs, model))
    chars = snippet_chars(dataset) if "injected_tokens" in figures else None
    comp.figures = compare_figures(figures, comp.results, comp.counted, chars,
                                   turns=comp.turn_masks())
    return comp, comp.figures


def queries_file(args: argparse.Namespace) -> str:
    """The query file the comparison read, as a reader finds it: --queries as given; else the
    one in DATA's folder its format reads ("queries.test.jsonl" of a BEIR folder read in
    split test, a vault's queries.jsonl, OpenVault's contexts.jsonl, a repository's task
    file), named from DATA; "" where the queries are in DATA itself (a chat, a file of
    memories) or the folder holds no such file."""
    from workbench.core.formats.auto import EVAL_FILE
    from workbench.core.formats.code_repo import (
        TASKS_FILE,
        is_code_repo,
        is_sample_stream_folder,
    )
    from workbench.core.formats.openvault import CONTEXTS_FILE, is_openvault_folder
    from workbench.core.formats.pi_memory import INJECTIONS_FILE, is_pi_memory_folder

    given = getattr(args, "queries", None)
    if given:
        return str(given)
    folder = Path(args.data) if args.data else None
    if folder is None or not folder.is_dir():
        return ""
    split = getattr(args, "split", "test")
    # in the order the reader tries the formats (`core.formats.auto.load_dataset`)
    if is_code_repo(folder):
        names = [f".codeledger/{TASKS_FILE}"]
    elif is_sample_stream_folder(folder):
        names = [TASKS_FILE]
    elif (folder / "corpus.jsonl").is_file():  # BEIR: the split's own queries first
        names = [f"queries.{split}.jsonl", "queries.jsonl"]
    elif is_openvault_folder(folder):
        names = [CONTEXTS_FILE]
    elif is_pi_memory_folder(folder):  # the prompts of its injection log
        names = [INJECTIONS_FILE]
    elif (folder / EVAL_FILE).is_file():
        names = [EVAL_FILE]
    else:  # a vault: beside its notes, or beside the notes/ folder given
        names = ["queries.jsonl"] + (["../queries.jsonl"] if folder.name == "notes" else [])
    found = next((n for n in names if (folder / n).is_file()), None)
    if found is None:
        return ""
    # beside the notes/ folder given: named from where DATA is ("sample/queries.jsonl")
    return found if not found.startswith("..") else os.path.normpath(folder / found)


def _and_ids(ids: Sequence[str]) -> str:
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]}"


def _models(named: Sequence[str]) -> list[Any]:
    """The models -m names, in order, comma lists and repeated -m alike (each id already:
    `model_list` reads a system's name as its model's); one named twice is a usage error."""
    out: list[Any] = []
    for name in (part for given in named for part in given.split(",")):
        try:
            m = get_model(name)
        except KeyError:
            raise UsageError(f"--model {name}: no such model (valid: "
                             f"{', '.join(model_ids())})") from None
        if any(o.id == m.id for o in out):
            raise UsageError(f"--model {m.id} is given twice: give another model, or compare "
                             f"configurations of {m.id} with --defaults, --config FILE.toml "
                             "and --param NAME=VALUE")
        out.append(m)
    return out


def _configurations(args: argparse.Namespace, models: Sequence[Any],
                    said: list[str] | None = None) -> list[Configuration]:
    """The configurations in the order compared: per model (in -m's order), its defaults
    (--defaults, or a model of several with no configuration of its own), its --config
    files, then the first model's --param values. With one model, each configuration is of
    it; with several, each carries its model, and a file goes to the model it names."""
    first = models[0]
    mixed = len(models) > 1
    files: dict[str, list[str]] = {m.id: [] for m in models}
    for path in args.config:
        files[(_model_of_file(path, models, said) if mixed else first).id].append(path)
    base = _params_base(args, first, files[first.id])
    configs: list[Configuration] = []
    for m in models:
        own: list[Configuration] = []
        over: Configuration | None = None  # the --params file's, that -p sets values over
        for path in files[m.id]:
            try:
                own.append(configuration_file(m, path))
                if path == base:
                    over = own[-1]
            except ParamError as exc:
                rule = (f" (a file goes to the -m model it names on its first line, `# the "
                        "defaults of MODEL`, or in its [tuned] model, else to the one whose "
                        f"parameters it sets; none of {', '.join(x.id for x in models)} takes "
                        "all of them)" if mixed else "")
                raise UsageError(f"--config {exc}{rule}") from None
        if m is first and args.param:
            # beside -c files, -p starts from the defaults, not from a file: named so, and
            # said once (dr4 4: `-c mine.toml -p variant=atire` had been named `variant=atire`
            # while it reset mine's k1 and b)
            beside = bool(files[m.id]) and over is None
            try:
                own.append(_inline(m, args.param, over, defaults=beside))
            except UsageError as exc:
                if not mixed:
                    raise
                raise UsageError(f"{exc} (with several models --param sets the first's, "
                                 f"{m.id}'s; give another model's values in a --config file)"
                                 ) from None
            if beside and said is not None:
                given = files[m.id]
                said.append(f"{own[-1].name!r}: --param sets its values over {m.id}'s "
                            f"defaults, not over {_and_ids([Path(f).name for f in given])}; "
                            "to set them over a file, give it as --params "
                            f"{given[0] if len(given) == 1 else 'FILE.toml'} -p NAME=VALUE")
        if args.defaults or (mixed and not own):
            own.insert(0, Configuration(m.id if mixed else DEFAULTS, m.schema.defaults()))
        configs += [replace(c, model=m) for c in own] if mixed else own
    if len(configs) < 2:
        raise UsageError("give at least two configurations (--config FILE.toml, repeated; "
                         "--defaults for the model's defaults; --param NAME=VALUE for the "
                         "defaults with values set; or a second --model)")
    return configs


def _model_of_file(path: str, models: Sequence[Any], said: list[str] | None = None) -> Any:
    """The model of `models` a --config file is of: the one it names; else the one whose
    parameters are those of the model it names (codeledger for a codeledger-document
    file); else the first whose parameters it sets, all of them (said, in `said`, where
    another's would do too); else the first."""
    named = file_model(path)
    if named is not None:
        for m in models:
            if m.id == named:
                return m
        try:
            names = [p.name for p in get_model(named).schema]
        except KeyError:  # a model this version does not know: its own error says so
            names = []
        for m in models:
            if names and [p.name for p in m.schema] == names:
                return m
    fits = []
    for m in models:
        try:
            resolve_file(m.schema, Path(path))
        except ParamError:
            continue
        except OSError:  # unreadable: the first model's reading says so
            break
        fits.append(m)
    if len(fits) > 1 and said is not None:
        said.append(f"{Path(path).name} names no model and its values fit "
                    f"{_and_ids([m.id for m in fits])}: read as {fits[0].id}'s (the first "
                    f"-m); a first line `# the defaults of {fits[1].id}` names another")
    return fits[0] if fits else models[0]


def _params_base(args: argparse.Namespace, first: Any, firsts: Sequence[str]) -> str | None:
    """The --params file --param's values are set over, as every command reads the two
    (None: -p starts from the defaults). -p sets the first model's values, so the file must
    be of that model; with several --params files it would be a guess: refused."""
    given = getattr(args, "params_files", None) or []
    if not given or not args.param:
        return None
    if len(given) > 1:
        raise UsageError(f"--param sets its values over one --params file, and "
                         f"{len(given)} are given ({', '.join(given)}): give the others with "
                         "--config, and the one -p builds on with --params")
    if given[0] not in firsts:
        raise UsageError(f"--params {given[0]}: --param sets the first model's "
                         f"({first.id}'s) values over it, and this file is another model's: "
                         "give it with --config")
    return str(given[0])


def _inline(model: Any, assignments: Sequence[str], over: Configuration | None = None, *,
            defaults: bool = False) -> Configuration:
    """The configuration --param sets: the model's defaults (or the --params file's values,
    `over`) with the values given, named by the values as written (a name given twice: the
    last value, as eval reads it), after the file's name where there is one, or after
    "defaults" where `defaults` (beside a --config file, which it does not build on)."""
    try:
        values = parse_assignments(assignments)
        params = model.schema.resolve({**(over.params if over is not None else {}),
                                       **values})
    except ParamError as exc:
        raise UsageError(f"--param: {exc}") from None
    warn_repeated(assignments)
    # named by the parameters' own names, each once with the value used (dr7 5: -p k1=1
    # -p K1=2 had been named 'k1=1 K1=2' for a column that ran k1=2)
    last = {model.schema.name_of(name): value.strip() for name, value in values.items()}
    named = " ".join(f"{name}={value}" for name, value in last.items())
    lead = over.name if over is not None else DEFAULTS if defaults else ""
    return Configuration(f"{lead} + {named}" if lead else named, params)


def _told_apart(configs: list[Configuration]) -> list[Configuration]:
    """Configurations are named by their file names; two files of one name (two runs'
    best.toml) are named by as much of their paths as tells them apart (run1/best,
    run2/best). The same file twice is a usage error."""
    from dataclasses import replace

    sources = [Path(c.source).resolve() for c in configs if c.source]
    twice = next((p for p in sources if sources.count(p) > 1), None)
    if twice is not None:
        raise UsageError(f"--config {twice}: given twice")
    names = [c.name for c in configs]
    out = []
    for c in configs:
        if names.count(c.name) == 1 or not c.source:
            out.append(c)
            continue
        parts = Path(c.source).resolve().with_suffix("").parts
        rivals = [Path(o.source).resolve().with_suffix("").parts for o in configs
                  if o is not c and o.name == c.name and o.source]
        depth = 2
        while any(r[-depth:] == parts[-depth:] for r in rivals) and depth < len(parts):
            depth += 1
        out.append(replace(c, name="/".join(parts[-depth:])))
    named = [c.name for c in out]
    dup = next((n for n in named if named.count(n) > 1), None)
    if dup is not None:  # "defaults" and a defaults.toml
        raise UsageError(f"--config: two configurations are named {dup!r} (named by their "
                         "file names)")
    return out


def tuned_notes(configs: Sequence[Configuration], model: Any,
                said: list[str] | None = None) -> list[tuple[str, TunedOn]]:
    """Each configuration's name and the `[tuned]` record of its file, where it has one that
    holds for its values and its model (`model`, where the configuration names none;
    `TunedOn.applies_to`; why one does not, or not whole, in `said`)."""
    out = []
    for c in configs:
        record = read_tuned_on(c.source) if c.source else None
        if record is None:
            continue
        held, why = record.applies_to((c.model or model).id, c.params)
        if why and said is not None:
            said.append(f"{c.name!r}: {why}")
        if held is not None:
            out.append((c.name, held))
    return out


def held_out(dataset: Dataset, configs: Sequence[Configuration], all_queries: bool,
             model: Any) -> tuple[Dataset, list[str]]:
    """The judged queries no configuration was tuned on (read from the `[tuned]` table `tune
    --out` writes), unless `all_queries` or none is left; and what the reader is told."""
    said: list[str] = []
    dataset, lines = held_out_queries(dataset, tuned_notes(configs, model, said),
                                      all_queries)
    if lines and lines[0].startswith("compared on"):
        lines[0] += " (--all-queries compares on all)"
    return dataset, lines + said


def _default_metrics(args: argparse.Namespace, models: Sequence[Any]) -> str:
    """The metrics compared where --metrics names none: a bundle's figures where a model
    compared selects bundles (blank for one that does not: bm25 beside codeledger)."""
    if not any(code_tasks(args, m) for m in models):
        return ",".join(DEFAULT_METRICS)
    return (CODE_COMPARE_METRICS if any(hasattr(m, "bundles") for m in models)
            else CODE_METRICS)


def cmd_compare(args: argparse.Namespace) -> int:
    """The comparison as text on standard output: its prose wrapped at the terminal's width
    as eval's is (`textout.wrap`; dr4 9: the key had been one line of 136 columns at 80),
    its tables not (a wrapped row no longer lines up)."""
    comp, figures = _comparison(args, with_figures=True)
    out = [*map(wrap, subject(comp)), *(wrap(f"note: {n}") for n in comp.notes), ""]
    header, rows = params_table(comp)
    out += [format_table(header, rows) if rows else "no parameter differs", ""]
    cases = case_lines(comp)
    if cases:  # the data's own test, which tune optimises there by default: first
        out += [*cases, ""]
    if comp.rows:
        out += [format_table(*metric_table(comp, agree=True)), wrap(f"({DELTA_LEGEND})")]
        out += [wrap(f"note: {note}.") for note in length_notes(comp)]
        out += [wrap(f"note: {line}") for line in shipped_lines(comp)]
        out += [wrap(f"note: {line}") for line in clamp_tie_lines(comp)]
    if figures:
        out += ([""] if comp.rows else []) + figure_lines(comp, figures)
    if any(trained_pair(comp, i) for i in range(1, len(comp.configs))):
        out.append(wrap(TRAINED_NOTE))
    many = many_tests_note(comp, summary="A report's In short (`workbench report`)",
                           marks=False, named=True)
    if many:
        out.append(wrap(many))
    found = pairs(comp)
    if found.found:  # three or more: every pair, not only each against the first
        # Holm p's families with their sizes, in the report's words (rB 3: the line named
        # one family where the column held two; dr6 3: "adjusted for the pairs tested" was
        # not what Holm p is)
        out += ["", wrap(f"every pair (B − A; {holm_rule(comp, found)}):"),
                format_table(*pair_table(comp, found)),
                wrap(pair_summary(comp, found, rule="above the pairs"))]
    elif found:  # too many to set each against each: said
        out += ["", wrap(pair_summary(comp, found))]
    out += (["", format_table(*agreement_table(comp, args.k))] if comp.rows or figures
            else [format_table(*agreement_table(comp, args.k))])
    for i in range(1, len(comp.configs)):
        lines = mover_lines(comp, i, k=args.k, top=args.movers) if args.movers else []
        if lines:
            out += ["", wrap(f"moved most, {comp.configs[0].name} → {comp.configs[i].name} "
                             f"({movers_heading(comp, args.k, i)}):"),
                    *(wrap(f"  {line}") for line in lines),
                    *(wrap(f"({key})") for key in settings_key(lines))]
    if comp.measure_hint:  # after what it shows
        out += ["", wrap(f"note: to measure which ranks better, give {comp.measure_hint}")]
    if args.cost:
        out += ["", *cost_lines(comp)]
    print("\n".join(out))
    return EXIT_OK


def clamp_tie_lines(comp: Any) -> list[str]:
    """Where results tied at 1 (clamped) take places within the first metric's cut-off on
    some counted query, so that the model's tie order (`clamp_tie_order`: vault-search's file
    path), not a score, decides their places there: how many queries, per configuration, with
    what orders them, as rank and sweep say it (the best weights often win through such ties,
    and obsidian-mcp may order them otherwise)."""
    from workbench.cli.evaluate.sweep import cut_text
    from workbench.core.clamp_ties import TREC_TIES, named_queries, tie_order, tie_queries
    from workbench.report.text.compared import nouns

    if not comp.metrics:
        return []
    cut, within = cut_text(comp.metrics[0])
    counted = comp.counted
    ids = [q.id for q in comp.dataset.queries]
    by_order: dict[str, list[tuple[str, str]]] = {}
    for i, config in enumerate(comp.configs):
        order = tie_order(comp.model_of(i))
        if not order:
            continue
        found = tie_queries(comp.results[i], cut, counted)
        if found.any():  # which queries too, to look at with rank --query-id (rv53 dH 6)
            by_order.setdefault(order, []).append(
                (f"{config.name} on {int(found.sum()):,}", named_queries(ids, found)))
    _, queries = nouns(comp)
    noun = f"judged {queries}" if comp.dataset.qrels else queries
    of = f"of the {int(counted.sum()):,} {noun}"
    return [(f"{named[0][0]} {of} ({named[0][1]})" if len(named) == 1 else
             f"{', '.join(f'{n} ({w})' for n, w in named)} {of}")
            + f": results tied at 1 (clamped) take places {within}, "
            f"{TREC_TIES.format(comp.metrics[0])}{order}"
            for order, named in by_order.items()]


def shipped_lines(comp: Any) -> list[str]:
    """Each configuration whose values cannot all go into its target system's settings, in
    one line: which, and what the settings it can take score (`core.shipped.as_shipped`, the
    rule and the run the report's "Settings to ship" shows; rb 2: compare showed a gain the
    target could not deliver, only the report said so)."""
    from workbench.core.export import export_params
    from workbench.core.shipped import as_shipped
    from workbench.report.text.summary import status_quo_text

    out = []
    first = comp.configs[0].name
    for i, config in enumerate(comp.configs):
        shipped = as_shipped(comp, i)
        if shipped is None:
            continue
        n = len(shipped.left_out)
        values = f"({', '.join(shipped.left_out)})"
        model = comp.model_of(i).id
        fitted = trained_pair(comp, i)
        # none of its changes has a setting: as shipped it is its model's defaults, and a
        # "+0.0000, p 1.000" would read as a measured null result (dr5 5)
        nothing = not any(c.setting for c in export_params(model, config.params).changed)
        if nothing:
            said = (f"{config.name}: none of its changes can ship {values}: "
                    f"{shipped.target}'s settings cannot take "
                    + ("it" if n == 1 else "them"))
            if shipped.rows:
                metric, a, b, c, delta, p = shipped.rows[0]
                row = next(r for r in comp.rows if r.metric == metric)
                said += f"; as shipped it is {model}'s defaults ({metric} "
                if i == 0:
                    alone, compared, _ = pair_texts(c, b)
                    said += f"{alone}, as compared {compared})"
                else:
                    alone, _, gain = pair_texts(c, b, row.deltas[i])
                    said += (f"{alone}); the {gain} against {first} needs a change to "
                             f"{shipped.target}'s code")
            out.append(said)
            continue
        said = (f"{config.name}: {n} value{'s' if n > 1 else ''} it was measured with "
                f"{values} cannot go into {shipped.target}'s settings, where it keeps its own")
        if shipped.rows:
            metric, a, b, c, delta, p = shipped.rows[0]
            digits, (_, shown) = row_digits([a, c], [0.0, delta])
            if i == 0:  # its own figure as compared is the first's
                said += (f"; as shipped: {metric} {mean_text(c, digits=digits)} "
                         f"({minus_text(shown, digits=digits)} from its figure as compared, "
                         f"{mean_text(b, digits=digits)})")
            else:
                against = f"against {first}" + ("" if fitted or p is None
                                                 else f", p {p_text(p)}")
                said += (f"; as shipped: {metric} {mean_text(c, digits=digits)} "
                         f"({minus_text(shown, digits=digits)} {against}"
                         + (", training scores" if fitted else "") + "), as compared "
                         f"{mean_text(b, digits=digits)}")
            # what runs today, as the report's In short gives it (dr5 3)
            said += status_quo_text(shipped, metric, model, fitted, comp=comp)
        out.append(said + " (the settings: `workbench report`, Settings to ship)")
    return out


def measured_costs(comp: Any) -> CostSection:
    """Each configuration's cost, measured (`core.cost`; a line on standard error before
    each), what its figures are and what changing between them costs."""
    def say(name: str) -> None:
        print(f"measuring the cost of {name} (a build, then queries one at a time) …",
              file=sys.stderr, flush=True)

    return cost_section([(c.name, c.model or comp.model, c.params) for c in comp.configs],
                        comp.dataset, say)


def cost_lines(comp: Any) -> list[str]:
    """compare --cost: the cost table, what its figures are, and what a change costs."""
    cost = measured_costs(comp)
    return ["cost (measured on this machine; see the notes):",
            format_table(COST_HEADER, cost_rows(cost.costs)),
            *(wrap(f"note: {n}") for n in cost.notes),
            *(wrap(f"what a change costs: {n}") for n in cost.changes)]


def figure_lines(comp: Any, rows: Sequence[FigureRow]) -> list[str]:
    """What each configuration's selection returns (`selection_figures.compare_figures`), as
    a table with each difference against the first, and what its columns say: Δ and the
    queries with more / fewer, no better or worse (a selection trades what it returns for
    what it costs). The report shows the same table (`report.text.figure_table`)."""
    comp.figures = list(rows)
    notes = figure_notes(comp)
    return [format_table(*figure_table(comp)), *(wrap(f"({line})") for line in notes[:-1]),
            wrap(notes[-1])]


REPORT_ENDINGS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md"}


def report_format(fmt: str | None, out: str) -> str:
    """--format as given, else md for an --out ending in .md, html for .html; another ending
    (r.pdf got HTML) is refused unless --format says what to write."""
    if fmt is not None:
        return fmt
    if out == "-":
        return "html"
    suffix = Path(out).suffix.lower()
    if suffix not in REPORT_ENDINGS:
        raise UsageError(f"--out {out}: give a file name ending .html or .md (the format "
                         "follows it), or say which with --format")
    return REPORT_ENDINGS[suffix]


def cmd_report(args: argparse.Namespace) -> int:
    """The comparison written to --out (checked before the work, written after it)."""
    path = check_output(args.out, "--out")
    # in a repository read, an earlier report may be written again; another file there (a
    # person's notes) is refused (`written_by_us`)
    check_outputs_apart([("--out", path)], input_files(args),
                        {"--out": (".html", ".htm", ".md", ".markdown")})
    fmt = report_format(args.format, args.out)
    # what each returns, as compare shows
    comp, _ = _comparison(args, with_figures=True, echo_fitted=True)
    render = markdown if fmt == "md" else html_report
    # a file that was there is replaced (written whole, then moved over it): said, so that
    # a report sent round is not lost without a word
    if args.cost:  # shown under what was compared (rb 6)
        comp.cost = measured_costs(comp)
    replaced = path is not None and Path(path).is_file()
    write_outputs([("--out", path, render(comp, k=args.k, top=args.movers))])
    if replaced:
        print(f"replaced {path}", file=sys.stderr)
    if path is not None:  # on standard output, as eval, sweep and tune say where they wrote
        print(f"report ({'Markdown' if fmt == 'md' else 'HTML'}) written to {path}")
    if comp.measure_hint:  # the command line for whoever runs it, not for the report's reader
        print(f"note: to measure which ranks better, give {comp.measure_hint}", file=sys.stderr)
    return EXIT_OK
