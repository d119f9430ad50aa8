"""Whatever the bytes, a reader returns a value or raises one FormatError naming line and field."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats import (
    read_corpus_jsonl,
    read_documents,
    read_memories,
    read_qrels,
    read_qrels_tsv,
    read_queries,
    read_queries_jsonl,
    read_trec_qrels,
    read_trec_run,
    read_vault,
)
from workbench.core.formats.pi_memory_settings import read_pi_settings

PIECES = ['{', '}', '"', ':', ',', '[', ']', '\n', '\r\n', '\t', ' ', '_id', 'id', 'text',
          'title', 'tags', 'metadata', '1', '-', '---', '#', 'a', '\\', "'", 'null', 'true',
          'é', '|', '>', '...', 'Q0', '0', '1.5', 'nan', '\\ud800', '\ufeff', 'key: v', '- x',
          '"disabledProjects"', '"summary"', '"memories"', '"importance"', '"message_ids"']

READERS: dict[str, Callable[[Path], object]] = {
    "corpus.jsonl": read_corpus_jsonl,
    "queries.jsonl": read_queries_jsonl,
    "test.tsv": read_qrels_tsv,
    "qrels.txt": read_trec_qrels,
    "run.txt": read_trec_run,
    "docs.jsonl": read_documents,
    "docs.csv": read_documents,
    "queries.tsv": read_queries,
    "judgments.txt": read_qrels,
    "vault/n.md": lambda p: read_vault(p.parent),
    "settings.json": read_pi_settings,
    "memories.json": read_memories,
}


@pytest.mark.parametrize("name", list(READERS))
def test_random_input_raises_only_format_errors(tmp_path: Path, name: str) -> None:
    rnd = random.Random(name)
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    for _ in range(150):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 30)))
        data = text.encode("utf-8")
        if rnd.random() < 0.1:
            data += b"\xff"
        path.write_bytes(data)
        try:
            READERS[name](path)
        except FormatError as e:
            assert e.field, str(e)
            assert e.line is not None, str(e)


def test_lone_surrogate_escape(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"_id": "a", "text": "ok \\ud83d\\ude00"}\n{"_id": "b", "text": "\\ud800"}\n',
                    encoding="utf-8")
    with pytest.raises(FormatError, match="surrogate") as info:
        read_corpus_jsonl(path)
    assert str(info.value) == (f"{path}:2: invalid JSON: a \\uD800-\\uDFFF escape that is not "
                               "half of a surrogate pair")


def test_long_csv_cell(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    long_text = "word " * 60_000  # 300 kB, over csv's default 128 KiB cell limit
    path.write_text(f'id,text\na,"{long_text}"\n', encoding="utf-8")
    (doc,) = read_documents(path)
    assert doc.text == long_text


def _decision(**over: object) -> str:
    import json

    rec = {"id": "d-1", "createdAt": "2025-12-05T12:00:00.000Z",
           "updatedAt": "2025-12-05T12:00:00.000Z", "cwd": "/r", "project": "p",
           "source": "manual", "title": "t", "text": "x", "tags": [], "important": False,
           "archived": False, "retrievalCount": 1, "injectionCount": 1}
    rec.update(over)
    return json.dumps(rec)


def test_numbers_past_a_double_are_named_not_overflowed(tmp_path: Path) -> None:
    # JSON.parse reads 1e400 as Infinity; an int past float range overflowed deep in the
    # readers and models (a traceback) where a finiteness check now names the field
    from workbench.core.formats.pi_memory import read_decisions

    path = tmp_path / "decisions.jsonl"
    big = _decision(id="d-2").replace('"retrievalCount": 1', '"retrievalCount": 1' + "0" * 400)
    path.write_text(_decision() + "\n" + big + "\n")
    skipped: list[FormatError] = []
    corpus = read_decisions(path, skipped=skipped)
    assert [d.id for d in corpus] == ["d-1"]
    assert len(skipped) == 1 and "decisions.jsonl:2" in str(skipped[0])
    assert "retrievalCount" in str(skipped[0]) and "beyond the range" in str(skipped[0])


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(tmp_path: Path, literal: str) -> None:
    # Python's json accepts them; JSON.parse (the originals) and the JSON grammar do not
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"_id": "a", "text": "x", "metadata": {"score": ' + literal + '}}\n')
    with pytest.raises(FormatError, match=r"corpus.jsonl:1: .*not a JSON value"):
        read_corpus_jsonl(path)


def test_a_corrupt_injection_line_is_skipped_and_counted(tmp_path: Path) -> None:
    import json

    from workbench.core.formats.pi_memory_injections import read_injections

    good = {"ts": "2026-01-01T00:00:00Z", "cwd": "/r", "project": "p", "promptPreview": "hi",
            "promptCharCount": 2, "minScore": 8, "limit": 5, "globalInject": False,
            "results": []}
    lines = [json.dumps(good), "{broken",
             json.dumps(good).replace('"promptCharCount": 2', '"promptCharCount": 1' + "0" * 400)]
    path = tmp_path / "injections.jsonl"
    path.write_text("\n".join(lines) + "\n")
    log = read_injections(path)
    assert len(log.records) == 1
    assert [line for line, _ in log.skipped] == [2, 3]
    assert "invalid JSON" in log.skipped[0][1] and "promptCharCount" in log.skipped[1][1]


def test_a_long_integer_id_stays_exact(tmp_path: Path) -> None:
    # a 19-digit snowflake id fits int64: read as the float 1.23457e+18 it was refused
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"_id": 1234567890123456789, "text": "green tea"}\n')
    assert [d.id for d in read_corpus_jsonl(path)] == ["1234567890123456789"]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be"])
def test_a_utf16_file_is_named_as_such(tmp_path: Path, codec: str) -> None:
    """Notepad's "Unicode" (UTF-16 with a byte order mark) was "not UTF-8 text (byte 0xff at
    offset 0)"."""
    from workbench.core.formats import load_dataset

    path = tmp_path / "docs.jsonl"
    text = '{"_id": "d1", "text": "green tea"}\n'
    path.write_bytes(("\ufeff" + text).encode(codec) if codec.endswith("be")
                     else text.encode(codec))
    with pytest.raises(FormatError, match=r"field 'encoding': UTF-16 text .*save it as UTF-8"):
        load_dataset(path)


def test_an_injection_line_with_a_lone_surrogate_escape_is_a_record(tmp_path: Path) -> None:
    """A preview cut at 200 UTF-16 units inside an emoji ends in a lone `\\ud83d` escape,
    which JSON.parse reads: pi-lodestone's why-stats counts the turn. It was a corrupt line
    here, and why showed the turn before it."""
    import json

    from workbench.core.formats.pi_memory_injections import injection_queries, read_injections

    good = {"ts": "2026-01-01T00:00:00Z", "cwd": "/r", "project": "p", "promptPreview": "hi",
            "promptCharCount": 2, "minScore": 8, "limit": 5, "globalInject": False,
            "results": []}
    cut = json.dumps({**good, "promptPreview": "x" * 199 + "\ud83d"})  # writes "\ud83d"
    assert cut.endswith('\\ud83d", "promptCharCount": 2, "minScore": 8, "limit": 5, '
                        '"globalInject": false, "results": []}')
    path = tmp_path / "injections.jsonl"
    path.write_text(json.dumps(good) + "\n" + cut + "\n")
    log = read_injections(path)
    assert [r.line for r in log.records] == [1, 2] and log.skipped == ()
    assert log.records[1].prompt_preview == "x" * 199 + "\ufffd"
    assert [line for line, _ in log.kept] == [2]
    assert "field 'promptPreview'" in log.kept[0][1] and "\\ud83d" in log.kept[0][1]
    assert [q.id for q in injection_queries(log)] == ["turn-1", "turn-2"]


def test_bytes_not_utf8_in_the_injection_log_read_as_node_reads_them(tmp_path: Path) -> None:
    """Node's readFileSync(…, 'utf8') reads a Latin-1 byte as U+FFFD and pi-lodestone reads
    every line; here the log, and with it the whole memory folder, was refused."""
    import json

    from workbench.core.formats.pi_memory_injections import read_injections

    good = {"ts": "2026-01-01T00:00:00Z", "cwd": "/r", "project": "p", "promptPreview": "hi",
            "promptCharCount": 2, "minScore": 8, "limit": 5, "globalInject": False,
            "results": []}
    first = json.dumps(good).encode()
    latin = json.dumps({**good, "promptPreview": "caf? au lait"}).encode().replace(b"?", b"\xe9")
    path = tmp_path / "injections.jsonl"
    path.write_bytes(first + b"\n" + latin + b"\n")
    log = read_injections(path)
    assert [r.prompt_preview for r in log.records] == ["hi", "caf\ufffd au lait"]
    offset = len(first) + 1 + latin.index(b"\xe9")
    assert log.kept == ((2, f"not UTF-8 text (byte 0xe9 at offset {offset}): read with "
                            "U+FFFD in place of each bad sequence, as Node reads the file"),)
    assert read_injections(path, last=1).kept == log.kept


def test_a_memory_folder_says_the_log_lines_it_read_despite_a_flaw(tmp_path: Path) -> None:
    """Opened whole, a folder whose injections.jsonl has a byte that is not UTF-8 loads (as
    Node reads it) and says so among its load warnings, naming the file and line."""
    import json
    import shutil

    from tests.conftest import SAMPLES
    from workbench.core.checks import load_warnings
    from workbench.core.formats import load_dataset

    folder = tmp_path / "mem"
    shutil.copytree(SAMPLES / "decisions", folder)
    log = folder / "injections.jsonl"
    good = {"ts": "2026-01-01T00:00:00Z", "cwd": "/r", "project": "p",
            "promptPreview": "site configuration", "promptCharCount": 18, "minScore": 8,
            "limit": 5, "globalInject": False, "results": []}
    latin = json.dumps({**good, "promptPreview": "caf? config"}).encode().replace(b"?", b"\xe9")
    log.write_bytes(json.dumps(good).encode() + b"\n" + latin + b"\n")
    ds = load_dataset(folder)
    (said,) = [w for w in load_warnings(ds) if "read despite a flaw" in w]
    assert said.startswith("1 line(s) of the injections log read despite a flaw, as "
                           f"pi-lodestone reads them (first: {log}:2: not UTF-8 text")


def test_a_utf16_injection_log_is_named_as_such(tmp_path: Path) -> None:
    """Read leniently as Node reads UTF-8, a UTF-16 log had become "none of its 61 lines is an
    injection record" (and every turn silently skipped with the folder)."""
    from workbench.core.formats.pi_memory_injections import read_injections

    path = tmp_path / "injections.jsonl"
    path.write_bytes('{"ts": "2026-01-01T00:00:00Z"}\n'.encode("utf-16"))
    with pytest.raises(FormatError, match=r"UTF-16 text .*save it as UTF-8"):
        read_injections(path)
