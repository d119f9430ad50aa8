"""Per-decision facts the gates and bonuses read, and per query cwd the locality class and
project membership of every decision (computed once per distinct cwd and decision cwd)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.decision_memory.constants import DEFAULTS, Constants
from workbench.core.models.decision_memory.project import in_project, locality, parse_time
from workbench.core.models.decision_memory.text import has_durable_tag, is_operational_title

F64 = NDArray[np.float64]
B = NDArray[np.bool_]
SOURCES = {"manual": 0, "extracted": 1, "turn": 2}  # anything else: 3
# the record keys besides id, title, text and tags that doc_facts and CwdCache read (a plain
# document's metadata keys are read the same, `queries.record_of`)
RECORD_KEYS = ("source", "cwd", "project", "createdAt", "important", "archived", "supersededBy",
               "kbPath", "retrievalCount", "injectionCount")
# bits of DocFacts.flags
ARCHIVED, SUPERSEDED, MANUAL, TURN, OPERATIONAL, DURABLE, IMPORTANT, KB = (
    1 << i for i in range(8))


@dataclass(frozen=True)
class DocFacts:
    """Per decision (N,): archived, superseded (supersededBy set), source code (0 manual,
    1 extracted, 2 turn, 3 other), operational title, durable tag, important, kb (kbPath set);
    float64 retrieval and injection counts, createdAt in ms (NaN when unparsable); the
    booleans again as one uint16 of bits (`flags`) for the live stage."""

    archived: B
    superseded: B
    source: NDArray[np.int8]
    operational: B
    durable: B
    important: B
    kb: B
    retrieval: F64
    injection: F64
    created: F64

    @property
    def flags(self) -> NDArray[np.uint16]:
        bits = (self.archived * ARCHIVED + self.superseded * SUPERSEDED
                + (self.source == 0) * MANUAL + (self.source == 2) * TURN
                + self.operational * OPERATIONAL + self.durable * DURABLE
                + self.important * IMPORTANT + self.kb * KB)
        out: NDArray[np.uint16] = np.asarray(bits, np.uint16)
        return out


def doc_facts(records: list[dict[str, Any]], c: Constants = DEFAULTS) -> DocFacts:
    """The facts of `records`; `c`'s word lists decide the operational and durable ones."""
    def flags(key: str) -> B:
        return np.asarray([bool(r.get(key)) for r in records], np.bool_)

    def counts(key: str) -> F64:
        return np.asarray([float(r.get(key) or 0) for r in records], np.float64)

    return DocFacts(
        archived=flags("archived"), superseded=flags("supersededBy"),
        source=np.asarray([SOURCES.get(r.get("source") or "", 3) for r in records], np.int8),
        operational=np.asarray([is_operational_title(r.get("title") or "", c.operational_words)
                                for r in records], np.bool_),
        durable=np.asarray([has_durable_tag(r.get("tags") or (), c.durable_tags)
                            for r in records], np.bool_),
        important=flags("important"), kb=flags("kbPath"),
        retrieval=counts("retrievalCount"), injection=counts("injectionCount"),
        created=np.asarray([parse_time(r.get("createdAt")) for r in records], np.float64))


class CwdCache:
    """Per query cwd: each decision's locality class and project membership."""

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.keys = [(r.get("cwd") or "", r.get("project") or "") for r in records]
        self.memo: dict[str | None, tuple[NDArray[np.int8], B]] = {}

    def get(self, cwd: str | None) -> tuple[NDArray[np.int8], B]:
        hit = self.memo.get(cwd)
        if hit is None:
            per: dict[tuple[str, str], tuple[int, bool]] = {}
            for key in set(self.keys):
                per[key] = (locality(key[0], key[1], cwd), in_project(key[0], cwd))
            hit = (np.asarray([per[k][0] for k in self.keys], np.int8),
                   np.asarray([per[k][1] for k in self.keys], np.bool_))
            self.memo[cwd] = hit
        return hit
