"""The query set a tuning run sees, and which validation it gets when none is named.

A split the data already has (BEIR `train` → `test`) becomes one dataset holding both query
sets, so that a fold is a mask over one prepared state; a query id in both splits is held out
and dropped from training (held out means held out), and so is a training query asked again
on the held-out side under another id (`validation.part_twins`).
"""

from __future__ import annotations

import numpy as np

from workbench.core.data import Dataset, QuerySet
from workbench.core.params import ParamError
from workbench.core.tuning.validation import (
    Mask,
    Validation,
    holdout,
    kfold,
    part_twins,
    time_split,
)


def merge_splits(train: Dataset, test: Dataset, train_name: str,
                 test_name: str) -> tuple[Dataset, Mask, Mask, list[str]]:
    """One dataset with both splits' judged queries; masks of each; ids dropped from training."""
    if [d.id for d in train.corpus] != [d.id for d in test.corpus]:
        raise ParamError(f"splits {train_name} and {test_name} do not share one corpus")
    both = set(train.queries.ids) & set(test.queries.ids)
    train_q = [q for q in train.queries if q.id not in both]
    if not train_q and len(train.queries):  # said as such: "no judged queries" was untrue
        raise ParamError(f"every query {train_name} judges ({len(train.queries):,}) is one "
                         f"of {test_name}, the held-out split: nothing is left to tune on "
                         "(held out means held out)")
    queries = QuerySet([*train_q, *test.queries], name=f"{train_name}+{test_name}")
    qrels = {**{q: g for q, g in (train.qrels or {}).items() if q not in both},
             **(test.qrels or {})}
    n_train = len(train_q)
    train_mask = np.zeros(len(queries), bool)
    train_mask[:n_train] = True
    merged = Dataset(train.name, train.corpus, queries, qrels, train.source, train.settings)
    return merged, train_mask, ~train_mask, sorted(both)


def is_task_set(dataset: Dataset) -> bool:
    """Repository tasks (mined from commits): their order is time."""
    return len(dataset.queries) > 0 and all("commit" in q.context or "snapshot" in q.context
                                            for q in dataset.queries)


def dataset_nouns(dataset: Dataset) -> tuple[str, str]:
    """What the documents and queries are, in the data's own words: files and tasks of a
    repository, decisions and cases of pi-lodestone's eval, memories and chat moments of
    OpenVault; documents and queries otherwise."""
    from workbench.core.cases import has_cases

    if is_task_set(dataset):
        return "files", "tasks"
    if has_cases(dataset):
        return "decisions", "cases"
    if any("chat_length" in q.context for q in dataset.queries):
        return "memories", "chat moments"
    return "documents", "queries"


def one_of(plural: str) -> str:
    """A `dataset_nouns` noun for one: query, task, case, chat moment."""
    return "query" if plural == "queries" else plural.removesuffix("s")


def choose_validation(dataset: Dataset, counted: Mask, *, folds: int | None,
                      time_fraction: float | None, seed: int,
                      split_masks: tuple[Mask, Mask, str] | None = None) -> Validation:
    """The validation asked for, else: the data's own split; a time split for repository
    tasks; 5-fold otherwise."""
    if split_masks is not None:
        train, test, describe = split_masks
        v = holdout(train & counted, test & counted, describe)
    elif time_fraction is not None or (folds is None and is_task_set(dataset)):
        v = time_split(dataset, counted, time_fraction if time_fraction is not None else 0.5)
    else:
        k = folds if folds is not None else 5
        if k == 0:
            from workbench.core.tuning.validation import no_validation

            return no_validation(counted, dataset_nouns(dataset)[1])
        v = kfold(counted, k, seed, dataset_nouns(dataset)[1])
    # one query under two ids on the two sides: the training one is not tuned on
    return part_twins(v, dataset, counted)

