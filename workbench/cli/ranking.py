"""One query at a time: `models` (each model's signals, gates and parameters), `rank` (the
results with each signal's contribution, as a table or JSON) and `explain` (each result's
score breakdown, gates and matched terms; a bundle-selecting model's bundle)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from workbench.cli.common import (
    EXIT_OK,
    TYPED,
    UsageError,
    add_data,
    add_model,
    add_query,
    add_repo,
    load_data,
    model_and_params,
    one_query,
    pipeline,
    say_fitted,
)
from workbench.core import engine
from workbench.core.clamp_ties import shown_order, tie_order, tied_at_one
from workbench.core.data import display_title
from workbench.core.pipeline import MIN_DEPTH
from workbench.core.score_places import score_decimals
from workbench.textout import (
    display_width,
    explain_lines,
    format_table,
    say,
    table_width,
    text_width,
)


def add_commands(sub: Any) -> None:
    p = sub.add_parser("models", help="list models, their parameters and signals")
    p.add_argument("model", nargs="?", help="show only this model")
    p.add_argument("--toml", action="store_true",
                   help="print the model's defaults as a params file (for --params, or "
                   "compare -c: `models codeledger-document --toml > doc.toml`, then "
                   "`compare … -m codeledger --defaults -c doc.toml`)")
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("rank", help="rank documents for one query, with signal contributions")
    add_data(p, optional=True)
    add_repo(p, "rank")
    add_model(p)
    add_query(p)
    p.add_argument("--format", choices=("table", "text", "json"), default="table",
                   help="table (text: the same, as explain names it) or json")
    p.set_defaults(func=cmd_rank)

    p = sub.add_parser("explain", help="each result's score breakdown, gates and matched terms")
    add_data(p, optional=True)
    add_repo(p)
    add_model(p)
    add_query(p, top=5, top_help="; codeledger shows at least its whole bundle")
    p.add_argument("--format", choices=("text", "table", "json"), default="text",
                   help="text (table: the same, as rank names it); json: each result's score, "
                   "contributions and the model's breakdown "
                   "(as `rank --format json`, with the breakdown); codeledger's also has a "
                   "`bundle` object (its files, tokens, budget, skipped files, stop reason and, "
                   "where the budget or max_files stopped it, the file that did not fit)")
    p.add_argument("--doc", action="append", default=[], metavar="ID",
                   help="also explain this document wherever it ranks (repeatable): why a "
                   "document did not come up")
    p.add_argument("--relevant", action="store_true",
                   help="also explain every document judged relevant to the query that is not "
                   "in the top --top")
    p.set_defaults(func=cmd_explain)


def cmd_models(args: argparse.Namespace) -> int:
    from workbench.core.models import canonical_id, get_model, model_ids

    ids = [canonical_id(args.model)] if args.model else model_ids()
    if getattr(args, "toml", False):
        if not args.model:
            raise UsageError("--toml prints one model's defaults: name the model")
        from workbench.core.params import params_toml

        try:
            m = get_model(args.model)
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
        print(params_toml(m.schema.defaults(), [f"the defaults of {m.id} ({m.label})"]),
              end="")
        return EXIT_OK
    import textwrap

    from workbench.core.params import value_text
    from workbench.textout import text_width

    # as wide as the terminal ($COLUMNS), 100 columns where there is none (a pipe, a file):
    # the description was one line of 466 characters and the table 181 wide
    width = text_width()
    for mid in ids:
        try:
            m = get_model(mid)
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
        print(textwrap.fill(f"{m.id} — {m.label}: {m.description}", width,
                            subsequent_indent="  "))
        fitted = getattr(m, "fitted_on", ())
        if fitted:  # which histories, by head commit: a task from one is no unseen test
            from workbench.core.models.codeledger.fitted_on import fitted_on_lines

            print("  defaults fitted on the older half of the tasks of each of these "
                  "histories (docs/codeledger.md):")
            for line in fitted_on_lines(fitted):
                print(textwrap.fill(line, width, initial_indent="    ",
                                    subsequent_indent="      "))
        print(textwrap.fill("signals: " + ", ".join(f"{s.name} ({s.label})"
                                                     for s in m.signals), width,
                            initial_indent="  ", subsequent_indent="           "))
        if m.gates:
            print(textwrap.fill("gates:   " + ", ".join(m.gates), width, initial_indent="  ",
                                subsequent_indent="           "))
        # a text's default quoted, so a prompt's trailing space shows; each help under its
        # row, the width of the terminal (a fifth column was 30 characters wide)
        params = list(m.schema)
        # and the others as -p and the TOML files take them: true (not True), 8 (not 8.0)
        full = [repr(p.default) if p.kind == "text" else value_text(p.default)
                for p in params]
        table = [[p.name, p.stage, _default_cell(p.default, text), p.range_text()]
                 for p, text in zip(params, full, strict=True)]
        head, rule, *rows = format_table(["parameter", "stage", "default", "range"], table,
                                         indent="  ").split("\n")
        print(f"{head}\n{rule}")
        for p, text, row in zip(params, full, rows, strict=True):
            print(row)
            for i, line in enumerate(p.help.split("\n")):  # a line per choice, indented
                print(textwrap.fill(line, width, initial_indent="      ",
                                    subsequent_indent="        " if i else "      "))
            if len(text) > DEFAULT_CELL:  # cut in the table: in full under its help
                print(textwrap.fill(f"default in full: {text}", width, initial_indent="      ",
                                    subsequent_indent="        ", break_on_hyphens=False))
        print()
    return EXIT_OK


DEFAULT_CELL = 40  # the default column's widest cell: a prompt's 37 characters fit whole


def _default_cell(value: object, text: str) -> str:
    """A default as the `models` table shows it: `text` (the value as -p takes it), or where
    that is wider than DEFAULT_CELL, its first items and how many there are ("'again, another,
    …' (44 words)"): injection_stop_words' 364 characters had set the column's width, and
    every row of decision-memory's table was 430 wide."""
    if len(text) <= DEFAULT_CELL:
        return text
    if isinstance(value, str) and ", " in value:
        items = value.split(", ")
        kind = "phrases" if any(" " in item.strip() for item in items) else "words"
        count = f" ({len(items)} {kind})"
        kept = items[:1]
        for item in items[1:]:
            if len(repr(", ".join([*kept, item, "…"]))) + len(count) > DEFAULT_CELL:
                break
            kept.append(item)
        return repr(", ".join([*kept, "…"])) + count
    return text[:DEFAULT_CELL - 1] + "…"


def _fixed(value: float, places: int = 4) -> str:
    """A contribution to `places` decimals, a penalty rounding to nothing as 0.0000 (not
    -0.0000: codeledger's fail_prior and non_code read so on every row)."""
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def _bundle_marks(pipe: Any) -> dict[int, str]:
    """The first task's bundle, by document: "in" for a file handed to the agent, "skipped"
    for one passed over for the budget (rank had shown the ranking alone: which files the
    bundle holds only `explain` said)."""
    from workbench.core.engine import top_k
    from workbench.core.models.codeledger.explain import full_bundles

    scores, bund = full_bundles(pipe.prepared, pipe.params)
    ranking = top_k(scores, int(np.diff(scores.row_ptr).max(initial=0)))
    marks = {d: "in" for d in bund.files(0)}
    for r in bund.skipped_ranks(0):
        marks[int(ranking.docs[0, r])] = "skipped"
    return marks


def _data_or_repo(args: argparse.Namespace) -> None:
    """DATA, or `--repo PATH` (a git repository) in its place; and a query that is not empty."""
    if getattr(args, "repo", None):
        if args.data:
            raise UsageError("give DATA or --repo, not both")
        from workbench.core.formats.code_repo import is_code_repo, is_sample_stream_folder

        if not Path(args.repo).exists():
            raise UsageError(f"--repo {args.repo}: no such folder")
        # the bundled code-repo sample (a repository kept as a stream) is one too, as it is
        # as DATA and to `bench --code` (rn 10)
        if not (is_code_repo(Path(args.repo)) or is_sample_stream_folder(Path(args.repo))):
            raise UsageError(f"--repo {args.repo}: not a git repository (no .git)")
        args.data = args.repo
    if args.query is not None and not args.query.strip():
        raise UsageError("the query (--query/--task) is empty")
    if not args.data:
        raise UsageError("give DATA (or --repo PATH for a git repository)")


def _ranked_rows(pipe: Any, top: int) -> list[dict[str, Any]]:
    """The first query's results with their contributions and gates: the first `top` of a
    ranking at least `MIN_DEPTH` deep, as the window ranks. Ranked only `top` deep, equal
    scores crossing it on judged data were cut as trec_eval reads them (`run_live`): `--top 3`
    showed other tied documents than `--top 10` and the window, in another order."""
    result = pipe.run(metric_names=(), depth=max(top, MIN_DEPTH))
    contrib = engine.contributions_at(result.scores, result.ranking)
    corpus = pipe.dataset.corpus
    qrels = (pipe.dataset.qrels or {}).get(pipe.dataset.queries[0].id, {})
    rows: list[dict[str, Any]] = []
    for j in range(min(int(result.ranking.count[0]), top)):
        d = int(result.ranking.docs[0, j])
        doc = corpus[d]
        rows.append({
            "rank": j + 1,
            "id": doc.id,
            "title": doc.title,
            "score": float(result.ranking.scores[0, j]),
            "relevance": qrels.get(doc.id),
            "contributions": {s: float(contrib[i, 0, j])
                              for i, s in enumerate(result.scores.signals)},
            "doc": d,
        })
    return rows


def cmd_rank(args: argparse.Namespace) -> int:
    _data_or_repo(args)
    data = load_data(args)
    dataset = one_query(args, data)
    model, params = model_and_params(args)
    pipe = pipeline(model, dataset, params, f"preparing {model.id}")
    say_fitted(pipe.model, pipe.dataset)
    _say_situation(pipe, typed=args.query is not None and dataset.queries.name == TYPED)
    rows = _ranked_rows(pipe, args.top)
    shown = _shown(pipe)
    for r in rows:
        if shown is not None:
            r["snippet"] = shown.snippets[shown.docs.index(r["doc"])] \
                if r["doc"] in shown.docs else ""
    if args.format == "json":
        for r in rows:
            r.pop("doc")
        # the query's id too: a script looping over --query-id had to carry it itself
        print(json.dumps({"query_id": dataset.queries[0].id,
                          "query": dataset.queries[0].text, "model": model.id,
                          "params": params, "results": rows}, indent=2, ensure_ascii=False))
        return EXIT_OK
    print(f"query: {dataset.queries[0].text}")
    n = len(dataset.corpus)
    print(f"model: {model.id}   ({n:,} document{'' if n == 1 else 's'})")
    if not rows:
        gated = _gated_summary(pipe)
        why = (": every candidate was zeroed by a gate (" + ", ".join(
            f"{g} ×{n}" for g, n in gated.items()) + "); `workbench explain` says why"
               if gated else ": " + _why_none(pipe))  # rn 11: vault-search had said no reason
        say(f"no results{why}")
        return EXIT_OK
    # a signal 0 everywhere at these values (vault-search's proximity when shipped) left
    # out of the table; --format json keeps every one
    idle = model.idle_signals(pipe.prepared, pipe.params)
    signals = [s for s in rows[0]["contributions"] if s not in idle]
    # the score column's decimals by the window's rule (`score_decimals`), over every score
    # of the model, not the rows printed (rv 4): decision-memory's 54, not 54.0000, and 1 for
    # a query whose scores are 1 and 0 only, as the window shows it (it had printed 1.0000);
    # a score clamped to [0, 1] (vault-search's) 1.0000 beside 0.5735; whole contributions
    # of whole scores whole too (6, not 6.0000), as explain and why print them. Other scores
    # to the window's places, about four significant digits of the largest (bm25's 2.343, as
    # the ranked table shows it, not 2.3426: rv2 3), and the contributions beside them that
    # add up to them to the same places, as the window's preview writes them
    every = _model_scores(pipe, data, params)
    places = score_decimals([float(r["score"]) for r in rows], every=every)
    whole = places == 0
    # the contributions to the places the window's preview writes them with (its
    # `score_decimals` over the score and its terms): a term that is not whole beside whole
    # scores to about four significant digits of the largest score, decision-memory's lexical
    # 52.16 beside 65, as the preview reads (rv53 dH 2: it had printed 52.1573); the score
    # column stays whole
    term_places = score_decimals([float(r["score"]) for r in rows],
                                 [float(v) for r in rows for v in r["contributions"].values()],
                                 every)
    # rn 13: a signal that prints as 0 in every row shown (codeledger's mention, fail_prior…)
    # said in one line under the table instead of a column of zeros
    zero = [s for s in signals
            if all(abs(r["contributions"][s]) < 0.5 * 10.0 ** -term_places for r in rows)]
    signals = [s for s in signals if s not in zero]
    marks = _bundle_marks(pipe) if hasattr(model, "bundles") else None
    corpus = dataset.corpus  # a title that is a label (an event type) with its first line
    titles = [display_title(corpus, corpus[r["doc"]]) for r in rows]
    # a file's title is its path, the id already shown (codeledger's): no second copy
    titled = any(t != r["id"] for t, r in zip(titles, rows, strict=True))
    judged = bool((dataset.qrels or {}).get(dataset.queries[0].id))
    header = ["rank", "id", *(["title"] if titled else []), "score",
              *(["rel"] if judged or any(r["relevance"] is not None for r in rows) else []),
              *(["bundle"] if marks else []), *signals]
    whole_signals = {s for s in signals if whole and all(
        float(r["contributions"][s]).is_integer() for r in rows)}

    def table(title_width: int) -> list[list[Any]]:
        return [[r["rank"], r["id"], *([_clip(t, title_width)] if titled else []),
                 f"{r['score']:.{places}f}",
                 *(["" if r["relevance"] is None else r["relevance"]] if "rel" in header
                   else []),
                 *([marks.get(r["doc"], "")] if marks else []),
                 *(f"{r['contributions'][s] + 0.0:.0f}" if s in whole_signals
                   else _fixed(r["contributions"][s], term_places) for s in signals)]
                for r, t in zip(rows, titles, strict=True)]
    # at a narrow terminal the titles are clipped shorter, then the signals that add least
    # to these rows (by each one's largest |contribution|; of two alike, the later column)
    # left out first, and named (dr7 9); to a file or a pipe, the whole table (dr1 4)
    least = sorted(signals, key=lambda s: (max(abs(r["contributions"][s]) for r in rows),
                                           -signals.index(s)))
    width = table_width()
    fitted = _fitted_table(header, table, least, width)
    print(fitted.text)
    if zero:
        say(f"0 in every row above, so not shown: {', '.join(zero)} (--format json has them)")
    tied = _clamp_tie_note(pipe, rows)
    if tied:
        say(tied)
    if fitted.left_out:
        left = [s for s in signals if s in fitted.left_out]
        said = ([f"{', '.join(left)} (adding little to these rows)"] if left else [])
        if "title" in fitted.left_out:
            said.insert(0, "the titles")
        say(f"not shown, to fit {width} columns: {', '.join(said)}; COLUMNS={fitted.whole} or "
            "--format json shows them")
    if marks:
        taken = sum(1 for m in marks.values() if m == "in")
        above = sum(1 for r in rows if marks.get(r["doc"]) == "in")
        say(f"bundle: {model.id} hands the agent {taken} file{'' if taken == 1 else 's'}, "
            f"those marked in ({above} of them above)"
            + ("; those marked skipped did not fit its token budget" if "skipped" in
               marks.values() else "") + "; `workbench explain` says why, file by file")
    if shown is not None:
        print("\nsnippets:")
        for r in rows:  # at the table's width, where it has one (dr1 13)
            line = f"{r['rank']:>4}  {r['snippet']}"
            print(line if width is None or display_width(line) <= width else textwrap.fill(
                line, width, subsequent_indent=" " * 6, break_long_words=False,
                break_on_hyphens=False))
        if shown.block:
            print("\nthe memory block the agent receives:\n" + shown.block)
    return EXIT_OK


def _model_scores(pipe: Any, data: Any, params: Any) -> Any:
    """float64: the scores the score column's decimals are chosen over, as the window chooses
    them (`score_decimals`' `every`): every pair's score of the query ranked and, where these
    are all whole numbers no larger than 1 (a query of decision-memory matching one token, or
    none), of every query of the data as well, since whether a model's scores are whole is the
    model's, not one query's (the window reads its whole result). Only then is the data run."""
    total = np.asarray(pipe.run(metric_names=(), depth=1).scores.total, np.float64)
    finite = total[np.isfinite(total)]
    if (not finite.size or (finite != np.round(finite)).any() or np.abs(finite).max() > 1
            or len(data.queries) < 2):
        return total
    from workbench.core.pipeline import Pipeline

    more = Pipeline(pipe.model, data, params).run(metric_names=(), depth=1).scores.total
    return np.concatenate([total, np.asarray(more, np.float64)])


def _clamp_tie_note(pipe: Any, rows: list[dict[str, Any]]) -> str:
    """Where a row shown scores 1 and two or more results of the query score 1, one of them
    clamped to it, what orders them: the model's order as shown, the metrics' on a judged
    query (trec_eval's, naming the one it puts first: rv2 1), and the original system's
    (`clamp_tie_original`; "" for a model without one): the order is no score's (rv52 9). The
    tie is counted among every result, not the rows shown: with --top 1 it picks the one
    shown from all of them (dr7 3)."""
    shown = sum(1 for r in rows if float(r["score"]) == 1.0)
    if not tie_order(pipe.model) or not shown:
        return ""
    scores = pipe.run(metric_names=(), depth=len(rows)).scores
    at_one = tied_at_one(scores, 0)
    if not len(at_one):
        return ""
    ids = pipe.dataset.corpus.ids
    # trec_eval's first of them: the greatest id in code-point order (`metrics.name_ranks`)
    judged = bool((pipe.dataset.qrels or {}).get(pipe.dataset.queries[0].id))
    first = max(ids[int(d)] for d in scores.docs[at_one]) if judged else None
    if shown == len(at_one):
        return f"{shown} results tied at 1 (clamped): {shown_order(pipe.model, first)}"
    order = shown_order(pipe.model, first, "they are ordered")  # not "shown: shown by"
    return f"{shown} of {len(at_one)} results tied at 1 (clamped) shown; {order}"


TITLE_WIDEST = 40  # a title clipped to this, and where the table is too wide to its width
TITLE_NARROWEST = 20  # clipped no shorter while a signal fits beside it


@dataclasses.dataclass(frozen=True)
class Fitted:
    """A table as printed: `left_out` the columns not shown to fit (signals, "title"),
    `whole` the columns that every one needs (for the note's COLUMNS=)."""

    text: str
    left_out: tuple[str, ...] = ()
    whole: int = 0


def _fitted_table(header: list[str], table: Callable[[int], list[list[Any]]],
                  optional: list[str], width: int | None) -> Fitted:
    """`format_table` of `table(title width)` with titles clipped to TITLE_WIDEST, where it
    is wider than `width` (`textout.text_width` without a terminal: as the notes under it
    wrap) with each long name (test_relevance) over two header lines, "test_" above
    "relevance": codeledger's had been 250 columns wide (dr4 10). Where `width` is a
    terminal's (`textout.table_width`, not None) and the split table is still too wide (at 80
    columns codeledger's had been 135 wide, dr7 9), its titles are clipped to the widest that
    fits, no shorter than TITLE_NARROWEST, then the `optional` columns left out, the first
    first, as few as make it fit, and then any of them that fit again put back (dr1 12). Where
    even one signal does not fit beside a title, the title column is left out instead, and
    where nothing fits, the whole table is printed (dr1 5: all of vault-search's signals had
    been left out, the table still too wide)."""
    if width is None:
        return Fitted(_table_within(header, table(TITLE_WIDEST), text_width()))
    whole = _table_within(header, table(TITLE_WIDEST), width)
    if _widest(whole) <= width:
        return Fitted(whole)

    def fit(shown: list[str], titled: bool) -> str | None:
        keep = [i for i, name in enumerate(header)
                if (name in shown or name not in optional) and (titled or name != "title")]
        narrowest = TITLE_NARROWEST if titled and "title" in header else TITLE_WIDEST
        for title_width in range(TITLE_WIDEST, narrowest - 1, -1):
            text = _table_within([header[i] for i in keep],
                                 [[row[i] for i in keep] for row in table(title_width)], width)
            if _widest(text) <= width:
                return text
        return None

    for titled in ((True, False) if "title" in header else (True,)):
        for count in range(max(len(optional), 1)):  # at least one signal shown, where any
            shown = optional[count:]
            if fit(shown, titled) is None:
                continue
            for signal in reversed(optional[:count]):  # the larger first: back where it fits
                if fit([signal, *shown], titled) is not None:
                    shown.append(signal)
            text = fit(shown, titled)
            assert text is not None
            return Fitted(text, tuple(s for s in optional if s not in shown)
                          + (() if titled else ("title",)),
                          _widest(_table_within(header, table(TITLE_WIDEST), 0)))
    return Fitted(whole)


def _table_within(header: list[str], table: list[list[Any]], width: int) -> str:
    text = format_table(header, table)
    if _widest(text) <= width:
        return text
    split = [h.partition("_") if "_" in h and len(h) > 8 else ("", "", h) for h in header]
    lines = format_table([bottom for _, _, bottom in split], table).splitlines()
    widths = [len(dashes) for dashes in lines[1].split("  ")]
    top = "  ".join((head + sep).ljust(w) for (head, sep, _), w in zip(split, widths,
                                                                        strict=True))
    return "\n".join([top.rstrip(), *lines]) if top.strip() else "\n".join(lines)


def _widest(text: str) -> int:
    return max(display_width(line) for line in text.splitlines())


def _why_none(pipe: Any) -> str:
    """Why the first query has no result, as the model says it (vault-search: no line holds
    the phrase), else what can have happened."""
    model = pipe.model
    why = model.not_a_candidate(pipe.prepared, pipe.dataset, 0, None, pipe.params)
    # the min score only where the model has one (importance has none; dense's is its min
    # similarity)
    floor = any(part in p.name.lower() for p in model.schema
                for part in ("min_score", "min_similarity", "minscore"))
    return str(why or "every candidate scored 0" + (
        ", was gated, or fell below the min score" if floor else " or was gated"))


def _shown(pipe: Any) -> Any:
    """The first query's results as the source system shows them (snippets, memory block),
    for a model that has them (decision-memory), else None."""
    views = getattr(pipe.model, "injections", None)
    return None if views is None else views(pipe.prepared, pipe.dataset, pipe.params)[0]


def cmd_explain(args: argparse.Namespace) -> int:
    _data_or_repo(args)
    dataset = one_query(args, load_data(args))
    model, params = model_and_params(args)
    pipe = pipeline(model, dataset, params, f"preparing {model.id}")
    say_fitted(pipe.model, pipe.dataset)
    _say_situation(pipe, typed=args.query is not None and dataset.queries.name == TYPED)
    if args.format == "json":
        out = _explain_json(pipe, args.top)
        named = _named_docs(args, dataset, {r["id"] for r in out["results"]})
        if named:
            out["beyond_top"] = [_beyond_json(pipe, row) for row in _rows_of(pipe, named)]
        print(json.dumps(out, indent=2, ensure_ascii=False, default=_jsonable))
        return EXIT_OK
    _named_docs(args, dataset, set())  # a wrong --doc or --relevant said before any output
    bundles = hasattr(model, "near_misses")
    if bundles:  # a bundle-selecting model: CodeLedger's explain
        from workbench.cli.bundles import print_bundle_explain

        shown = print_bundle_explain(pipe, args.top)
    else:
        rows = _ranked_rows(pipe, args.top)
        shown = {r["id"] for r in rows}
        q = dataset.queries[0]
        print(f"query: {q.text}")
        from workbench.core.params import value_text

        changed = model.schema.changed(params)
        print(f"model: {model.id}; changed parameters: "
              + (" ".join(f"{k}={value_text(v)}" for k, v in changed.items())
                 or "none (defaults)"))
        for r in rows:
            _print_explained(pipe, r)
        if not rows:
            say("\nno result: " + _why_none(pipe))
            search = getattr(model, "explain_search", None)
            if search is not None:  # the query's settings, as a result would carry them
                found = search(pipe.prepared, 0, pipe.params)
                for text in explain_lines({k: _readable(v) for k, v in found.items()}):
                    print("    " + text)
    named = _named_docs(args, dataset, shown)
    if named:
        print(f"\n— {_named_heading(args, dataset, named, shown)}, by rank:")
        for row in _rows_of(pipe, named):
            if isinstance(row, dict):
                if bundles:
                    _print_file_line(pipe, row)
                else:
                    _print_explained(pipe, row)
                continue
            line, d = row
            print("\n" + line)
            if d is not None:  # gated: what it would have scored, and why
                details = model.explain(pipe.prepared, dataset, 0, d, pipe.params)
                # read as the results above are (rv51 4: Python's reprs, the bonuses cut)
                idle = model.idle_signals(pipe.prepared, pipe.params)
                for text in explain_lines({k: _readable(v) for k, v in details.items()},
                                          idle):
                    print("    " + text)
    shown = _shown(pipe)
    if shown is not None and shown.block:
        print("\nthe memory block the agent receives:\n" + shown.block)
    if hasattr(model, "near_misses"):
        return EXIT_OK
    gated = _gated_summary(pipe)
    if gated:
        say("\nzeroed by a gate: " + ", ".join(f"{g} ×{n}" for g, n in gated.items()))
    return EXIT_OK


def _print_explained(pipe: Any, r: dict[str, Any]) -> None:
    rel = "" if r["relevance"] is None else f"   judged {r['relevance']}"
    title = display_title(pipe.dataset.corpus, pipe.dataset.corpus[r["doc"]])
    print(f"\n#{r['rank']}  {r['id']}  {title}{rel}")
    idle = pipe.model.idle_signals(pipe.prepared, pipe.params)  # 0 for every pair
    summed = " + ".join(f"{name} {value:.6g}" for name, value in r["contributions"].items()
                        if name not in idle)
    details = pipe.model.explain(pipe.prepared, pipe.dataset, 0, r["doc"], pipe.params)
    formula = details.pop("formula", None)  # a model's own form of the score (a product)
    if formula:
        print(f"    score {r['score']:.6g} = {formula}")
        print(f"    as contributions (the bars; they add up to it): {summed}")
    else:
        print(f"    score {r['score']:.6g} = {summed}")
    for line in explain_lines({k: _readable(v) for k, v in details.items()}, idle):
        print("    " + line)


def _readable(value: Any, nested: bool = False) -> Any:
    """A breakdown value as a reader reads it: a table of names kept a table (`explain_lines`
    prints it whole, `name=value, …`; within a record, so joined here), a list joined by
    commas, true/false, a value that is absent as "none" (Python's {'a': 1.0}, ['a'], False and
    None leaked into the text)."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        table = {k: _readable(v, True) for k, v in value.items()}
        if not nested:
            return table
        return ", ".join(f"{k}={v}" for k, v in table.items()) or "none"
    if isinstance(value, list | tuple):  # records stay records, one line each; a plain list
        if value and all(isinstance(v, dict) for v in value):  # joined, as a dict is
            return [{k: _readable(v, True) for k, v in item.items()} for item in value]
        return ", ".join(str(_readable(v, True)) for v in value) or "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    return value


def _print_file_line(pipe: Any, r: dict[str, Any]) -> None:
    """A ranked file of a bundle model, as its explain lists files: rank, score, stages and
    the signals that moved it."""
    info = pipe.model.explain(pipe.prepared, pipe.dataset, 0, r["doc"], pipe.params)
    rel = "" if r["relevance"] is None else f"   judged {r['relevance']}"
    print(f"\n#{r['rank']}  {r['id']}  score {r['score']:.4f}{rel}")
    print(f"    stages: {', '.join(info.get('stages', [])) or '-'}")
    parts = [f"{name} {v:+.4f}" for name, v in r["contributions"].items() if abs(v) > 5e-5]
    print("    " + (" ".join(parts) if parts else "all signals 0"))
    if info.get("why"):
        say(f"    {info['why']}")


def _named_heading(args: argparse.Namespace, dataset: Any, named: list[str],
                   shown: set[str]) -> str:
    """What the documents after the results are: "3 judged relevant, not among the 5
    above", "1 named with --doc", or both ("1 named with --doc and 2 judged relevant …")."""
    where = f", not among the {len(shown)} above" if shown else ""
    asked = [d for d in named if d in args.doc]
    judged = len(named) - len(asked)
    parts = ([f"{len(asked)} named with --doc"] if asked else []) + (
        [f"{judged} judged relevant"] if judged else [])
    return f"{' and '.join(parts)}{where}"


def _named_docs(args: argparse.Namespace, dataset: Any, shown: set[str]) -> list[str]:
    """--doc's ids and, with --relevant, the judged-relevant ones, less those shown; an id
    the corpus does not hold is a UsageError."""
    for doc_id in args.doc:
        if dataset.corpus.get(doc_id) is None:
            raise UsageError(f"--doc {doc_id}: no document with this id in {dataset.name}")
    wanted = list(args.doc)
    if args.relevant:
        qrels = (dataset.qrels or {}).get(dataset.queries[0].id)
        if not qrels:
            raise UsageError("--relevant: this query has no judgments (give --query-id of a "
                             "judged query)")
        wanted += [d for d, grade in qrels.items() if grade > 0
                   and dataset.corpus.get(d) is not None]
    return [d for d in dict.fromkeys(wanted) if d not in shown]


def _rows_of(pipe: Any, doc_ids: list[str]) -> list[dict[str, Any] | tuple[str, int | None]]:
    """Each document's row (its rank among every result), or a line saying why it has none
    with the document to explain where it has a breakdown: zeroed by a gate (its index), or
    no candidate of the query at all (None)."""
    result = pipe.run(metric_names=(), depth=len(pipe.dataset.corpus), select=False)
    contrib = engine.contributions_at(result.scores, result.ranking)
    corpus = pipe.dataset.corpus
    qrels = (pipe.dataset.qrels or {}).get(pipe.dataset.queries[0].id, {})
    ranked = {int(result.ranking.docs[0, j]): j for j in range(int(result.ranking.count[0]))}
    scores = result.scores
    row = scores.row(0)
    gates = {int(d): int(g) for d, g in zip(scores.docs[row], scores.gate[row], strict=True)}
    out: list[dict[str, Any] | tuple[str, int | None]] = []
    for doc_id in doc_ids:
        d = corpus.index[doc_id]
        doc = corpus[d]
        judged = "" if doc_id not in qrels else f" (judged {qrels[doc_id]})"
        j = ranked.get(d)
        if j is not None:
            out.append({"rank": j + 1, "id": doc.id, "title": doc.title,
                        "score": float(result.ranking.scores[0, j]),
                        "relevance": qrels.get(doc.id),
                        "contributions": {s: float(contrib[i, 0, j])
                                          for i, s in enumerate(scores.signals)}, "doc": d})
        elif gates.get(d, 0):
            out.append((f"{doc_id}{judged}: not ranked — zeroed by the gate "
                        f"{scores.gates[gates[d] - 1]!r}", d))
        else:
            why = pipe.model.not_a_candidate(pipe.prepared, pipe.dataset, 0, d, pipe.params) \
                or "the model scores it nothing: for a lexical model, no query term in it"
            out.append((f"{doc_id}{judged}: not ranked — no candidate of this query ({why})",
                        None))
    # by rank, then those not ranked in the order asked
    return sorted(out, key=lambda r: r["rank"] if isinstance(r, dict) else 1 << 62)


def _beyond_json(pipe: Any, row: dict[str, Any] | tuple[str, int | None]) -> dict[str, Any]:
    if isinstance(row, dict):
        row = dict(row)
        row["breakdown"] = pipe.model.explain(pipe.prepared, pipe.dataset, 0, row.pop("doc"),
                                              pipe.params)
        return row
    line, d = row
    doc_id, _, why = line.partition(": not ranked — ")
    out: dict[str, Any] = {"id": doc_id.split(" (judged")[0], "rank": None, "why": why}
    if d is not None:
        out["breakdown"] = pipe.model.explain(pipe.prepared, pipe.dataset, 0, d, pipe.params)
    return out


def _explain_json(pipe: Any, top: int) -> dict[str, Any]:
    """What `explain` prints, as data: the query, the model and its values, and per result
    its rank, id, title, score, judgment, contributions and the model's breakdown."""
    bundle = _bundle_json(pipe) if hasattr(pipe.model, "near_misses") else None
    # a bundle-selecting model: at least its whole bundle and the files it skipped, as the
    # text shows them (rv2 7: the JSON had 5 of a bundle of 15)
    rows = _ranked_rows(pipe, max(top, bundle["reach"]) if bundle else top)
    for r in rows:
        r["breakdown"] = pipe.model.explain(pipe.prepared, pipe.dataset, 0, r.pop("doc"),
                                            pipe.params)
    out: dict[str, Any] = {"query_id": pipe.dataset.queries[0].id,
                           "query": pipe.dataset.queries[0].text, "model": pipe.model.id,
                           "params": pipe.params, "results": rows}
    if bundle:
        out["bundle"] = bundle
    gated = _gated_summary(pipe)
    if gated:
        out["gated"] = gated
    return out


def _say_situation(pipe: Any, typed: bool) -> None:
    """On stderr, what the model took for the query's situation where it was not given: the
    clock it ages by (rm 5: `rank FILE` aged by the newest timestamp in the corpus and said
    nothing, while the folder said the now its queries share), and for hybrid on OpenVault
    memories a typed query's chat (rm 3: none, so distance 0 and every memory at its full
    base, while the breakdown said forgetting_curve: true)."""
    for note in (_clock_note(pipe, typed), _chat_note(pipe, typed)):
        if note:
            say(note, file=sys.stderr)


def _clock_note(pipe: Any, typed: bool) -> str | None:
    """The clock of a query with no now of its own, where no `now` parameter is set either:
    the newest timestamp in the corpus, as the model takes it. None where the clock is given
    or nothing is dated, and where the query's now is unreadable: the model's data warning
    says that and the clock."""
    import math

    from workbench.core.models.clock import when
    from workbench.core.models.decision_memory.project import parse_time

    if pipe.model.id not in ("importance", "decision-memory"):
        return None
    query = pipe.dataset.queries[0]
    own = query.context.get("now")
    if not math.isnan(parse_time(own)) or not math.isnan(parse_time(str(pipe.params["now"]))):
        return None
    if own not in (None, ""):  # given but unreadable: the model's data warning said it, and
        return None            # the clock it fell back on (dr4 8: said twice)
    if pipe.model.id == "importance":
        from workbench.core.models.importance.prepared import default_clock_source

        ms, whence = default_clock_source(pipe.dataset, pipe.params)
    else:
        from workbench.core.models.decision_memory.queries import default_now, record_of

        ms = default_now(pipe.params, [record_of(d) for d in pipe.dataset.corpus])
        newest = next((d.id for d in pipe.dataset.corpus
                       if parse_time(d.metadata.get("createdAt")) == ms), "")
        whence = f"the newest createdAt in the corpus, decision {newest!r}"
    if math.isnan(ms):  # nothing dated: no age to count
        return None
    who = "the typed query" if typed else f"query {query.id!r}"
    lacks = "no now"
    how = ("--context now=DATE (ISO 8601) sets it" if typed
           else "a now in the query file, or -p now=DATE (ISO 8601), sets it")
    return f"note: {who} has {lacks}: it is scored as of {when(ms)}, {whence}; {how}"


def _chat_note(pipe: Any, typed: bool) -> str | None:
    """For hybrid, a typed query with no chat length on OpenVault memories: the forgetting
    curve counts from a chat of 0 messages, every memory at distance 0 and its full base."""
    if not typed or pipe.model.id != "hybrid":
        return None
    prep = pipe.prepared
    if bool(prep.chat[0]) or not bool(prep.memory.any()):
        return None
    return ("note: the typed query has no chat, so its chat length is 0: every memory is at "
            "distance 0 and its base is its full importance (the forgetting curve takes "
            "nothing off); --context chatLength=N scores it as a chat N messages long, as a "
            "contexts file's chatLength")


def _bundle_json(pipe: Any) -> dict[str, Any]:
    """The first task's bundle as `explain`'s text gives it: its files in rank order, what
    they cost against the budget, the files skipped for the budget, how deep the stop rule
    read (`reach`: the bundle and the skipped ones) and why it stopped."""
    from workbench.core.engine import top_k
    from workbench.core.models.codeledger.bundle import budget
    from workbench.core.models.codeledger.explain import full_bundles

    prep, params, ds = pipe.prepared, pipe.params, pipe.dataset
    scores, bund = full_bundles(prep, params)
    ranking = top_k(scores, int(np.diff(scores.row_ptr).max(initial=0)))
    tokens, files = budget(params)
    reach, count = int(bund.reach[0]), int(ranking.count[0])
    # the first file past the reach, where it stopped the bundle by not fitting (the budget
    # or max_files), as the text names it after "stopped:" (dr2 7: the JSON did not name
    # it); none where the bundle stopped on sufficiency, a rule of the files taken, not of
    # the next one (dr8 7: its file had been given, its tokens read as the reason), or where
    # every candidate was read
    stopped_at = ({"rank": reach + 1, "id": ds.corpus[int(ranking.docs[0, reach])].id,
                   "tokens": float(prep.cost[int(ranking.pair[0, reach])])}
                  if reach < count and bund.stop[0] in ("token_budget", "file_limit")
                  else None)
    return {"files": [ds.corpus[int(d)].id for d in bund.files(0)],
            "size": int(bund.size[0]), "tokens": float(bund.tokens[0]),
            "max_files": files, "token_budget": tokens,
            "candidates": count, "reach": reach,
            "stop": bund.stop[0], "stopped_at": stopped_at, "confidence": bund.confidence[0],
            "skipped": [{"rank": r + 1, "id": ds.corpus[int(ranking.docs[0, r])].id,
                         "tokens": float(prep.cost[int(ranking.pair[0, r])])}
                        for r in sorted(bund.skipped_ranks(0))]}


def _jsonable(value: Any) -> Any:
    """numpy numbers and arrays, tuples and sets in a model's breakdown, as JSON has them."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    return str(value)


def _gated_summary(pipe: Any) -> dict[str, int]:
    scores = pipe.model.combine(pipe.prepared, pipe.params)
    counts = np.bincount(scores.gate[scores.docs >= 0].ravel().astype(np.int64),
                         minlength=len(scores.gates) + 1)
    return {g: int(counts[i + 1]) for i, g in enumerate(scores.gates) if counts[i + 1]}


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"



