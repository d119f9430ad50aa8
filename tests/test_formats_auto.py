"""load_dataset: format detection and the judgments given beside a documents file."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from workbench.core.data import Dataset, FormatError
from workbench.core.formats import load_dataset, read_qrels

REPO = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_beir_folder(tmp_path: Path) -> None:
    write(tmp_path / "b" / "corpus.jsonl", '{"_id": "d", "text": "t"}\n')
    write(tmp_path / "b" / "queries.jsonl", '{"_id": "q", "text": "t"}\n')
    write(tmp_path / "b" / "qrels" / "test.tsv", "q\td\t1\n")
    ds = load_dataset(tmp_path / "b")
    assert (ds.name, ds.corpus.ids, ds.queries.ids, ds.qrels) == ("b", ["d"], ["q"],
                                                                   {"q": {"d": 1}})


def test_vault_folder(tmp_path: Path) -> None:
    write(tmp_path / "v" / "notes" / "a.md", "# A\n")
    write(tmp_path / "v" / "README.md", "# about\n")
    ds = load_dataset(tmp_path / "v")
    assert ds.corpus.ids == ["a.md"]


def test_documents_file_with_queries_and_trec_qrels(tmp_path: Path) -> None:
    docs = write(tmp_path / "mem.jsonl",
                 "\n".join(json.dumps({"id": i, "text": i}) for i in ("a", "b")) + "\n")
    queries = write(tmp_path / "q.csv", "id,text\nq1,a\nq2,b\nq3,c\n")
    trec = write(tmp_path / "qrels.txt", "q1 0 a 1\nq2 0 zz 2\n")
    ds = load_dataset(docs, queries=queries, qrels=trec)
    assert ds.name == "mem"
    assert ds.queries.ids == ["q1", "q2"]
    assert ds.qrels == {"q1": {"a": 1}, "q2": {"zz": 2}}
    # without judgments every query stays
    assert len(load_dataset(docs, queries=queries).queries) == 3


def test_qrels_sniffing(tmp_path: Path) -> None:
    beir = write(tmp_path / "a.tsv", "query-id\tcorpus-id\tscore\nq\td\t1\n")
    trec = write(tmp_path / "b.txt", "q 0 d 1\n")
    assert read_qrels(beir) == read_qrels(trec) == {"q": {"d": 1}}
    odd = write(tmp_path / "c.txt", "\nq d\n")
    with pytest.raises(FormatError) as info:
        read_qrels(odd)
    assert f"{odd}:2:" in str(info.value) and "field 'columns'" in str(info.value)


def test_folder_with_overrides(tmp_path: Path) -> None:
    write(tmp_path / "v" / "a.md", "# A\n")
    queries = write(tmp_path / "q.jsonl", '{"id": "q", "text": "a"}\n')
    qrels = write(tmp_path / "j.tsv", "q\ta.md\t1\n")
    ds = load_dataset(tmp_path / "v", queries=queries, qrels=qrels)
    assert ds.queries.ids == ["q"] and ds.qrels == {"q": {"a.md": 1}}


def test_judgments_alone_judge_a_folders_own_queries(tmp_path: Path) -> None:
    # other judgments for a BEIR folder or a vault that holds its queries: no --queries needed
    beir = tmp_path / "b"
    write(beir / "corpus.jsonl", '{"_id": "d1", "text": "green tea"}\n'
          '{"_id": "d2", "text": "black tea"}\n')
    write(beir / "queries.jsonl", '{"_id": "q1", "text": "green"}\n'
          '{"_id": "q2", "text": "black"}\n')
    write(beir / "qrels" / "test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    other = write(tmp_path / "other.tsv", "query-id\tcorpus-id\tscore\nq2\td2\t2\n")
    ds = load_dataset(beir, qrels=other)
    assert ds.queries.ids == ["q2"] and ds.qrels == {"q2": {"d2": 2}}
    write(tmp_path / "v" / "a.md", "# A\n")
    write(tmp_path / "v" / "queries.jsonl", '{"id": "q", "text": "a"}\n')
    ds = load_dataset(tmp_path / "v", qrels=write(tmp_path / "j.tsv", "q\ta.md\t1\n"))
    assert ds.queries.ids == ["q"] and ds.qrels == {"q": {"a.md": 1}}
    write(tmp_path / "v2" / "a.md", "# A\n")
    with pytest.raises(FormatError, match="judgments without their queries"):  # a vault with none
        load_dataset(tmp_path / "v2", qrels=tmp_path / "j.tsv")


def test_unknown_inputs(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="expected a BEIR folder"):
        load_dataset(tmp_path)  # empty folder
    with pytest.raises(FormatError, match="no such file or folder"):
        load_dataset(tmp_path / "missing")
    with pytest.raises(FormatError, match=r"documents file \(\.jsonl, \.csv or \.tsv\)"):
        load_dataset(write(tmp_path / "x.pdf", "%PDF"))
    docs = write(tmp_path / "d.csv", "id,text\na,b\n")
    with pytest.raises(FormatError, match="judgments without their queries") as caught:
        load_dataset(docs, qrels=write(tmp_path / "j.tsv", "q\ta\t1\n"))
    # the option to give, not a field of the judgments file (there is none named queries)
    assert "d.csv holds documents only; give the query file too (--queries" in str(caught.value)
    assert caught.value.field == "path"


@pytest.mark.skipif(not (REPO / "sample_corpora").is_dir(), reason="no sample corpora yet")
def test_sample_corpora_load() -> None:
    """Every sample corpus shipped with the repository opens."""
    folders = [p for p in sorted((REPO / "sample_corpora").iterdir()) if p.is_dir()]
    for folder in folders:
        ds = load_dataset(folder)
        assert len(ds.corpus) > 0, folder
        if ds.qrels:
            assert set(ds.qrels) == set(ds.queries.ids), folder


def test_judgments_of_queries_the_set_lacks_are_left_aside(tmp_path: Path) -> None:
    """--queries with the first 10 of tea-beir's queries and its whole qrels: the other 15
    queries' judgments are left aside (trec_eval ignores judgments of queries not in the run)
    and said; the figures equal the BEIR folder's own on those 10. A qrels file that judges
    none of the queries is still the one-line error naming its first line."""
    from tests.conftest import SAMPLES
    from workbench.core.checks import load_warnings
    from workbench.core.formats import read_beir
    from workbench.core.models import get_model
    from workbench.core.pipeline import Pipeline

    tea = SAMPLES / "tea-beir"
    first = (tea / "queries.jsonl").read_text().splitlines()[:10]
    queries = write(tmp_path / "q10.jsonl", "\n".join(first) + "\n")
    ds = load_dataset(tea / "corpus.jsonl", queries=queries, qrels=tea / "qrels" / "test.tsv")
    ten = [f"q{i:02d}" for i in range(1, 11)]
    assert ds.queries.ids == ten and sorted(ds.qrels or {}) == ten
    warning = load_warnings(ds)[0]
    assert warning.startswith("judgments of 15 queries the query set lacks left aside "
                              "(q11, q12, q13, … 12 more)")
    full = read_beir(tea)
    sub = Dataset(full.name, full.corpus, full.queries.subset(ten),
                  {q: (full.qrels or {})[q] for q in ten})
    want = Pipeline(get_model("bm25"), sub).run(["ndcg@10"]).means["ndcg@10"]
    got = Pipeline(get_model("bm25"), ds).run(["ndcg@10"]).means["ndcg@10"]
    assert got == pytest.approx(want, abs=1e-12)
    wrong = write(tmp_path / "wrong.tsv", "x1\td001\t1\n")
    with pytest.raises(FormatError, match=r"wrong.tsv:1: field 'query-id': unknown query id"):
        load_dataset(tea / "corpus.jsonl", queries=queries, qrels=wrong)


def test_a_decisions_file_whose_first_line_is_damaged_is_still_one(tmp_path: Path) -> None:
    # sniffed by its first record, it was read as plain documents and failed on that line,
    # where the same file in its folder loads with the line skipped
    from tests.conftest import SAMPLES

    lines = (SAMPLES / "decisions" / "decisions.jsonl").read_text().splitlines()
    path = tmp_path / "decisions.jsonl"
    path.write_text("\n".join(['{"id": "broken', *lines[1:]]) + "\n")
    skipped: list[FormatError] = []
    ds = load_dataset(path, skipped=skipped)
    assert len(ds.corpus) == len(lines) - 1
    assert len(skipped) == 1 and "decisions.jsonl:1" in str(skipped[0])


def test_a_beir_folder_whose_corpus_cannot_be_read_says_so(tmp_path: Path) -> None:
    """corpus.jsonl gzipped (as some mirrors ship it) or a folder: the folder opened as a
    vault of its README.md, every metric 0, with only a warning about judged documents."""
    import gzip
    import shutil

    from tests.conftest import SAMPLES

    folder = tmp_path / "beir"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    (folder / "README.md").write_text("# about\n", encoding="utf-8")
    raw = (folder / "corpus.jsonl").read_bytes()
    (folder / "corpus.jsonl").unlink()
    (folder / "corpus.jsonl.gz").write_bytes(gzip.compress(raw))
    with pytest.raises(FormatError, match=r"corpus\.jsonl\.gz.*decompress this one first"):
        load_dataset(folder)
    (folder / "corpus.jsonl.gz").unlink()
    (folder / "corpus.jsonl").mkdir()
    with pytest.raises(FormatError, match=r"must be a file, corpus\.jsonl; this is a folder"):
        load_dataset(folder)
    # another format's folder with such a name in it opens as it is: a vault's note
    vault = tmp_path / "vault"
    shutil.copytree(SAMPLES / "vault", vault)
    (vault / "notes" / "corpus.jsonl.md").write_text("# a note\n", encoding="utf-8")
    assert "corpus.jsonl.md" in load_dataset(vault).corpus.ids


def test_a_hugging_face_beir_download_is_not_a_vault_of_its_dataset_card(
        tmp_path: Path) -> None:
    # README.md beside corpus.jsonl.gz and queries.jsonl.gz (the Hub's BeIR layout, judgments
    # in another repository) opened as a vault of one note, every metric 0; so did a card
    # beside queries.jsonl and qrels/ with the corpus under another name
    import gzip
    import shutil

    from tests.conftest import SAMPLES

    hub = tmp_path / "hub"
    hub.mkdir()
    (hub / "README.md").write_text("---\nlicense: cc-by-sa-4.0\n---\n# SciFact\n")
    for name in ("corpus", "queries"):
        raw = (SAMPLES / "tea-beir" / f"{name}.jsonl").read_bytes()
        (hub / f"{name}.jsonl.gz").write_bytes(gzip.compress(raw))
    with pytest.raises(FormatError, match=r"corpus\.jsonl\.gz.*decompress this one first"):
        load_dataset(hub)
    (hub / "corpus.jsonl.gz").unlink()
    with pytest.raises(FormatError, match=r"queries\.jsonl\.gz: a BEIR query file is read "
                                          r"as plain queries\.jsonl; decompress"):
        load_dataset(hub)
    # the corpus decompressed, the queries not: said too (it read "no judgments")
    shutil.copy(SAMPLES / "tea-beir" / "corpus.jsonl", hub)
    with pytest.raises(FormatError, match=r"queries\.jsonl\.gz: BEIR queries are read as "
                                          r"plain queries\.jsonl; decompress"):
        load_dataset(hub)
    (hub / "corpus.jsonl").unlink()
    other = tmp_path / "other"
    shutil.copytree(SAMPLES / "tea-beir", other)
    (other / "README.md").write_text("# about\n")
    (other / "corpus.jsonl").rename(other / "docs.jsonl")
    with pytest.raises(FormatError, match=r"needs its corpus as corpus\.jsonl .*found "
                                          r"docs\.jsonl.*README\.md is a dataset card"):
        load_dataset(other)
    # a vault with its queries and judgments beside its notes opens as it is
    vault = tmp_path / "vault"
    shutil.copytree(SAMPLES / "vault" / "notes", vault)
    shutil.copy(SAMPLES / "vault" / "queries.jsonl", vault)
    shutil.copytree(SAMPLES / "vault" / "qrels", vault / "qrels")
    (vault / "README.md").write_text("# my vault\n")
    assert len(load_dataset(vault).corpus) > 10


def test_any_other_corpus_file_beside_beir_files_is_refused(tmp_path: Path) -> None:
    """The refusal was narrowed to compressed corpora: a corpus.jsonl.bak beside a README.md
    opened as a vault of one note again, every metric 0."""
    import shutil

    from tests.conftest import SAMPLES

    folder = tmp_path / "beir"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    (folder / "README.md").write_text("# about\n", encoding="utf-8")
    (folder / "corpus.jsonl").rename(folder / "corpus.jsonl.bak")
    with pytest.raises(FormatError, match=r"corpus\.jsonl\.bak.*rename this one"):
        load_dataset(folder)


def test_beir_judgments_whose_ids_hold_spaces_are_not_read_as_trec(tmp_path: Path) -> None:
    """A headerless BEIR file, "q1<TAB>doc 1<TAB>1", splits into four words: it had been read
    as TREC's `qid iter docno rel`, judging document "1" for q1 (every metric 0)."""
    path = tmp_path / "qrels.tsv"
    path.write_text("q1\tdoc 1\t1\nq2\tdoc two x\t2\n")
    assert read_qrels(path) == {"q1": {"doc 1": 1}, "q2": {"doc two x": 2}}
    trec = tmp_path / "run.qrels"  # TREC's, tab- or space-separated, still read as TREC
    trec.write_text("q1\t0\td1\t1\nq2 0 d2 2\n")
    assert read_qrels(trec) == {"q1": {"d1": 1}, "q2": {"d2": 2}}


def test_a_path_of_the_wrong_kind_is_named_as_it_is(tmp_path: Path) -> None:
    """A queries.jsonl that is a folder read "qrels/test.tsv without queries.jsonl"; a corpus
    that is a folder or a named pipe, or DATA a dangling link, got the list of every format."""
    import os
    import shutil

    from tests.conftest import SAMPLES

    def error(path: Path) -> str:
        with pytest.raises(FormatError) as info:
            load_dataset(path)
        return str(info.value)

    qdir = tmp_path / "qdir"
    shutil.copytree(SAMPLES / "tea-beir", qdir)
    (qdir / "queries.jsonl").unlink()
    (qdir / "queries.jsonl").mkdir()
    assert error(qdir) == (f"{qdir / 'queries.jsonl'}: a folder, not a file: BEIR queries are "
                           "read from a file of JSON lines")
    (tmp_path / "cdir" / "corpus.jsonl").mkdir(parents=True)
    assert error(tmp_path / "cdir") == (f"{tmp_path / 'cdir' / 'corpus.jsonl'}: a folder, not a "
                                        "file: a BEIR corpus is read from a file of JSON lines")
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "corpus.jsonl")
    assert error(tmp_path / "fifo").endswith("corpus.jsonl: a named pipe (FIFO), not a file: "
                                             "a BEIR corpus is read from a file of JSON lines")
    os.mkfifo(tmp_path / "pipe.jsonl")
    assert error(tmp_path / "pipe.jsonl") == (f"{tmp_path / 'pipe.jsonl'}: a named pipe (FIFO), "
                                              "not a file or a folder: a dataset is read from one")
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    assert error(tmp_path / "link") == (f"{tmp_path / 'link'}: a symbolic link to "
                                        f"{tmp_path / 'gone'}, which does not exist")


def _piped(data: bytes) -> tuple[str, int]:
    """A pipe holding `data`, its writer closed, as `<(cat FILE)` gives one: (its /dev/fd
    path, the read end to close)."""
    read_end, write_end = os.pipe()
    os.write(write_end, data)
    os.close(write_end)
    return f"/dev/fd/{read_end}", read_end


def test_judgments_and_topics_through_a_pipe(tmp_path: Path) -> None:
    """ra 1: `--qrels <(cat qrels)` was sniffed, then read again empty ("empty file: expected
    at least one judgment"); TREC topics the same ("no topics")."""
    write(tmp_path / "b" / "corpus.jsonl",
          '{"_id": "d1", "text": "green tea"}\n{"_id": "d2", "text": "black tea"}\n')
    write(tmp_path / "b" / "queries.jsonl", '{"_id": "q1", "text": "green"}\n')
    qrels, end = _piped(b"q1\td1\t1\n")
    try:
        assert load_dataset(tmp_path / "b", qrels=qrels).qrels == {"q1": {"d1": 1}}
    finally:
        os.close(end)
    docs = write(tmp_path / "docs.jsonl", '{"id": "d1", "text": "tea"}\n')
    topics, t_end = _piped(b"<top>\n<num> Number: 7\n<title> tea\n</top>\n")
    trec_qrels, q_end = _piped(b"7 0 d1 1\n")
    try:
        ds = load_dataset(docs, queries=topics, qrels=trec_qrels)
    finally:
        os.close(t_end)
        os.close(q_end)
    assert ([q.text for q in ds.queries], ds.qrels) == (["tea"], {"7": {"d1": 1}})


def test_a_named_pipe_nothing_writes_to_is_refused(tmp_path: Path) -> None:
    """ra 1: a named pipe with no writer, as --qrels, --queries or --params, had blocked for
    ever; it is one error."""
    from workbench.core.params import ParamError, load_params_file

    write(tmp_path / "b" / "corpus.jsonl", '{"_id": "d1", "text": "green tea"}\n')
    write(tmp_path / "b" / "queries.jsonl", '{"_id": "q1", "text": "green"}\n')
    fifo = tmp_path / "p.tsv"
    os.mkfifo(fifo)
    said = (f"{fifo}: a named pipe (FIFO) with no writer connected when it was opened (or "
            "closed empty): give a file, or start what writes to the pipe first")
    outcome: list[str] = []

    def attempt() -> None:
        for read in (lambda: load_dataset(tmp_path / "b", qrels=fifo),
                     lambda: load_dataset(tmp_path / "b", queries=fifo),
                     lambda: load_params_file(fifo)):
            try:
                read()
            except (FormatError, ParamError) as exc:
                outcome.append(str(exc))

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(20)
    assert outcome == [said] * 3


def test_query_files_of_every_kind_through_a_pipe(tmp_path: Path) -> None:
    """dr3 7: JSON lines, CSV or TSV queries through `<(cat …)` were refused with "expected a
    .jsonl, .csv or .tsv file", which a pipe (no suffix) cannot act on."""
    docs = write(tmp_path / "docs.jsonl",
                 '{"id": "d1", "text": "green tea"}\n{"id": "d2", "text": "black tea"}\n')
    for data in (b'{"id": "q1", "text": "green"}\n{"id": "q2", "text": "black"}\n',
                 b"id,text\nq1,green\nq2,black\n", b"id\ttext\nq1\tgreen\nq2\tblack\n"):
        queries, end = _piped(data)
        try:
            ds = load_dataset(docs, queries=queries)
        finally:
            os.close(end)
        assert [(q.id, q.text) for q in ds.queries] == [("q1", "green"), ("q2", "black")]
    queries, end = _piped(b"hello\n")
    try:
        with pytest.raises(FormatError) as caught:
            load_dataset(docs, queries=queries)
    finally:
        os.close(end)
    assert str(caught.value) == (
        f"{queries}:1: a pipe is read by its first line, and this one ('hello') starts none of "
        "the kinds it can be: a JSON object (JSON lines), a header with a tab (TSV) or a comma "
        "(CSV) between id and text, or, for queries, <top> (TREC topics)")


def test_a_pipe_whose_command_wrote_nothing_or_packed_bytes_is_said_so(tmp_path: Path) -> None:
    """dr3 8: `--qrels <(true)` was "a named pipe (FIFO) that nothing writes to", and a gzip
    file through a pipe was told to be renamed (`mv 63 63.gz && gunzip -k 63.gz`)."""
    write(tmp_path / "b" / "corpus.jsonl", '{"_id": "d1", "text": "green tea"}\n')
    write(tmp_path / "b" / "queries.jsonl", '{"_id": "q1", "text": "green"}\n')
    for data, said in (
            (b"", ": the command behind the pipe wrote nothing: check what it reads, or give "
                  "a file"),
            (b"\x1f\x8b\x08\x00rest", ":1: field 'encoding': gzip-compressed (its first bytes "
             "are gzip's), not text: decompress it in the command behind the pipe (for "
             "example: <(gunzip -c FILE))")):
        qrels, end = _piped(data)
        try:
            with pytest.raises(FormatError) as caught:
                load_dataset(tmp_path / "b", qrels=qrels)
        finally:
            os.close(end)
        assert str(caught.value) == qrels + said


def test_a_folder_of_datasets_with_a_readme_is_said_to_be_one(tmp_path: Path) -> None:
    """dr7 7: a README beside BEIR folders (as ../shared/datasets is laid out) opened as a
    vault of one note, the README, and eval asked for judgments."""
    import shutil

    from tests.conftest import SAMPLES

    top = tmp_path / "datasets"
    for name in ("tea", "more-tea"):
        shutil.copytree(SAMPLES / "tea-beir", top / name)
    (top / "README.md").write_text("# Datasets\n\nTwo copies of the tea sample.\n")
    with pytest.raises(FormatError, match=r"a folder of datasets \(more-tea, tea\), not one: "
                                          r"give one of them, e\.g\. .*more-tea; README\.md "
                                          r"is a card, not a vault of notes"):
        load_dataset(top)
    # a note of its own beside them makes it a vault again, as before
    (top / "ideas.md").write_text("# Ideas\n\nbrew the tea longer\n")
    assert "ideas" in {doc.id.removesuffix(".md") for doc in load_dataset(top).corpus}
