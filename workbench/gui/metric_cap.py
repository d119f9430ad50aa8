"""The cap a metric card's figure cannot pass where the model returns fewer results a query
than the metric's cut-off: importance returns at most 5, so P@10 is at most 0.5 (0.195 read
as poor precision); and where the limit cut the lists short of a metric's cut-off, that the
metric counts only what was returned (nDCG@10, R@100 "count only those 5": rv2 dr2 7). The
wording is the CLI's `eval` note (`core.cap_lead`, `report.text.cap_note`), the metrics named
as the cards name them ("P@10", where eval says "p@10")."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.core.engine import Model
from workbench.core.params import Params
from workbench.core.pipeline import Result
from workbench.core.session import TuningSession


def metric_caps(session: TuningSession, names: Sequence[str]) -> dict[str, str]:
    """Metric name → the note on what bounds it now ("importance returns at most 5 results a
    query (its limit is 5): p@10 is at most 0.5"), for those of `names` a precision whose
    cut-off lies past the longest list returned on a judged query, or a metric whose cut-off
    lies past the lists the limit cut ("…: r@100 counts only those 5", as `eval` says it);
    {} where none is."""
    s = session
    return _caps(s.model, s.params, s.result, s, names)


def strip_cap(session: TuningSession, names: Sequence[str]) -> str:
    """The one note over the cards where the lists are shorter than their cut-offs, as
    `eval` says it for every metric at once ("importance returns at most 5 results a query
    (its limit is 5): P@10 is at most 0.5; nDCG@10, … and R@100 count only those 5"); ""
    where no card is bounded (rA 11: "·top 5" on five cards, the reason in tooltips only)."""
    s = session
    return _caps(s.model, s.params, s.result, s, [list(names)]).get(" ".join(names), "")


def strip_note(session: TuningSession, names: Sequence[str], caps: dict[str, str],
               same: dict[str, str]) -> tuple[str, str]:
    """The note under the cards, short with what the cards say first ("at most 5 results a
    case: P@10 ≤ 0.5; R@100 = R@10; nDCG@10, MRR@10 and R@10 count only those 5"), and whole,
    as `eval` says it, in the data's noun (its tooltip); ("", "") where no card is bounded.
    `caps`: `metric_caps`; `same`: a metric → the one it equals here. dF 3: the whole note
    needed 1,491 px, was cut with no "…" before the "R@100 = R@10" a card named, and said
    "queries" under a strip of cases."""
    import re

    from workbench.core.tuning.data import dataset_nouns, one_of
    from workbench.gui.metric_names import metric_label
    from workbench.report.text.compared import _and

    s = session
    whole = strip_cap(s, names) if caps else ""
    if not whole:
        return "", ""
    many = dataset_nouns(s.dataset)[1] if s.dataset is not None else "queries"
    one = one_of(many)
    if same:
        whole += "; " + "; ".join(f"{metric_label(a)} = {metric_label(b)} here"
                                  for a, b in same.items())
    # eval's wording says "query"; the strip says the data's noun ("mean of 30 cases")
    whole = re.sub(r"\bqueries\b", many, re.sub(r"\bquery\b", one, whole))
    result = s.result
    assert result is not None and s.judgments is not None  # else no caps
    longest = int(result.ranking.count[s.judgments.judged_mask].max(initial=0))
    bounded = [f"{metric_label(n)} ≤ {bound(caps[n])}" for n in names
               if n in caps and bound(caps[n])]
    equal = [f"{metric_label(a)} = {metric_label(b)}" for a, b in same.items()]
    counted = [n for n in names if n in caps and not bound(caps[n]) and n not in same]
    parts = [*bounded, *equal]
    if counted:
        # "those 5" where every list is that long, else "what it returned" (its counts in
        # the tooltip)
        what = caps[counted[0]].rsplit(" only ", 1)[-1].split(":", 1)[0]
        parts.append(f"{_and([metric_label(n) for n in counted])} "
                     f"count{'s' if len(counted) == 1 else ''} only {what}")
    short = (f"at most {longest:,} result{'' if longest == 1 else 's'} a {one}: "
             + "; ".join(parts))
    return short, whole


def baseline_caps(session: TuningSession, names: Sequence[str]) -> dict[str, str]:
    """The same notes for the pinned baseline's result (its model and values): the card's
    bound is the current values' own, which a baseline at another limit does not share."""
    s = session
    b = s.baseline
    if b is None:
        return {}
    model = s.model if s.model is not None and s.model.id == b.model_id else None
    if model is None:
        from workbench.core.models import get_model

        try:
            model = get_model(b.model_id)
        except KeyError:
            return {}
    return _caps(model, b.params, b.result, s, names)


def _caps(model: Model | None, params: Params, result: Result | None,
          s: TuningSession, names: Sequence[str | list[str]]) -> dict[str, str]:
    """Name → its note; a list of names in `names` gets one note for them all, under the
    names joined by a space."""
    from workbench.core.cap_lead import cap_lead
    from workbench.gui.metric_names import metric_label
    from workbench.report.text import cap_note, cut_counts

    if result is None or s.judgments is None or model is None:
        return {}
    judged = s.judgments.judged_mask
    longest = int(result.ranking.count[judged].max(initial=0))
    if not longest:
        return {}
    lead = cap_lead(model.id, longest, model.selection_params(params).limit)
    # the lists the selection cut, as `eval` counts them (`cli.evaluate.summary._cap_note`)
    cut = cut_counts(result.scores, result.ranking, judged)
    every = result.ranking.count[judged]
    out = {}
    for name in names:
        # the metric as the card names it ("P@10: …" over "p@10 is at most": rv2 dr2 8)
        group = [name] if isinstance(name, str) else name
        note = cap_note(lead, longest, group, cut=cut, of=int(judged.sum()), every=every,
                        label=metric_label)
        if note:
            out[" ".join(group)] = note
    return out


def bound(note: str) -> str:
    """The figure a note bounds the metric at: "0.5" of "…: p@10 is at most 0.5"; "" where
    it bounds none (a metric that counts only what was returned)."""
    return note.rsplit("is at most ", 1)[-1] if "is at most " in note else ""
