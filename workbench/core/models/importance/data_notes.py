"""What the importance model says about its data before it scores (`data_warnings`): each value
it reads otherwise than the file writes it, with the place of the first such record
("FILE:LINE: …", as a parse error names it; rm 8), and what it reads instead."""

from __future__ import annotations

import json
import math

from workbench.core.checks import with_value
from workbench.core.data import Dataset
from workbench.core.models.clock import future_clock_warning, when
from workbench.core.models.decision_memory.project import parse_time
from workbench.core.models.importance.prepared import (
    count_notes,
    default_clock_source,
    link_set,
    linked_ids,
)
from workbench.core.models.importance.rules import OUTCOMES, TIERS, outcome_index, tier_index
from workbench.core.params import Params

# missing and unreadable alike (`prepared.last_access_ms`): staleness counts from
# last_accessed, else created_at, else from neither: undated_days (0) days inactive, as if
# accessed at the query's clock (rm 2). A memory with neither gets its own warning, whether
# its dates are missing or unreadable (dr3 2)
_TIME = "an ISO 8601 date; read as missing, as a memory without one is: "
_FALLS_BACK = {
    "last_accessed": _TIME + "staleness counts from its created_at",
    "created_at": _TIME + "staleness counts from its last_accessed, as it does whenever "
                  "there is one",
}
_NEITHER = _TIME + "with no readable {other} either, it is among the memories with no date"
_LINKS = ("superseded_by", "contradicts")
_APPLIES = ("superseded_by decays or archives the memory, contradicts fires its correction "
            "boost")
_NOT_APPLIED = ("superseded_by neither decays nor archives the memory, contradicts fires no "
                "boost")


def _link_notes(rule: str) -> dict[str, str]:
    """What each kind of link value is, and how the link_rule parameter reads it: a value
    naming a memory not in the corpus (and, under in-corpus, one naming a memory of the corpus
    beside it), one naming none, one read as not set (dr3 3). Under a rule that reads a kind
    as set, the rules that would not are named, so that the parameter can be found (rv2 4)."""
    if rule == "in-corpus":
        dangling = "as not set (link_rule in-corpus)"
    else:
        dangling = (f"as set all the same (link_rule {rule}; in-corpus reads it as not set "
                    "unless the same value names a memory of the corpus too)")
    nameless = ("as set all the same (link_rule set; named and in-corpus read it as not set)"
                if rule == "set" else f"as not set (link_rule {rule})")
    named = "naming in superseded_by or contradicts a memory that is not in the corpus"
    notes = {
        "dangling": f"{named}, read {dangling}: "
                    + (_APPLIES if rule != "in-corpus" else _NOT_APPLIED),
        "nameless": "whose superseded_by or contradicts names no memory (a blank text, true, "
                    f"a fraction or an object is no id) yet is set, read {nameless}: "
                    + (_APPLIES if rule == "set" else _NOT_APPLIED),
        "unset": "whose superseded_by or contradicts is 0 or empty, read as not set, as false "
                 f"is, under every link_rule: {_NOT_APPLIED} (memory 0 is named as the text "
                 "\"0\")",
    }
    if rule == "in-corpus":  # still set: the same value names a memory of the corpus too
        beside = (f"{named} beside one that is, read as set by the one that is (link_rule "
                  f"in-corpus): {_APPLIES}")
        notes = {"dangling": notes["dangling"], "beside": beside,
                 **{k: v for k, v in notes.items() if k != "dangling"}}
    return notes


def data_warnings(dataset: Dataset, params: Params) -> list[str]:
    """The importance model's notes on `dataset` at `params` (`Model.data_warnings`)."""
    mentions = (("mentions", "access_count") if params["mentions_from_access"]
                else ("mentions",))
    out = future_clock_warning(
        dataset, str(params["now"]),
        ((d.id, parse_time(d.metadata.get(k))) for d in dataset.corpus
         for k in ("created_at", "last_accessed")), "created_at or last_accessed")
    # a value read as absent changes a memory's score with nothing said: named
    bad: dict[str, list[str]] = {}  # what, read as what → "id value" of each memory
    counts: dict[str, list[str]] = {}  # count field → memories whose value is no count
    places: dict[str, list[str]] = {}  # the same keys → each memory's place, "" unknown
    ids = dataset.corpus.index
    undated: list[str] = []  # no readable created_at or last_accessed
    undated_at: list[str] = []
    # superseded_by/contradicts as scoring reads them (`prepared.link_set`): set but naming
    # ids not in the corpus, set but naming no id at all, present but read as not set (dr3 3)
    notes = _link_notes(str(params["link_rule"]))
    links: dict[str, list[str]] = {k: [] for k in notes}
    links_at: dict[str, list[str]] = {k: [] for k in notes}

    def add(into: dict[str, list[str]], key: str, doc_id: str, item: str) -> None:
        into.setdefault(key, []).append(item)
        places.setdefault(key, []).append(dataset.corpus.at.get(doc_id, ""))

    for d in dataset.corpus:
        m = d.metadata
        if m.get("tier") not in (None, "") and tier_index(m["tier"]) < 0:
            add(bad, f"tier (one of {', '.join(TIERS)}; read as the default tier "
                f"{params['default_tier']})", d.id, f"{d.id} {m['tier']!r}")
        if m.get("outcome") not in (None, "") and outcome_index(m["outcome"]) < 0:
            add(bad, f"outcome (one of {', '.join(OUTCOMES)}; read as none)", d.id,
                f"{d.id} {m['outcome']!r}")
        for k, other in (("created_at", "last_accessed"), ("last_accessed", "created_at")):
            if m.get(k) not in (None, "") and math.isnan(parse_time(m[k])):
                fallback = (_FALLS_BACK[k] if not math.isnan(parse_time(m.get(other)))
                            else _NEITHER.format(other=other))
                add(bad, f"{k} ({fallback})", d.id, f"{d.id} {m[k]!r}")
        if all(math.isnan(parse_time(m.get(k))) for k in ("created_at", "last_accessed")):
            undated.append(d.id)
            undated_at.append(dataset.corpus.at.get(d.id, ""))
        for names, default in ((mentions, 1), (("dismissals",), 0)):
            for k, read in count_notes(m, names, default):
                add(counts, k, d.id, f"{d.id} {read}")
        said: dict[str, list[str]] = {k: [] for k in notes}
        for k in _LINKS:
            value = m.get(k)
            if link_set(value):
                # the whole value as the file writes it (JSON), the id 7 as 7, "m9" as "m9",
                # a list as the list (rv 5: a dangling id had been written '7', the others as
                # JSON; rv2 4: one item of a list had been written, not the list)
                named = linked_ids(value)
                outside = [i for i in named if i not in ids]
                if outside:
                    beside = "beside" in notes and len(outside) < len(named)
                    said["beside" if beside else "dangling"].append(
                        f"{k} {_value_text(value)}")
                if not named:
                    said["nameless"].append(f"{k} {_value_text(value)}")
            elif not (value is None or value is False
                      or (isinstance(value, str | list | tuple) and not value)):
                said["unset"].append(f"{k} {_value_text(value)}")  # 0, 0.0, {}
        for key, items in said.items():
            if items:
                links[key].append(f"{d.id} {', '.join(items)}")
                links_at[key].append(dataset.corpus.at.get(d.id, ""))
    for what, items in bad.items():
        out.append(_placed(places[what], f"{len(items)} memor{'y' if len(items) == 1 else 'ies'}"
                           f" with an unreadable {what}: ") + _some(items, places[what]))
    if undated:
        n, days = len(undated), float(params["undated_days"])
        does = ("as if accessed at the query's clock: it does not go stale, and passes the "
                "pre-filter's accessed-within test" if days == 0 else
                f"as if last accessed {days:g} days before the query's clock: staleness and "
                "the pre-filter count those days")
        read_as = f"read as {days:g} days inactive (the undated_days parameter), {does}"
        if n == len(dataset.corpus) and not any(
                k in d.metadata for d in dataset.corpus for k in ("created_at", "last_accessed")):
            # data with no dates at all (a BEIR set opened under importance): one short line,
            # not every memory by its line (tea-beir's 151)
            out.append(f"no memory has a created_at or last_accessed: each is {read_as}")
        else:
            out.append(_placed(undated_at, f"{n} memor{'y' if n == 1 else 'ies'} with no "
                               "readable created_at or last_accessed (missing or unreadable), "
                               f"so no date to count staleness from: each is {read_as}: ")
                       + _some(undated, undated_at))
    for k, items in counts.items():
        out.append(_placed(places[k], f"{len(items)} memor{'y' if len(items) == 1 else 'ies'} "
                           f"whose {k} is not stored as a plain count, a whole number of at "
                           "least 0 (a number, or one in a string, is read as its whole part, "
                           "at least 0; anything else is ignored): ")
                   + _some(items, places[k]))
    for key, what in notes.items():
        if links[key]:
            n = len(links[key])
            out.append(_placed(links_at[key], f"{n} memor{'y' if n == 1 else 'ies'} {what}: ")
                       + _some(links[key], links_at[key]))
    out += _query_clocks(dataset, params)
    return out


def _query_clocks(dataset: Dataset, params: Params) -> list[str]:
    """A query whose own clock cannot be read is scored at another one: said."""
    queries = dataset.queries
    odd = [(q.id, q.context.get("now")) for q in queries]
    odd = [(qid, now) for qid, now in odd
           if now not in (None, "") and math.isnan(parse_time(now))]
    if not odd:
        return []
    fallback, whence = default_clock_source(dataset, params)
    at = f"{when(fallback)}, {whence}" if not math.isnan(fallback) else whence
    where = [queries.at.get(qid, "") for qid, _ in odd]
    return [_placed(where, f"{len(odd)} quer{'y' if len(odd) == 1 else 'ies'} with an "
                    f"unreadable now (an ISO 8601 date; read as none: scored at {at}): ")
            + _some([with_value(dataset, qid, now) for qid, now in odd], where)]


def _value_text(value: object) -> str:
    """A link value as the file writes it, as JSON: a text in double quotes (" " shows its
    blank), a number or true as written."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _placed(places: list[str], text: str) -> str:
    """`text` after the first record's place ("FILE:LINE: "), where the reader knew it."""
    return f"{places[0]}: {text}" if places and places[0] else text


def _some(items: list[str], places: list[str] | None = None) -> str:
    """The first five of `items`, and how many more; after the first, each with its line
    ("(line 17)", or "(FILE:LINE)" in another file), the first's place leading the warning."""
    shown = []
    first = places[0].rpartition(":")[0] if places and places[0] else ""
    for i, item in enumerate(items[:5]):
        place = places[i] if places and i < len(places) else ""
        if i and place:
            file, _, line = place.rpartition(":")
            item += f" (line {line})" if file == first else f" ({place})"
        shown.append(item)
    return ", ".join(shown) + (f", … {len(items) - 5} more" if len(items) > 5 else "")

