"""tune's --out: the values written with their `[tuned]` record, and what the run then says
of them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.cli.tune.start import _tuned_start
from workbench.core.params import params_toml
from workbench.core.tuned_on import of_result, tuned_toml
from workbench.core.tuning.run_record import run_lines
from workbench.textout import p_equals, say


def _record(result: Any, model: Any, params: Any, dataset: Any, params_file: str | None,
            assignments: Any = ()) -> tuple[Any, str]:
    """The `[tuned]` record --out writes of the run, and what it carries of the start's
    verdict (`carry_verdict`: "kept", "moved", "neither" or ""): one record for the closing
    report and the file, so both give the same advice (dr3 4, 8, 11)."""
    from workbench.cli.tune_report import start_whose
    from workbench.core.tuned_on import carry_verdict, start_unchanged

    values = {**model.schema.changed(params), **result.tuned}
    values = {k: (round(v, 10) if isinstance(v, float) else v) for k, v in values.items()}
    start = _tuned_start(params_file, dataset, model, assignments=assignments)
    # whose starting values the verdict advises keeping: a flagged file's, where this run
    # started from one, had read as the model's (T5, dr9 9); with -p's values (dr3 2, 12)
    whose = start_whose(result, model, params_file, assignments)
    note = of_result(result, dataset, model.id, values, start=start, whose=whose)
    # kept unchanged: the start kept with no setting moved to meet a constraint; a file whose
    # record holds no values key had had a moved sufficiency written as "kept them unchanged"
    return carry_verdict(note, start, Path(params_file or "").name, start_unchanged(result))


def _write_out(path: Path, result: Any, model: Any, params: Any, dataset: Any,
               params_file: str | None = None, assignments: Any = ()) -> None:
    """The values to ship, their validation as comments, and a `[tuned]` table (the queries
    they were tuned on, their held-out figures) that compare and report read."""
    from workbench.core.store import atomic_write_text

    values = {**model.schema.changed(params), **result.tuned}
    values = {k: (round(v, 10) if isinstance(v, float) else v) for k, v in values.items()}
    held, kept = "", ""
    from workbench.core.tuning.data import dataset_nouns, one_of

    many = dataset_nouns(dataset)[1]  # "tasks" of a repository, as the notes say (dr7 3, dr9 5)
    from workbench.cli.tune_report import start_word

    if result.test is not None:
        t = result.test
        held = (f"held-out {result.spec.objectives[0]}: {start_word(result, model)} "
                f"{t.mean_a:.4f}, tuned "
                f"{t.mean_b:.4f} ({p_equals(t.p_value)}, {t.n} "
                f"{one_of(many) if t.n == 1 else many})")
        if result.validation.kind == "kfold":  # read as these values' score, it misled
            held += (f"; k-fold: each {one_of(many)} scored by the values its own fold tuned, "
                     "an estimate for tuning this way, not a score of the values below")
    from workbench.core.tuning.pick import start_kept_because

    why = result.final.kept_why or start_kept_because(result.spec.pick)
    from workbench.cli.tune_report import moved_text

    moved = moved_text(result.final.start_moved)
    if result.final.kept_start:  # … but for a setting moved to meet the constraints (dr8 1)
        kept = (f"the values below are the starting values: {why}" if not moved else
                f"the values below are the starting values but for {moved}, which meets the "
                f"constraints: {why}")
    # the values written, keyed; with the queries the start was tuned on (compare on them
    # says "training"), and the run's advice against them, if it gave any
    name = Path(params_file or "").name
    from workbench.cli.tune_report import start_whose

    whose = start_whose(result, model, params_file, assignments)
    note, carried = _record(result, model, params, dataset, params_file, assignments)
    # the file says it in its own terms, first: a reader who ships whatever it holds had
    # seen only the numbers (rb 1)
    # "held-out ndcg@10 0.6131 → 0.6111", or under k-fold "tuning this way gained nothing …"
    from workbench.core.tuning.verdict import grounds

    figures = grounds(result) if note.verdict else ""
    if kept and not moved:  # fitted on no query here: [tuned] counts only the start's (rv 6)
        kept += (f"; this run fitted them on no {one_of(many)}, so [tuned] names none as tuned "
                 "on" if not note.trained_on else
                 f"; [tuned] names the {len(note.trained_on)} {many} {name} was tuned on, "
                 "and no other")
    kfold = result.validation.kind == "kfold"
    # k-fold: the values written were tuned on every query; the held-out figures estimate
    # tuning this way, not them (dr1 5)
    # the figures themselves are on the held-out line two below: said once (dr9 6)
    gained = ("tuning this way gained nothing held out (k-fold estimate)" if kfold else
              f"these values gain nothing over the starting values on {many} they were not "
              "tuned on")
    warning = (f"NOT RECOMMENDED: {gained} — keep the starting values ({whose}); the verdict "
               "in [tuned] says so too" if note.verdict else "")
    lineage = ""  # the --params file's run advised against the values this run started from
    # kept unchanged: its run's advice against them goes on, else a short run from a flagged
    # file wrote a clean-looking one (dr7 1); moved from them: compared with those values
    # only, not with the defaults, where a one-step nudge had written a clean file (dr9 2)
    if carried == "neither":  # its own verdict, the start's run's advice with it (dr3 8)
        warning = f"NOT RECOMMENDED: {gained} — {note.advice}; the verdict in [tuned] says so too"
    elif carried == "kept":
        warning = f"NOT RECOMMENDED: {note.verdict}; the verdict in [tuned] says so too"
    elif carried == "moved":
        lineage = note.verdict
        warning = (f"NOT RECOMMENDED as they stand: these values {lineage}; the verdict in "
                   "[tuned] says so too")
    t = result.test
    # no held-out change: no advice either way (dr1 4), said as that
    even = (f"no held-out evidence either way: the {t.n} held-out "
            f"{one_of(many) + ' scores' if t.n == 1 else many + ' score'} the same mean at the "
            "starting and the "
            "tuned values" if t is not None and not note.verdict and not result.final.kept_start
            and t.mean_a == t.mean_b else "")
    comments = [warning, f"workbench tune: model {model.id} on {dataset.name}",
                f"validation: {result.validation.describe}", held, even, kept]
    try:
        atomic_write_text(path, _idle_marked(params_toml(values, [c for c in comments if c]),
                                             model, values)
                          + tuned_toml(note, run_lines(result)))
    except OSError as exc:  # as every other writer says it (ra 4: a generic error, exit 1)
        from workbench.cli.output import OutputError

        raise OutputError(f"--out {path}: cannot write ({exc.strerror or exc}); nothing was "
                          "written. The tuned values are in the table above, and the study "
                          f"is kept in its storage: {_rerun_to_write(result)}") from None
    after = _readers_after(result, dataset, note)
    if result.final.kept_start:  # the file holds the start: nothing to apply
        # the run that advised it, not the run that only carried it (dr8 4)
        said = (f"; not recommended, as {note.carried}'s run advised and the file's verdict "
                "says" if note.verdict and note.carried else
                f"; not recommended, as the verdict {name} carries says" if note.verdict else "")
        changed = f"only {moved} changed" if moved else "nothing changed"
        tuned = (f"with the {len(note.trained_on)} {many} they were tuned on" if note.trained_on
                 else f"tuned on no {one_of(many)} (this run fitted nothing)")
        say(f"the starting values written to {path} ({why}: {changed}){said}, {tuned}: "
            f"{after}")
        return
    if note.verdict and not lineage:  # written, as asked; not offered for use
        say(f"tuned parameters written to {path}, but not recommended: "
            + (figures if kfold else f"they gain nothing over the starting values ({figures})")
            + ", and the file says so in its verdict — "
            + (f"{note.advice}; with " if carried == "neither" else
               f"keep the starting values ({whose}), or tune fewer parameters (--tune) or "
               f"narrower ranges, or judge more {many}; with ")
            + f"the {len(note.trained_on)} {many} they were tuned on: {after}")
        return
    if lineage:  # compared with advised-against values only: not offered for use either
        say(f"tuned parameters written to {path}, but not recommended as they stand: they "
            f"{lineage}; the file says so in its verdict; with the {len(note.trained_on)} "
            f"{many} they were tuned on: {after}")
        return
    say(f"tuned parameters written to {path} (use: --params {path}), with the "
        f"{len(note.trained_on)} {many} they were tuned on: {after}")


def _rerun_to_write(result: Any) -> str:
    """How to write the values of a run whose --out failed without tuning anew: the same
    command adds no trial where each study holds its --trials; a --timeout run's would run
    for its time again, so --trials the fewest a study holds, in its place (dr1 7), and a
    shared study may be added to by others meanwhile."""
    spec = result.spec
    studies = [*result.folds, *([result.final] if result.final not in result.folds else [])]
    if spec.timeout:
        fewest = min(f.trials for f in studies)
        how = (f"the same command with --trials {fewest} and no --timeout (and without "
               "--fresh) and a writable --out writes them without running new trials")
    else:
        how = ("the same command (without --fresh) and a writable --out writes them without "
               "running its trials again")
    if spec.shared:
        how += ("; other processes sharing the study may add trials meanwhile, and so change "
                "the values kept")
    return how


def _readers_after(result: Any, dataset: Any, note: Any) -> str:
    """What eval, compare and report do with the file on this data (`held_out_queries`'s
    rule, dr1 2): every query counted as training scores where the values were tuned on all
    (k-fold, none) or on a named split (what they left of it is no held-out part); else the
    queries not tuned on (a time split's newer tasks) counted, as tune counted them."""
    from workbench.core.tuned_on import FEW_HELD_OUT, tuned_mask
    from workbench.core.tuning.data import dataset_nouns, one_of

    trained = set(note.trained_on)
    # a twin of a query tuned on (same text and judgments, any split) is left out too, as
    # eval leaves it (rB 2): "count the 809" had been said where eval counts 807 (dI 2)
    hit = tuned_mask(dataset, note.trained_on) if trained else None
    judged = [q for q in dataset.queries.ids if (dataset.qrels or {}).get(q)]
    left = [q for i, q in enumerate(dataset.queries.ids)
            if (dataset.qrels or {}).get(q) and (hit is None or not hit[i])]
    repeats = len(judged) - len(left) - len(trained.intersection(judged))
    many = dataset_nouns(dataset)[1]  # "tasks" of a repository, as the rest of tune says
    one = one_of(many)
    estimate = ("tune's held-out figures above are the estimate" if result.test is not None
                else f"no figure estimates how they do on new {many} (no {one} was held out)")
    if not trained:  # the start kept as it was, with no record of its own (rv 6)
        return (f"eval, compare and report on {dataset.name} count every {one} as held out, "
                "as for values no run tuned")
    if not left:  # k-fold and none ship values tuned on every judged query of this data
        return (f"eval, compare and report on {dataset.name} count every {one} and say their "
                f"figures are training scores; {estimate}")
    if note.split_run:
        test = result.validation.folds[0].test
        ids = dataset.queries.ids
        spare = sum(1 for i, q in enumerate(ids) if q in left and not test[i])
        return ("eval, compare and report on the training split count every query and say "
                "their figures are training scores"
                + (f" (the {spare} quer{'y' if spare == 1 else 'ies'} it left untuned there "
                   f"{'is' if spare == 1 else 'are'} no held-out part)" if spare else "")
                + "; on the held-out split every figure is held out")
    rough = (f", a rough figure under {FEW_HELD_OUT} {many}, as they say"
             if len(left) < FEW_HELD_OUT else "")
    also = (f" (and the {repeats} that repeat{'s' if repeats == 1 else ''} "
            f"{'one' if repeats == 1 else 'some'} of them)" if repeats else "")
    return (f"eval, compare and report on {dataset.name} leave those out{also} and count the "
            f"{len(left)} not tuned on{rough}")


def _idle_marked(text: str, model: Any, values: Mapping[str, Any]) -> str:
    """`text` (`params_toml`) with each value no score reads beside the others (the schema's
    `needs`: vector_threshold while no_vector_threshold is on) marked so in a comment, as the
    report's table marks it: listed bare, it read as a setting that mattered (rB 9)."""
    from workbench.cli.tune_report import idle_at

    idle = idle_at(model, model.schema.resolve(values), values)
    if not idle:
        return text
    lines = text.split("\n")
    at = lines.index("[params]")
    for i in range(at + 1, len(lines)):
        name = lines[i].partition(" = ")[0]
        if name in idle:
            lines[i] += f"  # no effect: {idle[name]}"
    return "\n".join(lines)

