"""What eval, compare and report say of the judgments: which they count and how, and what to
give where there are none."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from workbench.cli.common import UsageError, beir_folder_of
from workbench.core.data import Dataset


def no_judgments(args: argparse.Namespace, dataset: Dataset, verb: str) -> NoReturn:
    """The one error for data with no judgments (eval, compare, report), saying what to
    give: a repository's task file; --qrels; and, where --queries stood in for a BEIR
    folder's own queries, that its qrels/ are read only with them."""
    from workbench.core.formats.code_repo import is_code_repo

    if is_code_repo(Path(args.data)):
        raise UsageError(f"{args.data}: no tasks to {verb} (give --queries tasks.jsonl, "
                         "written by `workbench tasks-from-git`, or keep one at "
                         ".codeledger/tasks.jsonl)")
    raise UsageError(f"{dataset.source or dataset.name}: no judgments to {verb} against "
                     f"(give {judgments_hint(args, dataset)})")


def judgments_hint(args: argparse.Namespace, dataset: Dataset) -> str:
    """What to give for judgments: --qrels FILE (and --queries FILE where there are none);
    where --queries stood in for a BEIR folder's own queries, that its qrels/ are read only
    with them, and which file judges these."""
    given = "--qrels FILE" if len(dataset.queries) else "--queries FILE and --qrels FILE"
    beir = beir_folder_of(args.data)  # DATA a BEIR folder's corpus: the folder judges it
    if beir is not None and Path(args.data).name == "corpus.jsonl" and not len(dataset.queries):
        given += f"; or as DATA the BEIR folder {beir} this corpus.jsonl is in"
    folder = Path(args.data) / "qrels"
    if getattr(args, "queries", None) and folder.is_dir():
        split = getattr(args, "split", None) or "test"  # the split read, not the first file
        tsv = folder / f"{split}.tsv"
        tsv = tsv if tsv.is_file() else next(iter(sorted(folder.glob("*.tsv"))), folder)
        given += (f"; the folder's {folder.name}/ is read only with its own queries: "
                  f"--qrels {tsv} judges these")
    return given


def judgments_line(args: argparse.Namespace, dataset: Dataset, metrics: Sequence[str]) -> str:
    """Which judgments the figures count and how they read them: two tables of one collection
    (graded and binary Cranfield, SciFact's train and test) were otherwise told apart by
    their query counts only."""
    qrels = getattr(args, "qrels", None)
    folder = Path(args.data)
    if qrels:
        where = str(qrels)
    elif folder.is_dir() and (folder / "qrels").is_dir():
        split = getattr(args, "split", "test")
        exact = folder / "qrels" / f"{split}.tsv"  # what the split reads (test.binary.tsv is
        files = [exact] if exact.is_file() else []  # another split, sorted before test.tsv)
        where = f"split {split}" + (f" ({files[0].relative_to(folder)})" if files else "")
    else:
        where = "from the data"
    grades = sorted({g for judged in (dataset.qrels or {}).values() for g in judged.values()})
    top = grades[-1] if grades else 1
    kind = (f"graded {grades[0]}–{top}; relevant: grade ≥ 1, nDCG's gain is the grade, as "
            "trec_eval's" if top > 1 else "binary; relevant: grade ≥ 1")
    unjudged = ("" if any(m.startswith("judged@") for m in metrics)
                else "; a document without a judgment counts as not relevant")
    return f"judgments: {where}, {kind}{unjudged}"
