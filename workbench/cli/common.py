"""What every command uses: the exit codes, `UsageError`, loading the data (with its warnings on
stderr), the model and its parameters from the command line, one query of a dataset, the
pipeline behind a progress bar, the metrics a --metrics list names, and the argument groups that
say DATA, the model, a repository and a query the same way in every command."""

from __future__ import annotations

import argparse
import math
import re
import sys
import threading
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from workbench.cli.args import topic_field, warn_repeated, whole
from workbench.core.checks import TYPED_QUERIES
from workbench.core.data import Dataset, FormatError, Query, QuerySet
from workbench.core.engine import Progress
from workbench.core.metrics import BUNDLE_METRICS, METRICS, parse_metric
from workbench.core.metrics.measures import metric_base
from workbench.core.params import Params, parse_assignments, resolve_file
from workbench.textout import LOG_AFTER_S, progress_bar, say

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A mistake on the command line; printed as one line."""


# -- data, model, query ----------------------------------------------------------------------


def load_data(args: argparse.Namespace) -> Dataset:
    """The dataset DATA (with --queries, --qrels, --split) names; skipped lines, load warnings
    and notes said on stderr."""
    from workbench.core.formats import dataset_splits, load_dataset

    sample_data(args)
    split = getattr(args, "split", "test")
    if isinstance(split, SplitNotGiven):
        split = args.split = split_read(args)
    if split != "test":  # where nothing reads it, it was ignored: refused
        folder = Path(args.data)
        judged_by_split = folder.is_dir() and (folder / "qrels").is_dir()  # qrels/<split>.tsv
        queries_by_split = folder.is_dir() and (folder / f"queries.{split}.jsonl").is_file()
        if not folder.is_dir():
            raise UsageError(f"--split {split}: {args.data} is a file, which has no splits (a "
                             "BEIR, OpenVault or vault folder reads qrels/<split>.tsv)")
        if getattr(args, "qrels", None) and not queries_by_split:
            raise UsageError(f"--split {split} and --qrels: the judgments come from --qrels, "
                             f"and {args.data} has no queries.{split}.jsonl; give one")
        if not getattr(args, "qrels", None) and not judged_by_split:
            raise UsageError(f"--split {split}: {args.data} has no qrels/ folder of splits (a "
                             "BEIR, OpenVault or vault folder has one)")
    say_beir_folder(args)
    skipped: list[FormatError] = []
    # reading a 200,000-document corpus took ten seconds of silence: after LOG_AFTER_S a
    # line says what is read (the reader reports no progress of its own)
    timer = threading.Timer(LOG_AFTER_S, say_reading, (args.data,))
    timer.daemon = True
    timer.start()
    try:
        dataset = load_dataset(args.data, queries=getattr(args, "queries", None),
                               qrels=getattr(args, "qrels", None),
                               split=split, skipped=skipped,
                               topic_field=topic_field_read(args))
    except FormatError as err:
        judged = [] if err.field != "split" else dataset_splits(args.data)
        if not judged:
            raise
        raise FormatError(err.path, f"{err.message}; give --split {judged[0]}"
                          + (" (or another of them)" if len(judged) > 1 else ""),
                          line=err.line, field=err.field) from None
    finally:
        timer.cancel()
    report_skipped(skipped)
    no_query_set(args, dataset)
    from workbench.core.checks import load_warnings

    for line in load_warnings(dataset):
        say(f"warning: {line}", file=sys.stderr)
    from workbench.core.formats.openvault_memories import load_note

    read_as = dataset.settings.get("read_as_documents")  # formats.auto.READ_AS_DOCUMENTS
    # the file's name chose its format: said where decision-memory reads it, not before a
    # bm25 run on the same file (dr4 2)
    if read_as and "decision-memory" in models_named(args):
        say(f"note: {read_as}", file=sys.stderr)
    note = load_note(dataset.corpus)  # memories without a summary, read as empty text
    if note:
        say(f"note: {note}", file=sys.stderr)
    return dataset


def models_named(args: argparse.Namespace) -> set[str]:
    """The model ids a command's --model names: one id, a comma-separated list, or (compare,
    report) a list of those; none where the command has no --model."""
    value = getattr(args, "model", None)
    if value is None:
        return set()
    from workbench.core.models import canonical_id

    given = value if isinstance(value, list) else [value]
    return {canonical_id(part.strip()) for item in given for part in str(item).split(",")
            if part.strip()}


def say_fitted(model: Any, dataset: Dataset, ids: Collection[str] | None = None,
               of: str = "", *, echo: bool = True) -> str:
    """On stderr, how many of the dataset's tasks come from a repository history the model's
    defaults were fitted on (`Model.fitted_on`): those of them in the older half the fit
    trained on score at the defaults as training tasks (rv2 4); which ones is not recorded, so
    the note says they may be (dr6 2). Each task's commit is tested, in one `rev-list` a run;
    nothing is said where none is in it, nor for a typed task, which names no commit (dr2
    3). `ids`: the tasks counted, where not all of them (compare's, those its table is over:
    dr8 5), `of` saying what they are ("compared"); `echo`: said, else only returned. The
    note, "" where there is none."""
    histories = getattr(model, "fitted_on", ())
    if not histories:
        return ""
    from workbench.core.models.codeledger.fitted_on import fitted_note

    commits = [str(q.context.get("commit") or "") for q in dataset.queries
               if ids is None or q.id in ids]
    note = fitted_note(dataset.source, model.id, commits, histories, of if ids else "")
    if note and echo:
        say(note, file=sys.stderr)
    return note


def topic_field_read(args: argparse.Namespace) -> str | None:
    """--topic-field, refused where no TREC topic file is given to read it from (it was
    ignored)."""
    field = getattr(args, "topic_field", None)
    if field is None:
        return None
    queries = getattr(args, "queries", None)
    if not queries:
        raise UsageError(f"--topic-field {field} picks the field of a TREC topic file's topics: "
                         "give the file with --queries")
    from workbench.core.formats.trec_topics import is_markup

    if Path(queries).is_file() and not is_markup(queries):
        raise UsageError(f"--topic-field {field}: {queries} is no TREC topic file (<top> or "
                         "<topic> records); its queries are read as id and text: leave out "
                         "--topic-field")
    return str(field)


def sample_data(args: argparse.Namespace) -> None:
    """DATA a folder whose workbench.toml names the file to read (`data = "docs.jsonl"`):
    that file becomes DATA, said in a note, as the window opens the folder (the command line
    had answered "expected a BEIR folder …", the line never named). The file is checked as the
    window checks it: a bad value of ours is its error; keys not ours are said and ignored."""
    folder = Path(args.data) if getattr(args, "data", None) else None
    if folder is None or not folder.is_dir() or not (folder / "workbench.toml").is_file():
        return
    from workbench.core.session_file import key_line, read_sample_settings

    toml = folder / "workbench.toml"
    skipped: list[FormatError] = []
    named = read_sample_settings(folder, skipped).get("data")
    quiet = getattr(args, "worker_index", 0)  # `tune --workers`' helpers: said once
    for err in skipped if not quiet else ():
        say(f"warning: {err}", file=sys.stderr)
    if not named:
        return
    target = folder / str(named)
    if not target.exists():
        raise FormatError(toml, f"names {named!r} to read, which is not there (in {folder})",
                          line=key_line(toml, "data"), field="data")
    if not quiet:
        say(f"note: reading {target}, the file {toml} names (data = {named!r}), as the window "
            "opens the folder", file=sys.stderr)
    args.data = str(target)


# the commands that run a dataset's whole query set: without one, a memory folder's table was
# all "—" (eval, sweep) or blamed on judgments (compare, report, tune)
QUERY_SET_COMMANDS = ("eval", "sweep", "compare", "report", "tune", "why-stats")


def no_query_set(args: argparse.Namespace, dataset: Dataset) -> None:
    """The usage error for a pi-memory folder or decisions file with no queries, where the
    command runs the query set: why there are none (`no_prompts_reason`) and what to give."""
    from workbench.core.formats.pi_memory import is_decisions_file, is_pi_memory_folder
    from workbench.core.formats.pi_memory_injections import no_prompts_reason

    if len(dataset.queries) or getattr(args, "command", None) not in QUERY_SET_COMMANDS \
            or getattr(args, "queries", None) or not args.data:
        return
    data = Path(args.data)
    if is_pi_memory_folder(data):
        why = no_prompts_reason(data)
    elif data.is_file() and is_decisions_file(data):
        folder = data.parent
        why = (f"{data}: a decisions file holds no queries (a memory folder's "
               "injections.jsonl logs them)")
        if is_pi_memory_folder(folder) and (folder / "injections.jsonl").is_file():
            why += f"; give its folder {folder} for the turns logged there, or"
        else:
            why += ";"
        raise UsageError(f"{why} give --queries FILE (a JSONL or CSV of prompts: id, text, "
                         "and cwd, now … as context)")
    else:
        return
    raise UsageError(f"{why}; `workbench {args.command}` has no query to run: give --queries "
                     "FILE (a JSONL or CSV of prompts: id, text, and cwd, now … as context)")


class SplitNotGiven(str):
    """--split's default, "test", told apart from a `--split test` typed."""


def split_read(args: argparse.Namespace) -> str:
    """The split to read where --split was not given: test, else the one split a folder
    judges (as the window opens it, said in a note); with several and no test, the usage
    error naming them, unless the query is typed text, which needs no judgments."""
    from workbench.core.formats import dataset_splits

    if not args.data or getattr(args, "queries", None) or getattr(args, "qrels", None):
        return "test"
    splits = dataset_splits(args.data)
    if not splits or "test" in splits:
        return "test"
    free_text = getattr(args, "query", None) is not None
    if len(splits) > 1 and not free_text:
        raise UsageError(f"{args.data} has no qrels/test.tsv; it is judged in splits "
                         f"{', '.join(splits)}: give --split {splits[0]} (or another of them)")
    if not getattr(args, "worker_index", 0):  # `tune --workers`' helpers: said once
        say(f"note: {args.data} has no qrels/test.tsv; reading split {splits[0]}"
            + (", the one judged here" if len(splits) == 1 else "")
            + " (--split picks one)", file=sys.stderr)
    return splits[0]


def beir_folder_of(data: str | None) -> Path | None:
    """The BEIR folder (corpus.jsonl beside queries.jsonl or qrels/) DATA is a file of."""
    path = Path(data) if data else None
    if path is None or not path.is_file():
        return None
    folder = path.parent
    beir = (folder / "corpus.jsonl").is_file() and (
        (folder / "queries.jsonl").is_file() or (folder / "qrels").is_dir())
    return folder if beir else None


def say_beir_folder(args: argparse.Namespace) -> None:
    """DATA a BEIR folder's query file: its queries are ranked as documents, said on stderr
    with the folder to give (its corpus.jsonl is said where judgments are asked for:
    `evaluate.judgments_hint`)."""
    folder = beir_folder_of(args.data)
    name = Path(args.data).name if args.data else ""
    if folder is not None and name.startswith("queries.") and name.endswith(".jsonl"):
        say(f"warning: {args.data} holds the queries of the BEIR folder {folder}: they are "
            "read as the documents here; give the folder to search its corpus",
            file=sys.stderr)


def say_reading(data: str) -> None:
    """"reading DATA (95 MB) …" on stderr: the size of the file, or of the largest file a
    folder's format reads (its corpus.jsonl, decisions.jsonl, memories.json …), named."""
    from workbench.core.sizes import bytes_text

    path = Path(data)
    size = ""
    try:
        if path.is_file():
            size = f" ({bytes_text(path.stat().st_size)})"
        elif path.is_dir():
            sizes = [(f.stat().st_size, f.name) for f in path.iterdir() if f.is_file()
                     and f.suffix in (".jsonl", ".json", ".tsv")]
            if sizes:
                largest, name = max(sizes)
                size = f" ({name}, {bytes_text(largest)})"
    except OSError:
        pass
    print(f"reading {data}{size} …", file=sys.stderr, flush=True)


def left_out_note(args: argparse.Namespace, dataset: Dataset) -> str:
    """" (36 without judgments left out)", for after the judged count, where the query file
    held queries the judgments do not judge (BEIR's convention leaves them out: CISI's 36);
    naming the split where DATA is judged in several; "" where none was left out."""
    from workbench.core.checks import left_out_text
    from workbench.core.formats import dataset_splits

    given = getattr(args, "queries", None) or getattr(args, "qrels", None)
    several = bool(args.data) and not given and len(dataset_splits(args.data)) > 1
    text = left_out_text(dataset, getattr(args, "split", "test") if several else "")
    return f" ({text})" if text else ""


def report_skipped(skipped: Sequence[FormatError], shown: int = 5) -> None:
    """Malformed decision lines the original would skip silently, a vault's unreadable notes
    and its notes read despite a flaw: said on stderr, the rest loaded."""
    from workbench.core.checks import skipped_report

    for heading, lines in skipped_report(skipped, shown):
        say(f"warning: {heading}:", file=sys.stderr)
        for line in lines:
            say(f"  {line}", file=sys.stderr)


def model_and_params(args: argparse.Namespace, *, encoder: bool = True
                     ) -> tuple[Any, Params]:
    """The model --model names and its parameters: defaults, then --params FILE, then each
    --param NAME=VALUE; an encoder that is not there is said before any work (`encoder`:
    False for a command that embeds nothing, as export: a params file tuned on another
    machine names its model folder)."""
    from workbench.core.models import get_model

    try:
        model = get_model(args.model)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None
    overrides: dict[str, object] = {}
    if getattr(args, "params", None):
        overrides.update(resolve_file(model.schema, args.params))
    assignments = getattr(args, "param", None) or []
    overrides.update(parse_assignments(assignments))
    warn_repeated(assignments)
    params = model.schema.resolve(overrides)
    # one not there is said before any work; with stored vectors no encoder is asked for
    if encoder and "embedding_model" in params and params.get("embeddings") != "stored":
        from workbench.core.embeddings import get_encoder

        get_encoder(str(params["embedding_model"]))
    return model, params


TYPED = TYPED_QUERIES  # the name of the query set of a --query text (core.checks)

# the situation a typed query takes from the dataset where every query shares it: its clock
# (importance and decision-memory age against it) and its working directory
SHARED_SITUATION = ("now", "cwd")


def context_keys(model: str) -> tuple[str, ...]:
    """The keys of a query's context that model `model` reads and that a typed --context can
    give (a text value): decision-memory its situation and search settings, importance its
    clock, codeledger the task's own commit (left out of the past commits), hybrid the chat's
    length its forgetting curve counts from (as a contexts file's chatLength; its messages are
    a query file's, not a line's). bm25, dense and vault-search rank a typed text by the text
    alone."""
    from workbench.core.models import canonical_id

    model = canonical_id(model)
    if model == "decision-memory":
        from workbench.core.models.decision_memory.queries import ORIGINAL_NAMES, READ_AS

        return (*READ_AS, *ORIGINAL_NAMES)  # pi-lodestone's names too, as a query file's
    return {"importance": ("now",), "codeledger": ("commit",),
            "codeledger-document": ("commit",), "hybrid": ("chatLength",)}.get(model, ())


# hybrid's context that only a chat carries: entities come from its messages (rm 3)
_CHAT_ONLY = ("activecharacters", "active_characters", "messages")


def _context_key(item: str, model: str, keys: tuple[str, ...]) -> str:
    """The key of --context KEY=VALUE, one that `model` reads (`keys`); else the usage error
    naming the keys it reads (a misspelt cwdd= had been dropped without a word, and with it
    the locality bonus)."""
    key, eq, _ = item.partition("=")
    key = key.strip()
    if not eq or not key:
        raise UsageError(f"--context {item!r}: give KEY=VALUE, e.g. --context cwd=/repos/app")
    if key in keys:
        return key
    if model == "hybrid" and key.lower() in _CHAT_ONLY:
        raise UsageError(f"--context {item!r}: a typed query has no chat, and hybrid takes "
                         "active characters only with a chat's messages (OpenVault draws its "
                         "entities, active characters among them, from the messages: none "
                         "without them); put the query in a contexts file with its messages "
                         "and activeCharacters and name it with --query-id")
    if not keys:
        raise UsageError(f"--context {item!r}: {model} reads no context, only the query's "
                         "text; leave --context out (decision-memory, importance, "
                         "codeledger and hybrid read one)")
    import difflib

    near = [k for k in keys if k.lower() == key.lower()] or difflib.get_close_matches(
        key.lower(), keys, n=1)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise UsageError(f"--context {item!r}: {model} reads no key {key!r}{hint}; the keys it "
                     f"reads: {', '.join(keys)}")


def typed_context(dataset: Dataset, given: list[str], model: str) -> dict[str, Any]:
    """The context of a query typed on the command line: `now` and `cwd` where every query
    of the dataset has the same and model `model` reads it (a typed query had been scored at
    the corpus's newest timestamp, not at the clock the dataset's own queries share), then
    --context KEY=VALUE, each a key the model reads (`context_keys`). Each taken value is
    said."""
    keys = context_keys(model)
    context: dict[str, Any] = {}
    queries = list(dataset.queries)
    for key in SHARED_SITUATION:
        if key not in keys:
            continue
        values = {repr(q.context.get(key)) for q in queries}
        if queries and len(values) == 1 and queries[0].context.get(key) not in (None, ""):
            context[key] = queries[0].context[key]
    shared = dict(context)
    for item in given:
        context[_context_key(item, model, keys)] = item.partition("=")[2]
    if "chatLength" in context:  # hybrid: the number the curve reads, as a contexts file's
        context["chat_length"] = _chat_length(context.pop("chatLength"))
    if "forInjection" in keys:  # decision-memory: one setting under two names (rv2 4)
        from workbench.core.models.decision_memory.queries import (
            conflict_text,
            spelling_conflicts,
        )

        for names, read in spelling_conflicts(context):
            raise UsageError(f"--context: {conflict_text(context, names, read)}: they "
                             "disagree; give the setting once")
    if shared:
        kept = {k: v for k, v in shared.items() if context.get(k) == v}
        if kept:
            say("note: the typed query takes " + ", ".join(f"{k}={v}" for k, v in kept.items())
                + f", as every query of {dataset.name} has (--context KEY=VALUE to change "
                "it)", file=sys.stderr)
    return context


def _chat_length(text: str) -> int:
    """--context chatLength=N: a whole number of messages, 0 or more (410, 410.0)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value >= 0 and value.is_integer()):
        raise UsageError(f"--context 'chatLength={text}': give the chat's length, a whole "
                         "number of messages (0 or more), as a contexts file's chatLength")
    return int(value)


def one_query(args: argparse.Namespace, dataset: Dataset) -> Dataset:
    """The dataset narrowed to the query the user named (an id, or ad-hoc text). Text that
    is a judged query's text is that query, judgments and context included (as its id)."""
    if args.query is not None:
        # the very text: vault-search matches the query as one phrase, spaces included, so
        # "tomatoes " is not the judged "tomatoes" (it was ranked as that query)
        judged = next((q.id for q in dataset.queries if q.text == args.query
                       and (dataset.qrels or {}).get(q.id)), None)
        if judged is not None:
            say(f"note: the text of judged query {judged!r}: ranked as --query-id {judged}, "
                "with its judgments", file=sys.stderr)
            return Dataset(dataset.name, dataset.corpus, dataset.queries.subset([judged]),
                           dataset.qrels, dataset.source, dataset.settings)
        context = typed_context(dataset, getattr(args, "context", None) or [],
                                str(getattr(args, "model", "") or ""))
        queries = QuerySet([Query(id="query", text=args.query, context=context)],
                           name=TYPED)
        return Dataset(dataset.name, dataset.corpus, queries, None, dataset.source,
                       dataset.settings)
    if args.query_id is not None and getattr(args, "context", None):
        raise UsageError("--context sets the situation of a --query text; a query of the "
                         "file keeps its own (edit the file, or give its text with --query)")
    if args.query_id is not None:
        if args.query_id not in dataset.queries.index:
            unjudged = _unjudged_query(args, dataset, str(args.query_id))
            if unjudged is not None:  # ranking needs no judgments: ranked, said unjudged
                split = getattr(args, "split", None)
                other = _judged_in_other_split(args, str(args.query_id))
                say(f"note: query {args.query_id!r} has no judgments"
                    + (f" in split {split}" if isinstance(split, str) and split else "")
                    + ": ranked without them"
                    + (f" (split {other!r} judges it: --split {other})" if other else ""),
                    file=sys.stderr)
                return Dataset(dataset.name, dataset.corpus,
                               QuerySet([unjudged], name=dataset.queries.name),
                               dataset.qrels, dataset.source, dataset.settings)
            if not len(dataset.queries):
                raise UsageError(f"{dataset.name} has no queries (or tasks) to pick "
                                 f"{args.query_id!r} from; give the text with --query/--task")
            other = _judged_in_other_split(args, str(args.query_id))
            if other:  # a whole id of another split: no start of another id to offer
                raise UsageError(f"no query with id {args.query_id!r} in {dataset.name}; it is "
                                 f"judged in split {other!r}: --split {other}")
            found = _query_by_prefix(dataset, str(args.query_id))
            if found is not None:
                return Dataset(dataset.name, dataset.corpus, dataset.queries.subset([found]),
                               dataset.qrels, dataset.source, dataset.settings)
            starting = [i for i in dataset.queries.ids if i.startswith(str(args.query_id))]
            hashes = [i for i in starting if _HASH_ID.fullmatch(i)]
            shown = ", ".join((hashes or starting or dataset.queries.ids)[:8])
            said = (f"ids starting so: {shown}{', …' if len(hashes) > 8 else ''}; a start of "
                    f"{PREFIX_MIN} or more characters picks one" if hashes
                    else f"ids look like: {shown}")
            raise UsageError(f"no query with id {args.query_id!r} in {dataset.name} ({said})")
        return Dataset(dataset.name, dataset.corpus, dataset.queries.subset([args.query_id]),
                       dataset.qrels, dataset.source, dataset.settings)
    raise UsageError("give --query TEXT or --query-id ID")


PREFIX_MIN = 4  # as git abbreviates a commit: shorter, `--query-id 12` had found query 123
# an id a start may stand for: a hash, as `tasks-from-git` names a task (c + 10 hex digits), a
# letter among the digits. Not a number or a numbered id (TREC's 20001, turn-51): a start of
# those is a typo, and `--query-id 2000` had ranked query 20001 (dr2 4)
_HASH_ID = re.compile(r"c?(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}")


def _query_by_prefix(dataset: Dataset, given: str) -> str | None:
    """The one query whose hash-like id (`_HASH_ID`), or whose task's commit, starts with
    `given` (at least PREFIX_MIN characters), said on stderr; None where none does. Several:
    UsageError naming them."""
    if len(given) < PREFIX_MIN:
        return None
    matches = [q.id for q in dataset.queries
               if (q.id.startswith(given) and _HASH_ID.fullmatch(q.id))
               or str(q.context.get("commit") or "").startswith(given.lower())]
    if len(matches) == 1:
        say(f"note: --query-id {given!r} is {matches[0]!r}, the only query whose id"
            + (" (or commit)" if "commit" in dataset.queries[0].context else "")
            + " starts so", file=sys.stderr)
        return matches[0]
    if matches:
        shown = ", ".join(matches[:8]) + (", …" if len(matches) > 8 else "")
        raise UsageError(f"--query-id {given!r} starts {len(matches):,} query ids in "
                         f"{dataset.name} ({shown}); give more of it")
    return None


def _unjudged_query(args: argparse.Namespace, dataset: Dataset, query_id: str) -> Query | None:
    """Query `query_id` of the queries file that the loading left out for having no judgment
    (a BEIR folder's queries.jsonl, --queries FILE), if it is there."""
    from workbench.core.formats.beir import read_queries_jsonl

    if not dataset.unjudged_left_out:
        return None
    data, split = Path(getattr(args, "data", None) or "."), getattr(args, "split", None)
    given = getattr(args, "queries", None)
    files = ([Path(given)] if given else
             [data / f"queries.{split}.jsonl", data / "queries.jsonl"] if data.is_dir() else [])
    for path in files:
        if not path.is_file():
            continue
        try:
            queries = read_queries_jsonl(path)
        except (FormatError, OSError):
            continue
        if query_id in queries.index:
            return queries[queries.index[query_id]]
    return None


def _judged_in_other_split(args: argparse.Namespace, query_id: str) -> str | None:
    """The BEIR split (qrels/<split>.tsv beside DATA, not the one read) that judges
    `query_id`, if one does."""
    data, split = getattr(args, "data", None), getattr(args, "split", None)
    if not data or getattr(args, "qrels", None):
        return None
    folder = Path(data) / "qrels"
    if not folder.is_dir():
        return None
    for path in sorted(folder.glob("*.tsv")):
        if path.stem == split:
            continue
        try:
            with path.open(encoding="utf-8", errors="replace") as f:
                if any(line.split("\t", 1)[0] == query_id for line in f):
                    return path.stem
        except OSError:
            continue
    return None


def pipeline(model: Any, dataset: Dataset, params: Params, label: str) -> Any:
    """The model prepared on the dataset (a `core.pipeline.Pipeline`), behind a progress bar
    labelled `label`."""
    from workbench.core.pipeline import Pipeline

    for line in model.data_warnings(dataset, params):
        say(f"warning: {line}", file=sys.stderr)
    with progress_bar(label) as bar:
        return Pipeline(model, dataset, params, progress=Progress(on_progress=bar))


def metric_list(spec: str) -> list[str]:
    """The metrics named in `spec`, each checked, duplicates dropped."""
    metrics = [m.strip() for m in spec.split(",") if m.strip()]  # as typed, for the error
    if not metrics:
        raise UsageError("--metrics names no metric")
    canonical = []
    for m in metrics:
        if m.lower() in BUNDLE_METRICS:
            canonical.append(m.lower())
            continue
        try:
            base, k = parse_metric(m)
        except ValueError as exc:
            from workbench.core.selection_figures import FIGURES

            known = metric_base(m) in METRICS  # a known name (P_0, precision), a bad cutoff
            # every caller (eval, sweep, compare) takes the selection figures too
            raise UsageError(str(exc) if known else f"{exc}, or a bundle figure: "
                             f"{', '.join(BUNDLE_METRICS)}, or a selection figure: "
                             f"{', '.join(FIGURES)}") from None
        # ndcg@010, nDCG@10 and trec_eval's ndcg_cut_10 are ndcg@10: one row, under the name
        # the workbench knows it by (rn 7: the trec_eval spelling had headed its row)
        canonical.append(f"{base}@{k}" if k is not None else base)
    # r, map and mrr without @k read the first WHOLE_DEPTH results, the very figure of
    # r@1000, map@1000 and mrr@1000: one row, under the name given first (dr4 8). Not ndcg:
    # its ideal DCG is cut at k, and a query judging over 1,000 relevant tells them apart.
    from workbench.core.pipeline import WHOLE_DEPTH

    same = {f"{base}@{WHOLE_DEPTH}": base for base in ("r", "map", "mrr")}
    rows: dict[str, str] = {}
    for name in canonical:
        rows.setdefault(same.get(name, name), name)
    return list(rows.values())


# -- argument groups -------------------------------------------------------------------------


def add_data(p: argparse.ArgumentParser, *, judgments: bool = True,
             optional: bool = False) -> None:
    """DATA, and --queries, --qrels (unless `judgments` is false) and --split beside it."""
    p.add_argument("data", nargs="?" if optional else None,
                   help="dataset: a BEIR folder, a markdown vault folder, an OpenVault folder "
                   "(memories.json + contexts.jsonl), a pi-memory folder or file, a git "
                   "repository (its tasks from --queries), a SillyTavern chat .jsonl, an "
                   "OpenVault memories .json, a .jsonl/.csv/.tsv file of documents (or a "
                   "folder of .jsonl shards: Pyserini's id, contents), or TREC SGML documents "
                   "(<DOC> records: a file, .gz too, or a folder of them)")
    p.add_argument("--queries", help="query file (JSONL/CSV/TSV; for documents, BEIR or TREC "
                   "data also a TREC topic file: <top> SGML or <topic> XML, its titles the "
                   "queries unless --topic-field; for OpenVault memories, contexts.jsonl) when "
                   "DATA holds none; for a git repository, a task file (tasks.jsonl as "
                   "tasks-from-git writes it: id, task, files)")
    p.add_argument("--topic-field", type=topic_field, metavar="FIELD",
                   help="the field of each topic of a TREC topic file (--queries) that is the "
                   "query: title (the default; <query> in XML), desc (<desc>, <description> "
                   "or <question>), narr (<narr>, <narrative>), or several joined by '+', "
                   "e.g. title+desc")
    if judgments:
        p.add_argument("--qrels", help="judgments (BEIR .tsv or TREC qrels) when DATA holds none")
    p.add_argument("--split", default=SplitNotGiven("test"),
                   help="split to read, qrels/SPLIT.tsv of a BEIR, OpenVault or vault folder "
                   "(default: test; in a folder judged in one other split only, that one)")


# every command's -m help, in the same words (compare, report and gui named no system)
MODEL_HELP = ("model id (see `workbench models`), or a system's name: openvault, pi-lodestone, "
              "obsidian-mcp, codeledger")


def model_id(text: str) -> str:
    """argparse type of --model: a known model id, or a system's name read as its model's id
    (`-m openvault` is hybrid); else the usage error, before any work."""
    from workbench.core.models import canonical_id, get_model, model_ids

    if canonical_id(text) not in model_ids():
        try:
            get_model(text)
        except KeyError as exc:
            raise argparse.ArgumentTypeError(str(exc.args[0])) from None
    return canonical_id(text)


def model_list(text: str) -> str:
    """argparse type of a comma-separated --model list: each a known model id (or a system's
    name), given back as model ids."""
    return ",".join(model_id(part.strip()) for part in text.split(","))


def add_model(p: argparse.ArgumentParser, default: str | None = None, *,
              checked: bool = True) -> None:
    """--model (required unless it has a `default`), --param NAME=VALUE and --params FILE.
    `checked`: an unknown model id is a usage error at parse time (`embed` says its own)."""
    p.add_argument("--model", "-m", default=default, required=default is None,
                   type=model_id if checked else str,
                   help=MODEL_HELP + (f"; default {default}" if default else ""))
    p.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                   help="set a parameter (repeatable)")
    p.add_argument("--params", metavar="FILE.toml", help="read parameters from a TOML file")


def add_repo(p: argparse.ArgumentParser, command: str = "explain") -> None:
    """--repo PATH: a git repository in place of DATA; its example is `command`'s own."""
    p.add_argument("--repo", metavar="PATH", help="a git repository (instead of DATA), for "
                   f"codeledger: `{command} --model codeledger --repo . --task TEXT`")


def add_query(p: argparse.ArgumentParser, top: int = 10, top_help: str = "") -> None:
    """--query/--task TEXT or --query-id ID (one of them), --context KEY=VALUE, --top N."""
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--query", "--task", "-q", dest="query", help="query (or task) text")
    g.add_argument("--query-id", help="id of a query in the dataset; a code task's also by a "
                   "start of its id or commit, 4 characters or more, as git abbreviates one")
    p.add_argument("--context", action="append", metavar="KEY=VALUE",
                   help="the situation a --query text is asked in, as a query file's own "
                        "fields: cwd=/repos/app, now=2026-03-10T12:00:00Z, mode=search "
                        "(decision-memory: also for_injection, project_only, min_score, "
                        "limit, prompt, or pi-lodestone's forInjection, projectOnly, "
                        "minScore, topK: only the names, not its eval harness's defaults "
                        "minScore 8, topK 5), now=… (importance), commit=SHA (codeledger), "
                        "chatLength=N (hybrid: the chat's length in messages, which its "
                        "forgetting curve counts distance from; without it a typed query has "
                        "no chat, every memory at its full importance); a "
                        "key the model does not read is refused; repeatable. Without it a "
                        "typed query takes the now and cwd every query of the dataset shares")
    p.add_argument("--top", type=whole(1), default=top,
                   help=f"results to show (default {top}{top_help})")


def informative_metrics(metrics: list[str], dataset: Any, named: bool) -> list[str]:
    """The default metrics less judged@k where every judgment is of a relevant document:
    there judged@k is p@k by construction, a second row of the same figures (and, in a
    comparison, a second "significant" one). Metrics the user named are kept as named."""
    if named or not dataset.qrels or any(g <= 0 for docs in dataset.qrels.values()
                                         for g in docs.values()):
        return metrics
    return [m for m in metrics if not m.startswith("judged@")]


def idle_text(schema: Any, name: str, why: str) -> str:
    """`why` (`ParamSchema.idle_because`'s words, the window's: "Normalisation is not rrf")
    with the needed parameter's id as -p takes it: "normalization is not rrf" (the note had
    mixed the label with the ids around it)."""
    for need in schema[name].needs:
        other = schema[need.removeprefix("!").partition("=")[0]]
        for lead in ("", "no effect while "):
            if why.startswith(f"{lead}{other.label} is "):
                return f"{lead}{other.name}{why[len(lead) + len(other.label):]}"
    return why


def mean_text(name: str, value: float) -> str:
    """A mean as every command prints it: a metric to 4 decimals (0.6131); a count (bundle
    files and tokens, injected tokens) to one, with thousands separators (1,354.0); results
    per query to two (0.88: tune's 0.9 beside eval's 0.88 read as another figure); empty, a
    share in %, to one; "—" where it is undefined (NaN)."""
    from workbench.core.selection_figures import FIGURES

    if math.isnan(value):
        return "—"
    if name in FIGURES:  # a mean count, or a share in %: one decimal (results: two)
        return f"{value:,.2f}" if name == "results" else f"{value:,.1f}"
    figure = BUNDLE_METRICS.get(name)
    return f"{value:,.1f}" if figure is not None and figure.count else f"{value:.4f}"
