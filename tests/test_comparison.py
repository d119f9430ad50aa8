"""Named configurations compared: the metric table equals separate evaluations of each
configuration, the tests equal `paired_test` on those separate runs, the explain diff equals
the difference of each side's own contributions, and the sentence says it plainly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import (
    Configuration,
    MoveExplained,
    compare_configurations,
    configuration_file,
    differing,
    explain_move,
)
from workbench.core.data import Dataset
from workbench.core.formats import load_dataset
from workbench.core.metrics.significance import paired_test
from workbench.core.models import get_model
from workbench.core.params import ParamError, params_toml
from workbench.core.pipeline import DEFAULT_METRICS, Pipeline
from workbench.core.ranking import contributions_at

MODEL = get_model("bm25")
SETTINGS = {"defaults": {}, "short docs": {"k1": 0.9, "b": 0.9}, "flat": {"k1": 2.5, "b": 0.1}}


@pytest.fixture(scope="module")
def tea() -> Dataset:
    return load_dataset(SAMPLES / "tea-beir")


def _configs() -> list[Configuration]:
    return [Configuration(n, MODEL.schema.resolve(v)) for n, v in SETTINGS.items()]


def test_metric_table_equals_separate_evaluations(tea: Dataset) -> None:
    comp = compare_configurations(MODEL, tea, _configs())
    alone = [Pipeline(MODEL, tea, v).run(DEFAULT_METRICS)
             for v in SETTINGS.values()]
    assert [r.metric for r in comp.rows] == list(DEFAULT_METRICS)
    for row in comp.rows:
        means = [res.means[row.metric] for res in alone]
        assert row.means == pytest.approx(means, abs=1e-12)
        assert row.deltas == pytest.approx([m - means[0] for m in means], abs=1e-12)
        assert row.p_values[0] is None
        for i in (1, 2):
            test = paired_test(alone[0].per_query[row.metric], alone[i].per_query[row.metric])
            assert row.p_values[i] == test.p_value
            assert (row.improved[i], row.worsened[i]) == (test.improved, test.worsened)
    np.testing.assert_array_equal(comp.per_query_delta("ndcg@10", 2),
                                  alone[2].per_query["ndcg@10"] - alone[0].per_query["ndcg@10"])
    assert differing(comp.configs) == {"k1": [1.2, 0.9, 2.5], "b": [0.75, 0.9, 0.1]}


def test_explain_diff_is_the_difference_of_the_two_explains(tea: Dataset) -> None:
    comp = compare_configurations(MODEL, tea, _configs())
    a = Pipeline(MODEL, tea, SETTINGS["defaults"]).run(DEFAULT_METRICS)
    b = Pipeline(MODEL, tea, SETTINGS["flat"]).run(DEFAULT_METRICS)
    moved = comp.movers(2, k=10)
    assert moved
    ca, cb = contributions_at(a.scores, a.ranking), contributions_at(b.scores, b.ranking)
    checked = 0
    for m in moved[:10]:
        if m.rank is None or m.baseline_rank is None:
            continue
        move = explain_move(comp, 2, m.query, m.doc)
        assert (move.rank_a, move.rank_b) == (m.baseline_rank, m.rank)
        assert int(a.ranking.docs[m.query, m.baseline_rank - 1]) == m.doc
        assert int(b.ranking.docs[m.query, m.rank - 1]) == m.doc
        expected = cb[:, m.query, m.rank - 1] - ca[:, m.query, m.baseline_rank - 1]
        np.testing.assert_allclose(move.deltas, expected, atol=1e-12)
        assert move.changed == {"k1": (1.2, 2.5), "b": (0.75, 0.1)}
        checked += 1
    assert checked


def test_the_sentence() -> None:
    move = MoveExplained(
        query=0, doc=3, rank_a=7, rank_b=2, total_a=1.0, total_b=2.6,
        signals=("bm25", "vector", "boost"),
        contributions_a=np.array([0.8, 0.2, 0.0]), contributions_b=np.array([0.5, 2.1, 0.0]),
        changed={"alpha": (0.3, 0.6)})
    assert move.sentence() == "moved from 7 to 2: vector +1.9, bm25 −0.3 — alpha 0.3 → 0.6"
    entered = MoveExplained(0, 3, None, 4, 0.0, 1.0, ("bm25",), np.zeros(1), np.ones(1), {})
    assert entered.sentence() == "entered at 4: bm25 +1"


def test_configurations_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "tuned on train.toml"
    path.write_text(params_toml({"k1": 0.9, "b": 0.4}, ["from tune"]))
    config = configuration_file(MODEL, path)
    assert config.name == "tuned on train"
    assert config.params == MODEL.schema.resolve({"k1": 0.9, "b": 0.4})
    bad = tmp_path / "bad.toml"
    bad.write_text("k1 = 99\n")
    with pytest.raises(ParamError, match=r"bad\.toml"):
        configuration_file(MODEL, bad)


def test_refusals(tea: Dataset) -> None:
    one = _configs()[:1]
    with pytest.raises(ValueError, match="at least two"):
        compare_configurations(MODEL, tea, one)
    with pytest.raises(ValueError, match="named 'defaults'"):
        compare_configurations(MODEL, tea, one + one)


def test_a_state_prepared_elsewhere_is_reused_and_gives_the_same_results(
        tea: Dataset, monkeypatch: pytest.MonkeyPatch) -> None:
    model = get_model("bm25")
    configs = [*_configs(), Configuration("unstemmed", model.schema.resolve(
        {"stemmer": "none"}))]
    fresh = compare_configurations(model, tea, configs)
    live = Pipeline(model, tea, configs[0].params)
    from workbench.core import engine

    calls: list[object] = []
    real = engine.prepare
    monkeypatch.setattr(engine, "prepare",
                        lambda *a, **kw: calls.append(a[2]) or real(*a, **kw))
    reused = compare_configurations(model, tea, configs,
                                    prepared=(live.params, live.prepared))
    assert [p["stemmer"] for p in calls] == ["none"]  # only the one that prepares apart
    for a, b in zip(fresh.rows, reused.rows, strict=True):
        assert a == b


def test_bundle_figures_are_compared_each_the_configurations_own() -> None:
    """A bundle-selecting model's own figures beside a ranking metric (and alone): each
    configuration's means are its own evaluation's, bundle_f1 is the per-task F1's mean, and
    for a bundle's files and tokens fewer counts as improved."""
    from workbench.core.metrics import mean_over_judged, with_bundle_f1

    model = get_model("codeledger")
    ds = load_dataset(SAMPLES / "code-repo")
    settings = {"no skips": {"token_budget": 300, "skip_limit": 0},
                "skips": {"token_budget": 300, "skip_limit": 3}}
    configs = [Configuration(n, model.schema.resolve(v)) for n, v in settings.items()]
    names = ["bundle_recall", "bundle_f1", "bundle_files", "bundle_tokens"]
    for metrics in (["r@10", *names], names):
        comp = compare_configurations(model, ds, configs, metrics)
        assert [r.metric for r in comp.rows] == metrics
        alone = []
        for values in settings.values():
            pipe = Pipeline(model, ds, values)
            per = with_bundle_f1(pipe.run(["r@10"]).per_query)
            assert pipe.judgments is not None
            alone.append({m: (v, mean_over_judged(v, pipe.judgments)) for m, v in per.items()})
        for row in comp.rows:
            assert row.means == pytest.approx([a[row.metric][1] for a in alone], abs=1e-12)
            test = paired_test(alone[0][row.metric][0], alone[1][row.metric][0])
            rose, fell = test.improved, test.worsened
            assert (row.improved[1], row.worsened[1]) == (
                (fell, rose) if row.metric in ("bundle_files", "bundle_tokens") else (rose, fell))
        tokens = next(r for r in comp.rows if r.metric == "bundle_tokens")
        assert tokens.deltas[1] > 0 and tokens.worsened[1] > 0  # skips take more files


def test_a_document_that_falls_while_its_score_rises_names_what_passed_it() -> None:
    """k1 1.2 → 0.9 on tea-beir: a document whose own BM25 rose and yet fell in the ranking
    is explained by the documents that rose past it, counted here from both rankings."""
    ds = load_dataset(SAMPLES / "tea-beir")
    comp = compare_configurations(MODEL, ds, [Configuration("a", MODEL.schema.resolve({})),
                                              Configuration("b", MODEL.schema.resolve(
                                                  {"k1": 0.5, "b": 0.3}))], ["ndcg@10"])
    a, b = comp.results
    found = 0
    for q in range(len(ds.queries)):
        ra = [int(d) for d in a.ranking.docs[q, :int(a.ranking.count[q])]]
        rb = [int(d) for d in b.ranking.docs[q, :int(b.ranking.count[q])]]
        for doc in ra[:10]:
            if doc not in rb or rb.index(doc) <= ra.index(doc):
                continue
            move = explain_move(comp, 1, q, doc)
            if move.total_b < move.total_a:
                continue
            passed = set(rb[:rb.index(doc)]) - set(ra[:ra.index(doc)])
            assert move.overtaken_by == len(passed) > 0
            n = len(passed)
            assert f", but {n} document{'s' if n > 1 else ''} rose past it" in move.sentence()
            found += 1
    assert found  # the case occurs on this data


def test_a_document_that_falls_as_its_score_falls_still_names_what_passed_it() -> None:
    """k1 1.2 → 2.0 on tea-beir: a document whose own BM25 fell and that others rose past: the
    count is said too (a −0.02 alone had read as the cause of a fall of 17 places)."""
    ds = load_dataset(SAMPLES / "tea-beir")
    comp = compare_configurations(MODEL, ds, [Configuration("a", MODEL.schema.resolve({})),
                                              Configuration("b", MODEL.schema.resolve(
                                                  {"k1": 2.0}))], ["ndcg@10"])
    a, b = comp.results
    found = 0
    for q in range(len(ds.queries)):
        ra = [int(d) for d in a.ranking.docs[q, :int(a.ranking.count[q])]]
        rb = [int(d) for d in b.ranking.docs[q, :int(b.ranking.count[q])]]
        for doc in ra[:10]:
            if doc not in rb or rb.index(doc) <= ra.index(doc):
                continue
            move = explain_move(comp, 1, q, doc)
            passed = set(rb[:rb.index(doc)]) - set(ra[:ra.index(doc)])
            if move.total_b >= move.total_a or not passed:
                continue
            n = len(passed)
            assert f", while {n} document{'s' if n > 1 else ''} rose past it" in \
                move.sentence()
            found += 1
    assert found  # the case occurs on this data


def test_a_document_a_gate_let_through_is_explained_by_the_gate() -> None:
    """min_strong 2 → 1 on the pi-lodestone cases: documents the single-token evidence gate
    filtered out now enter, and the sentence names the gate, not "no signal changed" (their
    signals are the same on both sides; only the gate zeroed the first total)."""
    ds = load_dataset(SAMPLES / "decisions-eval")
    model = get_model("decision-memory")
    comp = compare_configurations(model, ds, [
        Configuration("a", model.schema.resolve({})),
        Configuration("b", model.schema.resolve({"min_strong": 1}))], ["ndcg@10"])
    a, b = comp.results
    gate = model.gates.index("single_token_evidence") + 1
    seen = 0
    for q in range(len(ds.queries)):
        for doc in b.ranking.docs[q, :int(b.ranking.count[q])].tolist():
            row = a.scores.row(q)
            at = np.flatnonzero(a.scores.docs[row] == doc)
            if not len(at) or int(a.scores.gate[row.start + int(at[0])]) != gate:
                continue
            move = explain_move(comp, 1, q, doc)
            assert (move.gate_a, move.gate_b) == ("single_token_evidence", None)
            text = move.sentence()
            # the configurations by name (review F, 10: "under the first")
            assert "filtered out by the single_token_evidence gate under a, let through by " \
                   "b" in text
            assert "no signal changed" not in text
            seen += 1
    assert seen  # the case occurs on this data


def test_a_document_below_the_depth_compared_is_not_said_to_drop_out(tea: Dataset) -> None:
    # compare ranks as deep as its metrics read: a document still scored at #194 was said to
    # have "dropped out from 8", which reads as removed or gated
    configs = [Configuration("a", {}), Configuration("b", {"k1": 3.0, "b": 0.0})]
    shallow = compare_configurations(get_model("bm25"), tea, configs, ["ndcg@10"])
    deep = compare_configurations(get_model("bm25"), tea, configs, ["ndcg@10", "r@1000"])
    a, b = shallow.results
    found = 0
    for q in range(len(tea.queries)):
        below = {int(d) for d in a.ranking.docs[q, :int(a.ranking.count[q])]} - {
            int(d) for d in b.ranking.docs[q, :int(b.ranking.count[q])]}
        for d in sorted(below):
            move = explain_move(shallow, 1, q, d)
            assert move.rank_b is None and move.beyond_b is not None
            # its place in the deeper ranking lies among the ties the sentence names
            full = explain_move(deep, 1, q, d).rank_b
            assert full is not None
            assert move.beyond_b <= full <= move.beyond_b + move.tied_b
            text = move.sentence()
            # a tie that starts inside the list is said as one (its first place is no rank)
            start = (f"(#{move.beyond_b}" if move.beyond_b > 100 else
                     f"(tied at {move.total_b:.3g} with {move.tied_b} others from "
                     f"#{move.beyond_b} on; the order among them put it after #100)")
            assert text.startswith(f"moved from {move.rank_a} to below the top 100 {start}"), \
                text
            assert "passed" not in text  # it fell: "it passed 94 that fell further" was wrong
            assert "dropped out" not in text
            found += 1
    assert found


def test_a_document_rising_from_below_the_depth_is_said_so(tea: Dataset) -> None:
    # the rise from below the top 100 had no count of what it passed
    configs = [Configuration("a", {"k1": 3.0, "b": 0.0}),
               Configuration("b", {"k1": 1.2, "b": 0.75})]
    comp = compare_configurations(get_model("bm25"), tea, configs, ["ndcg@10"])
    a, b = comp.results
    found = 0
    for q in range(len(tea.queries)):
        entered = {int(d) for d in b.ranking.docs[q, :int(b.ranking.count[q])]} - {
            int(d) for d in a.ranking.docs[q, :int(a.ranking.count[q])]}
        for d in sorted(entered):
            move = explain_move(comp, 1, q, d)
            assert move.rank_a is None and move.beyond_a is not None
            assert move.rank_b is not None
            assert move.overtook == max(0, move.beyond_a - move.rank_b)
            start = (f"(#{move.beyond_a}" if move.beyond_a > 100 else
                     f"(tied at {move.total_a:.3g} with {move.tied_a} others from "
                     f"#{move.beyond_a} on;")
            assert move.sentence().startswith(f"moved from below the top 100 {start}")
            found += 1
    assert found


def test_a_document_the_min_score_cut_is_said_so() -> None:
    # "moved from 10 to below the top 3 (#7) … but it passed 9 documents that fell further":
    # the min score, which cut it, was not named (and hidden in "and 2 more")
    vault = load_dataset(SAMPLES / "vault")
    model = get_model("vault-search")
    configs = [Configuration("defaults", model.schema.resolve({})),
               Configuration("a", model.schema.resolve({
                   "w_tf": 0.8, "w_position": 0.1, "w_density": 0.1, "min_score": 0.3,
                   "limit": 10}))]
    comp = compare_configurations(model, vault, configs, ["ndcg@10"])
    a, b = comp.results
    found = 0
    for q in range(len(vault.queries)):
        kept = {int(d) for d in b.ranking.docs[q, :int(b.ranking.count[q])]}
        for d in a.ranking.docs[q, :int(a.ranking.count[q])].tolist():
            if d in kept:
                continue
            move = explain_move(comp, 1, q, int(d))
            if move.total_b >= 0.3 or move.gate_b is not None:
                continue
            text = move.sentence()
            assert move.floor_b == ("min_score", 0.3) and move.beyond_b is None
            # its weights changed too: its score moved, and then fell under the min score
            assert move.total_a != move.total_b
            went = "fell" if move.total_b < move.total_a else "rose"
            assert text.startswith(f"dropped out from {move.rank_a}: its score {went} from "
                                   f"{move.total_a:.3g} to {move.total_b:.3g}, under "
                                   "min_score 0.3: filtered out; "), text
            assert "passed" not in text and " — min_score 0 → 0.3" in text
            found += 1
    assert found
    kept_above = explain_move(comp, 1, 0, int(b.ranking.docs[0, 0]))
    assert kept_above.floor_b is None and kept_above.floor_a is None


def test_only_the_cut_a_model_makes_is_called_its_min_score() -> None:
    # codeledger's overshoot_min_score (a bundle setting) was taken for a ranking's cut: a
    # file past the depth compared "dropped out …, under overshoot_min_score 0.3"
    import dataclasses

    from workbench.core.ranking import head

    model = get_model("codeledger")
    ds = load_dataset(SAMPLES / "code-repo")
    comp = compare_configurations(model, ds, [
        Configuration("a", model.schema.resolve({})),
        Configuration("b", model.schema.resolve({"w_keyword": 0.3}))], ["ndcg@10"])
    b = comp.results[1] = dataclasses.replace(comp.results[1],
                                              ranking=head(comp.results[1].ranking, 3))
    moves = [explain_move(comp, 1, q, int(d)) for q in range(len(ds.queries))
             for d in comp.results[0].ranking.docs[q, :30].tolist()
             if d >= 0 and d not in b.ranking.docs[q, :int(b.ranking.count[q])]]
    assert any(m.total_b < 0.3 for m in moves)  # under overshoot_min_score's 0.3
    assert moves and all(m.floor_b is None for m in moves)
    assert not any("overshoot" in m.sentence() for m in moves)
    # dense's cut is its min similarity, named so
    dense = get_model("dense")
    assert dense.selection_params(dense.schema.resolve({"min_similarity": 0.5})).min_score == 0.5


def test_a_document_the_case_limit_cut_keeps_its_score_and_names_what_fell_past_it() -> None:
    # superseded_penalty 4 → 17 on a top-1 case: qm-004 (not superseded, its score the same
    # under both) was "filtered out by the over_limit gate", total 0 → 39, Δ +39; it was 2nd
    # behind the superseded qm-005, whose penalty grew by 17 − 4 = 13
    ds = load_dataset(SAMPLES / "decisions-eval")
    model = get_model("decision-memory")
    comp = compare_configurations(model, ds, [
        Configuration("defaults", model.schema.resolve({})),
        Configuration("fix", model.schema.resolve({"superseded_penalty": 17,
                                                   "long_query_meaningful": 2}))],
        ["ndcg@10"])
    q = ds.queries.ids.index("superseded-wins-manual-search")
    doc, other = ds.corpus.index["qm-004"], ds.corpus.index["qm-005"]
    a, b = comp.results
    assert a.ranking.docs[q, :int(a.ranking.count[q])].tolist() == [other]
    assert b.ranking.docs[q, :int(b.ranking.count[q])].tolist() == [doc]
    move = explain_move(comp, 1, q, doc)
    assert move.gate_a is None and move.total_a == move.total_b > 0
    assert move.sentence() == (
        f"moved from #2 (past the limit of 1) to 1: its own score did not change "
        f"({move.total_b:.3g}); the document above it before fell past it: qm-005 "
        f"(superseded −13) — superseded_penalty 4 → 17 (only it set back: out of the list)")
    # long_query_meaningful, which moves nothing here (below), is not counted "and 1 more"
    # (dr7 7)
    # long_query_meaningful 3 → 2 moves nothing on this search (rv51 2): with it alone
    # the list is the defaults' own, with superseded_penalty alone undone it is qm-004 again
    alone = [Pipeline(model, ds, v).run(["ndcg@10"]).ranking for v in
             ({"long_query_meaningful": 2}, {"superseded_penalty": 17})]
    assert [r.docs[q, :int(r.count[q])].tolist() for r in alone] == [[other], [doc]]
    back = explain_move(comp, 1, q, other)
    assert back.sentence().startswith("moved from 1 to #2 (past the limit of 1): superseded −13")


def test_a_document_whose_tie_starts_inside_the_list_is_not_given_that_first_place() -> None:
    # SciFact, alpha 0.7 → 1: every document scores 0 under alpha 1 and explain ranks this one
    # #1156; compare said "moved from 1 to below the top 100 (#1, tied with 199 others)",
    # the first place of the tie and a count over the 200 pairs the hybrid tick kept
    def move(pruned: bool) -> MoveExplained:
        return MoveExplained(
            query=0, doc=3, rank_a=1, rank_b=None, total_a=4.5, total_b=0.0,
            signals=("bm25", "vector"), contributions_a=np.array([4.5, 0.0]),
            contributions_b=np.zeros(2), changed={"alpha": (0.7, 1.0)},
            depth_b=100, beyond_b=1, tied_b=199, pruned_b=pruned)
    assert move(True).sentence() == (
        "moved from 1 to below the top 100 (tied at 0 with at least 199 others from #1 on; "
        "the order among them put it after #100): bm25 −4.5 — alpha 0.7 → 1")
    assert "(tied at 0 with 199 others from #1 on;" in move(False).sentence()
