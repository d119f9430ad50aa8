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
    # every vector is in the cache now: the build was not measured, and said so
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
    assert s.p50_ms > 0 and s.p95_ms >= s.p50_ms and s.documents_read_ms > 0
    assert s.embedding is not None and s.embedding.device == "fake-device"
    assert s.embedding.sample == min(len(ds.queries), cost.EMBED_SAMPLE)
    assert s.embedding.p50_ms > 0
    row = cost.cost_rows([got])[0]
    assert row[7].endswith("ms on fake-device")
    assert " CPU cores" in cost.cost_notes([got])[0]


def test_bm25_has_an_index_and_no_vectors() -> None:
    ds, model = load_dataset(TEA), get_model("bm25")
    got = cost.measure("bm25", model, ds, model.schema.resolve(None))
    assert got.build.index_bytes is not None and got.build.index_bytes > 0
    assert got.build.vector_bytes is None and got.build.seconds is not None
    assert got.serving is not None and got.serving.embedding is None
    row = cost.cost_rows([got])[0]
    assert row[2] == "none (embeds nothing)" and row[7] == "none"


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
    assert "cost (measured on this machine" not in plain and "a query: p50 / p95" not in plain
    assert main([*argv, "--cost"]) == 0
    out = capsys.readouterr().out
    assert "cost (measured on this machine; see the notes):" in out
    table = out[out.index("cost (measured"):]
    assert "a query: p50 / p95" in table and "documents' index" in table
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
    assert "timed at" not in capsys.readouterr().out


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
    assert "measured on this machine" not in plain and "a query: p50 / p95" not in plain
    assert "What a change costs" not in plain
    assert main([*argv, "--cost"]) == 0
    capsys.readouterr()
    page = out.read_text()
    said = page.replace("\\_", "_").replace("&#x27;", "'")
    assert "Cost, measured on this machine" in page
    assert "a query: p50 / p95" in page and "query embedding: p50 / p95" in page
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
