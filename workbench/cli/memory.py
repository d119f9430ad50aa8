"""CLI subcommands for agent-memory systems: `why`, `why-stats` (pi-lodestone's injection
diagnostics, over a log or live over the current parameters) and `export` (the parameters in
the target system's own terms)."""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from pathlib import Path
from typing import Any

from workbench.cli.args import whole
from workbench.cli.common import UsageError, add_model, load_data, model_and_params, pipeline
from workbench.core.diagnostics import (
    InjectionStats,
    clamp_last,
    injection_stats,
    live_injection,
    turns_from_log,
    turns_text,
    verdict_line,
)
from workbench.core.models import get_model
from workbench.core.params import value_text
from workbench.textout import format_table, p_equals, say, wrap


def cmd_why(args: argparse.Namespace) -> int:
    """The last injections of a log: what each turn got, and why (scores)."""
    log = _log(args.log)
    records = list(log.records)[-max(1, args.last):]
    _warn_kept(log, {r.line for r in records})
    if not records:
        print(f"{args.log}: no injection records")
        return 0
    folder = Path(log.path).parent
    # explain replays the turns of the folder's own injections.jsonl, its ids that file's line
    # numbers: another log there (a rotated injections.1.jsonl) would name other turns
    beside = (folder / "decisions.jsonl").is_file()
    own = folder / "injections.jsonl"
    replayable = beside and own.is_file() and own.samefile(log.path)
    for r in records:
        preview = r.prompt_preview if r.prompt_preview else "(no prompt preview logged)"
        print(f"{r.ts}  {r.cwd}  project {r.project or '-'}")
        print(f"  prompt: {preview}  ({r.prompt_char_count} characters)")
        print(f"  min score {r.min_score:g}, limit {r.limit}"
              + (", global" if r.global_inject else ""))
        if r.prompt_preview and replayable:
            print(f"  why, signal by signal: workbench explain {shlex.quote(str(folder))} "
                  f"-m decision-memory --query-id turn-{r.line}")
        if not r.results:
            # REFERENCE §1: a prompt under 8 characters is not searched
            print("  injected nothing: " + (
                "the prompt is under 8 characters, so nothing was searched"
                if 0 <= r.prompt_char_count < 8 else
                "no decision reached the min score (or the prompt, cleaned, was under 8 "
                "characters, or its compact query under 3)") + "\n")
            continue
        rows = [[i + 1, m.id, m.title[:48], m.source, f"{m.score:g}", m.snippet_length]
                for i, m in enumerate(r.results)]
        print(format_table(["#", "id", "title", "source", "score", "snippet chars"], rows,
                           indent="  "))
        print()
    if log.n_skipped:
        print(f"({_skipped_text(log)})")
    if beside and not replayable and any(r.prompt_preview for r in records):
        # where the folder has no injections.jsonl, explain there replays none (it had named
        # a file that was not there)
        where = (f"`workbench explain {shlex.quote(str(folder))} -m decision-memory --query-id "
                 f"turn-N` replays the turns of {own} (N is a line of that file), not those "
                 f"of {log.path}" if own.is_file() else
                 f"`workbench explain` replays the turns of a folder's injections.jsonl, and "
                 f"{folder} has none")
        say(f"note: {where}; to replay these, give this log the name injections.jsonl in a "
            "folder with a copy of decisions.jsonl", file=sys.stderr)
    return 0


def _skipped_text(log: Any) -> str:
    """"2 corrupt line(s) skipped, the first FILE:7: invalid JSON (…)"."""
    line, why = log.skipped[0]
    return f"{log.n_skipped} corrupt line(s) skipped, the first {log.path}:{line}: {why}"


def _warn_kept(log: Any, lines: set[int]) -> None:
    """On stderr, the records shown that were read despite a flaw (bytes not UTF-8, a lone
    surrogate escape), as pi-lodestone reads them."""
    kept = [(line, why) for line, why in log.kept if line in lines]
    if kept:
        line, why = kept[0]
        more = f" (and {len(kept) - 1} more line(s) so read)" if len(kept) > 1 else ""
        say(f"warning: {log.path}:{line}: {why}{more}", file=sys.stderr)


def _warn_undated(log: Any) -> None:
    """On stderr, the records whose `ts` is no date, left out of the time span (ra 8: "…
    yesterday" had been its end, unsaid)."""
    from workbench.core.diagnostics import is_date

    undated = [r for r in log.records if not is_date(r.ts)]
    if undated:
        more = (f" (and {len(undated) - 1} more line(s) with no date)" if len(undated) > 1
                else "")
        say(f"warning: {log.path}:{undated[0].line}: field 'ts': not an ISO date: "
            f"{undated[0].ts!r}: that turn is left out of the time span{more}",
            file=sys.stderr)


def _log(path: str) -> Any:
    """The injections log; a file none of whose lines is an injection record (a corpus, a
    chat) is a usage error naming its first line, not a table of zeros."""
    from workbench.core.formats.pi_memory import INJECTIONS_FILE
    from workbench.core.formats.pi_memory_injections import read_injections

    folder = Path(path)
    if folder.is_dir():  # a pi-memory folder: its log
        if not (folder / INJECTIONS_FILE).is_file():
            raise UsageError(f"{path}: a folder without {INJECTIONS_FILE}; give the log file")
        path = str(folder / INJECTIONS_FILE)
    log = read_injections(path)
    if not log.records and log.skipped:
        line, why = log.skipped[0]
        raise UsageError(f"{path}: not an injections log: none of its {log.n_skipped} lines "
                         f"is an injection record (line {line}: {why})")
    return log


def cmd_why_stats(args: argparse.Namespace) -> int:
    """why-stats over a log, or (--live) over what the current parameters would inject."""
    emptied: int | None = None  # known only where the scores before the min score are
    searches = False  # every turn a manual search: nothing is injected (dr5 9)
    if args.live:
        stats, emptied, what, searches = _live_stats(args)
    else:
        # the last n lines, as pi-lodestone reads them: corrupt ones among them count
        n = clamp_last(args.last)
        from workbench.core.formats.pi_memory_injections import read_injections

        log = read_injections(_log(args.log).path, last=n)
        _warn_kept(log, {r.line for r in log.records})
        _warn_undated(log)
        stats = injection_stats(turns_from_log(log.records, n))
        raised = ("" if args.last is None or n == args.last else
                  f"--last {args.last} raised to pi-lodestone's minimum, {n}" if n > args.last
                  else f"--last {args.last} lowered to pi-lodestone's maximum, {n}")
        what = f"{args.log}: last {turns_text(stats.turns)}" + (
            f" ({raised}{'; ' if raised else ''}of its last {n} lines: {_skipped_text(log)})"
            if log.n_skipped else f" ({raised})" if raised else "")
    say(what)
    if not stats.turns:
        say("no turns to count: " + (
            "every query is left out (above)" if args.live else
            f"none of its last {clamp_last(args.last)} lines is a readable record (a larger "
            "--last reads further back)" if log.n_skipped else "the log holds no injection"))
        return 0
    # a ranking of matches only (a model that injects nothing) returns no score-0 results
    injects = not args.live or hasattr(get_model(args.model), "injections")
    print(format_stats(stats, emptied, injects, searches))
    return 0


def _live_stats(args: argparse.Namespace) -> tuple[InjectionStats, int, str, bool]:
    dataset = load_data(args)  # a memory folder without queries: eval's usage error
    if not len(dataset.queries):  # any other data without queries: the same (rv51 5)
        raise UsageError(f"{args.data}: no queries; `workbench why-stats --live` has no query "
                         "to run: give --queries FILE (a JSONL or CSV of prompts: id, text, "
                         "and cwd, now … as context)")
    model, params = model_and_params(args)
    pipe = pipeline(model, dataset, params, f"preparing {model.id}")
    depth = int(params.get("inject_limit", 10))  # a model with no limit: its first 10
    result = pipe.run((), depth=depth)
    # each turn held to its own query's min score and limit: the model's selection, else (a
    # model that gates per query, decision-memory in its default mode) the query's own
    # context's (an eval case's topK) or its mode's settings
    live = live_injection(model, pipe.params, dataset, result, pipe.prepared, depth)
    turns = live.turns
    changed = model.schema.changed(pipe.params)
    at = (f" with {', '.join(f'{k}={value_text(v)}' for k, v in changed.items())}" if changed else
          " at default parameters")
    if hasattr(model, "injections"):
        n = len(turns)
        queries = f"{n} quer{'y' if n == 1 else 'ies'}"
        # the headline says what the figures are of: a search injects nothing, and with no
        # turn left it says so (rv2 10: "would inject for 5 queries" above "none is injected")
        what = (f"{dataset.name}: what {model.id}'s searches return for {queries}{at}"
                if live.left_out.searches_only else
                f"{dataset.name}: 0 of {len(dataset.queries)} queries are injection turns{at}"
                if not n else f"{dataset.name}: what {model.id} would inject for {queries}{at}")
        # the queries that are no turn (a manual search, a disabled project's): said, as the
        # Injection tab says them (rv51 3, 6)
        lines = live.left_out.lines()
    else:  # a ranking, read as an injection source: what the figures are
        limit = turns[0].limit if turns else depth
        what = (f"{dataset.name}: {model.id}'s top {limit} of each of the {len(turns)} "
                f"queries{at}, as if they were injected ({model.id} injects nothing itself; "
                "snippet lengths as pi-lodestone cuts them)")
        lines = []
    # a setting these turns do not take (an eval case's own topK replaces the inject limit):
    # said, as tune says it, so that its value is not read as the one the figures are for
    # the headline's, and any other the user set (dr7 5: -p mode=injection -p search_limit=2
    # echoed search_limit in the header and said nothing of it applying to no turn)
    inert = model.inert_params(pipe.prepared, pipe.params)
    named = [*model.headline, *(n for n in changed if n not in model.headline)]
    lines = _inert_notes([n for n in named if n in inert], inert, pipe.params, lines,
                         live.left_out.searches_only)
    return (injection_stats(turns), live.emptied, what + "".join(f"\nnote: {x}" for x in lines),
            live.left_out.searches_only)


def _inert_notes(names: list[str], inert: dict[str, str], params: Any, lines: list[str],
                 searches_only: bool) -> list[str]:
    """`lines` (what is left out), and a line per reason for the settings these turns do not
    take, those with one reason named together (dr5 9: one reason had been said three
    times); where every query is a search, the injection settings join the line that says
    so."""
    from workbench.core.models.decision_memory.params import FORCED_SEARCH, NO_INJECTION

    by_reason: dict[str, list[str]] = {}
    for name in names:
        by_reason.setdefault(inert[name], []).append(f"{name}={value_text(params[name])}")
    out = list(lines)
    for why, said in by_reason.items():
        listed = " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)
        verb = "applies" if len(said) == 1 else "apply"
        searches = [i for i, x in enumerate(out) if x.startswith("every query is a manual")]
        if searches_only and why in (NO_INJECTION, FORCED_SEARCH) and searches:  # that says why
            out[searches[0]] += f", so {listed} {verb} to none of them"
        else:
            out.append(f"{listed} {verb} to none of these turns: {why}")
    return out


def _setting_text(last: float, lo: float, hi: float, none: str) -> str:
    """The last turn's min score or limit, and their range over the turns where they vary."""
    text = f"{last:g}" if last > 0 else none
    return text if lo == hi else f"{text} (turns: {lo:g}–{hi:g})"


def format_stats(st: InjectionStats, emptied: int | None = None,
                 returns_unmatched: bool = True, searches: bool = False) -> str:
    """The table, the most injected, the verdict. `emptied`: of the turns with no result,
    those whose best match scored below the min score (known live, not from a log).
    `searches`: every turn is a manual search, so its rows say returned, not injected (dr5 9:
    "most injected" had stood under "none is injected")."""
    rows: list[list[Any]] = [
        ["turns", st.turns],
        ["time span", f"{st.first_ts} … {st.last_ts}" if st.first_ts else
         "none: live turns are the queries, not logged turns" if emptied is not None
         else "-"],
        ["results per turn: mean / p50 / p95", f"{st.count_mean:.2f} / {st.count_p50:g} / "
                                               f"{st.count_p95:g}"],
        ["turns that hit the limit", f"{st.hit_limit_pct:.1f} %"],
        ["turns with no result", f"{st.zero_pct:.1f} %"],
        ["top score: avg / min / max (no result = 0)", f"{st.top_avg:.2f} / {st.top_min:.2f} / "
                                                       f"{st.top_max:.2f}"],
        [f"last {'' if searches else 'injected '}result's score: avg (no result = 0)",
         f"{st.tail_avg:.2f}"],
        [f"over the {turns_text(st.answered)} with a result: top / last avg",
         f"{st.top_avg_answered:.2f} / {st.tail_avg_answered:.2f}" if st.answered else "—"],
        ["min score / limit (last turn)",
         _setting_text(st.min_score, *st.min_score_range, "none (0)") + " / "
         + _setting_text(st.limit, *st.limit_range, "none")],
        ["mean snippet length", f"{st.snippet_mean:.1f} characters"],
        ["estimated tokens per search" if searches else "estimated tokens per turn",
         st.tokens_per_turn],
    ]
    out = format_table(["figure", "value"], rows)
    if st.most_injected:
        out += f"\n\nmost {'returned' if searches else 'injected'}:\n" + format_table(
            ["id", "times", "avg score"],
            [[rid, n, f"{avg:.2f}"] for rid, n, avg in st.most_injected], indent="  ")
    if st.turns:
        out += "\n\n" + wrap(verdict_line(st, emptied, returns_unmatched, searches))
    return out


def _held_out_worse(path: str, model_id: str, params: Any) -> list[str]:
    """What a `tune --out` file's own record says against shipping its values: its fields
    this workbench does not read (a note, as eval says them: dr5 4), and its run's verdict or,
    without one, that its values did worse held out than the values tune started from (a
    warning); none where it records nothing of the kind."""
    import math

    from workbench.core.tuned_on import read_tuned_on
    from workbench.core.tuning.objectives import direction

    record = read_tuned_on(path)
    notes = [f"note: {record.unread}"] if record is not None and record.unread else []
    if record is not None:
        record, _ = record.applies_to(model_id, params)
    if record is None:
        return notes
    start, tuned = record.held_default, record.held_tuned
    if not (record.held_n and record.metric and math.isfinite(start)
            and math.isfinite(tuned)):
        # no held-out figures of its own (a --folds 0 run that carried a verdict on): the
        # verdict all the same, as changes.json keeps it (dr6 6: one rule for both)
        return [*notes, f"warning: {Path(path).name!r}: {record.verdict_text()}; exported all "
                "the same"] if record.verdict else notes
    n = record.held_n
    p = f"{p_equals(record.p_value)}, " if math.isfinite(record.p_value) else ""
    if record.verdict:  # the run's own advice, with what it rests on (dr5 4)
        from workbench.core.tuning.data import one_of
        from workbench.core.tuning.verdict import is_inherited

        # the data's noun ("6 held-out tasks"), as eval and compare say it (dr7 3)
        held = f"{p}{n} held-out {one_of(record.noun) if n == 1 else record.noun}"
        if is_inherited(record.verdict):
            # the verdict's figures are an earlier run's; p and n are this file's run's, said
            # with its own figures, not with that run's (dr9 3)
            return [*notes, f"warning: {Path(path).name!r}: {record.verdict_text()}; the run "
                    f"that wrote it: held-out {record.metric} start {start:.4f}, tuned "
                    f"{tuned:.4f}, {held}; exported all the same"]
        return [*notes, f"warning: {Path(path).name!r}: {record.verdict_text()} ({held}); "
                "exported all the same"]  # one dash, the advice said once (dr7 4)
    lower = direction(record.metric) == "minimize"
    if (tuned >= start) if lower else (tuned <= start):
        if abs(tuned - start) <= 1e-12:
            return notes
        p = f", {p_equals(record.p_value)}" if math.isfinite(record.p_value) else ""
        from workbench.core.tuning.data import one_of

        return [*notes, f"warning: {path} records that these values did worse on the {n} "
                f"held-out {one_of(record.noun) if n == 1 else record.noun} than the values "
                "tune started from: "
                f"{record.metric} {tuned:.4f} against {start:.4f}{p} — exported all the same; "
                "the starting values may serve the agent better"]
    return notes


def _verdict_of(path: str, model_id: str, params: Any) -> str:
    """"FILE: not recommended by the run that tuned it — …" where `path`'s `[tuned]` record
    holds a verdict on these values of `model_id`; "" otherwise."""
    from workbench.core.tuned_on import read_tuned_on

    record = read_tuned_on(path)
    if record is not None:
        record, _ = record.applies_to(model_id, params)
    return f"{Path(path).name}: {record.verdict_text()}" if record and record.verdict else ""


def cmd_export(args: argparse.Namespace) -> int:
    """The parameters in the target system's own settings, and what changed from its
    defaults."""
    from workbench.core.export import export_params, exporter_ids, is_home, write_export

    if args.out == "-":  # a folder was made named "-"
        raise UsageError("--out -: export --out takes a folder for its files; leave --out out "
                         "to print them on standard output")
    model, params = model_and_params(args, encoder=False)  # export embeds nothing
    if model.id not in exporter_ids():
        raise UsageError(f"{model.id} has no system to write settings for (export writes "
                         f"those of {', '.join(exporter_ids())}): its values are a params TOML "
                         "file, as `tune --out` writes and every command's --params reads")
    export = export_params(model.id, params)
    if args.params:  # the run's advice against the values, in the record too (dr7 2)
        export = dataclasses.replace(export, verdict=_verdict_of(args.params, model.id, params))
    # the parameters set explicitly: over a config already there, only theirs are written
    given = {a.partition("=")[0].strip() for a in (args.param or [])}
    if args.params:
        from workbench.core.params import load_params_file

        given |= set(load_params_file(args.params))
    written: list[Path] = []
    update = None
    others: list[Any] = []
    home = bool(args.out) and is_home(export, args.out)  # the target's own data folder
    if args.out:  # written before the notes, so a refusal leaves no note saying "written to"
        from workbench.core.export import (
            PI_ENV,
            VS_ARGS,
            VS_ENV,
            plan_file_updates,
            plan_update,
        )

        try:
            update = plan_update(export, Path(args.out), given)
            others = [] if home else plan_file_updates(export, Path(args.out), given)
            written = write_export(export, Path(args.out), given)
        except ValueError as exc:  # about the folder itself: named as every writer names it
            said = str(exc)
            raise UsageError(f"--out {said}" if said.startswith(f"{Path(args.out)}: ")
                             else said) from None
        except OSError as exc:  # a read-only or full disk: nothing was written
            where = exc.filename or args.out  # the file refused, as config.json in a folder
            raise UsageError(f"--out {args.out}: cannot write {where} "
                             f"({exc.strerror or exc}); nothing was written") from None
    if args.params:  # the last step before the agent: a file that did worse held out, said
        for line in _held_out_worse(args.params, model.id, params):
            say(line, file=sys.stderr)
    if export.outside:
        say(f"warning: {export.outside_text()}", file=sys.stderr)
    unexpressed = [c.name for c in export.changed if c.setting is None]
    if unexpressed:
        # most are the workbench's own defaults, not the user's changes: say which is which
        theirs = [n for n in unexpressed if n in given]
        ours = [n for n in unexpressed if n not in given]
        say(f"note: {export.target} has no setting for "
            + "; ".join(t for t in (
                f"{', '.join(theirs)} (set here)" if theirs else "",
                f"{', '.join(ours)} (not set here: the {model.id} model's own defaults, "
                "which differ from the original's)" if ours else "") if t)
            + ": listed in the changes record ("
            + (f"written to {args.out}" if args.out and not home
               else "below" if home else "below; --out writes it as a file")
            + "), it takes a change to the original's code",
            file=sys.stderr)
    if args.out:
        for path in written:
            print(f"wrote {path}")
        if export.where:
            say(f"note: {export.where}", file=sys.stderr)
        if update:
            for line in _update_lines(update, export.sources, params):
                say(f"note: {export.config_path}: {line}", file=sys.stderr)
        by_var = {var: (name,) for name, var in {**PI_ENV, **VS_ENV, **VS_ARGS}.items()}
        for other in others:  # the variables' files there: merged, not replaced (ra 5)
            for line in _update_lines(other, by_var, params):
                say(f"note: {other.path.name}: {line}", file=sys.stderr)
        if home:  # its own folder: the rest is said, not written there
            mark = next(n for n in export.home if (Path(args.out) / n).exists())
            say(f"note: {args.out} holds {export.target.split()[0]}'s own data ({mark}): "
                + (f"only {export.config_path} was written there"
                   if written else "nothing was written there")
                + "; the rest is below, not left there as files it does not read",
                file=sys.stderr)
            env = export.env_text()
            if env:
                print(f"\nthe variables, for the environment {export.target.split()[0]} runs "
                      f"in:\n{env.rstrip()}", file=sys.stderr)
            print("\nchanged from the original's defaults:\n"
                  + export.changes_json(update.kept if update else ()).rstrip("\n"),
                  file=sys.stderr)
        return 0
    # stdout holds what the target reads and nothing else, in one format: pi-lodestone's and
    # obsidian-mcp's variables as a shell snippet (`eval "$(workbench export …)"` sets them),
    # their settings file or call arguments after them as comments (a JSON line run as a
    # command had tried to execute a disabled project's path); CodeLedger's config, or
    # OpenVault's part of SillyTavern's settings.json, alone. The record of changes goes with
    # the notes, to stderr
    env = export.env_text()
    settings = export.settings_json().rstrip("\n") if export.settings else ""
    if env:
        print(env.rstrip("\n"))
        if settings:
            where = (f"{export.config_path}, which --out writes" if export.config_path
                     else "arguments to pass with each call, not variables")
            print(f"\n# {where}:\n" + "\n".join(f"#   {line}" for line in settings.splitlines()))
    elif settings:
        if export.fragment:  # a part of a larger file: redirected over it, the rest is lost
            say(f"note: standard output is {export.fragment}: --out FOLDER merges it into "
                f"the {export.config_path} there (redirected over that file, it would "
                "replace the rest)", file=sys.stderr)
        elif export.config_path:  # the target's own file: named on stderr, so that
            # `> config.json` is the file itself
            say(f"note: standard output is {export.config_path}; --out FOLDER updates the "
                "one there", file=sys.stderr)
        print(settings)
    print("\nchanged from the original's defaults:\n" + export.changes_json().rstrip("\n"),
          file=sys.stderr)
    if export.where:
        say(f"note: {export.where}", file=sys.stderr)
    return 0


def _update_lines(update: Any, sources: Any, params: Any) -> list[str]:
    """What writing over the target's config did: the values written (set here), those of
    its own kept (not set here, though measured otherwise: how to write them) and the keys
    added. A value measured as None is an argument not passed (search_vault.args.json's
    minScore at 0): said so, and "null" never (dr1 6)."""
    import json

    def j(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    def hint(key: str) -> str:
        name = sources[key.rsplit(".", 1)[-1] if key not in sources else key][0]
        value = params[name]
        text = (("true" if value else "false") if isinstance(value, bool)
                else j(value) if not isinstance(value, str) else shlex.quote(value))
        return f"-p {name}={text}"

    def them(items: list[Any], one: str, many: str) -> str:
        return one if len(items) == 1 else many

    out = []
    wrote = [(key, old, new) for key, old, new in update.written if new is not None]
    if wrote:
        out.append("wrote " + ", ".join(
            f"{key} {j(old)} → {j(new)}" + (" (not an object: replaced whole)"
                                            if isinstance(new, dict) else "")
            for key, old, new in wrote) + " (set here)")
    took = [(key, old) for key, old, new in update.written if new is None]
    if took:
        out.append("took out " + ", ".join(f"{key} {j(old)}" for key, old in took)
                   + " (not passed, as measured)")
    other = [(key, old, new) for key, old, new in update.kept if new is not None]
    if other:
        out.append("kept its own " + ", ".join(f"{key} {j(old)}" for key, old, _ in other)
                   + " (not set here; the values measured were "
                   + ", ".join(j(new) for _, _, new in other)
                   + f": {' '.join(hint(key) for key, _, _ in other)} writes "
                   + them(other, "it", "them") + ")")
    unpassed = [(key, old) for key, old, new in update.kept if new is None]
    if unpassed:
        out.append("kept its own " + ", ".join(f"{key} {j(old)}" for key, old in unpassed)
                   + " (not set here; measured without "
                   + them(unpassed, "it", "them") + ", not passed: take "
                   + them(unpassed, "it", "them") + " out of the file, or "
                   + " ".join(hint(key) for key, _ in unpassed) + " takes "
                   + them(unpassed, "it", "them") + " out)")
    if update.added:
        out.append("added what it lacked: "
                   + ", ".join(f"{key} {j(value)}" for key, value in update.added))
    return out


def add_commands(sub: Any) -> None:
    p = sub.add_parser("why", help="the last injections of a pi-memory injections.jsonl log")
    p.add_argument("log", help="injections.jsonl")
    p.add_argument("--last", type=whole(1), default=1, help="how many turns (default 1)")
    p.set_defaults(func=cmd_why)

    p = sub.add_parser("why-stats", help="injection statistics: of a log, or --live for the "
                       "current parameters over a query set")
    p.add_argument("log", nargs="?", help="injections.jsonl (not with --live)")
    p.add_argument("--last", type=whole(1), default=None,
                   help="the turns of the log's last n lines, corrupt ones among them "
                   "(default 500; clamped to 10–10,000), as pi-lodestone's why-stats reads it")
    p.add_argument("--live", metavar="DATA", help="a dataset to rank with the model instead")
    p.add_argument("--queries", help="with --live: a query file (JSONL/CSV/TSV: id, text, and "
                   "cwd, now … as context) for DATA, in place of the turns its "
                   "injections.jsonl logged")
    add_model(p, default="decision-memory")
    p.set_defaults(func=_why_stats_entry)

    p = sub.add_parser("export", help="parameters in the target system's own terms (models "
                       "ported from a system with settings)")
    add_model(p)
    p.add_argument("--out", "-o", metavar="FOLDER",
                   help="write the files there instead of printing: the target's own file "
                   "and the variables' files (decision-memory.env, mcp-server-env.json), each "
                   "updated where there is one (its other entries kept, and its values not "
                   "set with -p/--params), and the record of changes — only the target's file "
                   "into its own data folder")
    p.set_defaults(func=cmd_export)


def _why_stats_entry(args: argparse.Namespace) -> int:
    if args.live and args.log:
        raise UsageError("give an injections log or --live DATA, not both")
    if not args.live and not args.log:
        raise UsageError("give an injections log (why-stats FILE: what was injected) or "
                         "--live DATA (what the current parameters would inject)")
    if args.log and (args.param or args.params):  # a log is read as logged: say so
        raise UsageError("--param and --params apply with --live DATA (what these values "
                         "would inject); a log's statistics are what was injected")
    said_model = any(a.startswith("-m") or a.startswith("--mo")
                     for a in getattr(args, "argv", None) or [])  # -mX, --mod … too
    if args.log and (said_model or args.model != "decision-memory"):  # it was ignored
        raise UsageError("--model applies with --live DATA; a log's statistics are what "
                         "pi-lodestone injected")
    if args.live and args.last is not None:  # it was ignored: every query is a turn
        raise UsageError("--last applies to a log; --live counts one turn per query of DATA")
    if args.queries and not args.live:  # a log's turns are as logged
        raise UsageError("--queries applies with --live DATA (the queries to rank); a log's "
                         "statistics are of the turns it logged")
    if args.live:
        args.data, args.qrels, args.split = args.live, None, "test"
    return cmd_why_stats(args)
