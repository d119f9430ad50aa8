"""Command-line argument checks that argparse does not make: counts that must be positive,
fractions strictly between 0 and 1, a TREC topic file's fields, usage errors as one line
(argparse's default prints the whole usage block above the error), and a warning for a
parameter given twice."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `low` (and at most `high`, if given)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a whole number of at least {low}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, got {value:,}")
        return value

    parse.__name__ = f"whole number >= {low}"
    return parse


def fraction(text: str) -> float:
    """An argparse type: a number strictly between 0 and 1 (a share of a history)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, found {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a fraction above 0 and below 1, found {text}")
    return value


def topic_field(text: str) -> str:
    """An argparse type: the fields of a TREC topic a query is made of (`title`, `desc`,
    `narr`, or several joined by `+`), given back as `+`-joined lower-case names."""
    from workbench.core.formats.trec_topics import topic_fields

    try:
        return "+".join(topic_fields(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def warn_repeated(assignments: Sequence[str]) -> None:
    """A warning on stderr for each parameter given twice with --param (the last one wins)."""
    seen: dict[str, str] = {}  # the name in lower case → as first given
    for item in assignments:
        name, _, value = item.partition("=")
        name = name.strip()
        # a name is read in any case (-p K1 is k1), so -p k1=1 -p K1=2 gives it twice too
        first = seen.get(name.lower())
        if first is not None:
            also = "" if first == name else f" (as {first} too)"
            print(f"warning: --param {name} given more than once{also}; using "
                  f"{name}={value.strip()}", file=sys.stderr)
        else:
            seen[name.lower()] = name
