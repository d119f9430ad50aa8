"""`workbench embed -m MODEL`: it fills exactly the cache entries that model's prepare reads
(fields, prompts, the entity-boosted query text of hybrid), so the run after it embeds
nothing; the encoder is counted (the real default model, wrapped)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.cli import main
from workbench.core.embeddings import DEFAULT_MODEL, get_encoder, register_encoder
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


class CountingEncoder:
    """The real default model, counting the texts it is asked to encode."""

    def __init__(self, name: str) -> None:
        self.inner = get_encoder(DEFAULT_MODEL)
        self.name = name
        self.seen: list[str] = []

    @property
    def identity(self) -> str:
        return f"{self.inner.identity}-{self.name}"  # a cache of its own

    @property
    def dim(self) -> int:
        return self.inner.dim

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        self.seen.extend(texts)
        return self.inner.encode(texts, batch_size=batch_size, progress=progress)


@pytest.fixture
def counting(request: pytest.FixtureRequest) -> CountingEncoder:
    enc = CountingEncoder(f"counting-{request.node.name}")
    register_encoder(enc.name, enc)
    return enc


@pytest.fixture
def beir(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    docs = [("d1", "Green tea", "Steep green tea at 80 degrees for two minutes."),
            ("d2", "Black tea", "Boiling water suits black tea; steep four minutes."),
            ("d3", "", "Oolong leaves unfurl over several short infusions.")]
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in docs))
    (folder / "queries.jsonl").write_text("".join(
        json.dumps({"_id": i, "text": t}) + "\n"
        for i, t in (("q1", "how hot for green tea"), ("q2", "oolong infusions"))))
    return folder


@pytest.mark.parametrize(("model_id", "extra"), [
    ("hybrid", []),                                   # text only, OpenVault's prompt
    ("hybrid", ["-p", "fields=title+text"]),
    ("dense", []),                                    # title + text, no prompt
    ("dense", ["--fields", "text", "--prompt", "query: "]),
])
def test_the_next_prepare_embeds_nothing(model_id: str, extra: list[str], beir: Path,
                                         counting: CountingEncoder,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["embed", str(beir), "-m", model_id, "--embedding-model", counting.name, *extra]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"read by: -m {model_id}" in out
    assert counting.seen  # it did embed
    counting.seen.clear()
    model = get_model(model_id)
    overrides: dict[str, object] = {"embedding_model": counting.name}
    for flag, name in (("-p", None), ("--fields", "fields"), ("--prompt", None)):
        if flag in extra:
            value = extra[extra.index(flag) + 1]
            if name is not None:
                overrides[name] = value
            elif flag == "-p":
                key, _, v = value.partition("=")
                overrides[key] = v
            else:
                overrides["document_prompt"] = overrides["query_prompt"] = value
    Pipeline(model, load_dataset(beir), model.schema.resolve(overrides), use_cache=False)
    assert counting.seen == []


def test_prompt_goes_on_both_sides_unless_the_query_prompt_is_given(
        beir: Path, counting: CountingEncoder, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["embed", str(beir), "--embedding-model", counting.name,
                 "--prompt", "passage: ", "--query-prompt", "query: "]) == 0
    out = capsys.readouterr().out
    assert "documents: 3 texts (3 embedded, 0 from the cache)" in out
    assert "prompt 'passage: '" in out and "prompt 'query: '" in out
    assert "passage: Green tea Steep green tea at 80 degrees for two minutes." in counting.seen
    assert "query: how hot for green tea" in counting.seen


def test_a_preset_names_the_query_side_beside_a_prompt(
        beir: Path, counting: CountingEncoder, capsys: pytest.CaptureFixture[str]) -> None:
    """--query-prompt took a preset's name only without --prompt: beside it, 'none' was
    prepended to every query as the text "none"."""
    assert main(["embed", str(beir), "--embedding-model", counting.name,
                 "--prompt", "passage: ", "--query-prompt", "none"]) == 0
    capsys.readouterr()
    assert "passage: Green tea Steep green tea at 80 degrees for two minutes." in counting.seen
    assert "how hot for green tea" in counting.seen
    assert not any(t.startswith("none") for t in counting.seen)


def test_the_help_names_the_parameters_the_prompts_set(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`models dense` lists document_prompt and query_prompt; embed's --prompt did not say it
    sets the first (and the second too)."""
    with pytest.raises(SystemExit):
        main(["embed", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("--prompt PROMPT the model's document_prompt, and its query_prompt too unless "
            "--query-prompt is given") in text
    assert "--query-prompt QUERY_PROMPT the model's query_prompt alone" in text


def test_documents_only_and_a_second_run(beir: Path, counting: CountingEncoder,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["embed", str(beir), "-m", "hybrid", "--embedding-model", counting.name,
                 "--documents-only"]) == 0
    assert len(counting.seen) == 3
    assert "queries:" not in capsys.readouterr().out
    counting.seen.clear()
    assert main(["embed", str(beir), "-m", "hybrid", "--embedding-model", counting.name]) == 0
    out = capsys.readouterr().out
    assert "documents: 3 texts (0 embedded, 3 from the cache)" in out
    assert len(counting.seen) == 2  # only the queries
    # no prompt given: said so, not "prompt ''"
    assert main(["embed", str(beir), "-m", "dense", "--embedding-model", counting.name,
                 "--prompt", ""]) == 0
    out = capsys.readouterr().out
    assert "; no prompt" in out and "prompt ''" not in out


@pytest.mark.parametrize(("argv", "words"), [
    (["-m", "bm25"], ("--model bm25: embeds nothing", "dense")),
    (["-m", "hybrid", "-p", "embeddings=stored"], ("embeddings=stored",)),
    (["-m", "/some/encoder"], ("no such model", "--embedding-model")),
    (["-m", "hybrid", "--fields", "title"], ("--fields",)),
])
def test_refused_in_one_line(argv: list[str], words: tuple[str, ...], beir: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["embed", str(beir), *argv])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


class SlowToLoadEncoder(CountingEncoder):
    """The real model behind a FAKE load of 0.8 s before its first text (as loading the
    weights takes seconds): the rate must not count it."""

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        import time

        time.sleep(0.8)
        return super().encode(texts, batch_size=batch_size, progress=progress)


def test_the_rate_leaves_the_model_load_out(beir: Path, request: pytest.FixtureRequest,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """"25 texts … 5.7 s, 4 texts/s" was mostly the model loading; 274 texts/s warm."""
    import re

    slow = SlowToLoadEncoder(f"slow-{request.node.name}")
    register_encoder(slow.name, slow)
    assert main(["embed", str(beir), "--embedding-model", slow.name, "--documents-only"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("documents:"))
    found = re.search(r", ([\d.]+) s \(([\d.]+) s of it loading the model\), ([\d,]+) texts/s",
                      line)
    assert found, line
    total, load, rate = float(found[1]), float(found[2]), float(found[3].replace(",", ""))
    assert load >= 0.8 and rate > 3 / total  # 3 texts over the encoding time, not the whole


def test_a_repeated_text_is_said_as_a_repeat_not_as_cached(
        tmp_path: Path, counting: CountingEncoder, capsys: pytest.CaptureFixture[str]) -> None:
    # on an empty cache the progress said "(1 from the cache)" and the summary "3 embedded,
    # 0 from the cache": the twin is encoded once, and neither line said so
    folder = tmp_path / "twins"
    folder.mkdir()
    docs = [("d1", "Green tea"), ("d2", "Green tea"), ("d3", "Oolong leaves")]
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": i, "title": "", "text": x}) + "\n" for i, x in docs))
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "tea"}) + "\n")
    assert main(["embed", str(folder), "-m", "dense", "--embedding-model", counting.name,
                 "--documents-only"]) == 0
    out, err = capsys.readouterr()
    assert "documents: 3 texts (2 embedded, 0 from the cache, 1 repeating another text)" in out
    assert len(counting.seen) == 2
    assert "from the cache)" not in err  # the progress counts no cache hit either


def test_a_damaged_cache_file_is_said_when_its_texts_embed_again(
        beir: Path, counting: CountingEncoder, capsys: pytest.CaptureFixture[str]) -> None:
    # a truncated shard was removed and its texts re-embedded with no word: a wait unexplained
    from workbench.core.embeddings import open_store

    assert main(["embed", str(beir), "-m", "dense", "--embedding-model", counting.name,
                 "--documents-only"]) == 0
    folder = open_store(counting, "").folder
    shard = next(p for p in folder.iterdir() if p.suffix == ".shard")
    shard.write_bytes(shard.read_bytes()[:-7])  # cut short
    capsys.readouterr()
    counting.seen.clear()
    assert main(["embed", str(beir), "-m", "dense", "--embedding-model", counting.name,
                 "--documents-only"]) == 0
    _out, err = capsys.readouterr()
    assert err.count("note: 1 damaged file of the embedding cache") == 1  # said once
    assert "left unread: its texts are embedded again" in err and len(counting.seen) == 3


def test_a_full_disk_fails_the_run_and_says_why(
        beir: Path, counting: CountingEncoder, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache on a full disk (a write's fsync raises ENOSPC, as it does when the pages
    cannot be stored): embed kept nothing yet exited 0, warning only "5 vectors computed but
    not kept", so `embed && gui` went on as if they were cached."""
    import errno
    import os

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    assert main(["embed", str(beir), "-m", "dense", "--embedding-model", counting.name]) == 1
    out, err = capsys.readouterr()
    assert "workbench embed: error: could not write the embedding cache " in err
    assert "(No space left on device): 3 vectors computed but not kept" in err
    assert "read by:" not in out


def test_a_full_disk_under_eval_is_said_once(
        beir: Path, counting: CountingEncoder, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """eval (any command whose model embeds while it prepares) on a full disk: the run goes
    on, and one warning names the cache folder and the reason — it had said nothing, and every
    run embedded everything again."""
    import errno
    import os

    (beir / "qrels").mkdir()
    (beir / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t1\n")

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    argv = ["eval", str(beir), "-m", "dense", "-p", f"embedding_model={counting.name}"]
    assert main(argv) == 0
    _out, err = capsys.readouterr()
    lines = [x for x in err.splitlines() if "could not write the embedding cache" in x]
    assert len(lines) == 1, err  # documents and queries go to one folder: said once
    assert lines[0].startswith("warning: could not write the embedding cache ")
    assert "(No space left on device)" in lines[0]
    assert lines[0].endswith("; the next run embeds them again")
    assert main(argv) == 0  # the next command says it again
    assert capsys.readouterr().err.count("could not write the embedding cache") == 1


@pytest.mark.parametrize("model_id", ["hybrid", "dense"])
def test_a_preset_name_means_the_same_prompt_in_p_and_a_params_file(
        model_id: str, beir: Path, counting: CountingEncoder, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """rm 1: `embed --prompt 'semantic similarity'` cached the preset's text, while `-p
    query_prompt=semantic similarity` (and a parameter file) embedded the two words: the run
    after embed embedded everything again, with another prompt than the one cached."""
    from workbench.core.params import resolve_file

    assert main(["embed", str(beir), "-m", model_id, "--embedding-model", counting.name,
                 "--prompt", "semantic similarity"]) == 0
    assert "prompt 'task: semantic similarity | query: '" in capsys.readouterr().out
    counting.seen.clear()
    model = get_model(model_id)
    typed = model.schema.resolve({"embedding_model": counting.name,
                                  "query_prompt": "semantic similarity",
                                  "document_prompt": " Semantic Similarity"})
    assert typed["query_prompt"] == typed["document_prompt"] == (
        "task: semantic similarity | query: ")
    Pipeline(model, load_dataset(beir), typed, use_cache=False)
    assert counting.seen == []
    toml = tmp_path / "p.toml"
    toml.write_text('query_prompt = "none"\ndocument_prompt = "semantic similarity"\n')
    assert resolve_file(model.schema, toml) == {
        "query_prompt": "", "document_prompt": "task: semantic similarity | query: "}
    # the empty prompt, said as one: none and "" are one value
    assert model.schema.resolve({"query_prompt": "none"}) == model.schema.resolve(
        {"query_prompt": ""})
