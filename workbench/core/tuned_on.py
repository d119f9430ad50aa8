"""What `tune --out` records beside the values it writes: the data and the queries the settings
were tuned on, and how they did on queries they never saw — a `[tuned]` table in the params
TOML, which `load_params_file` leaves aside.

`compare` and `report` read it: a configuration's scores on the queries it was tuned on are
training scores, so they compare on the queries no configuration was tuned on, or, when every
query was (k-fold ships settings tuned on all of them), say so beside tune's held-out figures.
The window's metric strip does the same for the live values (`held_out_of`).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core import toml_text
from workbench.core.data import Dataset
from workbench.core.params import ParamError, line_of, toml_string


@dataclass(frozen=True)
class TunedOn:
    dataset: str  # the dataset's name
    validation: str  # how it was held out (`Validation.describe`)
    trained_on: tuple[str, ...]  # ids of the queries the written settings were tuned on
    metric: str = ""  # tune's objective
    held_default: float = math.nan  # its held-out mean at the starting values …
    held_tuned: float = math.nan  # … and at the tuned ones (each held-out query scored by
    p_value: float = math.nan  # the settings its own fold kept), the paired test's p
    held_n: int = 0
    corpus: str = ""  # `Corpus.content_key` of the data (""; written before it was kept)
    model: str = ""  # the model tuned ("": written before it was kept)
    values: str = ""  # `values_key` of the values tuned ("" as model): an edit is told by it
    # the run's advice against the values it tuned ("keep the starting values: held-out …",
    # `tuning.verdict.against`), "" where it gave none
    verdict: str = ""
    # how the run went (`RUN_KEYS`) and fields this workbench does not read (a newer one's),
    # as (key, its TOML value's text): not used, carried so that a file read and written
    # again (the window's import → export, a session file) keeps them (dr1 10)
    run: tuple[tuple[str, str], ...] = ()
    # "FILE:LINE: [tuned] field 'x': not one this workbench reads …" where the file has such
    # fields, said by every reader (dr1 9: an unknown field had been an error)
    unread: str = ""
    # whose the starting values `held_default` scored are ("the model's defaults", "cl2.toml's":
    # item 8, a run from --params had recorded that file's score as held_out_default with no
    # word); "" in a file written before it was kept, or where the window's start had no name
    start: str = ""
    # whose values the verdict's advice sends the reader back to ("the model's defaults",
    # "cl.toml's"), kept as data for every later sentence built from it (dr3 1: it had been
    # parsed back out of the verdict's text, and a name with parentheses broke it); "" in a
    # file written before it was kept
    owner: str = ""
    # what the verdict advises, as data (`verdict_advice`: "keep_start", "keep_neither",
    # `tuning.verdict.KINDS`): a neither verdict's owner is the values to go back to, not
    # those its run started from (dr6 1); "" for an inherited verdict or one written before
    kind: str = ""
    # the file (or configuration) whose run gave a carried verdict (`verdict_from`: "n1.toml"),
    # the run that tuned this file having only kept it (dr8 4); "" for a run's own verdict,
    # or one written before it was kept
    carried: str = ""

    def lead(self, it: str = "it", this: str = "this file") -> str:
        """How a reader heads the verdict: "not recommended by the run that tuned it" for a
        run's own; for a carried one, whose run it was, from the record (dr8 4: the run that
        only kept the values had been credited with the advice): "not recommended: n1.toml's
        run advised against these values, and the run that tuned this file kept them"."""
        from workbench.core.tuning.verdict import LINEAGE, is_inherited, owned

        if not is_inherited(self.verdict):
            return f"not recommended by the run that tuned {it}"
        who = f"{owned(self.carried)} run" if self.carried else "an earlier run"
        if self.verdict.startswith(LINEAGE):
            return (f"not recommended: {who} advised against the values the run that tuned "
                    f"{this} started from")
        return (f"not recommended: {who} advised against these values, and the run that tuned "
                f"{this} kept them")

    @property
    def advises(self) -> str:
        """What the verdict advises (`tuning.verdict.kind_of`): as recorded, else as a
        verdict written before it was recorded opens."""
        from workbench.core.tuning.verdict import kind_of

        return kind_of(self.verdict, self.kind) if self.verdict else ""

    @property
    def why(self) -> str:
        """What the verdict rests on, without its advice ("held-out ndcg@10 0.6098 →
        0.5965"): the text after the advice tune builds from `owner` (`tuning.verdict`); the
        whole verdict where it opens otherwise (a hand edit, an inherited one, or one written
        before `owner` was kept that names whose: read as it stands)."""
        from workbench.core.tuning.verdict import own_grounds

        return own_grounds(self.verdict, self.owner)

    @property
    def advice(self) -> str:
        """The verdict's advice without the figures it rests on ("keep neither: …"); the
        whole verdict where `why` is."""
        why = self.why
        return self.verdict.removesuffix(f"; {why}") if why != self.verdict else self.verdict

    def applies_to(self, model_id: str, params: Mapping[str, object], *,
                   any_model: bool = False) -> tuple[TunedOn | None, str]:
        """This record as it holds for `params` of `model_id` (what a file or configuration
        carries), and why it was changed ("" where it holds whole): None for another model's
        (its queries tuned that model, its figures are that model's); without its held-out
        figures where the values differ from those tuned (edited since: its training queries
        are still set aside, as tuned on). `any_model` (tune starting from these values): for
        another model too, without its figures — the values were fitted on its queries
        whichever model reads them, so those are never held out from a run grown from them."""
        if self.model and self.model != model_id:
            if any_model:
                return replace(self, held_n=0, verdict="", owner="", kind="", carried=""), (
                    f"tuned for {self.model}, not {model_id}: its held-out figures are "
                    f"{self.model}'s and are left aside, but its values were fitted on the "
                    f"{len(set(self.trained_on)):,} queries it names, which are set aside as "
                    "tuned on")
            return None, (f"tuned for {self.model}, not {model_id}: its record (queries tuned "
                          "on, held-out figures) is left aside")
        if self.values and self.values != values_key(model_id, params):
            return replace(self, held_n=0, verdict="", owner="", kind="", carried=""), (
                "its values differ from those tune wrote (edited since): tune's held-out "
                f"figures are not theirs; the {self.noun} it was tuned on are still set aside")
        return self, ""

    def same_data(self, dataset: Dataset) -> bool:
        """Whether these settings may have been tuned on `dataset`: the same documents (a
        renamed copy: the record keeps their content key), or a dataset of the same name —
        its documents edited since, or another corpus; which, nothing tells, so its queries
        are set aside all the same (`changed_since` says so)."""
        return (bool(self.corpus) and self.corpus == dataset.corpus.content_key()) \
            or self.dataset == dataset.name

    def changed_since(self, dataset: Dataset) -> bool:
        """Same name, other documents (edited since tuning, or another corpus)."""
        return bool(self.corpus) and self.dataset == dataset.name \
            and self.corpus != dataset.corpus.content_key()

    @property
    def split_run(self) -> bool:
        """Tuned on one named split and held out another (`tune --train-split`): queries of
        the training split it did not tune on are left over from it (twins of held-out
        queries), no held-out part of their own (`Validation.describe`'s wording)."""
        return self.validation.startswith("tuned on split ")

    @property
    def kfold(self) -> bool:
        """Held out by k-fold: each query was scored by the values its own fold tuned, and
        the values written were tuned on every query (`Validation.describe`'s wording)."""
        return re.match(r"\d+-fold ", self.validation) is not None

    @property
    def noun(self) -> str:
        """The data's word for its queries as the run said it in `validation` (a time
        split's "older tasks", `dataset_nouns`), for a reader without the data at hand
        (export: dr7 3); "queries" where it names none of the others."""
        return next((w for w in ("tasks", "cases", "chat moments")
                     if re.search(rf"\b{w}\b", self.validation)), "queries")

    def verdict_text(self, figures: bool = True) -> str:
        """The run's advice against these values, in one line for every reader of the file
        (eval, compare, report, the window's import: dr1 8); "" where it gave none.
        `figures=False` where `held_out_text` is said just above it: the held-out means it
        rests on are left out, not said twice in a row (dr7 4) — a verdict tune wrote, that
        is; one worded otherwise (a hand edit) is said whole."""
        if not self.verdict:
            return ""
        verdict = self.verdict
        if not figures:
            # "…gained nothing held out (k-fold estimate, ndcg@10 0.6131 → 0.6113)", and the
            # older "(k-fold estimate: held-out ndcg@10 …)"
            verdict = re.sub(r" \(k-fold estimate[,:] [^()]*\)$", "", verdict)
            # a split's "keep the starting values; held-out ndcg@10 0.6098 → 0.5099"
            verdict = re.sub(r"[;:] held-out \S+ -?[\d.]+ → -?[\d.]+$",
                             "; they gained nothing held out", verdict)
        # whose starting values, where the verdict does not say (T5, dr9 9)
        from workbench.core.tuning.verdict import whose_said

        return f"{self.lead()} — {whose_said(verdict)}"

    def run_value(self, key: str) -> object:
        """The value of `key` in the run's record (`run`: "pick", "kept_trial"), None where
        the record has none (a file written before it was kept, or edited)."""
        text = dict(self.run).get(key)
        if text is None:
            return None
        try:
            return toml_text.loads(f"v = {text}").get("v")
        except ValueError:  # carried as written; a hand edit that is no TOML value
            return None

    @property
    def kept_start(self) -> bool:
        """Whether the run kept its starting values unchanged, fitted on no query: the run's
        record says so (`kept_trial = "start"`) and names no query tuned on. A record without
        `kept_trial` (written before it was kept): a k-fold one by its empty `trained_on`; a
        split's by its held-out "tuned" figure being the start's own. dE 3 (dJ 3): a file
        with no `trained_on` whose run kept trial 1 (0.6633 → 0.6827) had been told that it
        kept its start."""
        if self.trained_on:
            return False
        kept = self.run_value("kept_trial")
        if kept is not None:
            return kept == "start"
        return self.kfold or self.held_default == self.held_tuned

    def kept_untested(self) -> str:
        """For a run that held out a split (not k-fold) and kept its start, what it did
        ("tune tried values on split train and no trial's gain was sure, so it kept these;
        nothing else was tested held out"), the reason as the run's pick gives it
        (`start_kept_because`: under `best`, "no trial scored better than the starting
        values", dJ 2): its held-out "tuned" figure is the start's own, so its two figures are
        one setting scored twice (dE 2: "0.6802 → 0.6802 (p 1.000): it may be chance"). ""
        under k-fold, whose figures test tuning this way, with no held-out test, or where
        the run did not keep its start (`kept_start`)."""
        if self.kfold or not self.held_n or not self.kept_start:
            return ""
        from workbench.core.tuning.pick import start_kept_because

        pick = self.run_value("pick")
        split = re.match(r"tuned on split (.+?) \(", self.validation)
        where = f"split {split.group(1)}" if split else f"its training {self.noun}"
        return (f"tune tried values on {where} and "
                f"{start_kept_because(pick if isinstance(pick, str) else 'bound')}, so it kept "
                "these; nothing else was tested held out")

    def held_out_text(self) -> str:
        """tune's held-out figures in words ("" when it held none out). Under k-fold they
        estimate tuning this way, not the written values: said."""
        if not self.held_n:
            return ""
        from workbench.core.tuning.data import one_of

        # the data's noun: "each task" beside "6 tasks" (dr3 7)
        how = (f" ({self.validation.split(' ', 1)[0]}: each {one_of(self.noun)} scored by the "
               "values its own fold tuned, an estimate for tuning this way, not of these exact "
               "values)" if self.kfold else "")
        # three decimals, as every command says a p-value (`textout.p_equals`); — for a hand
        # edit
        whose = f" ({self.start})" if self.start else ""  # whose values scored held_default
        p = ("p = —" if math.isnan(self.p_value) else "p < 0.001" if self.p_value < 0.001
             else f"p = {self.p_value:.3f}")
        if self.metric == "cases":  # a share of fixture cases: said as cases passing
            def passing(share: float) -> str:  # NaN: a hand-edited record
                return "—" if math.isnan(share) else f"{round(share * self.held_n)}/{self.held_n}"

            return (f"tune's held-out cases passing{how}: starting values{whose} "
                    f"{passing(self.held_default)}, tuned {passing(self.held_tuned)} ({p})")
        def mean(x: float) -> str:
            return "—" if math.isnan(x) else f"{x:.4f}"

        return (f"tune's held-out {self.metric}{how}: starting values{whose} "
                f"{mean(self.held_default)}, tuned {mean(self.held_tuned)} "
                f"({p}, {self.held_n} {self.noun})")


def of_result(result: Any, dataset: Dataset, model_id: str = "",
              params: Mapping[str, object] | None = None,
              start: TunedOn | None = None, whose: str = "") -> TunedOn:
    """What a `TuneResult` on `dataset` records: the queries its shipped settings were tuned
    on (`Validation.final_train`) and its held-out test; the model and the values tuned
    (`params`: every value written), which say when the record no longer holds. `start`: the
    record of the values the run started from (a tuned file or configuration): values grown
    from them were tuned on its queries too, whether or not this run loaded them (another
    split), so those are counted as tuned on — `tune --out` and the Tune tab alike. Where
    the run kept the starting values unchanged (`start_unchanged`), those are all it counts:
    this run fitted nothing (rv 6).
    `whose`: whose the starting values are, as the verdict names them (`against`)."""
    params = params or {}
    ids = dataset.queries.ids
    t = result.test
    trained = tuple(ids[int(i)] for i in np.flatnonzero(result.validation.final_train))
    if start_unchanged(result):  # no query fitted them: only the start's own record holds
        trained = ()  # (rv 6: "kept the starting values" had been written as tuned on all)
    if start is not None and start.same_data(dataset):
        trained = tuple(dict.fromkeys(start.trained_on + trained))
    from workbench.core.tuning.verdict import KEEP_START, against, grounds

    why = grounds(result)  # a verdict: its owner and kind kept
    return TunedOn(dataset.name, result.validation.describe, trained,
                   result.spec.objectives[0], t.mean_a if t else math.nan,
                   t.mean_b if t else math.nan, t.p_value if t else math.nan, t.n if t else 0,
                   dataset.corpus.content_key(), model_id,
                   values_key(model_id, params) if model_id else "", against(result, whose),
                   start=whose if t else "", owner=whose if why else "",
                   kind=KEEP_START if why else "")


def start_unchanged(result: Any) -> bool:
    """Whether the values a run keeps are its starting values as they were: no trial's gain
    was sure and no setting was moved to meet a constraint (`FoldResult.start_moved`, chosen
    on the training queries). Values nobody fitted were tuned on no query of this run."""
    final = result.final
    return bool(final.kept_start) and not getattr(final, "start_moved", None)


def carry_verdict(note: TunedOn, start: TunedOn | None, name: str,
                  kept_start: bool) -> tuple[TunedOn, str]:
    """`note` (`of_result` of a run) with the verdict of `start`, the record of the values it
    started from (`name`: the file or configuration, as said), carried on where that run
    advised against them, and how: "kept" where this run kept those values unchanged (dr7 1),
    "moved" where the values differ from them and it gave no verdict of its own (its
    held-out figures compare them with `start`'s values only, dr9 2), "" where nothing is
    carried; "neither" where this run's own verdict advised against its tuned values too: its
    advice to keep the starting values would send the reader back to values advised against,
    so it says to keep neither (dr3 8). One rule for `tune --out` and the Tune tab (T4). The
    advice's owner goes on as `start` records it, never guessed from a name (dr3 3, 6)."""
    from workbench.core.tuning.verdict import KEEP_NEITHER, inherited, is_inherited, neither

    if start is None or not start.verdict:
        return note, ""
    owner = start.owner
    # whose run gave the advice: `start`'s, or the run it was carried from in turn (dr8 4)
    carried = start.carried if is_inherited(start.verdict) else name
    if kept_start and (not start.values or start.values == note.values):
        return replace(note, verdict=inherited(start, name), owner=owner, kind="",
                       carried=carried), "kept"
    if not note.verdict:
        return replace(note, verdict=inherited(start, name, unchanged=False), owner=owner,
                       kind="", carried=carried), "moved"
    return replace(note, verdict=neither(note.why, start, name), owner=start.owner,
                   kind=KEEP_NEITHER), "neither"


def values_key(model_id: str, params: Mapping[str, object]) -> str:
    """A short digest of every value of `params` (resolved with the model's defaults, so a
    file that writes only the changed ones keys the same), as the record keeps them."""
    import hashlib
    import json

    from workbench.core.models import get_model

    full: dict[str, object] = dict(params)
    with contextlib.suppress(Exception):  # a value this model refuses: keyed as given
        full = dict(get_model(model_id).schema.resolve(params))
    # a number as a float, rounded: resolving again may turn 20 into 20.0 (codeledger's
    # whole-number floats), and a file writes 10 digits
    text = json.dumps({k: (round(float(v), 10) if isinstance(v, int | float)
                           and not isinstance(v, bool) else v)
                       for k, v in sorted(full.items())}, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def tuned_json(t: TunedOn) -> dict[str, object]:
    """As a session file keeps it (NaN as null)."""
    def num(x: float) -> float | None:
        return None if math.isnan(x) else x

    return {"dataset": t.dataset, "validation": t.validation, "metric": t.metric,
            START_SCORE: num(t.held_default), "held_out_tuned": num(t.held_tuned),
            **({"held_out_start": t.start} if t.start else {}),
            "held_out_p": num(t.p_value), "held_out_queries": t.held_n,
            "corpus": t.corpus, "model": t.model, "values": t.values,
            **({"verdict": t.verdict} if t.verdict else {}),
            **({"verdict_owner": t.owner} if t.verdict and t.owner else {}),
            **({"verdict_advice": t.kind} if t.verdict and t.kind else {}),
            **({"verdict_from": t.carried} if t.verdict and t.carried else {}),
            **({"run": dict(t.run)} if t.run else {}),
            "trained_on": list(t.trained_on)}


def tuned_from_json(raw: object) -> TunedOn:
    """`tuned_json`'s output back; ValueError naming the field that is wrong."""
    if not isinstance(raw, dict):
        raise ValueError("expected an object")
    ids = raw.get("trained_on")
    if not isinstance(ids, list) or not all(isinstance(q, str) for q in ids):
        raise ValueError("trained_on: expected a list of query ids")
    texts = {k: raw.get(k, "") for k in ("dataset", "validation", "metric", "corpus", "model",
                                         "values", "verdict", "held_out_start",
                                         "verdict_owner", "verdict_advice",
                                         "verdict_from")}
    for k, v in texts.items():
        if not isinstance(v, str):
            raise ValueError(f"{k}: expected text")
    nums: dict[str, float] = {}
    # a session file written before the key was renamed says held_out_default (rB 1)
    start_key = START_SCORE if START_SCORE in raw else OLD_START_SCORE
    for k in (start_key, "held_out_tuned", "held_out_p", "held_out_queries"):
        v = raw.get(k)
        if v is None:
            nums[k] = 0.0 if k == "held_out_queries" else math.nan
        elif isinstance(v, bool) or not isinstance(v, int | float):
            raise ValueError(f"{k}: expected a number or null")
        else:
            try:
                nums[k] = float(v)
            except OverflowError:
                raise ValueError(f"{k}: a number too large") from None
    n = nums["held_out_queries"]
    if not math.isfinite(n) or n < 0 or n != int(n):
        raise ValueError(f"held_out_queries: expected a count of queries, found {n!r}")
    wrong = figures_wrong(str(texts["metric"]), nums, int(n))
    if wrong:
        raise ValueError(f"{wrong[0]}: {wrong[1]}")
    run = raw.get("run", {})
    if not isinstance(run, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                            for k, v in run.items()):
        raise ValueError("run: expected an object of TOML value texts")
    return TunedOn(str(texts["dataset"]), str(texts["validation"]), tuple(ids),
                   str(texts["metric"]), nums[start_key], nums["held_out_tuned"],
                   nums["held_out_p"], int(nums["held_out_queries"]), str(texts["corpus"]),
                   str(texts["model"]), str(texts["values"]), str(texts["verdict"]),
                   tuple(run.items()), start=str(texts["held_out_start"]),
                   owner=str(texts["verdict_owner"]), kind=str(texts["verdict_advice"]),
                   carried=str(texts["verdict_from"]))


def tuned_toml(t: TunedOn, run: Sequence[str] = ()) -> str:
    """The `[tuned]` table, appended after `[params]` (JSON strings are TOML basic strings);
    its verdict first, where the run advised against the values; `run`: `KEY = VALUE` lines
    on how the run went (`RUN_KEYS`, written by `tune --out`), before the long query list;
    by default those the record carries (`TunedOn.run`)."""
    def num(x: float) -> str:
        return "nan" if math.isnan(x) else repr(round(x, 10))

    run = run or [f"{_toml_key(k)} = {v}" for k, v in t.run]

    ids = ", ".join(toml_string(q) for q in t.trained_on)
    return "\n".join([
        "", "[tuned]", *([f"verdict = {toml_string(t.verdict)}"] if t.verdict else []),
        # whose values it advises, read back as data: a later run's sentences are built from
        # it (dr3 1)
        *([f"verdict_owner = {toml_string(t.owner)}"] if t.verdict and t.owner else []),
        *([f"verdict_advice = {toml_string(t.kind)}"] if t.verdict and t.kind else []),
        # whose run a carried verdict was, read back as data (dr8 4)
        *([f"verdict_from = {toml_string(t.carried)}"] if t.verdict and t.carried else []),
        f"dataset = {toml_string(t.dataset)}",
        f"validation = {toml_string(t.validation)}",
        # the starting values' held-out score, which may be a --params file's: whose, said
        # beside it (rB 1: named held_out_default, it had read as the model's defaults')
        f"metric = {toml_string(t.metric)}", f"{START_SCORE} = {num(t.held_default)}",
        *([f"held_out_start = {toml_string(t.start)}"]
          if t.start and not math.isnan(t.held_default) else []),
        f"held_out_tuned = {num(t.held_tuned)}", f"held_out_p = {num(t.p_value)}",
        f"held_out_queries = {t.held_n}",
        *([f"corpus = {toml_string(t.corpus)}"] if t.corpus else []),
        *([f"model = {toml_string(t.model)}"] if t.model else []),
        *([f"values = {toml_string(t.values)}"] if t.values else []),
        *run, f"trained_on = [{ids}]"]) + "\n"


def read_tuned_on(path: str | Path) -> TunedOn | None:
    """The file's `[tuned]` table, None when it has none (a file written by hand). The file
    has been read as parameters already, so it is valid TOML."""
    p = Path(path)
    text = p.read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("{"):  # an export's record of changes (JSON): no [tuned]
        return None
    data = toml_text.loads(text).get("tuned")
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ParamError(f"{p}: [tuned] must be a table")
    ids = data.get("trained_on", [])
    if not isinstance(ids, list) or not all(isinstance(q, str) for q in ids):
        raise ParamError(f"{_where(p, 'trained_on')}: [tuned] field 'trained_on': expected a "
                         "list of query ids")
    held_n = _number(p, data, "held_out_queries", 0.0)
    if not math.isfinite(held_n) or held_n < 0 or held_n != int(held_n) or held_n > 2 ** 53:
        raise ParamError(f"{_where(p, 'held_out_queries')}: [tuned] field 'held_out_queries': "
                         f"expected a count of queries, found {held_n!r}")
    unknown = [k for k in data if k not in _TUNED_KEYS]
    unread = ""
    if unknown:  # a newer workbench's field, or a typo: said, kept, not used (dr1 9: an
        # earlier build refused every file a newer one wrote)
        from workbench import __version__

        unread = (f"{_where(p, unknown[0])}: [tuned] field"
                  f"{'' if len(unknown) == 1 else 's'} {', '.join(repr(k) for k in unknown)}: "
                  f"not one this workbench ({__version__}) reads — a newer one's, or a typo "
                  f"(it reads {', '.join(sorted(_TUNED_KEYS))}): kept in the file, not used")
    run = tuple((k, _toml_value(v)) for k, v in data.items()
                if k in RUN_KEYS or k in unknown)
    # a file written before the key was renamed says held_out_default (rB 1): read as such
    start_key = START_SCORE if START_SCORE in data else OLD_START_SCORE
    figures = {k: _number(p, data, k) for k in (start_key, "held_out_tuned", "held_out_p")}
    metric = _text(p, data, "metric")
    wrong = figures_wrong(metric, figures, int(held_n))
    if wrong:
        raise ParamError(f"{_where(p, wrong[0])}: [tuned] field '{wrong[0]}': {wrong[1]}")
    return TunedOn(_text(p, data, "dataset"), _text(p, data, "validation"), tuple(ids),
                   metric, figures[start_key], figures["held_out_tuned"],
                   figures["held_out_p"], int(held_n), _text(p, data, "corpus"),
                   _text(p, data, "model"), _text(p, data, "values"), _text(p, data, "verdict"),
                   run, unread, start=_text(p, data, "held_out_start"),
                   owner=_text(p, data, "verdict_owner"), kind=_advice(p, data),
                   carried=_text(p, data, "verdict_from"))


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def _toml_value(v: object) -> str:
    """A value read from TOML written back as TOML (one line): text, numbers, true/false,
    dates and times (as TOML's own literals, not text: dr5 5 found an unknown field's
    1979-05-27T07:32:00Z exported as the string "1979-05-27 07:32:00+00:00"), arrays and
    tables of them; anything else as its text."""
    import datetime as dt

    if isinstance(v, dt.datetime | dt.date | dt.time):
        text = v.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) \
            else repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_key(str(k))} = {_toml_value(x)}"
                               for k, x in v.items()) + "}"
    return toml_string(str(v))


def metric_range(metric: str) -> tuple[float, float] | None:
    """The values a mean of `metric` can take: [0, 1] for a fraction (every ranking metric,
    `cases`' pass rate, bundle recall, precision and F1), [0, 100] for `empty` (a % of
    queries), [0, ∞) for a count (results, injected tokens, bundle files and tokens); None
    for a name not known here."""
    from workbench.core.metrics import BUNDLE_METRICS, parse_metric

    if metric in ("results", "injected_tokens"):
        return 0.0, math.inf
    if metric == "empty":
        return 0.0, 100.0
    if metric == "cases":
        return 0.0, 1.0
    if metric in BUNDLE_METRICS:
        return (0.0, math.inf) if BUNDLE_METRICS[metric].count else (0.0, 1.0)
    try:
        parse_metric(metric)
    except ValueError:
        return None
    return 0.0, 1.0


def figures_wrong(metric: str, figures: Mapping[str, float], held_n: int
                  ) -> tuple[str, str] | None:
    """(the field, what is wrong) for held-out figures tune cannot have written, None where
    they are fine: NaN only where it held no query out (it writes `nan` then), else each
    finite, the p-value in [0, 1] and the means within `metric`'s range (`metric_range`)."""
    span = metric_range(metric)
    start = START_SCORE if START_SCORE in figures else OLD_START_SCORE  # as the file names it
    for key in (start, "held_out_tuned", "held_out_p"):
        v = figures.get(key, math.nan)
        if math.isnan(v):
            if held_n:
                return key, (f"expected a number for the {held_n:,} held-out queries, found "
                             "nan (tune writes nan only where it held none out)")
            continue
        if key == "held_out_p":
            if not 0.0 <= v <= 1.0:
                return key, f"expected a p-value in [0, 1], found {v!r}"
        elif not math.isfinite(v):
            return key, f"expected a finite number, found {v!r}"
        elif span is not None and not span[0] <= v <= span[1]:
            hi = "" if math.isinf(span[1]) else f", {span[1]:g}]"
            where = f"in [{span[0]:g}{hi}" if hi else f"of at least {span[0]:g}"
            return key, f"expected a mean {metric} {where}, found {v!r}"
    return None


# the starting values' held-out score (`TunedOn.held_default`), whoever's they are
# (`held_out_start`); files written before rB 1 call it held_out_default, still read
START_SCORE = "held_out_start_score"
OLD_START_SCORE = "held_out_default"

# how the run went, as `tune --out` records it for a reader: kept in the file, not read back
RUN_KEYS = frozenset(("pick", "sampler", "seed", "trials", "kept_trial", "searched", "ranges",
                      "workbench_version", "created"))
_TUNED_KEYS = frozenset(("dataset", "validation", "metric", START_SCORE, OLD_START_SCORE,
                         "held_out_tuned", "held_out_p", "held_out_queries", "corpus", "model",
                         "values", "verdict", "trained_on", "held_out_start",
                         "verdict_owner", "verdict_advice", "verdict_from")) | RUN_KEYS


def _where(p: Path, key: str) -> str:
    line = line_of(p, key)
    return f"{p}:{line}" if line else str(p)


def _text(p: Path, data: dict[str, object], key: str) -> str:
    v = data.get(key, "")
    if not isinstance(v, str):
        raise ParamError(f"{_where(p, key)}: [tuned] field '{key}': expected a string")
    return v


def _advice(p: Path, data: dict[str, object]) -> str:
    """The `verdict_advice` field: one of `tuning.verdict.KINDS`, or none."""
    from workbench.core.tuning.verdict import KINDS

    v = _text(p, data, "verdict_advice")
    if v and v not in KINDS:
        raise ParamError(f"{_where(p, 'verdict_advice')}: [tuned] field 'verdict_advice': "
                         f"expected one of {', '.join(repr(k) for k in KINDS)}, found {v!r}; "
                         "correct it or delete the line")
    return v


def _number(p: Path, data: dict[str, object], key: str, default: float = math.nan) -> float:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ParamError(f"{_where(p, key)}: [tuned] field '{key}': expected a number")
    if isinstance(v, int) and abs(v) > 2 ** 53:  # past a float's whole numbers (or its range)
        raise ParamError(f"{_where(p, key)}: [tuned] field '{key}': a number too large")
    return float(v)


FEW_HELD_OUT = 10  # held-out queries below which a mean of theirs is said to be rough


def held_out_queries(dataset: Dataset, notes: Sequence[tuple[str, TunedOn]],
                     all_queries: bool = False) -> tuple[Dataset, list[str]]:
    """`dataset` judged only on the queries no configuration was tuned on (`notes`: each
    configuration's name and record), unless `all_queries` or none is left; and what the
    reader is told — also where a configuration was tuned on other queries of this dataset
    only (another split), that every figure is held out.

    What is left decides, not how many: a held-out part (a time split's newer tasks, queries
    judged since) is counted as tune counted it, however few, with a note under
    `FEW_HELD_OUT`; what a configuration tuned on a named split left over of that split
    (twins of held-out queries, `TunedOn.split_run`) is no held-out part, so every judged
    query is counted, as training scores (dr1 2, 3: eval, compare and report had differed,
    and 2 of 12 tasks had been a headline while 1 of 12 and 2 of 809 were not)."""
    from workbench.core.tuning.data import dataset_nouns, one_of

    judged = [q for q in dataset.queries.ids if (dataset.qrels or {}).get(q)]
    tuned = tuned_queries(notes, dataset, judged)
    kept = _kept_starts(dataset, notes)
    # the data's own noun, as the header says it (dr5 8: "12 tasks" over "the 6 of 12 judged
    # queries")
    docs, qs = dataset_nouns(dataset)
    elsewhere = [f"{name!r} was tuned on a dataset named {dataset.name!r} whose {docs} "
                 f"differ from these (edited since, or another corpus): the {qs} it was "
                 "tuned on are set aside all the same" for name, t in notes
                 if t.changed_since(dataset) and t.trained_on]
    if not tuned:  # tuned on this dataset's other queries (another split): said, as good news
        apart = [(name, t) for name, t in notes if t.same_data(dataset) and t.trained_on]
        return dataset, elsewhere + [
            f"{name!r} was tuned on {len(set(t.trained_on)):,} other {qs} of "
            f"{dataset.name} ({t.validation}), none of these {len(judged):,}: every figure "
            "here is held out" + (f"; {t.held_out_text()}" if t.held_out_text() else "")
            for name, t in apart] + [line for _, line in kept] + _verdicts(
                notes, {n for n, t in apart if t.held_out_text()} | {n for n, _ in kept})
    note = dict(notes)
    seen = set().union(*tuned.values())
    held = [q for q in judged if q not in seen]
    # each configuration's queries tuned on, one note apiece after the first: its validation
    # has parentheses and clauses of its own, which had sat inside the first note's (dr9 8)
    each = [_tuned_here_text(dataset, name, note[name], ids, judged)
            for name, ids in tuned.items()]
    # the split a configuration tuned on: what it left of it is no held-out part
    split = [name for name in tuned if note[name].split_run]
    if held and not all_queries and not split:
        # the others' judgments set aside, the queries kept: metrics count the judged ones
        # only, and a state prepared for the whole query set still fits
        qrels = {q: dataset.qrels[q] for q in held if dataset.qrels}
        narrowed = replace(dataset, qrels=qrels)
        # one is no mean, and has no "any one of them" (dr5 7)
        few = ([f"only 1 held-out {one_of(qs)}: one {one_of(qs)}'s score, not a mean, a rough "
                "figure"] if len(held) == 1 else
               [f"only {len(held)} held-out {qs}: a mean of under {FEW_HELD_OUT} moves a lot "
                "with any one of them, a rough figure"] if len(held) < FEW_HELD_OUT else [])
        return narrowed, [f"compared on the {len(held)} of {len(judged)} judged {qs} no "
                          "configuration was tuned on; on the others the tuned figures would "
                          "be training scores", *each, *few, *elsewhere,
                          *(line for _, line in kept),
                          *_verdicts(notes, {n for n, _ in kept})]
    which = (f"all {len(judged)} judged {qs} were" if len(seen) >= len(judged)
             else f"{len(seen)} of these {len(judged)} judged {qs} were")
    lines = [f"{which} tuned on: there the tuned figures are training scores, not what new "
             f"{qs} would see", *each]
    if held and not all_queries:  # split tuning's leftovers: counted with the rest
        shown = ", ".join(held[:5]) + (f" and {len(held) - 5:,} more" if len(held) > 5 else "")
        lines.append(
            f"the {len(held)} not tuned on ({shown}) {'is' if len(held) == 1 else 'are'} left "
            f"over from the split {' and '.join(repr(n) for n in split)} was tuned on, not a "
            f"held-out part ({qs} of the held-out split, as tune's figures below are): "
            f"every judged {one_of(qs)} is counted, as training scores")
    said = [name for name in tuned if note[name].held_out_text()]
    lines += [f"{name!r}: {note[name].held_out_text()}" for name in said]
    lines += [line for _, line in kept]
    return dataset, lines + elsewhere + _verdicts(notes, {*said, *(n for n, _ in kept)})


def _kept_starts(dataset: Dataset, notes: Sequence[tuple[str, TunedOn]]
                 ) -> list[tuple[str, str]]:
    """(name, what the reader is told) for each configuration that holds the starting values
    a tune of this data kept, fitted on no query (`start_unchanged`: `trained_on` is empty)
    while its record keeps tune's held-out test: that tuning was tried, and what it gave, is
    said (rB 6: eval and report had said nothing of it)."""
    return [(name, f"{name!r} holds the starting values a tune kept"
             + (f" ({t.start})" if t.start else "")
             + f", fitted on no query, so no figure here is a training score; "
             f"{t.kept_untested() or t.held_out_text()}")
            for name, t in notes
            if t.same_data(dataset) and t.kept_start and t.held_out_text()] + [
        # a record that names no query tuned on although its run kept a trial (a hand edit):
        # no claim that it kept its start, its figures said as they are (dJ 3)
        (name, f"{name!r} names no query it was tuned on, although its run kept a tuned "
         f"trial, so none is set aside; {t.held_out_text()}")
        for name, t in notes
        if t.same_data(dataset) and not t.trained_on and not t.kept_start
        and t.held_out_text()]


def _tuned_here_text(dataset: Dataset, name: str, t: TunedOn, ids: Set[str],
                     judged: Sequence[str]) -> str:
    """"'kf.toml' was tuned on 5 of these 809 — 5-fold over 809 queries (seed 0)" for `ids`,
    the judged queries configuration `name` was tuned on; where some of them only repeat a
    query it was tuned on (`twins_tuned_on`), said as that: "'sf_kf.toml' was tuned on none
    of these 809, but 2 of them repeat queries it was tuned on (same text and judgments:
    871≡870, 1291≡1292), so they count as tuned on — 5-fold over 300 queries (seed 0)" (dE 3:
    "tuned on 2 of these 809" had been said of a file that saw none of them)."""
    from workbench.core.tuning.data import one_of

    twins = {a: b for a, b in twins_tuned_on(dataset, t.trained_on, judged).items()
             if a in ids}
    direct, n, k = len(ids) - len(twins), len(judged), len(twins)
    how = f" — {t.validation}" if t.validation else ""
    if t.trained_on and t.run_value("kept_trial") == "start":
        # a kept start that carries the queries its values were tuned on: another run tuned
        # them, this one only kept them (dJ 4: "tuned on none of these 809 … — 5-fold over
        # 809 queries" had read as a contradiction)
        who = (f"{t.start} run" if t.start.endswith("'s") else
               f"{t.carried}'s run" if t.carried else "an earlier run")
        own = t.validation.split("; ", 1)[0]
        how = (f" — its values were tuned by {who}, on {len(set(t.trained_on)):,} {t.noun}; "
               "its own run" + (f", {own}," if own else "") + " only kept them")
    if not twins:
        return f"{name!r} was tuned on {direct} of these {n}{how}"
    pairs = [f"{a}≡{b}" for a, b in twins.items()]
    shown = ", ".join(pairs[:3]) + (f" and {len(pairs) - 3} more" if len(pairs) > 3 else "")
    lead = (f"{name!r} was tuned on none of these {n}, but " if not direct else
            f"{name!r} was tuned on {direct} of these {n}, and ")
    more = "" if not direct else " more"
    repeat = (f"1{more} of them repeats a {one_of(t.noun)} it was tuned on" if k == 1 else
              f"{k}{more} of them repeat {t.noun} it was tuned on")
    return (f"{lead}{repeat} (same text and judgments: {shown}), so "
            f"{'it counts' if k == 1 else 'they count'} as tuned on{how}")


def twins_set_aside(dataset: Dataset, notes: Sequence[tuple[str, TunedOn]],
                    judged: Sequence[str]) -> int:
    """How many of `judged` (ids of `dataset`'s) are set aside only as repeats of queries
    `notes` were tuned on (`twins_tuned_on`), no note naming them: counts that call such a
    query "tuned on" say so (dE 3)."""
    named = {q for _, t in notes if t.same_data(dataset) for q in t.trained_on}
    return len({q for _, t in notes if t.same_data(dataset)
                for q in twins_tuned_on(dataset, t.trained_on, judged)} - named)


def _verdicts(notes: Sequence[tuple[str, TunedOn]], said: Set[str] = frozenset()
              ) -> list[str]:
    """Each configuration's run's advice against its values, where it gave any; and fields
    of its record this workbench does not read. `said`: the configurations whose held-out
    figures a note above gives: their verdicts without them (dr7 4)."""
    return [*(t.unread for _, t in notes if t.unread),
            *(f"{name!r}: {t.verdict_text(figures=name not in said)}" for name, t in notes
              if t.verdict)]


def training_configurations(dataset: Dataset, notes: Sequence[tuple[str, TunedOn]]
                            ) -> frozenset[str]:
    """The configurations (of `notes`) tuned on some of `dataset`'s judged queries: there
    their figures are training scores."""
    judged = [q for q in dataset.queries.ids if (dataset.qrels or {}).get(q)]
    return frozenset(tuned_queries(notes, dataset, judged))


def judged_count(dataset: Dataset) -> int:
    """How many queries of `dataset` have judgments."""
    return sum(1 for q in dataset.queries.ids if (dataset.qrels or {}).get(q))


def tuned_queries(notes: Sequence[tuple[str, TunedOn]], dataset: Dataset,
                  judged: Sequence[str]) -> dict[str, set[str]]:
    """Per configuration name, the judged queries of `dataset` its settings were tuned on
    (only notes about the same data, `TunedOn.same_data`; none empty): those it names, and
    their twins (`twins_tuned_on`)."""
    have = set(judged)
    out = {}
    for name, t in notes:
        if t.same_data(dataset):
            hit = have.intersection(t.trained_on) | set(
                twins_tuned_on(dataset, t.trained_on, judged))
            if hit:
                out[name] = hit
    return out


def tuned_mask(dataset: Dataset, trained_on: Sequence[str]) -> NDArray[np.bool_]:
    """Over `dataset`'s queries, those `trained_on` names and their twins (`twins_tuned_on`):
    what a run starting from such values must not hold out."""
    ids = dataset.queries.ids
    judged = [q for q in ids if (dataset.qrels or {}).get(q)]
    hit = set(trained_on) | set(twins_tuned_on(dataset, trained_on, judged))
    return np.fromiter((q in hit for q in ids), bool, len(ids))


def twins_tuned_on(dataset: Dataset, trained_on: Sequence[str], judged: Sequence[str]
                   ) -> dict[str, str]:
    """The queries of `judged` (ids of `dataset`'s) that `trained_on` does not name but that
    have the same text and judgments as one it does (`tuning.validation.twin_groups`, the
    rule tune holds out by: SciFact's claim 871 is 870 asked again), each with that twin's
    id. The twin is looked for among `dataset`'s queries, and, for ids `trained_on` names
    that `dataset` lacks, among the other splits of its BEIR folder: values tuned on the test
    split's 870 were fitted to the train split's 871 under another id, so 871 is no held-out
    query for them (rB 2: eval --split train had counted it as one)."""
    from workbench.core.data import QuerySet
    from workbench.core.tuning.validation import twin_groups

    named = set(trained_on)
    if not named:
        return {}
    have = set(dataset.queries.ids)
    wanted = set(judged)
    own = [q for q in dataset.queries if q.id in wanted and (dataset.qrels or {}).get(q.id)]
    extra, grades = _other_splits(dataset, named - have)
    queries = QuerySet([*own, *extra], name=dataset.queries.name)
    qrels = {**{q.id: (dataset.qrels or {})[q.id] for q in own}, **grades}
    groups = twin_groups(replace(dataset, queries=queries, qrels=qrels),
                         np.ones(len(queries), bool))
    if not groups:
        return {}
    ids = queries.ids
    tuned_in = {g: ids[i] for i, g in groups.items() if ids[i] in named}
    return {ids[i]: tuned_in[g] for i, g in sorted(groups.items())
            if i < len(own) and g in tuned_in and ids[i] not in named}


def _other_splits(dataset: Dataset, ids: Set[str]
                  ) -> tuple[list[Any], dict[str, dict[str, int]]]:
    """The queries `ids` names and their judgments, from the splits of `dataset`'s BEIR
    folder (`qrels/SPLIT.tsv`, its queries from `queries.SPLIT.jsonl` where there is one,
    else `queries.jsonl`): ([], {}) where it has none, or is no BEIR folder. A file that
    does not read is passed over: it is another split's, and this looks only for twins."""
    from workbench.core.data import FormatError
    from workbench.core.formats.beir import other_header, read_qrels_tsv, read_queries_jsonl

    folder = Path(dataset.source) if dataset.source else None
    if not ids or folder is None or not (folder / "corpus.jsonl").is_file() \
            or not (folder / "qrels").is_dir():
        return [], {}
    queries: dict[str, Any] = {}
    grades: dict[str, dict[str, int]] = {}
    read: dict[Path, Any] = {}
    for tsv in sorted((folder / "qrels").glob("*.tsv")):
        left = ids - grades.keys()
        if not left:
            break
        if not tsv.is_file() or other_header(tsv):  # Cranfield's raw_cranqrel.tsv: no split
            continue
        path = folder / f"queries.{tsv.stem}.jsonl"
        path = path if path.is_file() else folder / "queries.jsonl"
        with contextlib.suppress(FormatError, OSError, ValueError):
            judged = read_qrels_tsv(tsv)
            found = [q for q in sorted(left) if judged.get(q)]
            if not found:
                continue
            if path not in read:
                read[path] = read_queries_jsonl(path)
            split = read[path]
            for q in found:
                if q in split.index:
                    queries[q] = split[split.index[q]]
                    grades[q] = judged[q]
    return list(queries.values()), grades


@dataclass(frozen=True)
class HeldOut:
    """Which judged queries live figures count: `mask` (None: every judged one), what the
    reader is told (`note`, "" when nothing is set aside) and how many were set aside."""

    mask: NDArray[np.bool_] | None
    note: str
    set_aside: int
    training: bool = False  # every judged query was tuned on: no difference is evidence


def held_out_of(dataset: Dataset, judged: NDArray[np.bool_],
                notes: Sequence[tuple[str, TunedOn]]) -> HeldOut:
    """The window's live counterpart of `held_out_queries`: `judged` (a mask over the query
    set) less the queries any of `notes` was tuned on; with none left, every judged query and
    a note that the figures are training scores."""
    ids = dataset.queries.ids
    tuned = tuned_queries(notes, dataset, [q for q, j in zip(ids, judged, strict=True) if j])
    if not tuned:
        return HeldOut(None, "", 0)
    seen = set().union(*tuned.values())
    held = judged & ~np.fromiter((q in seen for q in ids), bool, len(ids))
    who = " and ".join(tuned)
    by_name = dict(notes)
    split = [name for name in tuned if by_name[name].split_run]
    if held.any() and split:  # a split's leftovers, no held-out part (`held_out_queries`)
        return HeldOut(None, f"training scores: every judged query counted, {len(seen)} tuned "
                       f"on by {who}; the {int(held.sum())} left are leftovers of the split "
                       f"{' and '.join(split)} tuned on, not held out", 0, training=True)
    if held.any():
        twins = twins_set_aside(dataset, notes, [q for q, j in zip(ids, judged, strict=True)
                                                 if j])
        why = ((": it repeats a query" if twins == 1 else ": they repeat queries")
               + f" tuned on by {who}" if twins == len(seen) else f", tuned on by {who}" + (
                   f", {twins} of them as repeats of queries tuned on" if twins else ""))
        return HeldOut(held, f"counted: the {int(held.sum())} of {int(judged.sum())} judged "
                       f"queries not tuned on ({len(seen)} set aside{why})", len(seen))
    return HeldOut(None, f"training scores: every judged query was tuned on by {who}", 0,
                   training=True)
