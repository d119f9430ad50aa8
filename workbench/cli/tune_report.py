"""What `workbench tune` prints: the plan before it starts and the closing tables.

The closing tables never present a training score as the result: the held-out rows compare
defaults and tuned settings on queries the study never saw, with the paired randomisation
test; the training row is labelled as such.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from workbench.report.text import p_text
from workbench.textout import format_table, say


def errors_text(sizes: Sequence[int], noun: str = "queries") -> str:
    """The standard errors the surest-gain pick takes off a mean gain, for studies tuning on
    `sizes` queries each (`pick.errors`: the fewer, the more): "2.1 standard errors, for 24
    training queries", "2.3 standard errors for 20 training queries, down to 2.1 for 30";
    "" where no study has 2 (no bound is taken). Said with its number, once: "2 standard
    errors, more for few queries: Student's t" named no number and a statistician's term.
    `noun`: the data's own (`dataset_nouns`: "training tasks", dr9 5)."""
    from workbench.core.tuning.pick import errors

    ns = sorted({n for n in sizes if n >= 2})
    if not ns:
        return ""
    few, many = ns[0], ns[-1]
    if round(errors(few), 1) == round(errors(many), 1):
        counted = f"{few:,}" if few == many else f"{few:,} to {many:,}"
        return f"{errors(few):.1f} standard errors, for {counted} training {noun}"
    return (f"{errors(few):.1f} standard errors for {few:,} training {noun}, down to "
            f"{errors(many):.1f} for {many:,}")


def print_plan(dataset: Any, model: Any, space: Any, objectives: Any, constraints: Any,
               validation: Any, spec: Any, evaluator: Any,
               inert: Mapping[str, str] | None = None, left_out: str = "",
               stored: Mapping[str, int] | None = None,
               cut: Mapping[str, str] | None = None, *, by_tune: bool = False) -> None:
    """`left_out`: " (36 without judgments left out)" after the count (`left_out_note`);
    `stored`: the trials each study holds already (`runner.stored_counts`); `cut`: the
    cut-offs the default search left out, and why (`space.cut_offs`); `by_tune`: the
    parameters are those --tune named (no word on what the default search takes)."""
    counted = int(evaluator.counted().sum())
    # eval's words: judged queries; fixture cases (eval.jsonl) are counted beside them
    from workbench.core.tuning.data import dataset_nouns

    many = dataset_nouns(dataset)[1]  # the data's own: a repository's tasks (dr7 3)
    what = (f"judged {many} or cases" if evaluator.context.case_rows and many != "cases"
            else f"judged {many}")
    say(f"{dataset.name}: {len(dataset.corpus):,} documents, {counted:,} {what}{left_out}; "
        f"model {model.id}")
    n = len(space.dimensions)
    say(f"tuning {n} parameter{'' if n == 1 else 's'}: "
        + ", ".join(f"{d.name} {d.describe()}" for d in space.dimensions))
    if not by_tune and model.tuned_by_default and not any(
            d.name not in model.tuned_by_default for d in space.dimensions):
        # one truthful statement (dr2 5: "searches … sufficiency by default" beside
        # "left out, a cut-off: sufficiency" under a ranking metric)
        say(f"{model.id} searches its relative weights and the graph's share by default, and "
            "sufficiency where a bundle figure is the objective or a constraint (every live "
            "parameter overfits a history's older tasks); --tune names others")
    by_why: dict[str, list[str]] = {}
    for name, why in (inert or {}).items():
        by_why.setdefault(why, []).append(name)
    if by_why:
        say("left out, since no score moves with them on this data: "
            + "; ".join(f"{', '.join(names)} ({why})" for why, names in by_why.items())
            + " — --tune searches them anyway")
    # a selection cut-off (a min score, a limit) is one; a bundle's stop rule or budget
    # (`figures_only`: sufficiency) is not, and is said as what it moves (dr2 5)
    def split(found: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        bundle = {n: why for n, why in found.items() if n in model.schema.by_name
                  and model.schema.by_name[n].figures_only}
        return {n: why for n, why in found.items() if n not in bundle}, bundle

    cuts, bundle = split(cut or {})
    if cuts:
        say(f"left out, {'a cut-off' if len(cuts) == 1 else 'cut-offs'}: {reasons_text(cuts)} "
            f"— --tune searches {'it' if len(cuts) == 1 else 'them'} anyway")
    if bundle:
        say(f"left out, since the objective does not read the bundle: {reasons_text(bundle)} "
            f"— --tune searches {'it' if len(bundle) == 1 else 'them'} anyway")
    from workbench.core.tuning.space import cut_offs

    cuts, bundle = split(cut_offs(space.names, [*objectives, *(c.name for c in constraints)],
                                  model.schema.by_name))
    if cuts:  # named: searched, with what it can do
        say(f"note: {'a cut-off' if len(cuts) == 1 else 'cut-offs'} searched because "
            f"named: {reasons_text(cuts)}")
    if bundle:
        say(f"note: searched because named: {reasons_text(bundle)}")
    named = [d.name for d in space.dimensions if not model.schema[d.name].tunable]
    if named:
        say(f"note: {', '.join(named)} tuned because named; the default search leaves "
            f"{'it' if len(named) == 1 else 'them'} out (paging, display, the budget)"
            + (": a bundle finds more files the more it may hold, so hold its size with "
               "--constraint bundle_tokens<=N" if any(o.startswith("bundle_")
                                                      for o in objectives) else ""))
    outside = [(d, evaluator.base[d.name]) for d in space.dimensions
               if d.kind in ("float", "int") and not d.low <= float(evaluator.base[d.name])
               <= d.high]
    if outside:
        several = len(outside) > 1
        say(f"note: the starting value{'s' if several else ''} of " + ", ".join(
            f"{d.name} ({_v(v)})" for d, v in outside)
            + f" lie{'' if several else 's'} outside the range searched: no trial tries "
            f"{'them' if several else 'it'}, so a tuned trial may score lower even on the "
            f"training {many} (the run still keeps the starting values where no trial's "
            "gain is sure)")
    goal = ", ".join(f"{'max' if _up(o) else 'min'} {o}" for o in objectives)
    if constraints:
        goal += " subject to " + ", ".join(str(c) for c in constraints)
    seeded = (f"seed {spec.seed}, mixed with each process's own: processes sharing the "
              "study try different points, and the run is not repeatable"
              if spec.shared else f"seed {spec.seed}")
    say(f"objective: {goal}; sampler {spec.sampler} ({seeded}), "
        + budget_text(spec, validation, stored or {}, many))
    say(f"validation: {validation.describe}")
    if len(objectives) == 1:
        o = objectives[0]
        from workbench.core.tuning.runner import study_runs

        sizes = [int((train & evaluator.counted()).sum())
                 for _, train, _ in study_runs(validation)]
        rule = errors_text(sizes, many)
        say("kept: " + ("the trial whose gain over the starting values on the training "
                        f"{many} is surest (the mean of its per-query gains less "
                        f"{rule}), the starting values when no trial's is above 0 (--pick "
                        f"best: the {_most(o)} training mean)" if spec.pick == "bound" and rule
                        else "the trial whose gain over the starting values on the training "
                        f"{many} is surest; the starting values where it cannot be sure "
                        f"(--pick best: the {_most(o)} training mean)" if spec.pick == "bound"
                        else f"the {_most(o)} training mean (--pick best)"))
        if spec.pick == "bound":
            few = _few_training(validation, evaluator.counted(), many)
            if few:
                say(f"note: {few}")
    from workbench.core.tuning.storage import shown_url

    where = shown_url(spec.storage)  # a server's URL, its kind and user, no password
    for scheme, kind in (("sqlite:///", "SQLite file"), ("journal:///", "journal file")):
        if spec.storage.startswith(scheme):
            where = f"{kind} {spec.storage[len(scheme):]}"
    say(f"storage: {where} — the same command continues these studies (--fresh starts anew)")


FEW = 5  # training queries below which a bound is said to be wide (≥ 2.9 standard errors)


def _few_training(validation: Any, counted: Any, noun: str = "queries") -> str:
    """Where a study tunes on fewer than `FEW` queries, what the surest-gain pick can do
    there: from one query no gain is sure (the start is kept); from a few, only a large one."""
    from workbench.core.tuning.data import one_of
    from workbench.core.tuning.pick import errors
    from workbench.core.tuning.runner import study_runs

    one = one_of(noun)  # the data's own (dr9 5): "a single task", "6 tasks"
    sizes = {label: int((train & counted).sum()) for label, train, _ in study_runs(validation)}
    single = [label for label, n in sizes.items() if n < 2]
    few = {label: n for label, n in sizes.items() if 2 <= n < FEW}
    out = []
    if single:
        out.append(f"{_studies_named(single, list(sizes))} on a single {one}: no gain from one "
                   f"{one} can be sure, so the starting values are kept there (--pick best "
                   f"keeps the best training mean; fewer --folds or more judged {noun} give "
                   "each study more)")
    if few:
        n = min(few.values())
        as_few = "as few as " if len(set(few.values())) > 1 else ""
        out.append(f"{_studies_named(list(few), list(sizes))} on {as_few}{n} {noun}: a gain "
                   f"counts as sure there only when its mean is {errors(n):.1f} standard "
                   "errors above 0, so only a large one is kept")
    return "; ".join(out)


def _studies_named(labels: list[str], every: list[str]) -> str:
    """"fold 1 of 3 tunes", "fold 1 of 3, fold 2 of 3 tune", "each fold tunes" (all of them,
    not the study on every query), "every study tunes" (of `every`)."""
    folds = [label for label in every if label != "all"]
    if len(labels) == len(every) and len(every) > 1:
        return "every study tunes"
    if labels == folds and len(folds) > 1:
        return "each fold tunes"
    return ", ".join(labels) + (" tunes" if len(labels) == 1 else " tune")


def reasons_text(reasons: Mapping[str, str]) -> str:
    """{"a": why, "b": why, "c": other} → "a, b (why); c (other)"."""
    by_why: dict[str, list[str]] = {}
    for name, why in reasons.items():
        by_why.setdefault(why, []).append(name)
    return "; ".join(f"{', '.join(names)} ({why})" for why, names in by_why.items())


def budget_text(spec: Any, validation: Any, stored: Mapping[str, int],
                noun: str = "queries") -> str:
    """The trials a run asks for, how many studies it runs (k-fold: one a fold, then one on
    every query), and where the studies hold trials already, how many of them will run new
    (--trials is a study's total: a rerun runs only what it lacks)."""
    from workbench.core.tuning.runner import study_runs

    labels = [label for label, _, _ in study_runs(validation)]
    n = len(labels)
    why = (f" ({len(validation.folds)} folds, then all {noun})" if validation.kind == "kfold"
           else "")
    grid = spec.sampler == "grid"
    each = spec.space.grid_size() if grid else spec.trials
    if not each:  # a time budget alone
        return f"{spec.timeout:g} s in all" + (f", shared by {n} studies{why}" if n > 1 else "")
    unit = "grid points" if grid else "trials"
    text = (f"{each:,} {unit} per study × {n} studies{why} = {each * n:,}" if n > 1
            else f"{each:,} {unit}")
    have = sum(stored.get(label, 0) for label in labels)
    if have:  # every stored trial counts in the result, beyond the budget too
        new = sum(max(0, each - stored.get(label, 0)) for label in labels)
        text += (f"; {have:,} stored already by an earlier run, every one used: none will run "
                 "new (--trials is a study's total: a larger one runs the difference)"
                 if not new else
                 f"; {have:,} stored already by an earlier run, {new:,} will run new")
    if spec.timeout and spec.trials:
        text += f", within {spec.timeout:g} s"
    return text


def print_result(result: Any, model: Any, objectives: Any, noun: str = "queries",
                 whose: str = "", flagged: str = "", ties: str = "") -> None:
    """The closing report; `noun`: the data's own word for its queries (`dataset_nouns`:
    a repository's "tasks", dr7 3); `whose`: whose the starting values are (`start_whose`);
    `flagged`: the advice of the record --out writes where the run that tuned the starting
    values advised against them (`carry_verdict`), said instead of keeping them (dr3 4, 8);
    `ties`: where results tied at 1 (clamped) decide the kept values' figures
    (`notes._clamp_tie_note`), said below the figures' table."""
    primary = objectives[0]
    print()
    final = result.final
    if not final.best:
        say("no trial met the constraints (nor did the starting values): nothing tuned "
            "and nothing written; loosen a --constraint or widen the ranges")
        return
    defaults = result.defaults
    idle = idle_at(model, {**defaults, **final.best}, final.best)
    rows = [[name, _v(defaults.get(name)), _v(value),
             ("" if defaults.get(name) == value else "yes")
             + (f"{' ' if defaults.get(name) != value else ''}(no effect: {idle[name]})"
                if name in idle else "")]
            for name, value in final.best.items()]
    start = start_word(result, model)
    print(format_table(["parameter", start.rstrip("s"), "tuned", "changed"], rows))
    back = getattr(final, "put_back", None)
    if back:  # a value the objectives do not tell from its start's: the start's (rv53 d)
        scored = " and ".join(f"{o}" for o in objectives)
        say("put back to the starting value"
            + ("s" if len(back) > 1 else "") + f", the training {scored} the same with "
            + ("them" if len(back) > 1 else "it") + " as with the kept trial's draw (a tie goes "
            "to the start): " + ", ".join(f"{n} (drawn {_v(v)}, start {_v(defaults.get(n))})"
                                         for n, v in back.items()))
    # each fold's kept trial is tie-settled too: counted, not listed (rv53 follow-up 5)
    folds = [f for f in result.folds if f is not final and not f.kept_start and f.best]
    counts = [len(getattr(f, "put_back", None) or {}) for f in folds]
    if any(counts):
        low, high = min(counts), max(counts)
        say(f"the folds that kept a trial put {low if low == high else f'{low}–{high}'} of its "
            f"values back to the start, the training {' and '.join(objectives)} tied (a "
            "tie goes to the start; " + ", ".join(
                f"{f.name}: {c}" for f, c in zip(folds, counts, strict=True)) + ")")
    edges = _at_a_narrowed_bound(result, model)
    if edges:
        say("kept at the end of a narrowed --range: " + "; ".join(edges)
            + " — the best may lie beyond: widen the range")
    print()
    lines = picked_lines(result, primary, noun)
    if lines:
        say("\n".join(lines) + "\n")
    _print_constraints(final, primary)
    train_label = (f"training (all {noun})" if result.validation.kind in ("kfold", "none")
                   else "training")
    table = [[f"{primary} {train_label}",
              *_pair(final.train_default[0], final.train_best[0], primary), "", ""]]
    t = result.test
    if t is not None:
        table.append([f"{primary} held-out", *_pair(t.mean_a, t.mean_b, primary, t.delta),
                      p_text(t.p_value),  # as compare's p column
                      f"▲{t.improved} ▼{t.worsened} ={t.tied}"])
    print(format_table(["", start, "tuned", "Δ", "p", noun], table))
    out = getattr(result.validation, "twins_out", 0)
    if out:  # eval --split scores them too: its training figure differs (rB 7)
        n = int(sum(bool(x) for x in result.validation.final_train))
        say(f"the training row is over the {n:,} {noun} tuned on: eval on the training split "
            f"scores all {n + out:,}, the {out} with a held-out twin too, so its figure differs")
    if ties:  # under the figures it qualifies (dC 2)
        say(ties)
    # a time or train/test split runs one study, on the training part: it is the final one
    one_study = any(f is final for f in result.folds)
    from workbench.core.tuning.pick import start_kept_because

    why = getattr(final, "kept_why", "") or start_kept_because(result.spec.pick)
    # the start kept with a parameter no objective reads moved to meet the constraints
    # (`settle`): that one changes (dr8 1)
    but = (f" but for {moved_text(final.start_moved)}, which meets the constraints: only "
           "that changes" if getattr(final, "start_moved", None) else ": nothing changes")
    if final.kept_start and t is not None and not one_study:
        say("the held-out row estimates tuning this way (each fold kept the trial its own "
            f"training found); on all the {noun} {why}, so the run kept the starting "
            f"values{but}")
    elif final.kept_start and t is not None:  # one study, on the training part alone
        trained = int(sum(bool(x) for x in result.validation.final_train))
        say(f"on its {trained:,} training {noun} {why}, so the run kept the starting "
            f"values{but} (the held-out row scores them)")
    if primary == "cases" and t is not None:  # the share, as the cases it counts
        say(f"cases passing on the {_held(t.n, noun)}: {round(t.mean_a * t.n)}/{t.n} "
            f"with the starting values, {round(t.mean_b * t.n)}/{t.n} tuned")
    stuck = [f for f in result.folds if not f.best]
    if stuck and t is not None:
        held = sum(int((f.held_default == f.held_default).sum()) for f in stuck)  # not NaN
        say(f"{', '.join(f.name for f in stuck)}: no trial met the constraints on "
            f"{'its' if len(stuck) == 1 else 'their'} training {noun}; "
            f"{'its' if len(stuck) == 1 else 'their'} {_held(held, noun)} "
            f"count{'s' if held == 1 else ''} with the starting values (what a run keeps when "
            "no trial meets them)")
    if result.validation.kind == "none":
        say(f"\nno {noun} were held out: these are training scores, not an estimate of how "
            f"the settings do on new {noun}")
    if t is not None:
        if not t.improved and not t.worsened:  # no difference for chance to explain
            say(f"the {_held(t.n, noun)} score{'s' if t.n == 1 else ''} the same either way "
                "(▲0 ▼0): there is no difference to test")
        else:
            # the primary comparison, tested alone: compare, report and the window give this
            # pair on this metric the same verdict whatever else they show (review rb, 1)
            verdict = ("beyond chance at 0.05" if t.p_value < 0.05 else
                       "not beyond chance at 0.05: the difference may be chance")
            verdict += (" (the primary comparison, tested alone; compare and report give it "
                        "the same verdict, whatever else they show)")
            say(f"paired randomisation test over {_held(t.n, noun)}: {verdict}")
        worse = t.delta < 0 if _up(primary) else t.delta > 0
        advice = ("" if final.kept_start else
                  " — the starting values break a --constraint: loosen it, or tune fewer "
                  "parameters (--tune) or narrower ranges" if final.start_breaks else
                  f" — keep the starting values{f' ({whose})' if whose else ''}, tune fewer "
                  f"parameters (--tune) or narrower ranges, or judge more {noun}")
        trained_down = (final.train_best[0] < final.train_default[0] if _up(primary)
                        else final.train_best[0] > final.train_default[0])
        # where the run kept the start, the held-out row is the folds' values, not those
        # written: said of them, and that keeping the start was right (as the window says)
        who = "the values each fold tuned" if final.kept_start else "the tuned settings"
        if final.kept_start:
            advice = " — keeping the starting values, as the run did, is right"
        if flagged:  # keeping them is what their own run advised against: one advice
            advice = f" — {flagged}"
        if worse and trained_down and not final.kept_start and not final.start_breaks:
            say("the tuned settings score lower than the starting values on the training "
                f"{noun} too: the search never reached the starting values (a --range that "
                "leaves them out, or too few trials) — widen the ranges or add trials")
        elif worse and t.p_value < 0.05:
            say(f"{who} do worse than the starting values on {noun} they did not see: they "
                f"fit the training {noun}, not the task" + advice)
        elif worse:  # lower, and maybe by chance: not "do worse", but no gain either
            say(f"{who} score lower than the starting values on {noun} they did not see, "
                "by a difference that may be chance: nothing shows them better" + advice)
    if result.also:
        bounded = [c.name for c in getattr(result.spec, "constraints", ())]
        first = [w for w, any_ in (("the other objectives", len(objectives) > 1),
                                   ("the constrained figures" if len(bounded) > 1 else
                                    "the constrained figure", bool(bounded))) if any_]
        say(f"\nthe same held-out {noun}, other measures"
            + (f" ({' and '.join(first)} first):" if first else " (not tuned for):"))
        print(format_table(["", start, "tuned", "Δ"], [
            [name, *_pair(d, t, name)] for name, (d, t) in result.also.items()]))
        # a constraint is met on the training queries: said where the held-out mean breaks it
        for c in getattr(result.spec, "constraints", ()):
            if c.name in result.also and c.excess(result.also[c.name][1]) > 1e-12:
                say(f"held out, the tuned values break --constraint {c}: {c.name} "
                    f"{_m(result.also[c.name][1], c.name)} (it held on the training "
                    f"{noun} only)")
    if result.validation.kind == "kfold":
        _per_fold(result, primary, start, noun)
    shown = [*result.folds, *([result.final] if result.final not in result.folds else [])]
    fold_fronts = False
    for fold in shown:
        if fold.front:
            if fold is result.final and fold_fronts:
                say(f"\nthe folds' fronts above show how their rows carry over to the {noun} "
                    "each left out; no row of them is shipped, and none should be chosen by "
                    "its held-out score. The values written come from the front below")
            _print_front(fold, objectives, shipped=fold is result.final)
            fold_fronts = fold_fronts or fold is not result.final
    say("\n" + trials_line(shown, shared=bool(getattr(result.spec, "shared", False))))


def _at_a_narrowed_bound(result: Any, model: Any) -> list[str]:
    """Tuned values at an end of a range narrower than the parameter's own ("k1 0.5, the
    upper end (it goes to 3)")."""
    out = []
    for d in result.spec.space.dimensions:
        value = result.final.best.get(d.name)
        if d.kind not in ("float", "int") or value is None \
                or value == result.defaults.get(d.name):
            continue
        p = model.schema[d.name]
        if math.isclose(float(value), d.high) and d.high < p.high:
            out.append(f"{d.name} {_v(value)}, the upper end (it goes to {_v(p.high)})")
        elif math.isclose(float(value), d.low) and d.low > p.low:
            out.append(f"{d.name} {_v(value)}, the lower end (it goes to {_v(p.low)})")
    return out


def trials_line(studies: Any, shared: bool = False) -> str:
    """"trials per study: fold 1 of 3: 40, …, all: 40", and how many of them this run added
    where some were stored before (the same command continues a study). `shared`: other
    processes may add trials meanwhile, counted with this run's (each of three processes on
    one server study had said "120 new this run" of its 40)."""
    line = _trials_counted(studies, shared)
    still = [f for f in studies if getattr(f, "running", 0)]
    if still:  # built without them: another process's trial may yet be the best (rb 3)
        from workbench.core.tuning.runner import WAIT_S

        k = sum(f.running for f in still)
        line += ("\n" + "; ".join(f"{f.name + ': ' if len(studies) > 1 else ''}{f.trials} of "
                                  f"{f.trials + f.running} trials" for f in still)
                 + f": {k} still running in another process after waiting {WAIT_S:g} s; the "
                 "result may change (the same command, once they end, builds it from every "
                 "trial)")
    return line


def _trials_counted(studies: Any, shared: bool) -> str:
    # one study (a split, a time split, --folds 0) is no list: "trials per study: split: 20"
    # read as a typo
    line = ("trials per study: " + ", ".join(f"{f.name}: {f.trials}" for f in studies)
            if len(studies) > 1 else f"trials: {studies[0].trials}")
    new = sum(f.new for f in studies if f.new >= 0)
    total = sum(f.trials for f in studies)
    if any(f.new < 0 for f in studies) or new == total:
        return line
    if new == 0:
        return line + (" — every one stored by an earlier run with these settings, none "
                       "new (--fresh starts anew)")
    over = f" (over the {len(studies)} studies)" if len(studies) > 1 else ""  # not one's
    if shared:
        return line + (f" — {new:,} new since this run began (by it and any process sharing "
                       f"the study), {total - new:,} stored before{over}")
    return line + f" — {new:,} new this run, {total - new:,} stored before{over}"


def picked_lines(result: Any, primary: str, noun: str = "queries") -> list[str]:
    """What the `bound` pick chose where it is not the highest training mean (`noun`: the
    data's own, `dataset_nouns`)."""
    studies = [*result.folds, *([result.final] if result.final not in result.folds else [])]
    kept = [f for f in studies if f.kept_start and f.top is not None]
    lines = []
    if kept:
        where = ("" if len(studies) == 1 else
                 f" in {len(kept)} of {len(studies)} studies ({', '.join(f.name for f in kept)})")
        if result.spec.pick == "best":  # the highest training mean was the start's own
            # the start's trial is "start", as kept_trial says it in --out, not "trial 0",
            # and its figure in the same parenthesis as the rule (dr9 10)
            # the start's own figure: its trial's, or the settled start's above every trial
            # (a --range that leaves it out, dI 1)
            top = ("" if len(studies) > 1 else
                   f", {primary} {_m(kept[0].train_best[0], primary)}")
            lines.append(f"kept the starting values{where}: theirs is the {_most(primary)} "
                         f"training mean{top} (--pick best)")
        else:
            lines += _kept_start_lines(kept, studies, primary, noun)
    # the studies that kept the start as no trial met the constraints (rv53 b), or, the start
    # breaking them too, scored their held-out queries with it: counted with the others, not
    # left out of "kept the starting values in N of M" (dI 6), and said under the table by a
    # run of one study too (dI 7)
    from workbench.core.tuning.runner import NO_TRIAL_MET

    unmet = [f for f in studies if not f.best or (
        f.kept_start and f.top is None and getattr(f, "kept_why", "").startswith(NO_TRIAL_MET))]
    if unmet:
        more = " more" if kept else ""
        where = ("" if len(studies) == 1 else
                 f" in {len(unmet)}{more} of {'the ' if kept else ''}{len(studies)} studies "
                 f"({', '.join(f.name for f in unmet)})")
        why = ((unmet[0].kept_why or NO_TRIAL_MET) if len(studies) == 1 else
               f"no trial met the constraints on {'its' if len(unmet) == 1 else 'their'} "
               f"training {noun}")
        lines.append(f"kept the starting values{where}: {why}")
    # the start kept with a setting moved by `settle` (dr8 1); where no trial met the
    # constraints, the constraint table below says it
    if result.final in kept and getattr(result.final, "start_moved", None):
        lines.append(f"kept with {moved_text(result.final.start_moved)}: a setting "
                     f"{primary} does not read, moved to meet the constraints")
    from workbench.core.tuning.pick import bound_text

    for f in studies:
        if f.top is None or f.kept_start:
            continue
        where = f"{f.name}: " if len(studies) > 1 else ""
        if f.picked == f.top[0]:
            if f is result.final:  # the values written: named as a fold's are (rb 5)
                surest = (f", whose gain, {_d(f.bound, primary)} or more "
                          f"{bound_text(f.bound_n, noun)}, is also the surest"
                          if result.spec.pick == "bound" and not math.isnan(f.bound) else "")
                lines.append(f"{where}kept trial {f.picked} ({primary} "
                             f"{_m(f.train_best[0], primary)}), the {_most(primary)} training "
                             f"mean{surest}")
            continue
        lines.append(f"{where}kept trial {f.picked} ({primary} "
                     f"{_m(f.train_best[0], primary)}, gain {_d(f.bound, primary)} or more "
                     f"{bound_text(f.bound_n, noun)}) over the {_most(primary)}, trial {f.top[0]} "
                     f"({_m(f.top[1], primary)}): its gain is surer")
    return lines


def _kept_start_lines(kept: list[Any], studies: list[Any], primary: str,
                      noun: str = "queries") -> list[str]:
    """Why the surest-gain pick kept the starting values in `kept`: no bound above 0, or
    (fewer than 2 training queries) no bound at all."""
    from workbench.core.tuning.data import one_of

    lines = []
    alone = [f for f in kept if f.bound_n < 2]
    bounded = [f for f in kept if f.bound_n >= 2]
    top = kept[0].top
    # the highest training mean the start's: its figure the start's own (kept, `train_best`
    # is the start's), not the top trial's below it (dI 1)
    high = kept[0].train_best[0] if kept[0].top_start else top[1]
    # the start's own trial is "the start", as --out's kept_trial says it, not "trial 0"
    # (dr9 10)
    # under cases, counted as passing (dr3 10: "the highest training cases, 0.6667")
    n = int(getattr(kept[0], "bound_n", 0) or 0)
    best = ("" if len(studies) > 1 else
            f"; the most training cases passing, {round(high * n)}/{n}, are the start's, "
            "which --pick best keeps too" if kept[0].top_start and primary == "cases" and n
            else f"; the {_most(primary)} training {primary}, {_m(high, primary)}, is the "
            "start's, which --pick best keeps too" if kept[0].top_start else
            f"; the {_most(primary)} training {primary}, {_m(top[1], primary)} "
            f"(trial {top[0]}), is what --pick best keeps")
    rule = errors_text([f.bound_n for f in bounded], noun)
    for group, why in ((bounded, f"no trial's gain over them on the training {noun} is sure "
                        f"(none has a mean per-query gain above 0 by more than {rule})"),
                       (alone, f"each tunes on a single {one_of(noun)}, from which no gain "
                        "can be sure")):
        if not group:
            continue
        where = ("" if len(studies) == 1 else
                 f" in {len(group)} of {len(studies)} studies "
                 f"({', '.join(f.name for f in group)})")
        if group is alone and len(studies) == 1:
            why = f"it tunes on a single {one_of(noun)}, from which no gain can be sure"
        lines.append(f"kept the starting values{where}: {why}{best}")
    return lines


def moved_text(moved: Any) -> str:
    """The start's values `settle` moved, as the parameter table writes them:
    "sufficiency → 0.8"."""
    return ", ".join(f"{name} → {_v(value)}" for name, value in moved.items())


def _print_constraints(final: Any, primary: str) -> None:
    """Each --constraint's training mean at the starting and the kept values; where the
    starting values break one, that they could not be kept, so the objective may fall (said
    only where it fell); where a parameter `primary` does not read meets it at the start
    (`settle`), that meeting it costs nothing (dr8 3)."""
    if not final.constrained:
        return
    from workbench.core.tuning.runner import NO_TRIAL_MET

    print(format_table(["constraint (training mean)", "starting values", "kept"], [
        [text, _m(start, text.split()[0]), _m(kept, text.split()[0])]
        for text, start, kept in final.constrained]))
    broken = [text for text, start, _ in final.constrained if not _meets(text, start)]
    moved = getattr(final, "start_moved", None)
    if moved and broken:
        met = ", ".join(f"{text.split()[0]} {_m(v, text.split()[0])}" for (text, _, _), v
                        in zip(final.constrained, final.start_moved_means, strict=True))
        unread = "no objective reads" if final.front else f"{primary} does not read"
        say(f"the starting values break {', '.join(broken)}, but with {moved_text(moved)}, "
            f"which {unread}, they meet it ({met}, training mean): the constraint is met by "
            f"a setting {unread}, at no cost to {'them' if final.front else 'it'}"
            # weighed against the trials only where one met the constraints: else kept as
            # the only values that do, which the closing line says (rv53 follow-up 4)
            + ("" if final.front or getattr(final, "kept_why", "").startswith(NO_TRIAL_MET)
               else ", and the starting values so settled were weighed against the trials as "
               "the start"))
    elif final.start_breaks:
        fell = (final.train_best[0] < final.train_default[0] if _up(primary)
                else final.train_best[0] > final.train_default[0])
        say(f"the starting values break {', '.join(broken)}: they could not be kept, and the "
            "kept values are the best found that meet it"
            + (": the objective's drop below is the price of meeting it (with these trials)"
               if fell else ""))
    print()


def _meets(text: str, value: float) -> bool:
    _, op, bound = text.split()
    return value <= float(bound) if op == "<=" else value >= float(bound)


FRONT_ROWS = 12  # a longer front shows its first and last 6 rows, the middle counted


def _print_front(fold: Any, objectives: Any, *, shipped: bool) -> None:
    """`shipped`: the study whose kept values are written. Its rows are shown by training
    scores alone: a row chosen by its held-out score is tuned on the held-out queries. A
    k-fold fold's front keeps its held-out columns (how a front's members carry over), and
    says that no row of it is shipped."""
    n = len(fold.front)
    say(f"\nPareto front of {fold.name} ({n} setting{'' if n == 1 else 's'}), best "
        f"{objectives[0]} first:")
    held = bool(fold.front[0]["held_out"]) and not shipped
    header = ["trial", *(f"{o} train" for o in objectives),
              *(f"{o} held-out" for o in objectives if held)]
    # settings that score alike on training are one point of the front (a run of trials
    # returning nothing filled its far end): the first of them shown, the others counted
    alike: dict[tuple[float, ...], list[dict[str, Any]]] = {}
    for p in fold.front:
        alike.setdefault(tuple(round(float(v), 10) for v in p["train"]), []).append(p)
    points = [(same[0], len(same) - 1) for same in alike.values()]
    groups = list(alike.values())
    spread = False  # alike on training, apart held out: the range shown, not the first's

    def held_text(same: list[dict[str, Any]], k: int, name: str) -> str:
        nonlocal spread
        values = [float(p["held_out"][k]) for p in same if not math.isnan(p["held_out"][k])]
        if not values or math.isclose(min(values), max(values), abs_tol=1e-10):
            return _m(values[0] if values else math.nan, name)
        spread = True
        return f"{_m(min(values), name)}–{_m(max(values), name)}"

    start_kept = getattr(fold, "kept_start", False)

    def kept(p: dict[str, Any]) -> bool:  # the start kept: its row (rv53 a), or trial 0's
        if start_kept:
            return bool(p["number"] == "start" or p["params"] == fold.best)
        return bool(p["number"] == fold.picked)

    rows = [[f"{p['number']}" + (" (kept)" if kept(p) else "")
             + (f" (+{more} alike)" if more else ""),
             *(_m(v, o) for v, o in zip(p["train"], objectives, strict=False)),
             *(held_text(same, k, o) for k, o in enumerate(objectives) if held),
             " ".join(f"{k}={_v(v)}" for k, v in p["params"].items())]
            for (p, more), same in zip(points, groups, strict=True)]
    if len(rows) > FRONT_ROWS:  # both ends kept: the far end is the other objectives' best
        half = FRONT_ROWS // 2
        cut = sum(1 + more for _, more in points[half:-half])
        rows = [*rows[:half], [f"… {cut} more", *([""] * len(header))], *rows[-half:]]
    print(format_table([*header, "values (-p NAME=VALUE)"], rows))
    settled = _settled_names(fold)
    if settled:  # each row's, as the kept row's: not the trial's own draw (dr8 2)
        say(f"{settled} in each row is settled as in the kept values (its start where that "
            "meets the constraints, else the nearest value that does), not the trial's "
            "own draw: no objective reads it")
    if spread:
        say("(+N alike): trials with the same training scores, one row with the first's "
            "values; where they differ held out, the row shows the lowest–highest")
    if not shipped:
        return
    others = " and ".join(objectives[1:])
    if fold.picked is not None and len(fold.front) > 1:
        # "a lower results", not "a better results": the way each objective is better
        trade = " and ".join(f"{'higher' if _up(o) else 'lower'} {o}" for o in objectives[1:])
        worse = f"{'lower' if _up(objectives[0]) else 'higher'} {objectives[0]}"
        say(f"kept: trial {fold.picked} — the front's best {objectives[0]} on training, "
            f"whatever its {others}. To ship another row ({worse} for {trade}), pass its "
            "values with -p, or bound "
            f"{others} with --constraint and tune {objectives[0]} alone")
    if start_kept and len(fold.front) > 1:
        say(f"kept: the starting values — {fold.kept_why}. To ship another row, pass its "
            f"values with -p, or bound {others} with --constraint and tune {objectives[0]} "
            "alone")
    if len(fold.front) > 1 and (fold.picked is not None or start_kept) \
            and fold.front[0]["held_out"]:
        say("the rows' held-out scores are not shown: a row chosen by them would be "
            "tuned on the held-out queries (the kept row's are above)")


def idle_at(model: Any, params: Mapping[str, Any], names: Iterable[str]) -> dict[str, str]:
    """Of `names`, those no score reads at `params` by the schema's `needs`, each with why in
    -p's ids ("no_vector_threshold is on", "normalization is not rrf"): a tuned table or file
    that lists them as settings read as if they mattered (rB 9)."""
    from workbench.cli.common import idle_text

    schema = model.schema
    out = {}
    for name in names:
        why = schema.idle_because(name, params) if name in schema else ""
        if why:
            out[name] = idle_text(schema, name, why)
    return out


def _settled_names(fold: Any) -> str:
    """The parameters `settle` moved from a front row's own draw, "and"-joined."""
    names = dict.fromkeys(n for p in fold.front for n in p.get("settled", ()))
    return " and ".join(names)


def _most(name: str) -> str:
    """The best of a mean, in words: "highest" where more is better, "lowest" for a cost."""
    return "highest" if _up(name) else "lowest"


def _up(name: str) -> bool:
    from workbench.core.tuning.objectives import direction

    return direction(name) == "maximize"


def _v(value: object) -> str:
    """A value as -p and the TOML files take it: true, not Python's True."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    return "" if value is None else str(value)


def _m(value: float, name: str = "") -> str:
    """A mean as eval and sweep print it (`common.mean_text`)."""
    from workbench.cli.common import mean_text

    return "—" if value is None else mean_text(name, value)


def _d(value: float, name: str = "") -> str:
    if math.isnan(value):
        return "—"
    from workbench.report.text import delta_text

    return delta_text(value, _count(name))


def _pair(a: float, b: float, name: str = "", delta: float | None = None
          ) -> tuple[str, str, str]:
    """Two means and their difference b − a (`delta` where given, else computed) as compare
    prints a row (`report.text.row_digits`): the decimals `_m` shows, one more where needed,
    and Δ the difference of the means shown (dr5 2: 0.6131 → 0.6380 read +0.0250 here and
    +0.0249 in compare)."""
    from workbench.core.selection_figures import FIGURES
    from workbench.report.text import delta_text, figure_base, row_digits

    if a is None or b is None or math.isnan(a) or math.isnan(b):
        return _m(a, name), _m(b, name), _d(b - a if delta is None else delta, name)
    count = _count(name) or name in FIGURES
    base = figure_base(name) if name in FIGURES else 1 if count else 4
    digits, (_, shown) = row_digits([a, b], [0.0, b - a if delta is None else delta],
                                    count=count, base=base)
    texts = [f"{x:,.{digits}f}" if count else f"{x:.{digits}f}" for x in (a, b)]
    return texts[0], texts[1], delta_text(shown, count, digits)


def _held(n: int, noun: str = "queries") -> str:
    """"1 held-out query", "6 held-out tasks" (dr5 7: "the 1 held-out queries"; `noun`:
    `dataset_nouns`'s, dr7 3)."""
    from workbench.core.tuning.data import one_of

    return f"{n:,} held-out {one_of(noun) if n == 1 else noun}"


def _count(name: str) -> bool:
    from workbench.core.metrics import BUNDLE_METRICS

    figure = BUNDLE_METRICS.get(name)
    return bool(figure is not None and figure.count) or name in ("injected_tokens", "results")


def start_whose(result: Any, model: Any, params_file: str | None,
                assignments: Any = ()) -> str:
    """Whose the starting values are, as the advice to keep them says it: "fl.toml's", "the
    model's defaults", "those given with -p k1=1.0, b=0.5", "fl.toml's with -p
    w_keyword=2.5" (T5: from a file its run advised against, "keep the starting values" named
    the values advised against without saying so; dr3 2, 12: with the -p values themselves,
    which had been left unsaid, and the file's score said of values -p had moved)."""
    from pathlib import Path

    from workbench.core.tuning.verdict import owned

    moved = moved_by_p(model, params_file, assignments)
    given = ", ".join(f"{k}={v.strip()}" for k, v in moved.items())
    if params_file:  # as the window names a configuration (dr6 3)
        return owned(Path(params_file).name) + (f" with -p {given}" if given else "")
    return ("the model's defaults" if start_word(result, model) == "defaults"
            else f"those given with -p {given}" if given else "those given with -p")


def moved_by_p(model: Any, params_file: str | None, assignments: Any) -> dict[str, str]:
    """Of the -p assignments (`assignments`, as typed), those that set a value other than
    the --params file's (or, without one, the model's default), as typed, in order."""
    from workbench.core.params import ParamError, parse_assignments, resolve_file

    given = parse_assignments(assignments or ())
    if not given:
        return {}
    try:
        base = dict(resolve_file(model.schema, params_file)) if params_file else {}
        before = model.schema.resolve(base)
        after = model.schema.resolve({**base, **given})
    except (ParamError, OSError, ValueError):  # refused before the run: said there
        return dict(given)
    return {k: v for k, v in given.items() if before.get(k) != after.get(k)}


def start_word(result: Any, model: Any) -> str:
    """What the starting values are called: "defaults" where they are the model's, else
    "start" (-p or --params set some: called defaults, they read as the model's own)."""
    own = model.schema.defaults()
    return "defaults" if all(result.defaults.get(n) == v for n, v in own.items()) else "start"


def _per_fold(result: Any, primary: str, start: str = "defaults",
              noun: str = "queries") -> None:
    """Each fold's held-out mean for the starting and the tuned values, then the mean and
    standard deviation over the folds (the held-out row above pools the queries instead: the
    two differ where the folds differ in size)."""
    import numpy as np

    means = result.fold_means
    rows = [[f.name + ("" if f.best else " (no trial met the constraints: start)"),
             f"{int((~np.isnan(f.held_tuned)).sum()):,}", *_pair(d, t, primary)]
            for f, (d, t) in zip(result.folds, means, strict=True)]
    default, tuned = [m[0] for m in means], [m[1] for m in means]
    say(f"\nheld-out {primary} per fold (each fold scored by the study tuned without it):")
    print(format_table(["fold", noun, start, "tuned", "Δ"], rows))
    say(f"mean ± sd over the folds: {start} {_spread(default, primary)}, tuned "
        f"{_spread(tuned, primary)} "
        f"(the held-out row above is the mean over the {noun})")


def _spread(values: list[float], name: str = "") -> str:
    import numpy as np

    v = np.asarray([x for x in values if not math.isnan(x)])
    if not v.size:
        return "—"
    return f"{_m(float(v.mean()), name)} ± {_m(float(v.std(ddof=1)) if v.size > 1 else 0.0, name)}"
