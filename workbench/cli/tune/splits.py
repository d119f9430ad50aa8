"""tune's data read for --train-split/--test-split: the two splits named, apart, and merged."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from workbench.cli.common import UsageError, load_data
from workbench.textout import say


def _load_for_tuning(args: argparse.Namespace) -> tuple[Any, Any]:
    from workbench.core.tuning.data import merge_splits

    if not args.train_split:
        return load_data(args), None
    _check_splits_named(args)
    _check_splits_apart(args)
    args.split = args.train_split
    train = load_data(args)
    args.split = args.test_split
    test = load_data(args)
    merged, train_mask, test_mask, dropped = merge_splits(train, test, args.train_split,
                                                          args.test_split)
    if dropped:
        n = len(dropped)
        say(f"warning: {n:,} quer{'y is' if n == 1 else 'ies are'} in both splits; held out, "
            "not tuned on", file=sys.stderr)
    describe = (f"tuned on split {args.train_split} ({int(train_mask.sum())} queries), "
                f"held out: split {args.test_split} ({int(test_mask.sum())})")
    return merged, (train_mask, test_mask, describe)


def _check_splits_named(args: argparse.Namespace) -> None:
    """Each of --train-split and --test-split a split DATA judges, said in the option given
    (the data's own error said "give --split test", an option that does not fit here), with
    k-fold as the way where there is one split or none."""
    from workbench.core.formats import dataset_splits

    if args.queries or args.qrels:
        return  # judgments from elsewhere: load_data says what does not fit
    folder = Path(args.data)
    splits = dataset_splits(folder)
    for flag, split in (("--train-split", args.train_split), ("--test-split", args.test_split)):
        if split in splits or (folder / "qrels" / f"{split}.tsv").is_file():
            continue  # judged here, or a file load_data says more of (no grades in it)
        if not folder.is_dir():
            why = "is a file, which has no splits"
        elif not splits:
            why = "has no splits (no qrels/<split>.tsv)"
        else:
            why = (f"has no qrels/{split}.tsv (split{'s' if len(splits) > 1 else ''} here: "
                   f"{', '.join(splits)})")
        fold = "--folds K" + (" --split " + splits[0] if splits and splits[0] != "test"
                              else "")
        how = (f"name one of them with {flag}, or hold out queries of one split by k-fold: "
               if len(splits) > 1 else "with one split, hold out its queries by k-fold: "
               if splits else "hold out queries by k-fold: ")
        raise UsageError(f"{flag} {split}: {args.data} {why}; {how}{fold}, without "
                         "--train-split and --test-split")


def _check_splits_apart(args: argparse.Namespace) -> None:
    """--train-split names a split with queries of its own: one whose every query the
    held-out split judges too (Cranfield's test.binary: test's queries graded 0/1) would tune
    on the held-out queries. Said before the data is read twice."""
    from workbench.core.formats import split_overlap

    train, test = args.train_split, args.test_split
    if train == test:
        raise UsageError(f"--train-split and --test-split both name split {test}: the scores "
                         "would be of the queries tuned on (for held-out scores on one split, "
                         f"use --folds K with --split {test})")
    folder = Path(args.data)
    if args.queries or args.qrels or not (folder / "qrels" / f"{train}.tsv").is_file():
        return  # judgments from elsewhere, or no such split: load_data says which
    shared, judged = split_overlap(folder, train, test)
    if judged and shared == judged:
        raise UsageError(f"--train-split {train}: split {train} judges no query of its own — "
                         f"all {judged:,} it judges are judged in --test-split {test} too, so "
                         "tuning on it would be tuning on the held-out queries; tune on a split "
                         f"of other queries, or use --folds K with --split {test}")
