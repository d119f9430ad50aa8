"""What a dataset loads with that the user should hear about: it loads, but it will not score
as they may think. Each check returns lines for the CLI's warnings and the window's message.

- relevant judgments naming documents the corpus lacks (trec_eval counts them as relevant
  documents no ranking can retrieve, so recall and nDCG stay below 1);
- judgments none of which marks a document relevant (every metric 0); where some do and not
  one of those is in the corpus, `refuse_unjudgeable` refuses the judgments as the readers
  load them;
- eval cases that cannot fail or cannot pass: neither list, a must_not_include id or an
  expected id that is none of the case's own decisions (`cases.case_flaws`);
- judgments of queries the query set lacks (left aside, as trec_eval leaves them), and
  queries without judgments (left out, BEIR's convention: `left_out_text`, said beside the
  counts, not as a warning);
- memories of a SillyTavern chat that OpenVault would not retrieve (left out of the corpus, or,
  where that is every memory, kept and said);
- queries with empty text and no chat (no term to match);
- repository tasks of which some name a snapshot and some do not (those without are scored
  against the snapshot the others name);
- repository files left out of the index (a partial clone's missing blobs, Git LFS pointers,
  files over 10 MB): tasks needing them count them as missed.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from os import PathLike
from pathlib import Path

from workbench.core.cases import case_flaws, has_cases
from workbench.core.data import Corpus, Dataset, FormatError, Qrels

SHOWN = 3  # examples named per warning
UNICODE_MATCHED = "qrels_unicode_matched"  # a load note: [judged id, the corpus id it matched]
MEANT_MAX = 1_000_000  # ids: a larger corpus is not searched for what a judgment meant
TYPED_QUERIES = "command line"  # the name of the query set of a --query text (`cli.common`)


def with_value(dataset: Dataset, query_id: str, value: object) -> str:
    """A query and a value of its context, as a warning lists them: "q7 'garbage'", and for a
    typed query "the typed query ('garbage')" (dr4 8: its id, "query", read as a label of the
    value: "query 'garbage'")."""
    if dataset.queries.name == TYPED_QUERIES:
        return f"the typed query ({value!r})"
    return f"{query_id} {value!r}"


def left_out_text(dataset: Dataset, split: str = "") -> str:
    """The queries of the query file its judgments do not judge, left out of the query set
    (BEIR's convention), said beside the judged count: "36 without judgments left out" (CISI);
    with `split`, for a folder judged in several, "300 not judged in split train, left
    out" (SciFact's train: test's queries). "" when none was."""
    n = dataset.unjudged_left_out
    if not n:
        return ""
    if split:
        return f"{n:,} not judged in split {split}, left out"
    return f"{n:,} without judgments left out"


def _documents_held(documents: int, bar: int) -> str:
    """The shard documents, counted only past the bar that decides (`shards_bar`): 'more than
    N' where the count stopped there."""
    return f"{documents:,}" if documents <= bar else f"more than {bar:,}"


def unicode_forms(ids: Iterable[str], index: Mapping[str, int]) -> dict[str, list[str]]:
    """Each of `ids` not in `index` that reads the same as ids of it stored in another
    Unicode form, with those ids (sorted): a file name macOS stores decomposed (NFD, `e` and
    a combining diaeresis) and an editor types composed (NFC, `ë`) print alike but differ.
    Compared in NFC; one pass over the corpus's ids that are not ASCII, only where a missing
    id is not ASCII."""
    wanted: dict[str, list[str]] = {}
    for did in dict.fromkeys(ids):
        if did not in index and not did.isascii():
            wanted.setdefault(unicodedata.normalize("NFC", did), []).append(did)
    if not wanted:
        return {}
    found: dict[str, list[str]] = {}
    for cid in index:
        if not cid.isascii():
            key = (cid if unicodedata.is_normalized("NFC", cid)
                   else unicodedata.normalize("NFC", cid))
            if key in wanted:
                found.setdefault(key, []).append(cid)
    return {did: sorted(found[key]) for key, dids in wanted.items() if key in found
            for did in dids}


def match_unicode_forms(dataset: Dataset) -> Dataset:
    """`dataset` with each judged id the corpus lacks, but holds exactly one id of in another
    Unicode form (`unicode_forms`), judging that id; the pairs kept in the settings for
    `load_warnings` to say once (rv2 4: a note named in NFD on macOS, judged as typed, was
    "not in the corpus"). An id that matches exactly, or two corpus ids, is left as it is."""
    if not dataset.qrels:
        return dataset
    forms = unicode_forms((d for judged in dataset.qrels.values() for d in judged),
                          dataset.corpus.index)
    unique = {did: cids[0] for did, cids in forms.items() if len(cids) == 1}
    if not unique:
        return dataset
    qrels: dict[str, dict[str, int]] = {}
    matched: dict[str, str] = {}
    for qid, judged in dataset.qrels.items():
        qrels[qid] = {}
        for did, grade in judged.items():
            cid = unique.get(did)
            if cid is not None and cid not in judged:  # judged in both forms: the exact one
                matched[did] = cid
                did = cid
            qrels[qid][did] = grade
    if not matched:
        return dataset
    settings = {**dataset.settings, UNICODE_MATCHED: sorted(matched.items())}
    return replace(dataset, qrels=qrels, settings=settings)


def _form(text: str) -> str:
    """The Unicode form `text` is in, as a user would look it up."""
    return next((form for form in ("NFC", "NFD") if unicodedata.is_normalized(form, text)),
                "a mixed form")


def _unicode_matched_text(pairs: list[tuple[str, str]]) -> str:
    shown = [f"{cid} (judged in {_form(did)}, stored in {_form(cid)})" for did, cid in pairs]
    return (f"{len(pairs):,} judged document id(s) matched to the corpus id that reads the same "
            f"in another Unicode form ({_examples(shown)}): scored as that document; write "
            "the judgments' ids as the files are stored to drop this note")


def _unicode_twins_text(forms: dict[str, list[str]]) -> str:
    """Said after the ids not in the corpus: those held in another Unicode form, where more
    than one corpus id reads the same (no guess)."""
    if not forms:
        return ""
    shown = [f"{did} ({_form(did)}): {' and '.join(f'{c!r} ({_form(c)})' for c in cids)}"
             for did, cids in forms.items()]
    return (f"; the corpus holds ids that read the same in another Unicode form ("
            f"{_examples(shown)}): write the judgment's id as the document's is stored")


def load_warnings(dataset: Dataset) -> list[str]:
    """One line per kind of problem, counted, with a few examples."""
    out: list[str] = []
    corpus = dataset.corpus.index
    matched = [(str(d), str(c)) for d, c in dataset.settings.get(UNICODE_MATCHED) or []]
    if matched:
        out.append(_unicode_matched_text(matched))
    ghosts = [(qid, did) for qid, judged in (dataset.qrels or {}).items()
              for did, grade in judged.items() if grade > 0 and did not in corpus]
    if ghosts:
        missing = list(dict.fromkeys(d for _, d in ghosts))
        forms = unicode_forms(missing, corpus)
        meant = _meant([d for d in missing if d not in forms], corpus)
        out.append(f"{len(ghosts):,} relevant judgment(s) name documents not in the corpus "
                   f"({_examples([f'{q}→{d}' for q, d in ghosts])}): they count as relevant "
                   "documents no ranking can retrieve" + _did_you_mean(meant)
                   + _unicode_twins_text(forms))
    grades = [g for judged in (dataset.qrels or {}).values() for g in judged.values()]
    if grades and max(grades) <= 0 and not has_cases(dataset):  # cases pass or fail anyway
        # (pi-lodestone's must_not_include cases judge only what must stay out)
        out.append(f"none of the {len(grades):,} judgments marks a document relevant (every "
                   "grade is 0 or below): every metric is 0 whatever the ranking, and tuning "
                   "has nothing to rise on")
    out += _case_warnings(dataset)
    unmatched = list(dataset.settings.get("qrels_unmatched") or [])
    if unmatched:
        out.append(f"judgments of {len(unmatched):,} quer{'y' if len(unmatched) == 1 else 'ies'}"
                   f" the query set lacks left aside ({_examples(unmatched)}), as trec_eval "
                   "leaves them")
    broken = list(dataset.settings.get("injections_skipped") or [])
    if broken:
        out.append(f"{len(broken):,} line(s) of the injections log skipped, as pi-lodestone "
                   f"skips them: their prompts are not among the queries (first: {broken[0]})")
    kept = list(dataset.settings.get("injections_kept") or [])
    if kept:
        out.append(f"{len(kept):,} line(s) of the injections log read despite a flaw, as "
                   f"pi-lodestone reads them (first: {kept[0]})")
    out += _trec_skipped_warnings(dataset)
    not_utf8 = list(dataset.settings.get("trec_not_utf8") or [])
    if not_utf8:  # Anserini's readers decode UTF-8 so: a crawl keeps each server's charset
        count = sum(n for _, n, _ in not_utf8)
        first, _, line = not_utf8[0]
        where = (f"{first}:{line}" if len(not_utf8) == 1 else
                 f"{len(not_utf8):,} files, first {first}:{line}")
        out.append(f"{count:,} byte(s) that are not UTF-8 ({where}) read as U+FFFD, as "
                   "Anserini reads them (a crawled page keeps its server's charset): the words "
                   "holding one match no query word")
    not_shards = list(dataset.settings.get("pyserini_files_skipped") or [])
    outnumbered = dataset.settings.get("pyserini_notes_outnumbered")
    if not_shards:
        why = ""
        if outnumbered:  # the notes skipped, and why (dr7 1)
            notes, documents, bar = outnumbered
            # the documents as read, never the count that stopped at the bar ('more than 2'
            # of 200, dr8 3)
            why = (f": its {notes:,} note(s) are outnumbered"
                   f"{'' if bar == notes else ' more than ten to one'} by the shards' "
                   f"{documents:,} documents; move the .json/.jsonl files out to read the "
                   "Markdown as a vault")
        out.append(f"{len(not_shards):,} file(s) of the Pyserini folder are not .json or "
                   f".jsonl shards and were skipped, as not documents "
                   f"({_examples(not_shards)}){why}")
    vault_shards = dataset.settings.get("vault_shards_skipped")
    if vault_shards:
        files, notes, documents, *reason = vault_shards
        bar = reason[1] if len(reason) > 1 else notes
        # an export is counted in full; a count that decided stopped within the bar
        held = f"{documents:,}" if reason[:1] == ["export"] else _documents_held(documents, bar)
        if reason[:1] == ["export"]:
            why = f"they are an export of its {notes:,} notes, named for them"
        elif notes > documents:  # 'not outnumbered ten to one' read as if they were (dr8 2)
            why = f"its {notes:,} notes outnumber the shards' {documents:,} document(s)"
        else:
            why = (f"its {notes:,} notes are not outnumbered "
                   f"{'' if bar == notes else 'ten to one '}by the shards' documents")
        out.append(f"{len(files):,} .json/.jsonl file(s) of id and contents records (Pyserini "
                   f"shards, {held} document(s)) not read ({_examples(files)}): this folder is "
                   f"read as a vault, as {why}; give a shard file itself as DATA to read "
                   "its documents")
    visible = list(dataset.settings.get("memories_visible") or [])
    if visible == ["*"]:
        out.append("no memory's earliest message is hidden (is_system) in this chat, so "
                   "OpenVault would retrieve none of them: every memory is scored here")
    elif visible:
        out.append(f"{len(visible):,} memor{'y' if len(visible) == 1 else 'ies'} left out "
                   f"({_examples(visible)}): their earliest message is still visible in the "
                   "chat (or they name none), and OpenVault retrieves only memories of hidden "
                   "messages")
    odd = [f"{d.id} ({d.metadata['importance']:g})" for d in dataset.corpus
           if "message_ids" in d.metadata and _number(d.metadata.get("importance"))
           and not (d.metadata["importance"] == 0 or 1 <= d.metadata["importance"] <= 5)]
    if odd:  # OpenVault memories (they carry message_ids): importance is 1-5
        out.append(f"{len(odd):,} memor{'y has' if len(odd) == 1 else 'ies have'} an importance "
                   f"outside 1–5 ({_examples(odd)}): scored as given (the forgetting "
                   "curve's base is proportional to it)")
    # a chat's query is built from its messages: its own text may well be empty
    empty = [q.id for q in dataset.queries if not q.text.strip() and not q.context.get("messages")]
    if empty:
        out.append(f"{len(empty):,} quer{'y has' if len(empty) == 1 else 'ies have'} empty "
                   f"text ({_examples(empty)}): no term to match; they rank only by what "
                   "does not read the query (such as hybrid's forgetting-curve base), if the "
                   "model has any")
    # a context's query is its newest user message: a chat state with none is empty too
    no_text = dataset.queries.no_text
    untexted = [f"{q.id}, {no_text[q.id]}" for q in dataset.queries
                if q.id in no_text and not q.text.strip()]
    if untexted:
        out.append(f"{len(untexted):,} quer{'y has' if len(untexted) == 1 else 'ies have'} "
                   f"empty text ({untexted[0]}"
                   + (f"; … {len(untexted) - 1:,} more" if len(untexted) > 1 else "")
                   + "): no user's words to match; only what does not read them scores "
                   "(hybrid's forgetting-curve base, the names the chat mentions)")
    with_snapshot = [q.id for q in dataset.queries if q.context.get("snapshot")]
    if with_snapshot:
        without = [q.id for q in dataset.queries if not q.context.get("snapshot")]
        if without:
            out.append(f"{len(without):,} task(s) name no snapshot ({_examples(without)}): "
                       "scored against the snapshot the other tasks name")
    unpinned = dataset.settings.get("repo_unpinned")
    if isinstance(unpinned, list) and len(unpinned) == 2:
        n, commit = unpinned
        out.append(f"the {n:,} task(s) name no snapshot, so the repository is indexed at its "
                   f"HEAD ({str(commit)[:10]}), whose history may already hold their changes: "
                   "similar past commits, co-change, churn and recency can see the answers, "
                   "and the figures run higher than on new tasks (a task's own commit, where "
                   "it names one, is left out; later ones are not). Give each task its "
                   "snapshot, the commit before it (tasks-from-git writes it)")
    # binaries are left out of every index and never a code task's answer: not said
    shallow = dataset.settings.get("repo_shallow")
    if isinstance(shallow, int):
        out.append(f"the repository is a shallow clone ({shallow:,} commit"
                   f"{'' if shallow == 1 else 's'} of history): churn, recency, co-change and "
                   "similar past commits see only those (`git fetch --unshallow` for the rest)")
    skipped = [(p, why) for p, why in dataset.settings.get("repo_skipped") or []
               if why != "binary"]
    if skipped:
        reasons = Counter(str(why) for _, why in skipped)
        out.append(f"{len(skipped):,} file(s) of the repository left out of the index ("
                   + "; ".join(f"{n:,} {why}" for why, n in reasons.most_common())
                   + f"; {_examples([str(path) for path, _ in skipped])}): no ranking can "
                   "return them")
    return out



def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _case_warnings(dataset: Dataset) -> list[str]:
    """Eval cases whose check cannot fail or cannot pass (`cases.case_flaws`)."""
    if not has_cases(dataset):
        return []
    flaws = case_flaws(dataset)
    out = []
    if flaws.unreachable:
        out.append(f"{len(flaws.unreachable):,} expected_top_ids id(s) of eval cases name "
                   "another case's decision, none of their own case's ("
                   + _examples([f"{c}→{d}" for c, d in flaws.unreachable])
                   + "): pi-lodestone's harness ranks only a case's own corpus, where such "
                   "a case can never pass")
    if flaws.vacuous:
        out.append(f"{len(flaws.vacuous):,} must_not_include id(s) of eval cases name none "
                   "of their case's decisions ("
                   + _examples([f"{c}→{d}" for c, d in flaws.vacuous])
                   + "): pi-lodestone's harness ranks only a case's own corpus, where that "
                   "check can never fail")
    if flaws.empty:
        n = len(flaws.empty)
        out.append(f"{n:,} eval case{'' if n == 1 else 's'} with neither expected_top_ids "
                   f"nor must_not_include ({_examples(list(flaws.empty))}): "
                   f"{'it passes' if n == 1 else 'they pass'} whatever the ranking")
    return out


def refuse_unjudgeable(qrels: Qrels | None, corpus: Corpus, path: str | PathLike[str]) -> None:
    """FormatError, naming `path` (the judgments file) and the line of its first relevant
    judgment, where judgments mark documents relevant and not one of those is in the corpus:
    every metric would be 0 whatever the ranking, and tuning would have nothing to rise on (a
    vault judged as `notes/roasting/first-crack.md` for its roasting/first-crack.md). As
    judgments of no known query are refused; where only some are missing, `load_warnings`
    says so and they count as trec_eval counts them (relevant, never retrieved)."""
    ghosts = [(qid, did) for qid, judged in (qrels or {}).items()
              for did, grade in judged.items() if grade > 0]
    index = corpus.index
    if not ghosts or any(did in index for _, did in ghosts):
        return
    if any(len(cids) == 1 for cids in unicode_forms((d for _, d in ghosts), index).values()):
        return  # `match_unicode_forms` judges the document it names in another form
    path = Path(path)
    qid, did = ghosts[0]
    line, field = _judgment_line(path, qid, did)
    meant = _meant(list(dict.fromkeys(d for _, d in ghosts)), index)
    shown = ", ".join(d.id for d in corpus.documents[:SHOWN])
    more = f", … {len(corpus) - SHOWN:,} more" if len(corpus) > SHOWN else ""
    raise FormatError(
        path, f"none of the {len(ghosts):,} relevant judgment(s) names a document of the "
        f"corpus, so every metric would be 0: expected one of its {len(corpus):,} document "
        f"ids ({shown}{more}), found {did!r} (query {qid!r})" + _did_you_mean(meant)
        + ("" if _shared_prefix(meant) else "; correct the ids in the judgments, or give the "
           "corpus they judge"),
        line=line, field=field)


def _judgment_line(path: Path, qid: str, did: str) -> tuple[int | None, str | None]:
    """(the line of judgments file `path` judging `did` for `qid`, its document column's
    name: BEIR's corpus-id, TREC's docno); (None, None) where it is not found."""
    from workbench.core.formats._common import numbered_lines, read_text

    try:
        text = read_text(path)
    except FormatError:
        return None, None
    for line, row in numbered_lines(text):
        cells = [c.strip() for c in row.split("\t")]
        if len(cells) == 3 and cells[:2] == [qid, did]:
            return line, "corpus-id"
        words = row.split()
        if len(words) == 4 and (words[0], words[2]) == (qid, did):
            return line, "docno"
    return None, None


def _did_you_mean(meant: list[tuple[str, str]]) -> str:
    """"; did you mean …?" for `_meant`'s guesses, "" for none. Where each guess drops the
    same leading folder of the judged id (`notes/`), one is shown and that folder named."""
    if not meant:
        return ""
    spaced = [(d, c) for d, c in meant if c != c.strip()]
    if len(spaced) == len(meant):  # ra 9: the judgments' reader strips its cells
        did, cid = spaced[0]
        more = f" (and {len(meant) - 1:,} more like it)" if len(meant) > 1 else ""
        return (f"; the corpus has {cid!r}, with {_spaces(cid)}, for {did}{more}: the "
                "judgments' cells are read without spaces around them, the corpus's ids as "
                "they are: remove the spaces from the corpus's ids")
    prefix = _shared_prefix(meant)
    if not prefix:
        return "; did you mean " + _examples(
            [f"{c if c == c.strip() else repr(c)} for {d}" for d, c in meant]) + "?"
    did, cid = meant[0]
    more = f" (and {len(meant) - 1:,} more like it)" if len(meant) > 1 else ""
    return (f"; did you mean {cid} for {did}{more}? The judged ids begin with {prefix}, which "
            "the corpus's ids do not: remove it from the judgments")


def _spaces(doc_id: str) -> str:
    """Where `doc_id` has white space around it, in words: "a trailing space"."""
    lead, trail = doc_id != doc_id.lstrip(), doc_id != doc_id.rstrip()
    what = ("white space" if doc_id.strip(" ") != doc_id.strip() else
            "spaces" if len(doc_id) - len(doc_id.strip()) > 1 else "a space")
    where = "before and after it" if lead and trail else "before it" if lead else "after it"
    return f"{what} {where}"


def _shared_prefix(meant: list[tuple[str, str]]) -> str:
    """The leading folder (`notes/`) each judged id has before the corpus id it means, where
    that is one and the same for all of them; "" otherwise."""
    prefixes = set()
    for did, cid in meant:
        path = did.replace("\\", "/")
        tail = path[len(path) - len(cid):]
        prefixes.add(path[:len(path) - len(cid)] if tail.casefold() == cid.casefold() else "")
    (prefix,) = prefixes if len(prefixes) == 1 else ("",)
    return prefix if prefix.endswith("/") and prefix.strip("./") else ""


def _meant(missing: list[str], ids: Sequence[str] | Mapping[str, object]
           ) -> list[tuple[str, str]]:
    """(a judged id the corpus lacks, the one corpus id it most likely means). Both are
    compared with case folded, backslashes read as slashes (`roasting\\first-crack.md`) and
    a leading `./` or `/` dropped; a corpus id also without its file extension (a vault note
    judged as its Obsidian link, `backend/rate-limiting` for backend/rate-limiting.md). Tried
    in turn, the first that matches anything decides, and only where it matches exactly one
    corpus id: the judged id whole; a corpus id it ends (a wikilink's `[[rate-limiting]]`, a
    folder the judgments leave out); the judged id without its leading folders, one at a
    time (`notes/roasting/first-crack.md`: a folder the judgments add). Looked for in
    corpora up to MEANT_MAX ids (one pass over them, keeping only the keys wanted)."""
    if len(ids) > MEANT_MAX:
        return []
    lookups = {did: _lookups(did) for did in missing}
    wanted = {key for keys in lookups.values() for key in keys}
    found: dict[str, set[str]] = {}
    for cid in ids:
        for key in _keys(cid):
            if key in wanted:
                found.setdefault(key, set()).add(cid)
    out = []
    for did in missing:
        for key in lookups[did]:
            hits = found.get(key)
            if hits:  # two notes that fold to it: no guess, and none less close either
                if len(hits) == 1:
                    out.append((did, next(iter(hits))))
                break
    return out


def _folded(doc_id: str) -> str:
    folded = doc_id.strip().replace("\\", "/").casefold()
    while folded.startswith("./"):
        folded = folded[2:]
    return folded.lstrip("/")


def _lookups(did: str) -> list[str]:
    """What a judged id is looked up as, closest first: "=" a whole corpus id, "~" the end
    of one (after a slash)."""
    folded = _folded(did)
    parts = folded.split("/")
    return [f"={folded}", f"~{folded}"] + [f"={'/'.join(parts[i:])}"
                                           for i in range(1, len(parts))]


def _keys(cid: str) -> set[str]:
    """What a corpus id is found by: itself and without its extension, whole ("=") and each
    of their ends after a slash ("~")."""
    folded = _folded(cid)
    name = folded.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    keys = set()
    for form in {folded, folded[:len(folded) - len(name) + dot] if dot > 0 else folded}:
        keys.add(f"={form}")
        parts = form.split("/")
        keys.update(f"~{'/'.join(parts[i:])}" for i in range(1, len(parts)))
    return keys


def _trec_skipped_warnings(dataset: Dataset) -> list[str]:
    """A TREC folder's files passed over: those without <DOC> records (as Anserini passes
    them), its archives and compressed files (with how to unpack them), its other binary
    files (what each is): one warning for each of these that there are."""
    from workbench.core.formats.trec_packed import (
        EMPTY,
        PACKED,
        packed_noun,
        then_move,
        unpack_commands,
    )

    out: list[str] = []
    passed_over = [str(f) for f in dataset.settings.get("trec_files_skipped") or []]
    why = {str(f): str(w) for f, w in dataset.settings.get("trec_files_not_text") or []}
    no_records = [f for f in passed_over if f not in why]
    if no_records:
        out.append(f"{len(no_records):,} file(s) of the TREC folder hold no <DOC> records and "
                   f"were skipped, as Anserini's TrecCollection reads them as no documents "
                   f"({_examples(no_records)})")
    packed = [(f, w) for f, w in why.items() if w in PACKED]
    if packed:  # Anserini opens a .7z as compress (.*?\.\d*z) and fails: not its reading
        one = len(packed) == 1
        kinds = [w for _, w in packed]
        out.append(f"{packed_noun(kinds)} of the TREC folder skipped, not "
                   f"read ({_examples([f for f, _ in packed])}): unpack "
                   f"{'it' if one else 'them'} ({unpack_commands(packed)}"
                   f"{then_move(kinds, one)}) if {'it holds' if one else 'they hold'} "
                   "documents")
    empty = [f for f, w in why.items() if w == EMPTY]
    if empty:  # named as archives, but nothing to unpack (dr1 10)
        out.append(f"{len(empty):,} empty file(s) (0 bytes) of the TREC folder skipped, named "
                   f"as archives or compressed files but holding nothing ({_examples(empty)})")
    binary = [f"{f}: {w}" for f, w in why.items() if w not in PACKED and w != EMPTY]
    if binary:
        out.append(f"{len(binary):,} file(s) of the TREC folder skipped as not text, not read "
                   f"({_examples(binary)})")
    return out


def _examples(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown + (f", … {len(items) - SHOWN:,} more" if len(items) > SHOWN else "")


def skipped_report(skipped: Sequence[FormatError], shown: int = 5) -> list[tuple[str, list[str]]]:
    """What loading passed over (`load_dataset(skipped=…)`), by kind: (heading, the first
    `shown` errors, then "… and N more"). Kinds: a vault's unreadable notes (left out), its
    notes with a flaw (loaded as obsidian-mcp reads them), pi-memory records with a flaw
    (loaded as pi-lodestone loads them, or left out where it would not be), lines that are no
    JSON (skipped as pi-lodestone skips them)."""
    from workbench.core.formats.pi_memory import DecisionKept, DecisionSkipped
    from workbench.core.formats.vault import (
        FolderNotListed,
        InTrash,
        LinkNotListed,
        NoteReadAsText,
        NotNoteEnding,
        UnreadableNote,
    )
    from workbench.core.session_file import SettingsIgnored

    kinds = (
        (FolderNotListed, "folder(s) that cannot be listed, their notes left out"),
        (UnreadableNote, "unreadable note(s) skipped, the other notes loaded"),
        (LinkNotListed, "symbolic link(s) not searched, as obsidian-mcp lists regular files "
                        "only"),
        (NoteReadAsText, "note(s) with a flaw searched all the same, as obsidian-mcp "
                         "searches them"),
        (InTrash, "deleted note(s) in .trash searched, as obsidian-mcp searches them"),
        (NotNoteEnding, "file(s) ending .MD or the like not searched, as obsidian-mcp lists "
                        "'*.md' only (the ending is case-sensitive)"),
        (DecisionKept, "decision record(s) with a flaw loaded all the same, as pi-lodestone "
                       "loads them"),
        (DecisionSkipped, "decision record(s) left out here that pi-lodestone would load"),
        (SettingsIgnored, "workbench.toml setting(s) not read"),
        (FormatError, "malformed line(s) skipped, as pi-lodestone skips them"),
    )
    out: list[tuple[str, list[str]]] = []
    left = list(skipped)
    for kind, what in kinds:
        these = [e for e in left if isinstance(e, kind)]
        left = [e for e in left if not isinstance(e, kind)]
        if these:
            lines = [str(e) for e in these[:shown]]
            if len(these) > shown:
                lines.append(f"… and {len(these) - shown} more")
            # a record with two flaws is one record (3 read "4 … with a flaw")
            records = len({(getattr(e, "path", None), getattr(e, "line", None) or id(e))
                           for e in these})
            out.append((f"{records} {what}", lines))
    return out
