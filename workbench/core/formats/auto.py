"""Open whatever the user points at: a BEIR folder, an OpenVault folder, memories file or
SillyTavern chat, a pi-memory folder, decisions file or eval fixture, a markdown vault, a
documents file or a folder of them (Pyserini's JsonCollection), or TREC SGML documents; the
queries from a query file or a TREC topic file."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Collection
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from workbench.core.checks import match_unicode_forms, refuse_unjudgeable
from workbench.core.data import Corpus, Dataset, FormatError, Qrels, QuerySet
from workbench.core.formats._common import (
    StrPath,
    judged_subset,
    numbered_lines,
    path_kind,
    pipes_read_once,
    read_text,
)
from workbench.core.formats.beir import (
    QRELS_UNMATCHED,
    other_header,
    read_beir,
    read_corpus_jsonl,
    read_qrels_tsv,
    read_queries_jsonl,
    refuse_packed,
)
from workbench.core.formats.code_repo import (
    TASKS_FILE,
    is_code_repo,
    is_sample_stream_folder,
    read_code_repo,
    sample_repo,
)
from workbench.core.formats.openvault import (
    CONTEXTS_FILE,
    MEMORIES_FILE,
    is_openvault_folder,
    is_sillytavern_chat,
    read_contexts,
    read_memories,
    read_openvault,
    read_sillytavern_chat,
)
from workbench.core.formats.pi_memory import (
    DECISIONS_FILE,
    INJECTIONS_FILE,
    SIGNATURE,
    and_list,
    first_record,
    is_decisions_file,
    is_pi_memory_folder,
    read_decisions,
)
from workbench.core.formats.pi_memory_eval import SIGNATURE as EVAL_SIGNATURE
from workbench.core.formats.pi_memory_eval import read_eval_cases
from workbench.core.formats.pi_memory_injections import injection_queries, read_injections
from workbench.core.formats.pi_memory_settings import SETTINGS_FILE, read_pi_settings
from workbench.core.formats.plain import (
    first_record_object,
    is_documents_folder,
    read_documents,
    read_queries,
    shard_documents,
    shard_files,
    shard_names,
    shards_bar,
)
from workbench.core.formats.trec import looks_like_run, read_trec_qrels
from workbench.core.formats.trec_docs import (
    archives_hint,
    has_trec_records,
    is_trec_documents,
    read_trec_documents,
)
from workbench.core.formats.trec_topics import is_markup, read_topics, topic_fields
from workbench.core.formats.vault import (
    has_notes,
    note_names,
    read_vault,
    read_vault_notes,
    vault_layout,
)
from workbench.core.models.decision_memory.facts import RECORD_KEYS, SOURCES

DOCUMENT_SUFFIXES = (".jsonl", ".csv", ".tsv")  # .tsv: MS MARCO's collection.tsv too
EXPECTED = ("expected a BEIR folder (with corpus.jsonl), a git repository, an OpenVault "
            "folder (with memories.json), a pi-memory folder (with decisions.jsonl), a "
            "markdown vault folder (*.md notes or a notes/ subfolder), an OpenVault memories "
            "file (.json), a SillyTavern chat, pi-memory decisions or eval cases (.jsonl), a "
            "documents file (.jsonl, .csv or .tsv), a folder of JSON-lines documents "
            "(Pyserini's JsonCollection: id, contents) or TREC SGML documents (<DOC> "
            "records: a file, .gz or not, or a folder of them)")
EVAL_FILE = "eval.jsonl"
TREC_FILES_SKIPPED = "trec_files_skipped"  # a TREC folder's files without <DOC> records
# [file, why] of a TREC folder's archives and binary files (also in TREC_FILES_SKIPPED)
TREC_FILES_NOT_TEXT = "trec_files_not_text"
PYSERINI_FILES_SKIPPED = "pyserini_files_skipped"  # a shard folder's files not .json(l)
VAULT_SHARDS_SKIPPED = "vault_shards_skipped"  # [shards, notes, documents, why, bar] of a vault
# [notes, documents, bar] of a Pyserini folder whose Markdown, outnumbered, was skipped
PYSERINI_NOTES_OUTNUMBERED = "pyserini_notes_outnumbered"
# what a .jsonl of decision-like records, not named decisions.jsonl, is read as (a note)
READ_AS_DOCUMENTS = "read_as_documents"
TREC_NOT_UTF8 = "trec_not_utf8"  # [file, bytes not UTF-8, line of the first] of TREC files
INJECTION_KEYS = ("promptCharCount", "results", "minScore")


def read_query_set(path: StrPath, *, name: str = "queries",
                   topic_field: str | None = None) -> QuerySet:
    """Queries from a TREC topic file (one whose first character is `<`: its text the
    `topic_field`, `title` by default, or `title+desc` …) or a plain query file (.jsonl, .csv,
    .tsv: `read_queries`)."""
    path = Path(path)
    if is_markup(path):
        if is_trec_documents(path):
            raise FormatError(path, "TREC documents (<DOC> records), not topics: give them as "
                              "the dataset, and a topic file or a query file as the queries",
                              line=1, field="DOC")
        return read_topics(path, topic_fields(topic_field or "title"), name=name)
    return read_queries(path, name=name)


CONTEXTS_SAID = "OpenVault memories read contexts (contexts.jsonl) as their queries"


def _refuse_topics_for(data: Path, queries: StrPath | None, topic_field: str | None,
                       said: str) -> None:
    """A TREC topic file, or `topic_field`, given for data whose queries are read otherwise
    (dr5 11: it had answered "invalid JSON at column 1")."""
    if queries is None or (topic_field is None and not is_markup(queries)):
        return
    raise FormatError(Path(queries), f"{data.name}: {said}; a TREC topic file is not read here"
                      + (f" (leave out --topic-field {topic_field})" if topic_field else ""),
                      field="queries")


def read_qrels(path: StrPath, query_ids: Collection[str] | None = None) -> Qrels:
    """Judgments from a BEIR qrels TSV (3 columns) or a TREC qrels file (4), told apart by the
    first line's column count: three tab-separated cells are BEIR's, whatever spaces its ids
    hold ("q1<TAB>doc 1<TAB>1" had been read as TREC's `qid iter docno rel`, judging "1")."""
    path = Path(path)
    refuse_packed(path)
    first = next(numbered_lines(read_text(path)), None)
    if first is not None and len(first[1].split("\t")) == 3:
        return read_qrels_tsv(path, query_ids=query_ids)
    if (first is not None and len(first[1].split()) == 4) or (
            first is None and path.suffix.lower() != ".tsv"):  # empty: said in TREC's terms
        return read_trec_qrels(path, query_ids=query_ids)
    if first is not None and looks_like_run(first[1].split()):
        raise FormatError(path, "this is a TREC run (qid Q0 docno rank score tag), not "
                          "judgments (qid 0 docno rel): the workbench scores its own models' "
                          "rankings; score an external run against its qrels with trec_eval "
                          "or ir_measures", line=first[0], field="columns")
    if first is not None and len(first[1].split()) != 3:
        raise FormatError(path, "expected BEIR qrels (query-id, corpus-id, score) or TREC qrels "
                          f"(qid 0 docno rel), found {len(first[1].split())} columns",
                          line=first[0], field="columns")
    return read_qrels_tsv(path, query_ids=query_ids)


PACKED = (".gz", ".bz2", ".xz", ".zst", ".zip", ".tgz")
CARD_NAMES = frozenset(("readme", "license", "changelog", "citation", "dataset_card"))


def _refuse_unreadable_beir_corpus(folder: Path) -> None:
    """A BEIR folder whose corpus is a folder or compressed (corpus.jsonl.gz, as some mirrors
    ship it) opened as whatever else the folder held — a README.md made it a vault of one
    note, every metric 0 — with only a warning about judged documents missing."""
    # a BEIR folder's other files beside it, and no vault's notes/: another format's folder
    # (a note named corpus.jsonl.md, a backup corpus.jsonl.bak) opens as it is. A Hugging
    # Face BeIR download holds corpus.jsonl.gz and queries.jsonl.gz beside its README.md
    packed = [f for f in (*folder.glob("corpus.jsonl.*"), *folder.glob("queries.jsonl.*"))
              if f.is_file() and f.suffix in PACKED]
    beir = ((folder / "queries.jsonl").is_file() or (folder / "qrels").is_dir()
            or bool(packed))
    if not beir or (folder / "notes").is_dir():
        return
    if (folder / "corpus.jsonl").is_dir():
        raise FormatError(folder / "corpus.jsonl", "a BEIR corpus must be a file, "
                          "corpus.jsonl; this is a folder", field="path")
    for other in sorted({*folder.glob("corpus.jsonl.*"), *packed}):
        if not other.is_file() or other.suffix == ".md":  # a note of a vault beside them
            continue
        what = "corpus" if other.name.startswith("corpus") else "query file"
        raise FormatError(other, f"a BEIR {what} is read as plain "
                          f"{other.name.split('.jsonl')[0]}.jsonl; "
                          + (f"decompress this one first (for example: gunzip -k "
                             f"{other.name})" if other.suffix in PACKED else "rename this one"),
                          field="path")


def _refuse_the_wrong_kind(path: Path) -> None:
    """A path no format took because it, or the corpus.jsonl in it, is not a regular file (a
    folder, a named pipe): said so, not answered with the list of every format."""
    if not path.is_dir() and not path.is_file():
        raise FormatError(path, f"{path_kind(path)}, not a file or a folder: a dataset is read "
                          "from one", field="path")
    corpus = path / "corpus.jsonl"
    if path.is_dir() and corpus.exists() and not corpus.is_file():
        raise FormatError(corpus, f"{path_kind(corpus)}, not a file: a BEIR corpus is read "
                          "from a file of JSON lines", field="path")


def _refuse_topics_as_documents(path: Path) -> None:
    """A TREC topic file given as the documents: said so, with where it goes."""
    if path.is_file() and is_markup(path):
        try:
            read_topics(path)
        except FormatError:
            return
        raise FormatError(path, "a TREC topic file (the queries), not documents: give it with "
                          "--queries (File ▸ Open queries or tasks… in the window) and the "
                          "documents as the dataset", field="path")


def _refuse_a_session(path: Path) -> None:
    """A session the window saved, given as data: said so, with what to do (it was read as
    OpenVault memories: "field 'memories': expected a JSON list of memories …")."""
    from workbench.core.session_file import saved_session, saved_session_text

    data = saved_session(path)
    if data is None:
        return
    raise FormatError(path, f"{saved_session_text(data)}, not a dataset: open it in the window "
                      f"with `workbench gui {path}` (or File ▸ Open session…); on the command "
                      "line give its dataset as DATA, with -m and its values as -p "
                      "NAME=VALUE or --params FILE (the window's Configurations ▸ Export "
                      "current as params TOML… writes one)",
                      field="path")


def _refuse_a_folder_of_datasets(folder: Path) -> None:
    """A folder whose only markdown is a card (README.md) and whose subfolders are datasets
    (BEIR folders, OpenVault folders): the card had opened as a vault of one note, and eval
    asked for judgments (dr7 7: /work/shared/datasets, a README beside cisi/, cranfield/ and
    scifact/)."""
    notes = [f for f in folder.rglob("*.md")
             if not any(part.startswith(".") for part in f.relative_to(folder).parts)]
    if not notes or not all(f.stem.lower() in CARD_NAMES for f in notes):
        return
    datasets = sorted(d.name for d in folder.iterdir()
                      if d.is_dir() and not d.name.startswith(".") and (
                          (d / "corpus.jsonl").is_file() or is_openvault_folder(d)))
    if datasets:
        shown = ", ".join(datasets[:5]) + (f" and {len(datasets) - 5} more"
                                           if len(datasets) > 5 else "")
        raise FormatError(folder, f"a folder of datasets ({shown}), not one: give one of "
                          f"them, e.g. {folder / datasets[0]}; {notes[0].name} is a card, not "
                          "a vault of notes", field="path")


def _refuse_a_card_as_a_vault(folder: Path) -> None:
    """A BEIR folder (queries.jsonl, qrels/) without corpus.jsonl whose only markdown is a
    dataset card: the card opened as a vault of one note, every metric 0."""
    if (folder / "corpus.jsonl").exists() or (folder / "notes").is_dir() or not (
            (folder / "queries.jsonl").is_file() or (folder / "qrels").is_dir()):
        return
    notes = [f for f in folder.rglob("*.md")
             if not any(part.startswith(".") for part in f.relative_to(folder).parts)]
    if notes and all(f.stem.lower() in CARD_NAMES for f in notes):
        elsewhere = [f.relative_to(folder).as_posix() + ("/" if f.is_dir() else "") for f in (
            folder / "corpus", folder / "corpus.json", folder / "docs.jsonl",
            folder / "documents.jsonl") if f.exists()]
        raise FormatError(folder, "a BEIR folder needs its corpus as corpus.jsonl beside "
                          "queries.jsonl and qrels/"
                          + (f" (found {', '.join(elsewhere)}: move or rename it)"
                             if elsewhere else "")
                          + f"; {notes[0].name} is a dataset card, not a vault of notes",
                          field="path")


def load_dataset(
    path: StrPath,
    *,
    queries: StrPath | None = None,
    qrels: StrPath | None = None,
    split: str = "test",
    skipped: list[FormatError] | None = None,
    topic_field: str | None = None,
) -> Dataset:
    """Open a dataset, detecting its format.

    - a git repository: its files at the task set's snapshot (`read_code_repo`), the tasks
      from `queries` or `.codeledger/tasks.jsonl`; a folder with a fast-import stream
      (HISTORY_STREAM, the bundled sample) is built into a repository first;
    - a folder with corpus.jsonl: BEIR (`read_beir`, using `split`);
    - a folder with memories.json: OpenVault (`read_openvault`, using `split`);
    - a folder with decisions.jsonl: pi-memory decisions (`read_decisions`), its
      injections.jsonl's logged prompts as queries (`injection_queries`) when there are any;
    - a folder with eval.jsonl: pi-lodestone eval cases (`read_eval_cases`);
    - a folder with *.md notes or a notes/ subfolder: a vault (`read_vault`), unless it is
      Pyserini's or TREC's (`collection_reading`);
    - a .json file: OpenVault memories (`read_memories`), no queries unless given;
    - a .jsonl file whose first line holds `chat_metadata`: a SillyTavern chat
      (`read_sillytavern_chat`);
    - a .jsonl file of pi-lodestone eval cases (`query` and `corpus` on the first line): each
      case a query over its own decisions (`read_eval_cases`), with its judgments;
    - a .jsonl file of decision records: pi-memory decisions (`read_decisions`);
    - a folder of .jsonl (or .json) files whose first holds `id` and `contents`, or such a
      .json file: Pyserini's JsonCollection, plain documents (`read_documents`);
    - TREC SGML documents, a file (.gz or not) starting with <DOC> or a folder of them:
      `read_trec_documents`;
    - a .jsonl or .csv file: plain documents (`read_documents`).

    `queries` (.jsonl/.csv/.tsv with `id`/`_id`, `text`, or a TREC topic file, told by its
    content: its text is `topic_field`, the title by default, see `trec_topics`; for
    OpenVault, a contexts.jsonl) and `qrels` (BEIR TSV or TREC qrels) name the query set and
    judgments; given for a folder, they
    replace the folder's own. OpenVault folders, chats, BEIR folders and vaults with a
    queries.jsonl carry their queries, so `qrels` alone judges those. With judgments, the
    query set is the judged queries.

    `skipped`: for pi-memory decisions, whose original skips lines it cannot parse, each
    malformed line's error is appended here and the rest load (REFERENCE.md §1); for a
    vault, each unreadable note's (`vault.UnreadableNote`). Without it the first malformed
    line or note raises, as for every other format.

    A judged id the corpus holds in another Unicode form only (NFC typed, NFD stored) judges
    that document where it is the only one (`checks.match_unicode_forms`).

    A pipe given (`--qrels <(cat qrels.tsv)`) is read once and its bytes kept for every look
    at it (`pipes_read_once`).
    """
    with pipes_read_once():
        dataset = _load_dataset(path, queries=queries, qrels=qrels, split=split,
                                skipped=skipped, topic_field=topic_field)
    # a judged id in another Unicode form than the corpus's (NFC typed, NFD stored)
    return match_unicode_forms(dataset)


def _load_dataset(
    path: StrPath,
    *,
    queries: StrPath | None = None,
    qrels: StrPath | None = None,
    split: str = "test",
    skipped: list[FormatError] | None = None,
    topic_field: str | None = None,
) -> Dataset:
    """`load_dataset`'s reading."""
    path = Path(path)
    if not path.exists():
        if path.is_symlink():  # "no such file" for a name that is there, as a link
            try:
                path.stat()
                why = "which does not exist"
            except OSError as exc:  # a loop: "Too many levels of symbolic links"
                why = ("which does not exist" if exc.errno == errno.ENOENT
                       else f"which cannot be followed ({exc.strerror or exc})")
            raise FormatError(path, f"a symbolic link to {os.readlink(path)}, {why}",
                              field="path")
        raise FormatError(path, f"no such file or folder; {EXPECTED}", field="path")
    name = path.resolve().name if path.is_dir() else path.stem
    overridden = queries is not None or qrels is not None
    corpus: Corpus
    read_query_file: Callable[..., QuerySet] = partial(read_query_set, topic_field=topic_field)
    own_queries: Callable[[], QuerySet] | None = None
    settings: dict[str, Any] = {}
    if is_code_repo(path) or is_sample_stream_folder(path):
        _refuse_topics_for(path, queries, topic_field, "a repository reads tasks (tasks.jsonl)")
        if qrels is not None:
            raise FormatError(Path(qrels), "a code task set names the files each task needed; "
                              "give tasks (queries) only", field="qrels")
        if is_code_repo(path):
            own = path / ".codeledger" / TASKS_FILE
            return read_code_repo(path, tasks=queries or (own if own.is_file() else None))
        own = path / TASKS_FILE
        return read_code_repo(sample_repo(path), tasks=queries or (own if own.is_file() else None),
                              name=name)
    if path.is_dir() and not (path / "corpus.jsonl").is_file():
        _refuse_unreadable_beir_corpus(path)
    if path.is_dir() and (path / "corpus.jsonl").is_file():
        if not (path / "queries.jsonl").exists():  # gunzipped the corpus, not the queries
            for packed in sorted(path.glob("queries.jsonl.*")):
                if packed.is_file() and packed.suffix in PACKED:
                    raise FormatError(packed, "BEIR queries are read as plain queries.jsonl; "
                                      f"decompress this one first (for example: gunzip -k "
                                      f"{packed.name})", field="path")
        if not overridden:
            return read_beir(path, split)
        corpus = read_corpus_jsonl(path / "corpus.jsonl", name=name)
        held = _first_file(path / f"queries.{split}.jsonl", path / "queries.jsonl")
        if held is not None:  # --qrels alone: the folder's own queries, those judgments
            own_queries = partial(read_queries_jsonl, held, name=name)
    elif path.is_dir() and is_openvault_folder(path):
        if not overridden:
            return read_openvault(path, split)
        corpus = read_memories(path / MEMORIES_FILE, name=name)
        read_query_file = read_contexts
        _refuse_topics_for(path, queries, topic_field, CONTEXTS_SAID)
        own_queries = partial(read_contexts, path / CONTEXTS_FILE, name=name)
    elif is_pi_memory_folder(path):
        corpus = read_decisions(path / DECISIONS_FILE, name=name, skipped=skipped)
        log = path / INJECTIONS_FILE
        injections = read_injections(log) if log.is_file() else None
        prompts = (injection_queries(injections, name=name) if injections is not None
                   else QuerySet((), name=name))
        settings_file = path / SETTINGS_FILE
        # present but no file (a folder): said, as a malformed one is; absent: none, as the
        # original falls back to none
        settings = read_pi_settings(settings_file) if settings_file.exists() else {}
        if injections is not None and injections.skipped:  # said by `load_warnings`
            settings = {**settings, "injections_skipped": [
                f"{log}:{line}: {why}" for line, why in injections.skipped]}
        if injections is not None and injections.kept:  # said by `load_warnings`
            settings = {**settings, "injections_kept": [
                f"{log}:{line}: {why}" for line, why in injections.kept]}
        if not overridden:
            return Dataset(name=name, corpus=corpus, queries=prompts, source=str(path),
                           settings=settings)
        own_queries = partial(QuerySet, prompts, name=name)
    elif path.is_dir() and (path / EVAL_FILE).is_file():
        if overridden:
            raise FormatError(path, "eval cases carry their own queries and judgments; give "
                              "no queries or qrels", field="queries")
        return read_eval_cases(path / EVAL_FILE, name=name)
    elif (reading := collection_reading(path)) == PYSERINI:
        not_shards: list[Path] = []
        corpus = read_documents(path, name=name, skipped=not_shards)
        # GitHub's Markdown, hidden, is passed over unsaid by the reading: said with the rest
        not_shards += sorted(path / n for n in note_names(path) if n.startswith(".github/"))
        if not_shards:  # said by `load_warnings`
            settings = {**settings, PYSERINI_FILES_SKIPPED: [str(f) for f in not_shards]}
        if notes_count := len(_notes(path)):  # said with them: why the notes were not read
            # the documents as read, all of them: the count that decided stopped past the bar,
            # and said as the count it had read '(more than 2)' of 200 (dr8 3)
            settings = {**settings, PYSERINI_NOTES_OUTNUMBERED: [
                notes_count, len(corpus), shards_bar(notes_count)]}
    elif reading == VAULT:
        _refuse_a_folder_of_datasets(path)
        _refuse_a_card_as_a_vault(path)
        shards = shard_files(path)
        if shards:  # said by `load_warnings`: the shards beside the notes are not read
            names = _notes(path)
            why = "export" if _is_export(path, names) else "count"
            bar = shards_bar(len(names))
            # counted in full where the count decided (it stopped within the bar); an export
            # of the notes is counted on past it, as its documents are said (dr8 3)
            counted = shard_documents(path, bar if why == "count" else sys.maxsize)
            settings = {**settings, VAULT_SHARDS_SKIPPED: [
                [str(f) for f in shards], len(names), counted, why, bar]}
        if not overridden:
            vault = read_vault(path, split, skipped=skipped)
            return replace(vault, settings={**vault.settings, **settings})
        notes, home = vault_layout(path)
        corpus = read_vault_notes(notes, name=name, skipped=skipped)
        held = None if home is None else _first_file(home / "queries.jsonl")
        if held is not None:
            own_queries = partial(read_query_file, held, name=name)
    elif _pyserini_lines(path):
        corpus = read_documents(path, name=name)
    elif reading == TREC or (path.is_file() and is_trec_documents(path)):
        no_records: list[Path] = []
        not_utf8: list[tuple[Path, int, int]] = []
        not_text: list[tuple[Path, str]] = []
        corpus = read_trec_documents(path, name=name, skipped=no_records, not_utf8=not_utf8,
                                     not_text=not_text)
        if no_records:  # said by `load_warnings`
            settings = {**settings, TREC_FILES_SKIPPED: [str(f) for f in no_records]}
        if not_text:  # said by `load_warnings`
            settings = {**settings, TREC_FILES_NOT_TEXT: [[str(f), why] for f, why in not_text]}
        if not_utf8:  # said by `load_warnings`
            settings = {**settings, TREC_NOT_UTF8: [[str(f), n, line] for f, n, line in not_utf8]}
    elif path.is_file() and path.suffix.lower() == ".json":
        _refuse_a_session(path)
        corpus = read_memories(path, name=name)
        read_query_file = read_contexts
        _refuse_topics_for(path, queries, topic_field, CONTEXTS_SAID)
    elif path.is_file() and path.suffix.lower() == ".jsonl" and is_sillytavern_chat(path):
        chat = read_sillytavern_chat(path)
        if not overridden:
            return chat
        corpus = chat.corpus
        read_query_file = read_contexts
        _refuse_topics_for(path, queries, topic_field, CONTEXTS_SAID)
        own_queries = partial(QuerySet, chat.queries, name=name)
    elif path.is_file() and path.suffix.lower() == ".jsonl" and _pi_kind(path) == "eval":
        if overridden:
            raise FormatError(path, "eval cases carry their own queries and judgments; give "
                              "no queries or qrels", field="queries")
        return read_eval_cases(path, name=name)
    elif path.is_file() and path.suffix.lower() == ".jsonl" and _pi_kind(path) == "log":
        raise FormatError(path, "an injections log holds no decisions: open the memory "
                          f"folder or its {DECISIONS_FILE}", field="path")
    elif path.is_file() and path.suffix.lower() == ".jsonl" and is_decisions_file(path):
        corpus = read_decisions(path, name=name, skipped=skipped)
    elif path.is_file() and path.suffix.lower() in DOCUMENT_SUFFIXES:
        corpus = read_documents(path, name=name)
        said = decision_lookalike(path)
        if said:
            settings = {**settings, READ_AS_DOCUMENTS: said}
    else:
        _refuse_the_wrong_kind(path)
        _refuse_topics_as_documents(path)
        raise FormatError(path, EXPECTED + archives_hint(path), field="path")

    if queries is not None:
        query_set = read_query_file(queries, name=name)
    elif qrels is not None and own_queries is not None:
        query_set = own_queries()
    elif qrels is not None:
        raise FormatError(Path(qrels), f"judgments without their queries: {path.name} holds "
                          "documents only; give the query file too (--queries on the command "
                          "line, File ▸ Open queries or tasks… in the window)", field="path")
    else:
        return Dataset(name=name, corpus=corpus, queries=QuerySet((), name=name),
                       source=str(path), settings=settings)
    judgments = None if qrels is None else read_qrels(qrels)
    if judgments is not None and qrels is not None:
        # judgments of queries the query set lacks are left aside, as trec_eval leaves them
        # (a subset of the queries is a query set too); a file that judges none of them is
        # the wrong file: the strict read names its first line
        unmatched = sorted(q for q in judgments if q not in query_set.index)
        if len(unmatched) == len(judgments):
            read_qrels(qrels, query_ids=query_set.index)
        if unmatched:
            judgments = {q: j for q, j in judgments.items() if q in query_set.index}
            settings = {**settings, QRELS_UNMATCHED: unmatched}
        refuse_unjudgeable(judgments, corpus, qrels)
    judged = judged_subset(query_set, judgments)
    return Dataset(name=name, corpus=corpus, queries=judged, qrels=judgments, source=str(path),
                   settings=settings, unjudged_left_out=len(query_set) - len(judged))


def decision_lookalike(path: Path) -> str | None:
    """What a .jsonl file read as plain documents is read as, where its first record holds
    keys only pi-lodestone writes (a cwd, a source of manual, extracted or turn, a kbPath,
    supersededBy or retrieval/injection count) but not all that tell a decision: the same
    records named decisions.jsonl are read as decisions, so the name chose. A dated title and
    text, or a project, is any corpus's (a blog export): no note (dr4 2). The note is for
    decision-memory only (`common.load_data` prints it when that model is in use)."""
    if path.suffix.lower() != ".jsonl":
        return None
    first = first_record(path)
    if first is None:
        return None
    own: list[str] = [k for k in ("cwd", "kbPath", "supersededBy", "retrievalCount",
                                  "injectionCount") if k in first]
    if first.get("source") in SOURCES:
        own.append("source")
    if not own:
        return None
    has = [k for k in ("createdAt", "source", "cwd", "project") if k in first]
    lacks = [str(k) for k in SIGNATURE if k not in first]
    # decision-memory reads a plain document's metadata keys as a decision's (record_of):
    # only the keys missing count as absent (dr4 1: the note said source and project were
    # not read)
    read = [k for k in RECORD_KEYS if k in first]
    absent = []
    if "source" not in first:
        absent.append("no source: not manual")
    if "cwd" not in first and "project" not in first:
        absent.append("no cwd or project: no locality bonus")
    if "createdAt" not in first:
        absent.append("no createdAt: no age bonus")
    reads = (f"decision-memory reads its {and_list(read)} from the metadata as a decision's"
             if read else "decision-memory finds none of a decision's keys in its metadata")
    return (f"{path.name} is read as plain documents (id, title, text, tags; its other keys "
            "kept as metadata), not as pi-lodestone decisions: its first record has "
            f"{and_list(has)}" + (f" but no {and_list(lacks, 'or')}" if lacks else "")
            + f". {reads}" + (f" ({'; '.join(absent)})" if absent else "")
            + f"; named {DECISIONS_FILE}, the file is read as decisions, and a record without "
            "a source is left out")


def refuse_unreadable(path: StrPath) -> None:
    """The error `load_dataset` gives a path no format reads (a .toml, a folder holding only
    a .7z), told from the path's kind, names and first bytes, nothing read through: the
    window checks its DATA so before it opens (dr4 3: it had opened with nothing said on the
    terminal). A path some format takes passes, though reading it may still fail."""
    path = Path(path)
    if path.is_dir():
        if (is_code_repo(path) or is_sample_stream_folder(path) or is_openvault_folder(path)
                or is_pi_memory_folder(path) or (path / "corpus.jsonl").is_file()
                or (path / EVAL_FILE).is_file()):
            return
        _refuse_unreadable_beir_corpus(path)
        if collection_reading(path):
            return
    elif path.is_file() and (path.suffix.lower() in (".json", *DOCUMENT_SUFFIXES)
                             or _pyserini_lines(path) or is_trec_documents(path)):
        return
    _refuse_the_wrong_kind(path)
    _refuse_topics_as_documents(path)
    raise FormatError(path, EXPECTED + archives_hint(path), field="path")


def dataset_splits(path: StrPath) -> list[str]:
    """The splits a BEIR, OpenVault or vault folder judges (its qrels/<split>.tsv names,
    sorted); none for any other dataset. A file whose header names another third column than BEIR's
    `score` (Cranfield's `raw_cranqrel.tsv`: `cleverdon-code`, 1 the most relevant) holds no
    grades to score by: not offered as a split."""
    path = Path(path)
    if not path.is_dir():
        return []
    qrels = path / "qrels"
    if not ((path / "corpus.jsonl").is_file() or is_openvault_folder(path)):
        # a vault judges its queries.jsonl in qrels/<split>.tsv beside its notes (`read_vault`)
        # — where `load_dataset` would read the folder as one: not a repository (its
        # README.md), a pi-memory folder, eval cases, or a BEIR folder whose corpus is packed
        if (is_code_repo(path) or is_sample_stream_folder(path) or is_pi_memory_folder(path)
                or (path / EVAL_FILE).is_file() or any(path.glob("corpus.jsonl.*"))):
            return []
        _, home = vault_layout(path)
        if home is None or not (home / "queries.jsonl").is_file() \
                or not (home / "qrels").is_dir() or not has_notes(path):
            return []
        qrels = home / "qrels"
    return sorted(p.stem for p in qrels.glob("*.tsv") if p.is_file() and not other_header(p))


def split_overlap(path: StrPath, train: str, held: str) -> tuple[int, int]:
    """(how many of the queries split `train` judges split `held` judges too, how many
    `train` judges), from the folder's qrels/<split>.tsv files. A split all of whose queries
    the held-out split judges leaves nothing to tune on that is not held out: Cranfield's
    test.binary judges test's 225 queries again, graded 0/1."""
    qrels = Path(path) / "qrels"
    ours = _judged_ids(qrels / f"{train}.tsv")
    return len(ours & _judged_ids(qrels / f"{held}.tsv")), len(ours)


def _judged_ids(path: Path) -> frozenset[str]:
    """The query ids a qrels file names (its first column, a header line aside); none for a
    file that is not there."""
    try:
        stat = path.stat()
    except OSError:
        return frozenset()
    return _judged_ids_of(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _judged_ids_of(path: str, _mtime_ns: int, _size: int) -> frozenset[str]:
    """`_judged_ids`, kept while the file is unchanged (the Tune tab asks on each refresh).
    Read leniently: a file that is not UTF-8 is said when it is read as a split, not here
    (the Tune tab's refresh had stopped halfway on another split's bad byte)."""
    ids: set[str] = set()
    try:
        text_all = Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return frozenset()
    for _, text in numbered_lines(text_all.removeprefix("\ufeff")):
        first = text.split("\t", 1)[0].strip()
        if first and not (not ids and first.lower() == "query-id"):
            ids.add(first)
    return frozenset(ids)


PYSERINI, VAULT, TREC = "pyserini", "vault", "trec"


def folder_reading(folder: Path) -> str:
    """How `load_dataset` reads a folder as a collection: PYSERINI, VAULT or TREC
    (`collection_reading`); "" for a folder it reads otherwise (a repository, BEIR, OpenVault,
    pi-memory, eval cases) or not at all. The output guard asks this, so that it names the
    files the reading reads (an `eval VAULT --run VAULT/run.trec` had been refused as a TREC
    input because the vault held a backup.7z)."""
    if not folder.is_dir() or is_code_repo(folder) or is_sample_stream_folder(folder) or any(
            (folder / f).is_file() for f in ("corpus.jsonl", EVAL_FILE)):
        return ""
    if is_openvault_folder(folder) or is_pi_memory_folder(folder):
        return ""
    return collection_reading(folder)


def collection_reading(path: Path) -> str:
    """PYSERINI, VAULT or TREC for a folder no other format took, "" for none of them (a
    file too).

    - Pyserini's shards: a .json or .jsonl file holding `id` and `contents` in its first
      record (`is_documents_folder`), in a folder with no notes (cards aside), or whose
      few notes the shards' documents clearly outnumber (`_shards_win`): a README.md, a
      CONTRIBUTING.md or a docs/index.md beside the shards had made the folder a vault of
      those files, the shards dropped without a word (dr1 5, dr4 1); the Markdown is named
      as skipped, with the counts that decided;
    - a vault: any other folder with notes (a stray export.json of id and contents among
      the notes, or a notes/index.jsonl, is not the corpus: the 45 notes had been dropped for
      it; an export of the notes themselves, as many records as notes or more, had too, dr7
      1; such files are named as not read) whose first files hold no <DOC> record (a TREC
      folder's README.md is no note);
    - TREC: a folder of <DOC> files (`is_trec_documents`)."""
    if not path.is_dir():
        return ""
    if has_notes(path):
        if is_documents_folder(path) and _shards_win(path):
            return PYSERINI
        if not has_trec_records(path):
            return VAULT
    elif is_documents_folder(path):
        return PYSERINI
    return TREC if is_trec_documents(path) else ""


def _notes(folder: Path) -> list[str]:
    """The folder's `*.md` files that are notes, not a dataset's cards (README.md, LICENSE.md
    …, at any depth: a part's own README) nor GitHub's (under .github/: a pull request
    template)."""
    return [name for name in note_names(folder) if not _is_card(name)]


EXPORT_SAMPLE = 50  # records whose ids and titles tell an export of the notes


def _shards_win(folder: Path) -> bool:
    """Whether a folder holding both `*.md` files and Pyserini shards is read as the shards:
    it has no notes but cards (a notes/ holding only its README among them: dr7 2), or its
    shards are no export of its notes (`_is_export`) and their documents, counted only that
    far, exceed `_shards_bar` of the notes. A notes/ subfolder of two notes beside 200
    documents no longer decides it alone."""
    notes = _notes(folder)
    if not notes:
        return True
    if _is_export(folder, notes):
        return False
    bar = shards_bar(len(notes))
    return shard_documents(folder, bar) > bar


def _is_export(folder: Path, notes: list[str]) -> bool:
    """Whether the folder's shards are an export of its notes: half or more of their first
    records are named (id or title) for a note, by its path or its file name without .md
    (note01, daily/mon.md, note01.md#2 for a chunk), case aside."""
    def key(name: str) -> str:
        name = name.split("#", 1)[0].strip().lower()
        return name[:-3] if name.endswith(".md") else name

    known = {key(n) for n in notes} | {key(n.rsplit("/", 1)[-1]) for n in notes}
    records = shard_names(folder, EXPORT_SAMPLE)
    hits = sum(any(key(n) in known or key(n.rsplit("/", 1)[-1]) in known for n in names)
               for names in records)
    return bool(records) and 2 * hits >= len(records)


def _is_card(name: str) -> bool:
    """Whether a `*.md` file, by its relative posix path, is a card, not a note."""
    return name.startswith(".github/") or name.rsplit("/", 1)[-1].split(".")[0].lower() in (
        CARD_NAMES)


def _first_file(*paths: Path) -> Path | None:
    return next((p for p in paths if p.is_file()), None)


def _pyserini_lines(path: Path) -> bool:
    """A file of JSON lines whose first holds `id` and `contents`, by its content whatever
    its name: a shard as Pyserini writes them (docs00.json, not OpenVault memories, whose
    records hold a summary), a .txt; or a .json file of a JSON array of such objects (or one
    such object), as JsonCollection reads one. A .jsonl, .csv or .tsv is read as documents
    in any case (after the formats they may be)."""
    if not path.is_file() or path.suffix.lower() in DOCUMENT_SUFFIXES:
        return False
    first = first_record_object(path)
    if first is None or "contents" not in first or not ("id" in first or "_id" in first):
        return False
    if isinstance(first["contents"], list):  # dr5 7: had said "expected a string"
        raise FormatError(path, "the TREC Washington Post collection ('contents' a list of "
                          "paragraphs, which Anserini reads with WashingtonPostCollection) is "
                          "not read: write its articles as JSON lines of id and contents (the "
                          "text) first", line=1, field="contents")
    return True


def _pi_kind(path: Path) -> str:
    """"eval" or "log" when the first record looks like pi-lodestone's, else ""."""
    first = first_record(path)
    if first is None:
        return ""
    if all(k in first for k in EVAL_SIGNATURE):
        return "eval"
    if all(k in first for k in INJECTION_KEYS):
        return "log"
    return ""
