"""What was compared, in the data's own words: the dataset and where it was read
from, the models, the nouns, and which configurations hold training scores."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from workbench.core.comparison import Comparison


def origin(source: str) -> str:
    """Where a dataset was read from, for a reader: a repository's commit shortened, and a
    sample repository the workbench built in its cache named as such (not the cache path)."""
    import re

    root, at, commit = source.rpartition("@")
    if not at or not root or not re.fullmatch(r"[0-9a-f]{7,64}", commit):
        return _near(source)  # a path that holds an @ of its own
    from workbench.core.store import cache_dir

    short = commit[:12]
    if Path(root).resolve().parent == (cache_dir() / "sample-repos").resolve():
        name = Path(root).name.rsplit("-", 1)[0]
        return f"the {name} sample's repository, built from its history, at commit {short}"
    return f"{_near(root)} at commit {short}"


def _near(path: str) -> str:
    """A path as a shared page shows it: relative to the current folder where it lies inside
    it, else with the home folder as ~ (a pull request had /home/alice/… in its first line)."""
    try:
        p = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return path
    for base, shown in ((Path.cwd().resolve(), ""), (Path.home().resolve(), "~")):
        try:
            rest = p.relative_to(base)
        except ValueError:
            continue
        if shown:
            return str(Path(shown) / rest)
        return str(rest) if str(rest) != "." else path
    return path


def made_by() -> str:
    """"workbench 0.1.0, 2026-11-28 07:10 UTC": what made a report, and when (a pasted one
    can be traced to its run)."""
    from datetime import UTC, datetime

    import workbench

    version = getattr(workbench, "__version__", None)
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"made by workbench {version}, {when}" if version else f"made {when}"


def subject(comp: Comparison) -> list[str]:
    """What was compared, in two lines, and a third naming the query file and the judgments
    where they are known (`sources_line`)."""
    ds = comp.dataset
    names = ", ".join(c.name + (f" ({c.source})" if c.source else "") for c in comp.configs)
    docs, queries = nouns(comp)
    where = f" ({origin(ds.source)})" if ds.source else ""
    sources = sources_line(comp)
    return [f"{models_text(comp)} on {ds.name}{where}: "
            f"{len(ds.corpus):,} {docs}, {len(ds.queries):,} {queries}, {comp.judged_text}",
            f"configurations: {names}; "
            + (f"differences, p-values and ▲/▼ against {comp.configs[0].name!r} (paired "
               "randomisation test)"
               + ("; and every pair against each other"
                  if len(comp.configs) >= 3 else "") if has_judgments(comp) else
               f"no judgments, so no metric: how alike the rankings are and what moved, "
               f"against {comp.configs[0].name!r}"), *([sources] if sources else [])]


def sources_line(comp: Comparison) -> str:
    """"queries read from queries.test.jsonl; judgments: split test (qrels/test.tsv), binary;
    …": which files the figures come from, the judgments as eval says them (a report of
    SciFact's train split had told it from its test split by a count only); "" where neither
    is known."""
    _, queries = nouns(comp)
    said = ([f"{queries} read from {comp.queries_from}"] if comp.queries_from else []) + (
        [f"judgments: {comp.judgments}"] if comp.judgments else [])
    return "; ".join(said)


def models_text(comp: Comparison) -> str:
    """"bm25 (scoring version 3)"; "codeledger (scoring version 5) and bm25 (scoring version
    3)" where models are compared."""
    seen: dict[str, str] = {}
    for i in range(len(comp.configs)):
        m = comp.model_of(i)
        seen.setdefault(m.id, f"{m.id} (scoring version {m.version})")
    return _and(list(seen.values()))


def has_judgments(comp: Comparison) -> bool:
    """Whether the data judges any query: without judgments a comparison has no metric, only
    how alike the rankings are (`agreement_table`) and what moved."""
    return bool(comp.dataset.qrels)


def singular(noun: str) -> str:
    """One of `noun` (a plural of `nouns`): queries → query, chat moments → chat moment."""
    return noun[:-3] + "y" if noun.endswith("ies") else noun.removesuffix("s")


def nouns(comp: Comparison) -> tuple[str, str]:
    """What the documents and queries are, in the data's own words: files and tasks of a
    repository, decisions and cases of pi-lodestone's eval, memories and chat moments of
    OpenVault; documents and queries otherwise (`tuning.data.dataset_nouns`)."""
    from workbench.core.tuning.data import dataset_nouns

    return dataset_nouns(comp.dataset)


def trained_pair(comp: Comparison, i: int) -> bool:
    """Whether configuration i or the first has training scores here (tuned on queries
    counted): a difference between them is no evidence, so no test is shown for it."""
    return comp.configs[0].name in comp.training or comp.configs[i].name in comp.training


def shown_name(comp: Comparison, name: str) -> str:
    """A configuration's name as a table heads its column: marked where its figures are
    training scores (it was tuned on queries counted here)."""
    return f"{name} (training scores)" if name in comp.training else name


def no_judgments_lead(comp: Comparison) -> str:
    """What a report without judgments shows, said first ("" with judgments)."""
    if comp.rows or has_judgments(comp):
        return ""
    docs, _ = nouns(comp)
    return ("No relevance judgments were given, so this report shows how alike the rankings "
            f"are and which {docs} moved, not whether either ranks better.")


MEASURE_TEXT = "To measure which ranks better, make the report again with the judgments:"


def measure_text(comp: Comparison) -> str:
    """How to measure, said last in a report without judgments ("" otherwise)."""
    return f"{MEASURE_TEXT} {comp.measure_hint}." if comp.measure_hint else ""


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
