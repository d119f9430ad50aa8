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


@dataclass(frozen=True)
class CaseFlaws:
    """What makes a case's check vacuous or impossible, in case order (file order)."""

    empty: tuple[str, ...]  # cases with neither an expected nor a forbidden id: always pass
    # (case, id): an expected id of the corpus that is none of its case's decisions (never
    # in its top K: the case always fails; ids the corpus lacks are `load_warnings`' own)
    unreachable: tuple[tuple[str, str], ...]
    # (case, id): a must-not-include id that is none of its case's decisions (never in its
    # top K: that check always holds)
    vacuous: tuple[tuple[str, str], ...]


def case_flaws(dataset: Dataset) -> CaseFlaws:
    """The cases' flaws, by each case's own decisions (`candidates`, as `read_eval_cases`
    gives them; a case without them is not checked)."""
    ids = dataset.corpus.ids
    index = dataset.corpus.index
    empty: list[str] = []
    unreachable: list[tuple[str, str]] = []
    vacuous: list[tuple[str, str]] = []
    for q in dataset.queries:
        if "expected_top_ids" not in q.context:
            continue
        expected: Sequence[str] = q.context.get("expected_top_ids", ())
        banned: Sequence[str] = q.context.get("must_not_include", ())
        if not expected and not banned:
            empty.append(q.id)
        candidates = q.context.get("candidates")
        if candidates is None:
            continue
        own = {ids[int(i)] for i in candidates}
        unreachable += [(q.id, x) for x in expected if x in index and x not in own]
        vacuous += [(q.id, x) for x in banned if x not in own]
    return CaseFlaws(tuple(empty), tuple(unreachable), tuple(vacuous))


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
