"""The tuning session: events per field, request → result with stale results dropped,
undo/redo, baseline, and save/load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SAMPLES
from workbench.core.data import FormatError
from workbench.core.params import ParamError
from workbench.core.session import TuningSession, compute


def _session() -> tuple[TuningSession, list[tuple[str, Any]]]:
    s = TuningSession()
    seen: list[tuple[str, Any]] = []
    for name in ("dataset_changed", "model_changed", "params_changed", "prepare_needed",
                 "result_changed", "baseline_changed", "query_changed"):
        getattr(s, name).connect(lambda *a, n=name: seen.append((n, a[0] if a else None)))
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.recompute()
    return s, seen


def test_open_model_and_compute_announce_themselves() -> None:
    s, seen = _session()
    names = [n for n, _ in seen]
    assert names[0] == "dataset_changed" and "model_changed" in names
    assert names[-1] == "result_changed"
    assert s.result is not None and set(s.result.means) == set(s.metric_names)


def test_live_change_recomputes_without_prepare() -> None:
    s, seen = _session()
    prepared = s.prepared
    before = s.result.means["ndcg@10"] if s.result else 0.0
    seen.clear()
    s.set_param("b", 0.1)
    assert seen == [("params_changed", "b")] and not s.needs_prepare
    s.recompute()
    assert s.prepared is prepared
    assert s.result is not None and s.result.means["ndcg@10"] != before


def test_prepare_stage_change_asks_for_prepare() -> None:
    s, seen = _session()
    seen.clear()
    s.set_param("stemmer", "none")
    assert ("prepare_needed", None) in seen and s.needs_prepare
    assert s.request() is None  # nothing to compute on stale arrays
    s.recompute()
    assert not s.needs_prepare and s.result is not None


def test_stale_results_are_dropped() -> None:
    s, _ = _session()
    s.set_param("k1", 0.5)
    old = s.request()
    s.set_param("k1", 2.0)
    new = s.request()
    assert old is not None and new is not None
    assert not s.apply(compute(old))  # an older generation: dropped
    assert s.apply(compute(new)) and s.result is not None
    assert s.params["k1"] == 2.0


def test_undo_redo_and_bad_values() -> None:
    s, _ = _session()
    s.set_param("k1", 0.5)
    s.set_param("b", 0.2)
    s.undo()
    assert (s.params["k1"], s.params["b"]) == (0.5, 0.75)
    s.undo()
    assert s.params["k1"] == 1.2 and not s.can_undo
    s.redo()
    assert s.params["k1"] == 0.5 and s.can_redo
    with pytest.raises(ParamError, match="parameter k1 must be"):
        s.set_param("k1", 99)
    assert s.params["k1"] == 0.5
    s.reset_param()
    assert s.params == s.model.schema.defaults() if s.model else False


def test_a_model_switched_away_from_and_back_keeps_its_values_and_undo_steps() -> None:
    # bm25 → vault-search → hybrid → bm25 reset k1 1.6 to 1.2 and emptied undo and redo: the
    # values were lost with no way back
    s, _ = _session()
    s.set_param("k1", 1.6)
    s.set_param("b", 0.3)
    s.undo()
    s.set_model("vault-search")
    assert s.params == s.model.schema.defaults() and not s.can_undo  # type: ignore[union-attr]
    s.set_model("hybrid")
    s.set_model("bm25")
    assert (s.params["k1"], s.params["b"]) == (1.6, 0.75) and s.can_undo and s.can_redo
    s.undo()
    assert s.params["k1"] == 1.2
    s.set_model("vault-search")
    with pytest.raises(ParamError):  # bad values: nothing changes, bm25's memory kept
        s.set_model("bm25", {"k1": 99})
    assert s.model.id == "vault-search"  # type: ignore[union-attr]
    s.set_model("bm25")
    assert s.params["k1"] == 1.2 and s.can_redo
    s.set_model("bm25", {"k1": 0.9})  # values given (a configuration, a session): they win
    assert s.params["k1"] == 0.9 and not s.can_undo
    s.set_param("b", 0.5)
    s.set_model("vault-search")
    s.open(SAMPLES / "tea-beir")  # another dataset: each model starts afresh
    s.set_model("bm25")
    assert s.params == s.model.schema.defaults()  # type: ignore[union-attr]


def test_baseline_and_comparison() -> None:
    s, _ = _session()
    s.pin_baseline()
    s.set_param("k1", 0.0)  # term frequency ignored: a worse ranking
    s.recompute()
    test = s.comparison()
    assert test is not None and test.n == 25
    assert test.delta == pytest.approx(s.result.means["ndcg@10"]
                                       - s.baseline.result.means["ndcg@10"])  # type: ignore[union-attr]
    assert test.improved + test.worsened + test.tied == 25


def test_bad_dataset_keeps_the_previous_one(tmp_path: Path) -> None:
    s, _ = _session()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "corpus.jsonl").write_text('{"_id": "x", "text": 5}\n')
    (bad / "queries.jsonl").write_text('{"_id": "q", "text": "x"}\n')
    dataset, result = s.dataset, s.result
    with pytest.raises(FormatError, match=r"corpus\.jsonl:1"):
        s.open(bad)
    assert s.dataset is dataset and s.result is result


def test_save_and_load(tmp_path: Path) -> None:
    s, _ = _session()
    s.pin_baseline()
    s.set_param("k1", 0.8)
    s.select_query(3)
    s.set_k(5)
    path = tmp_path / "tuning.json"
    s.save(path)
    t = TuningSession()
    t.load(path)
    assert t.model is not None and t.model.id == "bm25"
    assert t.params["k1"] == 0.8 and t.query == 3 and t.k == 5
    assert t.baseline is not None and t.baseline.params["k1"] == 1.2
    path.write_text("{not json")
    with pytest.raises(FormatError, match=r"tuning.json:1: invalid JSON at column 2: "):
        t.load(path)


def test_a_save_that_fails_midway_leaves_the_saved_file_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills while the new session is written (fsync raises ENOSPC, as it does when
    written pages cannot be stored): the save fails, the file saved before is intact, and no
    temporary file is left beside it."""
    import errno
    import os

    s, _ = _session()
    path = tmp_path / "tuning.json"
    s.save(path)
    before = path.read_bytes()
    s.set_param("k1", 0.8)

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError) as raised:
        s.save(path)
    assert raised.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tuning.json"]
    t = TuningSession()
    t.load(path)
    assert t.params["k1"] == 1.2  # the first save's value, not the failed one's


def test_a_result_computed_for_the_previous_model_is_dropped() -> None:
    s, _ = _session()
    old = s.request()
    assert old is not None
    s.set_model("vault-search")
    s.recompute()
    fresh = s.result
    assert not s.apply(compute(old)) and s.result is fresh


def test_a_typed_query_is_ranked_like_any_other() -> None:
    import numpy as np

    from workbench.core.data import Dataset, Query, QuerySet
    from workbench.core.models import get_model
    from workbench.core.pipeline import Pipeline

    s, seen = _session()
    s.set_param("b", 0.4)
    s.recompute()
    s.pin_baseline()
    assert s.baseline is not None
    old = s.baseline.result.per_query["ndcg@10"].copy()
    n = len(s.dataset.queries)  # type: ignore[union-attr]
    seen.clear()
    assert s.add_query("  green tea caffeine  ") == n
    assert s.query == n and s.needs_prepare
    assert [name for name, _ in seen][:3] == ["dataset_changed", "baseline_changed",
                                             "query_changed"]
    s.recompute()
    assert s.result is not None and s.dataset is not None
    q = s.dataset.queries[n]
    assert (q.id, q.text) == ("typed-1", "green tea caffeine")
    # the same ranking as the query alone through a pipeline at the same parameters
    # judged data (an empty entry): at the depth, equal scores are cut as trec_eval reads them
    alone = Dataset("one", s.dataset.corpus, QuerySet([Query("x", "green tea caffeine")]),
                    {"x": {}})
    ref = Pipeline(get_model("bm25"), alone, s.params).run((), depth=s.depth)
    count = int(ref.ranking.count[0])
    assert count > 0 and int(s.result.ranking.count[n]) == count
    assert np.array_equal(s.result.ranking.docs[n, :count], ref.ranking.docs[0, :count])
    # unjudged: NaN metrics; the baseline recomputed row for row, old rows unchanged
    assert np.isnan(s.result.per_query["ndcg@10"][n])
    assert s.baseline is not None and s.baseline.params["b"] == 0.4
    assert np.array_equal(s.baseline.result.per_query["ndcg@10"][:n], old, equal_nan=True)
    assert s.add_query("green tea caffeine") == n  # typed again: that one, not a copy
    assert s.add_query("green tea theanine") == n + 1  # ids stay unique
    assert s.dataset.queries[n + 1].id == "typed-2"
    with pytest.raises(ValueError):
        s.add_query("   ")


def test_a_typed_query_keeps_the_situation_not_the_answers() -> None:
    s = TuningSession()
    s.open(SAMPLES / "decisions-eval")
    s.set_model("decision-memory")
    s.select_query(3)
    case = s.dataset.queries[3]  # type: ignore[union-attr]
    s.add_query("which database did we pick")
    typed = s.dataset.queries[s.query]  # type: ignore[union-attr]
    assert typed.context["cwd"] == case.context["cwd"]
    assert typed.context["candidates"] == case.context["candidates"]
    assert "expected_top_ids" not in typed.context and "must_not_include" not in typed.context
    s.recompute()
    assert s.result is not None


@pytest.mark.parametrize("k", [5, 200])
def test_a_new_k_keeps_the_baseline_comparable(k: int) -> None:
    """The baseline's metrics follow k: read again from its ranking (k 5), or computed again
    at its values when its ranking is shallower than the new depth (k 200). Checked against
    the baseline's values run apart at that k."""
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model
    from workbench.core.pipeline import Pipeline

    s, _ = _session()
    s.set_param("k1", 0.4)
    s.recompute()
    s.pin_baseline()
    s.set_param("k1", 1.8)
    s.recompute()
    s.set_k(k)
    s.recompute()
    assert s.baseline is not None and s.comparison() is not None
    apart = Pipeline(get_model("bm25"), load_dataset(SAMPLES / "tea-beir"),
                     {"k1": 0.4}).run(list(s.metric_names)).means
    for name in s.metric_names:
        assert s.baseline.result.means[name] == pytest.approx(apart[name], abs=1e-12), name
