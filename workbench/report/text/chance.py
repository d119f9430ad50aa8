"""When a difference counts as beyond chance: one rule for every table's marks, In short,
Every pair, compare and the window (review rb, 1: the verdict on one pair had flipped with the
columns on screen).

The rule. The primary comparison is the one tune declared before it looked: a tuned
configuration against its own starting values on the metric it was tuned for, held out
(`primary`). It is tested alone at 0.05, as tune tests it, and its verdict never changes with
what else is shown. Every other p-value is exploratory: called beyond chance only where it is
below 0.05 after Holm's adjustment over the exploratory p-values the metric table shows (Holm
1979: the k-th smallest of m times m − k + 1, the running maximum carried up); below 0.05
alone but not after the adjustment, it is weak evidence (☆)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from workbench.core.comparison import Comparison, MetricRow
from workbench.core.params import ParamError, parse_assignments
from workbench.report.text.compared import _and, nouns, singular, trained_pair
from workbench.report.text.numbers import is_count, p_text

BEYOND, WEAK = "beyond", "weak"


def primary(comp: Comparison, a: int, b: int, metric: str) -> bool:
    """Whether configurations a and b on `metric` are a primary comparison, in either order:
    one carries tune's `[tuned]` record for `metric` with held-out figures, neither side has
    training scores here, and the other is its starting values (same model, at the model's
    defaults where tune started from them, or the configuration named as the start)."""
    return _started(comp, a, b, metric) or _started(comp, b, a, metric)


def _started(comp: Comparison, a: int, b: int, metric: str) -> bool:
    """`primary` with b the tuned configuration and a its start."""
    name = comp.configs[b].name
    t = comp.tuned.get(name)
    if (t is None or not getattr(t, "held_n", 0) or getattr(t, "metric", "") != metric
            or math.isnan(getattr(t, "p_value", math.nan)) or name in comp.training
            or comp.configs[a].name in comp.training or not comp.same_model(a, b)
            or not _same_data(comp, t)):
        return False
    # a run that kept its start wrote the start's own values: nothing was tested (dr6 7)
    model = comp.model_of(b)
    return a in starts(comp, b) and dict(model.schema.resolve(comp.configs[a].params)) != dict(
        model.schema.resolve(comp.configs[b].params))


def _same_data(comp: Comparison, t: object) -> bool:
    """Whether tune's record `t` is of the data compared (dr6 2: a record from another
    collection had made a pair here primary): the same documents by content key where it
    keeps one, else a dataset of the same name."""
    dataset = comp.dataset
    corpus = getattr(t, "corpus", "")
    if corpus:
        return bool(corpus == dataset.corpus.content_key())
    return bool(getattr(t, "dataset", "") == dataset.name)


def starts(comp: Comparison, b: int) -> list[int]:
    """The configurations (indices, of b's model) holding the values tuned configuration b's
    run started from, as its record names them (`TunedOn.start`, dr6 1): "the model's
    defaults"; "those given with -p k1=0.3, b=0.1" (the defaults with those); a --params
    file's ("s2.toml's", the configuration read from s2.toml, or named s2 where none was
    read from a file) or a window configuration's ("the configuration X's"), either
    possibly "with" values moved off it. Matched by values where they are known; a start
    named by a file or configuration not among those compared, or named twice, has none.
    A configuration with a `[tuned]` record of its own is another run's result, never a start
    matched by values, only one named (dr6 1: a run tuned for r@10 that kept its start holds
    the defaults' values, and a pair of it and a run tuned for ndcg@10 had been called tune's
    own test, on ndcg@10, beside Every pair's bundle_recall verdict)."""
    t = comp.tuned.get(comp.configs[b].name)
    start = str(getattr(t, "start", "") or "")
    model = comp.model_of(b)
    others = [i for i in range(len(comp.configs)) if i != b and comp.same_model(i, b)]

    def values(params: dict[str, object]) -> dict[str, object] | None:
        try:
            return dict(model.schema.resolve(params))
        except (ParamError, ValueError, TypeError):
            return None

    def holding(params: dict[str, object]) -> list[int]:
        want = values(params)
        return [] if want is None else [i for i in others
                                        if comp.tuned.get(comp.configs[i].name) is None
                                        and values(dict(comp.configs[i].params)) == want]

    if start == "the model's defaults":
        return holding({})
    given = re.fullmatch(r"those given with -p (.+)", start)
    if given:
        moved = _assignments(given.group(1))
        return [] if moved is None else holding(dict(moved))
    for i in others:
        for whose in _names(comp, i):
            if start == f"{whose}'s":
                return [i] if _unique(comp, i, whose) else []
            rest = start.removeprefix(f"{whose}'s with ")
            if rest != start:
                moved = _assignments(rest.removeprefix("-p "))
                if moved is None or not _unique(comp, i, whose):
                    return []
                return holding({**dict(comp.configs[i].params), **moved})
    return []


def _names(comp: Comparison, i: int) -> list[str]:
    """How a start may name configuration i: by the file it was read from ("s2.toml"), by
    its name as a file (compare names a file's configuration by its stem: "s2" → "s2.toml"),
    and as the window does ("the configuration s2")."""
    c = comp.configs[i]
    source = Path(c.source).name if getattr(c, "source", "") else ""
    out = [source] if source else [f"{c.name}.toml", f"{Path(c.name).name}.toml"]
    return [*dict.fromkeys(out), f"the configuration {c.name}"]


def _unique(comp: Comparison, i: int, whose: str) -> bool:
    """Whether no other configuration compared answers to `whose` (two best.toml from two
    runs: which one the run started from, nothing tells)."""
    return not any(whose in _names(comp, j) for j in range(len(comp.configs)) if j != i)


def _assignments(text: str) -> dict[str, str] | None:
    """"k1=0.3, b=0.1" (as a start names the values given) → {"k1": "0.3", "b": "0.1"};
    None where it does not read so."""
    try:
        return parse_assignments(re.split(r", (?=[A-Za-z_][\w.-]*=)", text.strip()))
    except ParamError:
        return None


def unstarted(comp: Comparison) -> list[str]:
    """The tuned configurations whose record would name a primary comparison here but for
    its start, which files written before tune kept `held_out_start` lack: held-out figures
    of these documents, on a metric shown, not training scores here, with another
    configuration of its model compared (dr6, 4th: such a record was never primary, unsaid)."""
    metrics = {r.metric for r in comp.rows}
    out = []
    for b, c in enumerate(comp.configs):
        t = comp.tuned.get(c.name)
        if (t is None or str(getattr(t, "start", "") or "") or not getattr(t, "held_n", 0)
                or getattr(t, "metric", "") not in metrics
                or math.isnan(getattr(t, "p_value", math.nan)) or c.name in comp.training
                or not _same_data(comp, t)):
            continue
        if any(comp.same_model(a, b) and comp.configs[a].name not in comp.training
               for a in range(len(comp.configs)) if a != b):
            out.append(c.name)
    return out


def unstarted_text(comp: Comparison) -> str:
    """`unstarted` in words, "" for none: "The record of 's2' does not say where tune
    started, so the workbench cannot tell which comparison here, if any, is the one tune
    tested: each is read as a side look; rerun tune to test it as pre-declared."."""
    names = unstarted(comp)
    if not names:
        return ""
    who = " and ".join(f"'{n}'" for n in names)
    one = len(names) == 1
    # not "none of its comparisons is the one tune tested": one may be, unknown (dr1 4)
    return (f"The record{'' if one else 's'} of {who} {'does' if one else 'do'} not say "
            "where tune started, so the workbench cannot tell which comparison here, if any, "
            f"is the one tune tested: each is read as a side look; rerun tune to test "
            f"{'it' if one else 'them'} as pre-declared.")


def primary_pairs(comp: Comparison) -> list[str]:
    """The primary comparisons shown, each in words ("best against defaults on ndcg@10")."""
    n = len(comp.configs)
    return [f"{comp.configs[b].name} against {comp.configs[a].name} on {r.metric}"
            for r in comp.rows for a in range(n) for b in range(n)
            if a != b and _started(comp, a, b, r.metric)]


def primary_text(comp: Comparison) -> str:
    """The primary comparisons shown, in words ("best against defaults on ndcg@10"), "" for
    none."""
    return "; ".join(primary_pairs(comp))


def _family(comp: Comparison) -> list[float]:
    """The exploratory p-values the metric table shows: of a difference on some query, not
    against training scores, not of a primary comparison, and only where `evidence` may mark
    one (dr6 8): no cost (a bundle's files and tokens), no coverage (judged@), and none of a
    pair where a side returns nothing on any query (a setup to fix, untested in Every
    pair)."""
    return [p for p, _ in _family_moved(comp)]


def _family_moved(comp: Comparison) -> list[tuple[float, int]]:
    """`_family`'s p-values, each with how many queries moved (better or worse) under it."""
    return [(float(r.p_values[i] or 0.0), r.improved[i] + r.worsened[i])
            for i, r in _family_cells(comp)]


def _family_cells(comp: Comparison) -> list[tuple[int, MetricRow]]:
    """`_family`'s p-values as (configuration, row) of the metric table."""
    return [(i, r) for i in range(1, len(comp.configs))
            if not trained_pair(comp, i) and not _returns_nothing(comp, i)
            for r in comp.rows
            if p_text(r.p_values[i]) != "" and r.improved[i] + r.worsened[i] > 0
            and not is_count(r.metric) and not r.metric.startswith("judged@")
            and not primary(comp, 0, i, r.metric)]


def _family_distinct(comp: Comparison) -> int:
    """How many distinct queries moved under any of `_family`'s p-values (dr1 2: two
    configurations that each moved 8 other queries had read "only 8 queries moved")."""
    from workbench.core.metrics.significance import NO_CHANGE

    mask = comp.counted
    moved = np.zeros(int(mask.sum()), dtype=bool)
    for i, r in _family_cells(comp):
        a = comp.results[0].per_query.get(r.metric)
        b = comp.results[i].per_query.get(r.metric)
        if a is None or b is None:
            return -1  # not known: said as "at most"
        d = np.asarray(b, dtype=float)[mask] - np.asarray(a, dtype=float)[mask]
        moved |= ~(np.abs(d) <= NO_CHANGE)  # NaN counts as moved: "at most" where unsure
    return int(moved.sum())


def ceiling(comp: Comparison) -> tuple[int, int, bool] | None:
    """Where too few queries moved for any side look in the metric table to be beyond
    chance, whichever way they moved (dr6 5: 0 better and 6 worse on four metrics of the same
    6 queries had read "weak evidence"): (n, m, alike), n the most queries that moved under
    any of the m p-values of the table's family, `alike` whether only n distinct queries
    moved under all of them together; None otherwise.
    With n moved queries the smallest two-sided p the exact sign-flip test can give is 2/2^n
    (every query the same way; the test counts every pattern up to EXACT_MAX_NONZERO), and
    Holm's first step multiplies the smallest p of the family by m: where m × 2/2^n is not
    below 0.05, Holm adjusts every p to 0.05 or more. Of the table's family only: Every pair
    adjusts a pair of two others over more (`pairs.pair_ceiling`)."""
    moved = [k for _, k in _family_moved(comp)]
    found = ceiling_of(moved)
    if found is None or found[2] or min(moved) != found[0]:
        return found
    return found[0], found[1], _family_distinct(comp) == found[0]


def ceiling_of(moved: list[int]) -> tuple[int, int, bool] | None:
    """`ceiling` over a family given by how many queries moved under each of its p-values;
    `alike` only where there is one p-value (which queries moved under each is not known
    here: two that each moved 8 may have moved 16 between them)."""
    from workbench.core.metrics.significance import EXACT_MAX_NONZERO

    if not moved:
        return None
    n, m = max(moved), len(moved)
    if n > EXACT_MAX_NONZERO or m * floor_p(n) < 0.05:
        return None
    return n, m, m == 1


def floor_p(n: int) -> float:
    """The smallest two-sided p a sign-flip test over n moved queries can give: 2/2^n (of the
    2^n sign patterns, the one seen and its mirror are the most extreme)."""
    return min(1.0, 2.0 / 2.0**n)


def exact(x: float) -> str:
    """A power-of-two fraction as its decimal, exact to six places (0.0625, not 0.062:
    dr1 6), else to three significant figures."""
    text = f"{x:.6f}".rstrip("0").rstrip(".")
    return text if abs(float(text) - x) < 1e-12 else f"{x:.3g}"


def ceiling_text(comp: Comparison) -> str:
    """`ceiling` in words, "" where it does not hold: "only 6 queries moved: no side look
    among the 4 p-values in the metric table can be beyond chance (the smallest p 6 queries
    allow is 2/2^6 = 0.03125; Holm's adjustment over 4 raises that to at least 4 × 2/2^6 =
    0.125)"."""
    found = ceiling(comp)
    return ceiling_words(comp, found, among=None if found is None
                         else f"the {found[1]} p-values in the metric table")


def ceiling_words(comp: Comparison, found: tuple[int, int, bool] | None,
                  looks: str = "side look", among: str | None = None) -> str:
    """`ceiling_text` of a family's `ceiling_of` ("" for None); `looks`: what its p-values
    are ("pair": Every pair's); `among`: the p-values, in words ("these 5 p-values" unless
    given)."""
    if found is None:
        return ""
    n, m, alike = found
    _, queries = nouns(comp)
    many = queries if n != 1 else singular(queries)
    among = among or f"these {m} p-values"
    moved = (f"only {n} {many} moved: no {looks} among {among}" if alike
             else f"at most {n} {many} moved under any one of {among}: no {looks} among them")
    floor = floor_p(n)
    smallest = (f"the smallest p {n} {many} {'allows' if n == 1 else 'allow'} is 2/2^{n} = "
                f"{exact(floor)}")
    holm = ("" if m == 1 else
            f"; Holm's adjustment over {m} raises that to at least {m} × 2/2^{n} = "
            f"{exact(m * floor)}" if m * floor < 1 else
            f"; Holm's adjustment over {m} raises that to 1 ({m} × 2/2^{n} is 1 or more)")
    return f"{moved} can be beyond chance ({smallest}{holm})"


def _returns_nothing(comp: Comparison, i: int) -> bool:
    """Whether configuration i or the first returns nothing on any query."""
    return not comp.lengths(0).any() or not comp.lengths(i).any()


def side_look(comp: Comparison, p: float | None, moved: int | None = None) -> str:
    """A p the tables do not show (as shipped against the first, or against its model's
    defaults) read by the same rule as any exploratory one (dr6 4: it had been given bare):
    "p 0.021, a side look: Holm p 0.105 over the 5, weak evidence"; "p 0.300" at or above
    0.05; "" without a p. Holm over the family shown and this p. `moved`: the queries that
    moved under it, where known: where too few moved under it and the family shown for any
    of them to be beyond chance, that is said, not "weak evidence" (`ceiling`)."""
    if p is None or math.isnan(p):
        return ""
    if p >= 0.05:
        return f"p {p_text(p)}"
    if moved is not None:
        few = ceiling_of([*(k for _, k in _family_moved(comp)), moved])
        if few is not None:
            among = (f"the metric table's {few[1] - 1} p-values and this one" if few[1] > 1
                     else "this one")
            return f"p {p_text(p)}, a side look, and {ceiling_words(comp, few, among=among)}"
    family = sorted([*_family(comp), p])
    m, running, adjusted = len(family), 0.0, 1.0
    for k, x in enumerate(family):
        running = max(running, min(1.0, (m - k) * x))
        if x == p:
            adjusted = running
            break
    verdict = "beyond chance" if adjusted < 0.05 else "weak evidence"
    return f"p {p_text(p)}, a side look: Holm p {p_text(adjusted)} over the {m}, {verdict}"


def holm_p(comp: Comparison, p: float) -> float:
    """p adjusted by Holm's step-down method over the exploratory family the table shows
    (`_family`), p taken as one of them."""
    family = sorted(_family(comp))
    m = max(1, len(family))
    k = sum(x < p for x in family)
    running = max([min(1.0, (m - j) * x) for j, x in enumerate(family[:k])] + [0.0])
    return max(running, min(1.0, (m - k) * p))


def evidence(comp: Comparison, row: MetricRow, i: int) -> str:
    """How the metric tables mark configuration i's difference on `row`, one rule for the
    Markdown's ★, the HTML's colour, the window's and In short's words: BEYOND where the
    pair is primary (`primary`) and p is below 0.05, or where Holm's adjusted p (`holm_p`) is
    below 0.05; WEAK where p is below 0.05 only; "" otherwise, and always for training scores,
    judged@ (coverage) and a bundle's files and tokens (a cost)."""
    p = row.p_values[i]
    if (p is None or not p < 0.05 or trained_pair(comp, i) or is_count(row.metric)
            or row.metric.startswith("judged@")):
        return ""
    if primary(comp, 0, i, row.metric):
        return BEYOND
    return WEAK if weak_p(comp, p) else BEYOND


def evidence_key(comp: Comparison) -> str:
    """The key to the marks (`evidence`), said as the Markdown writes it."""
    weak = any(evidence(comp, r, i) == WEAK for r in comp.rows
               for i in range(1, len(comp.configs)))
    return ("★: a difference beyond chance by the paired test (the rule: see the note under "
            "the table)"
            + ("" if not weak else
               "; ☆: p below 0.05 alone, but a side look, and no side look in this table "
               "can be beyond chance (the note under the table says why)" if ceiling(comp) else
               "; ☆: p below 0.05 alone, but exploratory and not below 0.05 after Holm's "
               "adjustment: weak evidence")
            + ". judged@ (coverage) and a bundle's files and tokens (a cost) are never marked.")


def weak_p(comp: Comparison, p: float | None, *, always: bool = False) -> str:
    """Where an exploratory p (not a primary comparison's: the caller knows) is below 0.05
    but its Holm-adjusted p over the family shown is not: "exploratory, and not below 0.05
    after Holm's adjustment over the 14 p-values shown (Holm p 0.12): weak evidence"; where
    too few queries moved for any side look to be beyond chance (`ceiling`), that instead
    ("a side look, and only 6 queries moved: …"); "" otherwise.
    `always`: the words whatever p is, without a Holm p."""
    n = tests_shown(comp)
    if always:
        return (f"exploratory, and not below 0.05 after Holm's adjustment over the {n} "
                "p-values shown")
    if p is None or p >= 0.05 or holm_p(comp, p) < 0.05:
        return ""
    if ceiling(comp) is not None:  # not "weak evidence": no evidence could be more (dr6 5)
        return f"a side look, and {ceiling_text(comp)}"
    return (f"exploratory, and not below 0.05 after Holm's adjustment over the {n} p-values "
            f"shown (Holm p {p_text(holm_p(comp, p))}): weak evidence")


def tests_shown(comp: Comparison) -> int:
    """How many exploratory p-values the metric table shows of a difference on some query
    (against training scores none; where no query moved, p is 1 and tests nothing; a primary
    comparison is tested alone)."""
    return len(_family(comp))


def many_tests_note(comp: Comparison, summary: str = "In short", *, marks: bool = True,
                    named: bool = False) -> str:
    """The rule the verdicts follow, said once where they are, in plain words (dr6 9: it had
    been 130 words with Holm's formula; the formula is in Every pair's key): "" where the
    table shows no primary comparison and fewer than two other p-values. `summary`: where
    the verdicts it names are (compare has no In short of its own: a report's); `marks`:
    whether the table beside it marks its p-values (★/☆): compare's prints none, so the
    marks said are the report's; `named`: each count's metrics named, and those not counted
    (compare, whose table has no key to say judged@ is never tested: rv 7)."""
    pairs = primary_pairs(comp)
    n = tests_shown(comp)
    old = unstarted_text(comp)  # said once, where the rule is (dr6, 4th)
    old = f" {old}" if old else ""
    if not pairs and n < 2:  # one p-value, no primary: nothing to adjust, no rule to say
        return old.lstrip()
    # compare's "A report's In short (…)" inside the sentence
    summary = summary[0].lower() + summary[1:] if summary.startswith("A ") else summary
    lead = f"How {summary} and {'the' if marks else 'its'} marks read a p: "
    if len(pairs) == 1:
        lead += (f"the one comparison tune set out to test (the primary comparison: "
                 f"{pairs[0]}, held out) is judged alone: beyond chance if p is below 0.05. ")
    elif pairs:
        # "each by its own run" only where it is so (dr6 1): one run's test against two
        # configurations that hold its start is one test, one chance of a false alarm
        n_configs = len(comp.configs)
        runs = len({b for r in comp.rows for a in range(n_configs) for b in range(n_configs)
                    if a != b and _started(comp, a, b, r.metric)})
        own = ", each by its own run" if runs == len(pairs) else (
            f", from {runs} run{'' if runs == 1 else 's'} (a run's start held by more than one "
            "configuration here)")
        chances = f"{runs} chance{'' if runs == 1 else 's'} of a false alarm" + (
            ", not one" if runs > 1 else "")
        lead += (f"the {len(pairs)} comparisons tune set out to test{own} (the primary "
                 f"comparisons: {'; '.join(pairs)}, held out), are each judged alone: "
                 f"beyond chance if p is below 0.05 ({chances}). ")
    if not n:
        return lead.rstrip() + old
    # each count named (rv 7: "All 3 p-values shown" beside a table of 6 had not said which)
    shown = [(i, r) for i in range(1, len(comp.configs))
             if not trained_pair(comp, i) and not _returns_nothing(comp, i)
             for r in comp.rows if p_text(r.p_values[i]) != ""]
    idle = [(i, r) for i, r in shown if r.improved[i] + r.worsened[i] == 0
            and not is_count(r.metric) and not r.metric.startswith("judged@")]
    named_idle = f" ({_cells(comp, idle)})" if named and idle else ""
    more = (f" {len(idle)} more, at 1.000{named_idle}, test nothing: no query moved."
            if len(idle) > 1 else
            f" 1 more, at 1.000{named_idle}, tests nothing: no query moved." if idle else "")
    coverage = [(i, r) for i, r in shown if r.metric.startswith("judged@")]
    cost = [(i, r) for i, r in shown if is_count(r.metric)]
    uncounted = ([f"{_and(list(dict.fromkeys(r.metric for _, r in coverage)))} (coverage)"]
                 if coverage else [])
    uncounted += ([f"{_and(list(dict.fromkeys(r.metric for _, r in cost)))} (a bundle's "
                   "cost)"] if cost else [])
    more += (f" Not counted: {_and(uncounted)}, not a ranking to test."
             if uncounted and named else "")
    which = ("The other p-value shown is a side look" if n == 1 and pairs else
             f"The other {n} p-values shown are side looks" if pairs else
             f"All {n} p-values shown are side looks") + (
                 f" ({_cells(comp, _family_cells(comp))})" if named else "")
    if not named:  # the report's: counted against its own table, the rest named (dr8 6)
        which, more = _report_count(comp, shown)
    # said only where some side look is below 0.05 alone, in the rule's place, not after it
    # (dr1 7: it had followed "weak evidence" to take it back, and explained an absent ☆)
    weak = any(evidence(comp, r, i) == WEAK for r in comp.rows
               for i in range(1, len(comp.configs)))
    few = ceiling_text(comp) if weak else ""
    # compare prints no marks (dr6 5's leftover: its note had named ☆): the report's, said so
    star = ("☆ marks a p below 0.05 before the adjustment, no more" if marks else
            "a report marks a p below 0.05 before the adjustment ☆, no more")
    rule = (f". Here {few}, so {star}." if few else
            "; below 0.05 only before it, weak evidence.")
    text = (lead + f"{which}: beyond chance only if below 0.05 after Holm's adjustment for "
            "how many are shown" + rule + more + old)
    if not named and len(text.split()) > 50 and more.startswith(" Untested:"):
        # too long to name the rest: counted only (dr6 9: the note kept short)
        which, more = _report_count(comp, shown, names=False)
        text = (lead + f"{which}: beyond chance only if below 0.05 after Holm's adjustment "
                "for how many are shown" + rule + more + old)
    return text


def _report_count(comp: Comparison, shown: list[tuple[int, MetricRow]],
                  names: bool = True) -> tuple[str, str]:
    """The report's count of its table's p-values, short (its key says judged@ and costs are
    never marked; dr8 6: "All 3 p-values shown are side looks … 2 more, at 1.000" had stood
    beside six, the uncounted unsaid): ("3 of the table's 6 p-values are side looks",
    " Untested: p@10 and r@100 (no query moved); judged@10 (coverage).") — the rest named
    where one configuration is set against the first and `names`, else counted."""
    family = _family_cells(comp)
    own = [c for c in shown if primary(comp, 0, c[0], c[1].metric)]
    rest = [c for c in shown if c not in family and c not in own]
    n, k = len(family), len(own)
    if not rest:
        return (("The other p-value shown is a side look" if n == 1 and k else
                 f"The other {n} p-values shown are side looks" if k else
                 f"All {n} p-values shown are side looks"), "")
    side = "is a side look" if n == 1 else "are side looks"
    own_p = "is the primary comparison's" if k == 1 else "are primary comparisons'"
    which = (f"{n} of the table's {len(shown)} p-values {side}" if not k else
             f"Of the table's {len(shown)} p-values, {k} {own_p} and {n} {side}")
    coverage = [c for c in rest if c[1].metric.startswith("judged@")]
    cost = [c for c in rest if is_count(c[1].metric)]
    idle = [c for c in rest if c not in coverage and c not in cost
            and c[1].improved[c[0]] + c[1].worsened[c[0]] == 0]
    if names and len(comp.configs) == 2 and len(idle) + len(coverage) + len(cost) == len(rest):
        parts = ([f"{_cells(comp, idle)} (no query moved)"] if idle else []) + (
            [f"{_cells(comp, coverage)} (coverage)"] if coverage else []) + (
            [f"{_cells(comp, cost)} (a cost)"] if cost else [])
        return which, f" Untested: {'; '.join(parts)}."
    why = (["no query moved"] if idle else []) + (["coverage"] if coverage else []) + (
        ["a cost"] if cost else [])
    because = f" ({_or(why)})" if len(idle) + len(coverage) + len(cost) == len(rest) else ""
    return which, f" Untested: {len(rest)}{because}."


def _or(items: list[str]) -> str:
    """"a", "a or b", "a, b or c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _cells(comp: Comparison, cells: list[tuple[int, MetricRow]]) -> str:
    """Table cells in words: "ndcg@10 and p@10" where one configuration is set against the
    first, else by configuration ("l6's ndcg@10; l8's p@10 and r@100")."""
    if not cells:
        return ""
    by: dict[int, list[str]] = {}
    for i, r in cells:
        by.setdefault(i, []).append(r.metric)
    if len(comp.configs) == 2:
        return _and([m for ms in by.values() for m in ms])
    return "; ".join(f"{comp.configs[i].name}'s {_and(ms)}" for i, ms in by.items())


# kept for callers that import it: the rule no longer waits for this many p-values
MANY_TESTS = 10
