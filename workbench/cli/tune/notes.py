"""What tune says before the search of what tuning cannot change or ship."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from workbench.cli.tune_report import reasons_text
from workbench.textout import say


def _say_fixed_figures(model: Any, objectives: Sequence[str], constraints: Sequence[Any]) -> None:
    """A selection figure (results, injected_tokens) of a model with no min score or limit:
    a query returns every document it matches, so the figure moves only with what matches
    (bm25's fields, stemmer), never with what scores it (k1, b): said before the search
    (bm25 on Cranfield: 970.04 results a query at every k1, b and variant)."""
    from workbench.core.selection_figures import selects

    if selects(model):
        return
    for name in dict.fromkeys([*objectives, *(c.name for c in constraints)]):
        if name not in ("results", "injected_tokens"):
            continue
        role = "the objective" if name == objectives[0] else (
            "an objective" if name in objectives else "a constraint")
        say(f"warning: {model.id} has no min score or limit: a query returns every document "
            f"it matches, so {name} ({role}) moves only with what matches, not with the "
            "values that score the documents; a search over those finds no change",
            file=sys.stderr)


def _say_what_cannot_ship(model: Any, names: list[str], measured: list[str],
                          left_out: list[str]) -> None:
    """Before any trial: which of the tuned parameters the model's target system cannot take
    as a setting, and the --tune that searches only those it can (OpenVault has no
    normalisation setting, pi-lodestone hard-codes most of its constants: a held-out gain
    from them needs a code change to be had). What it can set may be only cut-offs that
    `measured` (objectives and constraints) can only lose with (`left_out` of the default
    search, or named): then no --tune of its settings can gain, and that is said instead."""
    from workbench.core.export import export_params, unshippable
    from workbench.core.tuning.space import cut_offs

    code, absent = unshippable(model.id, names)
    if not code and not absent:
        return
    target = export_params(model.id).target
    cut = cut_offs([*names, *left_out], measured, model.schema.by_name)
    settable = [n for n in names if n not in code and n not in absent and n not in cut]
    parts = ([f"{', '.join(absent)} (not in it)"] if absent else []) + (
        [f"{', '.join(code)} (no setting there: it takes a change to its code)"] if code
        else [])
    left_code, left_absent = unshippable(model.id, left_out)
    cuts = [n for n in [*names, *left_out] if n in cut
            and n not in {*code, *absent, *left_code, *left_absent}]
    if settable:
        advice = f". To tune only what it can set: --tune {','.join(settable)}"
    elif cuts:
        advice = (f". What it can set {'is a cut-off' if len(cuts) == 1 else 'are cut-offs'}"
                  f", {reasons_text({n: cut[n] for n in cuts})}: no setting of {target} can "
                  "raise the score" + (" but by chance" if any(n.endswith("limit") for n in cuts)
                                       else "")
                  + ", and a gain tuned here ships only as a change to its code")
    else:
        advice = (f". Nothing tuned here is a setting {target} takes: a gain tuned here ships "
                  "only as a change to its code")
    say(f"note: {target} cannot take as a setting what is tuned here for "
        + "; ".join(parts) + ": `export` lists them apart" + advice)


def _say_chosen_last(model: Any, names: Sequence[str], objectives: Sequence[str],
                     constraints: Sequence[Any], base: Any, many: str) -> None:
    """The searched parameters no objective reads (`settle.chosen_last`: sufficiency under
    nDCG@10), and the rule that chooses them after the search (dr2 1: the trial's random
    draw had shipped, sufficiency 0.95 → 0.1 and held-out bundle recall 0.93 → 0.31)."""
    from workbench.core.metrics import metric_label
    from workbench.core.params import value_text
    from workbench.core.tuning.settle import chosen_last

    last = chosen_last(names, objectives, model.schema.by_name)
    if not last:
        return
    said = ", ".join(f"{n} (starts at {value_text(base[n])})" for n in last)
    labels = list(dict.fromkeys(metric_label(o) for o in objectives))
    reads = f"{' and '.join(labels)} {'does' if len(labels) == 1 else 'do'} not read"
    one = len(last) == 1
    if not constraints:
        say(f"note: {said} {'is' if one else 'are'} kept at {'its' if one else 'their'} "
            f"start, whatever the trials draw: {reads} {'it' if one else 'them'}, so every "
            "value scores alike")
        return
    held = " and ".join(str(c) for c in constraints)
    say(f"note: {said} {'is' if one else 'are'} chosen last: {reads} "
        f"{'it' if one else 'them'}, so every value scores alike; the kept trial's other "
        f"values are kept with {'its' if one else 'their'} start where that meets {held} on "
        f"the training {many}, else with the value nearest the start that does (not the "
        "trial's random draw)")


def _clamp_tie_note(model: Any, evaluator: Any, kept: Any, metric: str) -> str:
    """Where at the kept values results tied at 1 (clamped) take places within `metric`'s
    cut-off on some counted query, so that the tie order, not a score, decides what the
    figures above read there: said as sweep and compare say it of their values
    (`clamp_ties`; dC 2: tune kept vault-search's w_position 0.96 through such a tie,
    unsaid); "" for a model without a clamp tie order, or where no such tie is."""
    from workbench.cli.evaluate.sweep import cut_text
    from workbench.core.clamp_ties import TREC_TIES, named_queries, tie_order, tie_queries
    from workbench.core.tuning.data import dataset_nouns

    order = tie_order(model)
    if not order or not kept:
        return ""
    cut, within = cut_text(metric)
    counted = evaluator.counted()
    tied = tie_queries(evaluator.run(kept), cut, counted)
    found = int(tied.sum())
    if not found:
        return ""
    many = dataset_nouns(evaluator.dataset)[1]
    noun = f"judged {many}" if evaluator.dataset.qrels else many
    # the queries named, as sweep and compare name them (rv53 dH 6)
    which = named_queries([q.id for q in evaluator.dataset.queries], tied)
    return (f"note: at the kept values, on {found:,} of the {int(counted.sum()):,} {noun} "
            f"({which}) "
            f"results tied at 1 (clamped) take places {within}, {TREC_TIES.format(metric)}"
            f"{order}")
