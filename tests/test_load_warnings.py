"""Data that loads but will not score as one may think is said: judgments of documents the
corpus lacks, queries with empty text, tasks without the snapshot the others name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.checks import load_warnings
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet


def _beir(tmp_path: Path) -> Path:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": d, "text": t}) + "\n" for d, t in
        [("d1", "green tea"), ("d2", "black tea")]))
    (folder / "queries.jsonl").write_text("".join(
        json.dumps({"_id": q, "text": t}) + "\n" for q, t in
        [("q1", "green tea"), ("q2", "  ")]))
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td9\t2\nq2\td2\t1\nq2\tgone\t0\n")
    return folder


def test_the_cli_warns_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(_beir(tmp_path)), "-m", "bm25", "--metrics", "r@10"]) == 0
    err = capsys.readouterr().err
    assert "warning: 1 relevant judgment(s) name documents not in the corpus (q1→d9)" in err
    assert "warning: 1 query has empty text (q2): no term to match" in err


def test_tasks_without_the_snapshot_the_others_name() -> None:
    corpus = Corpus([Document("a.py", "", "x")])
    queries = QuerySet([Query("t1", "fix", {"snapshot": "ab12", "commit": "cd34"}),
                        Query("t2", "add", {"commit": "ef56"})])
    (line,) = load_warnings(Dataset("repo", corpus, queries, {"t1": {"a.py": 1}}))
    assert line.startswith("1 task(s) name no snapshot (t2)")
    clean = QuerySet([Query("t1", "fix", {"snapshot": "ab12"})])
    assert load_warnings(Dataset("repo", corpus, clean, {"t1": {"a.py": 1}})) == []


def test_many_examples_are_cut_short() -> None:
    corpus = Corpus([Document("d", "", "x")])
    queries = QuerySet([Query(f"q{i}", "") for i in range(10)])
    (line,) = load_warnings(Dataset("x", corpus, queries, None))
    assert "10 queries have empty text (q0, q1, q2, … 7 more)" in line


def test_files_left_out_of_a_repository_index(tmp_path: Path) -> None:
    from tests.test_repo_index import make_repo
    from workbench.core.formats.code_repo import read_code_repo

    repo = make_repo(tmp_path / "r", {
        "a.py": "x = 1\n",
        "logo.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
        "big.txt": b"line\n" * (2 * 1024 * 1024 + 1),
        "model.bin": b"version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 9\n",
    })
    (line,) = load_warnings(read_code_repo(repo))
    assert line.startswith("2 file(s) of the repository left out of the index (")
    assert "1 too large" in line and "1 Git LFS pointer" in line
    assert "big.txt" in line and "model.bin" in line and "logo.png" not in line  # binaries: no
    assert load_warnings(read_code_repo(make_repo(tmp_path / "clean", {"a.py": "x\n"}))) == []


def test_a_chat_query_with_empty_text_is_not_called_empty() -> None:
    corpus = Corpus([Document("m1", "", "the tower")])
    queries = QuerySet([Query("c1", "", {"messages": [{"mes": "Where is the tower?",
                                                       "is_user": True}]}),
                        Query("q2", " ")])
    said = [w for w in load_warnings(Dataset("d", corpus, queries)) if "empty text" in w]
    assert said == ["1 query has empty text (q2): no term to match; they rank only by what "
                    "does not read the query (such as hybrid's forgetting-curve base), if the "
                    "model has any"]


def test_an_openvault_importance_outside_one_to_five_is_said() -> None:
    corpus = Corpus([Document(i, "", "x", metadata={"importance": imp, "message_ids": [0]})
                     for i, imp in (("a", 3), ("b", 99), ("c", 0), ("d", 0.5))]
                    + [Document("e", "", "x", metadata={"importance": 7})])  # no chat memory
    said = [w for w in load_warnings(Dataset("d", corpus, QuerySet([]))) if "1–5" in w]
    assert said == ["2 memories have an importance outside 1–5 (b (99), d (0.5)): scored as "
                    "given (the forgetting curve's base is proportional to it)"]


def test_tasks_without_a_snapshot_are_said_to_see_their_answers(tmp_path: Path) -> None:
    """Hand-written tasks ({id, task, files}) were scored at HEAD with no word: a task's own
    commit then came back as a "similar past commit" (httpx: R@10 0.775 → 0.863)."""
    import json

    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset

    tasks = [json.loads(line) for line in
             (SAMPLES / "code-repo" / "tasks.jsonl").read_text().splitlines()]
    plain = tmp_path / "tasks.jsonl"
    plain.write_text("".join(json.dumps({k: t[k] for k in ("id", "task", "files")}) + "\n"
                             for t in tasks[:3]))
    unpinned = load_warnings(load_dataset(SAMPLES / "code-repo", queries=plain))
    assert any("the 3 task(s) name no snapshot, so the repository is indexed at its HEAD"
               in line for line in unpinned)
    pinned = load_warnings(load_dataset(SAMPLES / "code-repo"))
    assert not any("name no snapshot" in line for line in pinned)


def test_a_file_of_very_long_lines_is_said_only_where_a_bundle_counts_it() -> None:
    """A 40 KB one-line SVG costs "4 tokens" counted lines × rate, as CodeLedger counts: said
    by codeledger-document, which counts so; codeledger counts it by size, 10,000 tokens
    (40,011 characters / 4), and says nothing; BM25 builds no bundle and says nothing
    (review G, 6: every command, BM25's too, had warned)."""
    from workbench.core.data import Corpus, Dataset, Document, QuerySet
    from workbench.core.models import get_model

    svg = Document("media/logo.svg", "media/logo.svg", "<svg>" + "M0 0L1 1" * 5000 + "</svg>",
                   metadata={"language": "svg"})
    src = Document("a.py", "a.py", "def f():\n    return 1\n" * 400,
                   metadata={"language": "python"})
    ds = Dataset("r", Corpus([svg, src]), QuerySet([]))
    assert not any("very long lines" in line for line in load_warnings(ds))
    doc = get_model("codeledger-document")
    said = doc.data_warnings(ds, doc.schema.resolve({}))
    assert any("1 file(s) of very long lines" in line and "media/logo.svg" in line
               for line in said)
    assert not any("very long lines" in line
                   for line in doc.data_warnings(Dataset("r", Corpus([src]), QuerySet([])),
                                                 doc.schema.resolve({})))
    # a collection's long abstracts are no repository's files: not said
    abstract = Document("d1", "t", ("a long abstract sentence " * 40 + "\n") * 10)
    notes = Dataset("b", Corpus([abstract]), QuerySet([]))
    assert not any("very long lines" in line
                   for line in doc.data_warnings(notes, doc.schema.resolve({})))
    new = get_model("codeledger")
    params = new.schema.resolve({})
    assert not any("very long lines" in line for line in new.data_warnings(ds, params))
    files = new.prepare(ds, params).files
    assert list(files.tokens) == [10003.0, 2560.0]  # ceil(40,011 / 4); 800 lines × 3.2
    assert list(doc.prepare(ds, doc.schema.resolve({})).files.tokens) == [4.0, 2560.0]


def test_judgments_that_mark_nothing_relevant_are_said() -> None:
    """Every grade 0: every metric 0 whatever the ranking, and tune had tuned a constant
    without a word."""
    corpus = Corpus([Document("d1", "", "green tea"), Document("d2", "", "black tea")])
    queries = QuerySet([Query("q1", "green tea"), Query("q2", "black tea")])
    none = Dataset("z", corpus, queries, {"q1": {"d1": 0}, "q2": {"d2": 0, "d1": -1}})
    (line,) = [w for w in load_warnings(none) if "relevant" in w]
    assert line.startswith("none of the 3 judgments marks a document relevant")
    one = Dataset("o", corpus, queries, {"q1": {"d1": 0}, "q2": {"d2": 1}})
    assert not [w for w in load_warnings(one) if "marks a document relevant" in w]


def test_cases_that_only_keep_documents_out_are_not_said_to_score_nothing() -> None:
    """pi-lodestone's must_not_include cases judge only what must stay out (grade 0): they
    pass or fail, and tune maximises them; 'every metric is 0, nothing to rise on' was
    wrong there."""
    corpus = Corpus([Document("d1", "", "green tea"), Document("d2", "", "black tea")])
    queries = QuerySet([Query("c1", "green tea", {"expected_top_ids": [],
                                                  "must_not_include": ["d2"]})])
    cases = Dataset("c", corpus, queries, {"c1": {"d2": 0}})
    assert not [w for w in load_warnings(cases) if "marks a document relevant" in w]


def test_a_record_with_two_flaws_is_counted_once() -> None:
    """Three flawed records, one of them with two flaws, read '4 decision record(s) with a
    flaw'; each flaw is still listed."""
    from workbench.core.checks import skipped_report
    from workbench.core.formats.pi_memory import DecisionKept

    flaws = [DecisionKept("d.jsonl", "title: a lone surrogate", line=3, field="title"),
             DecisionKept("d.jsonl", "id: a lone surrogate", line=5, field="id"),
             DecisionKept("d.jsonl", "id: a lone surrogate", line=7, field="id"),
             DecisionKept("d.jsonl", "a second record of this id", line=7, field="id")]
    ((heading, lines),) = skipped_report(flaws)
    assert heading.startswith("3 decision record(s) with a flaw") and len(lines) == 4


def _judged(ids: list[str], judged: dict[str, int]) -> list[str]:
    corpus = Corpus([Document(d, "", "x") for d in ids])
    return load_warnings(Dataset("vault", corpus, QuerySet([Query("m01", "x")]),
                                 {"m01": judged}))


def test_a_judgment_naming_a_note_as_its_link_is_asked_about() -> None:
    # review 45 rv1, F9: a vault's ids are paths with .md; a judgment written as the note's
    # Obsidian link (no extension), or in another case, was only "not in the corpus"
    notes = ["backend/rate-limiting.md", "people/Zoë Müller.md", "a/index.md", "b/index.md"]
    (line,) = _judged(notes, {"backend/rate-limiting": 3, "people/zoë müller.md": 2,
                              "index": 1, "gone.md": 1})
    assert line.startswith("4 relevant judgment(s) name documents not in the corpus")
    # one note each for the first two; "index" is two notes' name: no guess, and none for
    # "gone.md"
    assert line.endswith("; did you mean backend/rate-limiting.md for backend/rate-limiting, "
                         "people/Zoë Müller.md for people/zoë müller.md?")
    # a wikilink's bare name, where one note has it
    (line,) = _judged(notes, {"Rate-Limiting": 1})
    assert line.endswith("; did you mean backend/rate-limiting.md for Rate-Limiting?")
    # two notes that fold to it: no guess
    (line,) = _judged(["x/A.md", "x/a.MD"], {"x/a": 1})
    assert "did you mean" not in line


def test_judged_ids_written_another_way_are_asked_about() -> None:
    # rv2 6: a backslash, a leading ./ or / and a leading folder the corpus's ids lack
    notes = ["roasting/first-crack.md", "roasting/cooling.md", "glossary.md"]
    (line,) = _judged(notes, {"roasting\\first-crack.md": 1, "./glossary.md": 1})
    assert line.endswith("; did you mean roasting/first-crack.md for roasting\\first-crack.md, "
                         "glossary.md for ./glossary.md?")
    (line,) = _judged(notes, {"/roasting/cooling.md": 1})
    assert line.endswith("; did you mean roasting/cooling.md for /roasting/cooling.md?")
    # one leading folder added to each: shown once, and named (not where one lacks it)
    (line,) = _judged(notes, {"notes/roasting/first-crack.md": 2, "notes/glossary.md": 1,
                              "cooling.md": 1})
    assert line.endswith("; did you mean roasting/first-crack.md for "
                         "notes/roasting/first-crack.md, glossary.md for notes/glossary.md, "
                         "roasting/cooling.md for cooling.md?")
    (line,) = _judged(notes, {"notes/roasting/first-crack.md": 2, "notes/glossary.md": 1})
    assert line.endswith("; did you mean roasting/first-crack.md for "
                         "notes/roasting/first-crack.md (and 1 more like it)? The judged ids begin "
                         "with notes/, which the corpus's ids do not: remove it from the "
                         "judgments")
    # a folder the judgment leaves out, where one note ends so
    (line,) = _judged(["backend/api/limits.md", "limits.txt"], {"api/limits.md": 1})
    assert line.endswith("; did you mean backend/api/limits.md for api/limits.md?")


def _vault(tmp_path: Path, qrels: str) -> Path:
    root = tmp_path / "vault"
    for rel in ("roasting/first-crack.md", "glossary.md"):
        (root / "notes" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "notes" / rel).write_text(f"# {rel}\nroast\n", encoding="utf-8")
    (root / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": "roast"}) + "\n" for q in ("v1", "v2")),
        encoding="utf-8")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    return root


def test_judgments_of_no_document_of_the_corpus_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 6: every judged path carried a leading notes/; the figures were 0.0000, rc 0
    root = _vault(tmp_path, "query-id\tcorpus-id\tscore\nv1\tnotes/glossary.md\t0\n"
                  "v1\tnotes/roasting/first-crack.md\t2\nv2\tnotes/glossary.md\t1\n")
    assert main(["eval", str(root), "-m", "bm25", "--metrics", "ndcg@10"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (f"{root / 'qrels' / 'test.tsv'}:3: field 'corpus-id': none of the 2 relevant "
            "judgment(s) names a document of the corpus, so every metric would be 0: expected "
            "one of its 2 document ids (glossary.md, roasting/first-crack.md), found "
            "'notes/roasting/first-crack.md' (query 'v1'); did you mean "
            "roasting/first-crack.md for notes/roasting/first-crack.md (and 1 more like it)? The "
            "judged ids begin with notes/") in err
    assert "Traceback" not in err
    # one of them right: it scores, and the others are a warning
    (root / "qrels" / "test.tsv").write_text(
        "v1\troasting/first-crack.md\t2\nv2\tnotes/glossary.md\t1\n", encoding="utf-8")
    assert main(["eval", str(root), "-m", "bm25", "--metrics", "ndcg@10"]) == 0
    assert "warning: 1 relevant judgment(s) name documents not in the corpus" \
        in capsys.readouterr().err


def test_trec_judgments_of_no_document_given_with_qrels_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path)
    trec = tmp_path / "judged.qrels"
    trec.write_text("q1 0 d1 0\nq1 0 D1 1\nq2 0 ghost 2\n", encoding="utf-8")
    assert main(["eval", str(folder), "-m", "bm25", "--qrels", str(trec)]) == 2
    err = capsys.readouterr().err
    assert f"{trec}:2: field 'docno': none of the 2 relevant judgment(s)" in err
    assert "found 'D1' (query 'q1'); did you mean d1 for D1?" in err
    assert err.rstrip().endswith("correct the ids in the judgments, or give the corpus they "
                                 "judge")
    # no relevant judgment at all: still the warning that every metric is 0
    trec.write_text("q1 0 ghost 0\n", encoding="utf-8")
    assert main(["eval", str(folder), "-m", "bm25", "--qrels", str(trec)]) == 0
    assert "none of the 1 judgments marks a document relevant" in capsys.readouterr().err


def test_eval_cases_that_cannot_fail_or_cannot_pass_are_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 14: a must_not_include id of no decision of its case, and a case with neither
    # list, passed without a word (an expected id the corpus lacks was warned about)
    from tests.conftest import SAMPLES

    cases = [json.loads(line) for line in
             (SAMPLES / "decisions-eval" / "eval.jsonl").read_text().splitlines()]
    assert [c["name"] for c in cases[:3]] == ["incremental-cache-key",
                                              "superseded-template-engine",
                                              "archived-feed-format"]
    cases[0]["must_not_include"] = ["nope-999"]
    cases[1]["expected_top_ids"] = ["qm-011"]  # case 0's decision, not its own
    cases[2]["expected_top_ids"] = cases[2]["must_not_include"] = []
    path = tmp_path / "eval.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    assert main(["eval", str(path), "-m", "decision-memory"]) == 0
    err = capsys.readouterr().err
    assert ("warning: 1 must_not_include id(s) of eval cases name none of their case's "
            "decisions (incremental-cache-key→nope-999)") in err
    assert ("warning: 1 expected_top_ids id(s) of eval cases name another case's decision, "
            "none of their own case's (superseded-template-engine→qm-011)") in err
    assert ("warning: 1 eval case with neither expected_top_ids nor must_not_include "
            "(archived-feed-format): it passes whatever the ranking") in " ".join(err.split())
    # the sample's own cases: none of these
    assert main(["eval", str(SAMPLES / "decisions-eval"), "-m", "decision-memory"]) == 0
    assert "eval case" not in capsys.readouterr().err


def _no_user_message(folder: Path) -> Path:
    """An OpenVault folder whose third context (c3) has no user message."""
    (folder / "qrels").mkdir(parents=True)
    (folder / "memories.json").write_text(json.dumps([
        {"id": "m1", "summary": "the lighthouse keeper's logbook", "importance": 3,
         "message_ids": [0]},
        {"id": "m2", "summary": "a lamp on the harbour roof", "importance": 3,
         "message_ids": [1]}]))
    contexts = [
        {"_id": "c1", "messages": [{"is_user": True, "mes": "the logbook?"}]},
        {"_id": "c2", "messages": [{"is_user": True, "mes": "the roof"}]},
        {"_id": "c3", "messages": [{"name": "Alex", "is_user": False, "mes": "Count with me."},
                                   {"is_user": True, "is_system": True, "mes": "[hidden]"}]}]
    (folder / "contexts.jsonl").write_text("".join(json.dumps(c) + "\n" for c in contexts))
    (folder / "qrels" / "test.tsv").write_text("c1\tm1\t1\nc2\tm2\t1\nc3\tm2\t1\n")
    return folder


def test_a_context_with_no_user_message_is_said_with_its_id_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ra 3: an OpenVault context whose messages are none of them the user's became an empty
    query in silence (messages: [] was said); dr3 11: the warning names its id, which
    --query-id takes."""
    folder = _no_user_message(tmp_path / "ov")
    assert main(["eval", str(folder), "-m", "bm25", "--metrics", "r@10"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert (f"warning: 1 query has empty text (c3, {folder / 'contexts.jsonl'}:3: field "
            "'messages': no user message (is_user, not is_system) to take the query from): no "
            "user's words to match") in said


def test_the_no_user_message_note_is_no_part_of_the_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dr3 1: the note held the file's path in the query's context, so the same data opened
    by another path (relative, or a copy) had another fingerprint: tune studies started anew
    and the prepare cache missed. dr3 10: a typed query inherited it, and a saved session
    stored it with an absolute path."""
    import shutil

    from workbench.core.formats import load_dataset
    from workbench.core.session import TuningSession
    from workbench.core.session_file import session_dict

    folder = _no_user_message(tmp_path / "ov")
    copy = tmp_path / "elsewhere" / "ov2"
    shutil.copytree(folder, copy)
    monkeypatch.chdir(tmp_path)
    prints = {load_dataset(p).fingerprint() for p in (folder, Path("ov"), copy)}
    assert len(prints) == 1
    assert load_dataset("ov").queries.no_text == {  # still known, beside the queries
        "c3": "ov/contexts.jsonl:3: field 'messages': no user message (is_user, not "
              "is_system) to take the query from"}

    s = TuningSession()
    s.open(folder)
    s.set_model("bm25")
    s.select_query(s.dataset.queries.ids.index("c3"))  # type: ignore[union-attr]
    s.add_query("the harbour roof")
    typed = s.dataset.queries[s.query]  # type: ignore[union-attr]
    assert typed.text == "the harbour roof"
    assert set(typed.context) == {"messages", "chat_length", "active_characters"}
    assert "contexts.jsonl" not in json.dumps(session_dict(s))


def test_an_id_that_differs_by_a_space_is_pointed_at(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ra 9: corpus ids 'd1 ' and 'd2 ' (a trailing space), judged as d1 and d2: "not in the
    corpus", with no hint why."""
    folder = _beir(tmp_path)
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": d, "text": t}) + "\n" for d, t in
        [("d1 ", "green tea"), ("d2 ", "black tea"), ("d9", "oolong")]))
    assert main(["eval", str(folder), "-m", "bm25", "--metrics", "r@10"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert ("name documents not in the corpus (q1→d1, q2→d2): they count as relevant documents "
            "no ranking can retrieve; the corpus has 'd1 ', with a space after it, for d1 (and 1 "
            "more like it): the judgments' cells are read without spaces around them, the "
            "corpus's ids as they are: remove the spaces from the corpus's ids") in said
