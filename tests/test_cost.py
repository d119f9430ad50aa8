"""What a configuration costs (`core.cost`, `compare --cost`): the figures are present and
say what they are; their sizes are not asserted (timings are flaky on a shared machine)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core import cost
from workbench.core.embeddings import register_encoder
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model

TEA = SAMPLES / "tea-beir"


class FakeEncoder:
    """NOT a model: a unit vector from each text's hash, DIM wide, named uniquely (uuid) so
    that its cache is its own, on a device it names itself."""

    dim = 12
    device = "fake-device"

    def __init__(self) -> None:
        self.name = f"fake-cost-{uuid.uuid4().hex}"
        self.identity = self.name

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        v = np.array([np.random.default_rng(list(t.encode())).standard_normal(self.dim)
                      for t in texts], np.float32).reshape(len(texts), self.dim)
        out: NDArray[np.float32] = v / np.linalg.norm(v, axis=1, keepdims=True)
        return out


@pytest.fixture
def fake() -> FakeEncoder:
    enc = FakeEncoder()
    register_encoder(enc.name, enc)
    return enc


def _documents() -> int:
    """The sample's documents, counted from its file (not by the code under test)."""
    lines = (TEA / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    return len({json.loads(line)["_id"] for line in lines if line.strip()})


def test_the_build_counts_what_it_embedded_and_the_store_is_n_dim_4(fake: FakeEncoder) -> None:
    ds, model = load_dataset(TEA), get_model("dense")
    params = model.schema.resolve({"embedding_model": fake.name})
    first = cost.measure_build(model, ds, params)
    n = _documents()
    assert first.documents == n
    assert first.vector_bytes == n * FakeEncoder.dim * 4
    assert first.embedded is not None and first.embedded > 0 and first.from_cache == 0
    assert first.seconds is not None and first.seconds > 0
    assert cost.build_cell(first) not in ("not measured this run", "—")
    # every vector is in the cache now, from another run (this process's record dropped):
    # the build was not measured, and said so
    from workbench.core.embeddings.embed import EMBEDDED
    EMBEDDED.pop((fake.name, "", "documents"))
    again = cost.measure_build(model, ds, params)
    assert again.embedded == 0 and again.from_cache == n
    assert again.seconds is None and again.rest_seconds is not None and again.rest_seconds > 0
    assert cost.build_cell(again) == "not measured this run"
    notes = " ".join(cost.cost_notes([cost.Cost("dense", "dense", again)]))
    assert "Build not measured this run for dense" in notes
    assert "every document's vector came from the embedding cache" in notes


def test_serving_times_a_query_and_its_embedding_on_the_named_device(fake: FakeEncoder) -> None:
    ds, model = load_dataset(TEA), get_model("dense")
    params = model.schema.resolve({"embedding_model": fake.name})
    got = cost.measure(model.id, model, ds, params)
    s = got.serving
    assert s is not None and s.sample == min(len(ds.queries), cost.SERVE_SAMPLE)
    assert s.p50_ms > 0 and s.p95_ms >= s.p50_ms and s.overhead_ms > 0
    assert s.embedding is not None and s.embedding.device == "fake-device"
    assert s.embedding.sample == min(len(ds.queries), cost.EMBED_SAMPLE)
    assert s.embedding.p50_ms > 0
    row = cost.cost_rows([got])[0]
    assert row[7].endswith(f"ms (of {s.embedding.sample}) on fake-device")
    assert " CPU cores" in cost.cost_notes([got])[0]


def test_bm25_has_an_index_and_no_vectors() -> None:
    ds, model = load_dataset(TEA), get_model("bm25")
    got = cost.measure("bm25", model, ds, model.schema.resolve(None))
    assert got.build.index_bytes is not None and got.build.index_bytes > 0
    assert got.build.vector_bytes is None and got.build.seconds is not None
    assert got.serving is not None and got.serving.embedding is None
    row = cost.cost_rows([got])[0]
    assert row[2] == "none (embeds nothing)" and row[7] == "none"
    notes = " ".join(cost.cost_notes([got]))  # dr4 7a: no vector in a BM25-only table
    assert "vector" not in notes and "embedding" not in notes


def test_a_change_of_fields_re_embeds_and_a_live_one_costs_nothing() -> None:
    ds, model = load_dataset(TEA), get_model("dense")
    base = model.schema.resolve(None)
    fields = model.schema.resolve({"fields": "text", "min_similarity": 0.2})
    batch = model.schema.resolve({"batch_size": 8})
    notes = cost.change_notes([("defaults", model, base), ("text only", model, fields),
                               ("batch 8", model, batch)], ds)
    assert notes[0].startswith("From defaults to text only: fields changes the documents' "
                               f"vectors: every document ({_documents():,}) is embedded again")
    assert "min_similarity: live, nothing to build" in notes[0]
    assert notes[1] == ("From defaults to batch 8: batch_size: the prepared state is built "
                        "again, the vectors kept.")


def test_compare_shows_the_cost_table_only_with_cost(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", str(TEA), "-m", "bm25", "--defaults", "-p", "k1=1.6"]
    assert main(argv) == 0
    plain = capsys.readouterr().out
    assert "cost (measured on this machine" not in plain
    assert "scoring a query: p50 / p95" not in plain
    assert main([*argv, "--cost"]) == 0
    out = capsys.readouterr().out
    assert "cost (measured on this machine; see the notes):" in out
    table = out[out.index("cost (measured"):]
    assert "scoring a query: p50 / p95" in table and "documents' index" in table
    assert [line.split()[0] for line in table.splitlines()[3:5]] == ["defaults", "k1=1.6"]
    assert "what a change costs: From defaults to k1=1.6: k1: live, nothing to build" in out


class SeeingEncoder(FakeEncoder):
    """A FakeEncoder that keeps every text it was asked to encode."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        self.seen.extend(texts)
        return super().encode(texts, batch_size=batch_size, progress=progress)


def test_bench_times_the_configuration_named(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.bench import harness
    from workbench.core.models.hybrid.params import OPENVAULT_PROMPT

    enc = SeeingEncoder()
    register_encoder(enc.name, enc)
    monkeypatch.setattr(harness, "REFERENCES", {})  # the row, not OpenVault's own code
    assert main(["bench", str(TEA), "-m", "hybrid", "-p", f"embedding_model={enc.name}",
                 "-p", "alpha=0.3", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert (f"note: hybrid is timed at its defaults with embedding_model={enc.name}, "
            "alpha=0.3, as you named them") in out
    assert "NOT at its defaults" not in out
    # what eval scores: hybrid's own document prompt and fields (text only), not the bench's
    ds = load_dataset(TEA)
    titled = next(d for d in ds.corpus if d.title)
    assert OPENVAULT_PROMPT + titled.text in enc.seen
    assert not any(t.startswith(titled.title) for t in enc.seen)
    header = next(line for line in out.splitlines() if line.startswith("model "))
    assert "slider ms" in header
    assert "Not what serving a query costs" in out


def test_bench_says_when_it_times_another_configuration(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.bench import harness

    monkeypatch.setattr(harness, "bench_one", lambda mid, ds, *_: harness.Row(
        mid, ds.name, 10, 1.0, None, "", None))  # what is under test is what is said
    assert main(["bench", str(TEA), "-m", "hybrid", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert ("NOTE: hybrid is timed at query_prompt='', document_prompt='', fields=title+text"
            in out)
    assert "NOT at its defaults, which eval scores and tune tunes; to time those: bench DATA " \
           "-m hybrid --defaults" in out
    assert main(["bench", str(TEA), "-m", "hybrid", "--defaults", "--repeats", "1"]) == 0
    out = capsys.readouterr().out  # dr4 8: what it timed is said
    assert "note: hybrid is timed at its defaults (the configuration eval scores)" in out
    assert "NOT at its defaults" not in out


def test_bench_params_name_one_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", str(TEA), "-m", "bm25,hybrid", "-p", "alpha=0.3"]) == 2
    assert "name that model alone with -m" in capsys.readouterr().err


@pytest.mark.parametrize("ending", ["md", "html"])
def test_report_shows_the_cost_under_what_was_compared_only_with_cost(
        ending: str, fake: FakeEncoder, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """rb 6: compare --cost printed the cost; a report, the file a decision is made from, had
    no cost side at all. With --cost it has the table, its notes (measured on this machine)
    and what a change costs, with what was compared; without, none of it."""
    from workbench.core.params import params_toml

    both, text = tmp_path / "both.toml", tmp_path / "text.toml"
    both.write_text(params_toml({"embedding_model": fake.name}))
    text.write_text(params_toml({"embedding_model": fake.name, "fields": "text"}))
    out = tmp_path / f"r.{ending}"
    argv = ["report", str(TEA), "-m", "dense", "-c", str(both), "-c", str(text),
            "-o", str(out)]
    assert main(argv) == 0
    plain = out.read_text()
    assert "measured on this machine" not in plain
    assert "scoring a query: p50 / p95" not in plain
    assert "What a change costs" not in plain
    assert main([*argv, "--cost"]) == 0
    capsys.readouterr()
    page = out.read_text()
    said = page.replace("\\_", "_").replace("&#x27;", "'")
    assert "Cost, measured on this machine" in page
    assert "scoring a query: p50 / p95" in page and "query embedding: p50 / p95" in page
    assert "Measured on this machine (" in page
    assert "What a change costs" in page
    assert ("From both to text: fields changes the documents' vectors: every document "
            f"({_documents():,}) is embedded again") in said
    if ending == "html":  # under What was compared: before the metrics
        section = page[page.index('<section id="compared">'):page.index('<section id="metrics"')]
        assert '<h3 id="cost">' in section and '<a href="#cost">' in page
        rows = section[section.index("<tbody>"):].split("</tr>")
        assert [re.findall(r"<td>(.*?)</td>", r)[0] for r in rows[:2]] == ["both", "text"]
    else:
        assert page.index("## Cost, measured on this machine") < page.index("## Metrics")
        assert page.index("## Parameters that differ") < page.index("## Cost, measured")


def test_a_query_is_scored_on_state_held_once_not_rebuilt_per_call(
        fake: FakeEncoder, monkeypatch: pytest.MonkeyPatch) -> None:
    """dr4 1: each timed query had hashed every document (the corpus fingerprint) and opened
    the embedding store again; held once, as a server holds them."""
    from workbench.core import data
    from workbench.core.embeddings import cache, embed

    ds, model = load_dataset(TEA), get_model("hybrid")
    params = model.schema.resolve({"embedding_model": fake.name})
    cost.measure_build(model, ds, params)  # the vectors into the cache
    hashed, opened = [], []
    real_hash, real_open = data.Dataset.corpus_fingerprint, cache.open_store

    def counting_hash(self: data.Dataset) -> str:
        hashed.append(1)
        return real_hash(self)

    def counting_open(*a: object, **k: object) -> object:
        opened.append(1)
        return real_open(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(data.Dataset, "corpus_fingerprint", counting_hash)
    monkeypatch.setattr(embed, "open_store", counting_open)
    s = cost.measure_serving(model, ds, params, queries=5, embedded=2)
    assert s.sample == 5
    assert len(hashed) == 1 and len(opened) == 1


def test_documents_embedded_earlier_in_the_run_are_shown_not_unmeasured(
        fake: FakeEncoder) -> None:
    """dr4 3: compare embeds before it measures; that embedding is shown, with its device."""
    from workbench.core.embeddings import embed_texts
    from workbench.core.models.dense import document_texts

    ds, model = load_dataset(TEA), get_model("dense")
    params = model.schema.resolve({"embedding_model": fake.name})
    embed_texts(document_texts(ds), model=fake.name, what="documents")  # as compare does
    b = cost.measure_build(model, ds, params)
    assert b.all_cached and b.embedding is not None and b.embedding.earlier
    assert b.embedding.texts == _documents() and b.embedding.device == "fake-device"
    assert "earlier in this run" in cost.build_cell(b)
    row = cost.cost_rows([cost.Cost("dense", "dense", b)])[0]
    assert f"earlier in this run: {_documents():,} in " in row[2]
    assert "texts/s" in row[2] and "fake-device" in row[2]
    assert not any("Build not measured" in n for n in cost.cost_notes([cost.Cost("d", "d", b)]))
    assert b.peak_rss is not None and b.peak_rss > 0


def test_a_build_that_embeds_times_its_embedding(fake: FakeEncoder) -> None:
    ds, model = load_dataset(TEA), get_model("dense")
    params = model.schema.resolve({"embedding_model": fake.name})
    b = cost.measure_build(model, ds, params)
    assert b.embedding is not None and not b.embedding.earlier
    assert b.embedding.texts == _documents()


def test_a_build_under_a_tenth_of_a_second_is_not_zero() -> None:
    b = cost.Build(documents=3, seconds=0.004)
    assert cost.build_cell(b) == "4 ms"
    assert cost.build_cell(cost.Build(documents=3, seconds=0.0002)) == "under 1 ms"


class LoadingEncoder(FakeEncoder):
    """A fake encoder that says whether it is loaded, as sentence-transformers' does."""

    def __init__(self, loaded: bool) -> None:
        super().__init__()
        self.loaded = loaded

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        self.loaded = True
        return super().encode(texts, batch_size=batch_size, progress=progress)


@pytest.mark.parametrize("loaded", [True, False])
def test_a_cold_start_is_said_only_where_the_model_was_not_loaded(loaded: bool) -> None:
    """dr4 4: a model compare had loaded already had been called a cold start."""
    enc = LoadingEncoder(loaded)
    register_encoder(enc.name, enc)
    ds, model = load_dataset(TEA), get_model("dense")
    params = model.schema.resolve({"embedding_model": enc.name})
    cost.measure_build(model, ds, params)  # every vector cached, as a later run finds them
    enc.loaded = loaded
    s = cost.measure_serving(model, ds, params, queries=2, embedded=2)
    assert s.embedding is not None and s.embedding.cold is (not loaded)
    notes = " ".join(cost.cost_notes([cost.Cost("dense", "dense", cost.Build(3), s)]))
    assert ("Cold start (model load)" in notes) is (not loaded)
    assert ("already loaded in this process" in notes) is loaded


def test_stored_embeddings_embed_nothing() -> None:
    """dr4 7c: hybrid's embeddings=stored reads the data's vectors; no document is embedded."""
    ds, model = load_dataset(TEA), get_model("hybrid")
    base = model.schema.resolve(None)
    stored_ = model.schema.resolve({"embeddings": "stored"})
    notes = cost.change_notes([("defaults", model, base), ("stored", model, stored_)], ds)
    assert "embedded again" not in notes[0]
    assert "nothing embedded" in notes[0]


def test_bench_points_to_a_compare_command_of_two_configurations() -> None:
    """dr4 2: `compare DATA -m MODEL --defaults --cost` was refused (one configuration)."""
    from workbench.bench.harness import cost_command

    assert cost_command(["hybrid"]) == "compare DATA -m bm25,hybrid --cost"
    assert cost_command(["bm25"]) == "compare DATA -m bm25,dense --cost"
    assert cost_command(["bm25", "dense"]) == "compare DATA -m bm25,dense --cost"


def test_bench_with_defaults_says_what_it_timed() -> None:
    """dr4 8: bench --defaults had printed nothing of the configuration it timed."""
    from workbench.bench.harness import settings_lines

    assert settings_lines(["hybrid"], {}) == [
        "note: hybrid is timed at its defaults (the configuration eval scores)"]
