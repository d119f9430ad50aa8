"""Pass/fail of fixture cases (pi-lodestone's eval.jsonl): every expected id in the top K, no
forbidden id in the top K — per case, and recall / precision over the whole set, as the
original harness reports them.

A case's query context carries `expected_top_ids`, `must_not_include` and `top_k`.
recall = expected ids found in their case's top K / all expected ids;
precision = expected ids found / all ids returned in the top Ks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.core.data import Dataset
from workbench.core.ranking import Ranking


@dataclass(frozen=True)
class CaseResult:
    query: str
    passed: bool
    missing: tuple[str, ...]  # expected ids not in the top K
    forbidden: tuple[str, ...]  # must-not-include ids that are
    returned: tuple[str, ...]


@dataclass(frozen=True)
class CaseReport:
    cases: tuple[CaseResult, ...]
    recall: float
    precision: float

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.cases)


def has_cases(dataset: Dataset) -> bool:
    return any("expected_top_ids" in q.context for q in dataset.queries)


def check_cases(dataset: Dataset, ranking: Ranking) -> CaseReport:
    ids = dataset.corpus.ids
    out: list[CaseResult] = []
    found = expected_total = returned_total = 0
    for qi, q in enumerate(dataset.queries):
        if "expected_top_ids" not in q.context:
            continue
        k = int(q.context.get("top_k", ranking.docs.shape[1]))
        n = min(k, int(ranking.count[qi]))
        top = tuple(ids[int(d)] for d in ranking.docs[qi, :n])
        expected: Sequence[str] = q.context.get("expected_top_ids", ())
        banned: Sequence[str] = q.context.get("must_not_include", ())
        missing = tuple(x for x in expected if x not in top)
        forbidden = tuple(x for x in banned if x in top)
        found += len(expected) - len(missing)
        expected_total += len(expected)
        returned_total += len(top)
        out.append(CaseResult(q.id, not missing and not forbidden, missing, forbidden, top))
    return CaseReport(tuple(out), found / expected_total if expected_total else 1.0,
                      found / returned_total if returned_total else 1.0)
