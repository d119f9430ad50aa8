"""One rule for "beyond chance" (review rb): the pre-declared primary comparison, a tuned
configuration against its own start on the metric it was tuned for, held out, is tested alone
at 0.05 and keeps its verdict whatever other configurations are shown; every other p-value is
exploratory and adjusted (Holm) over the family shown. Also: a list-length remark only for a
metric that reads past the shorter list (rb 3); a difference in Every pair's sentence as its
table shows it (rb 7); tune's held-out estimate first on a k-fold run (rb 9)."""

from __future__ import annotations

import pytest

from tests.conftest import DATASETS, SAMPLES
from tests.test_embedding_damage_said import HashEncoder
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.embeddings import register_encoder
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuned_on import TunedOn
from workbench.report.html import html_report
from workbench.report.pairs import pair_note, pair_summary, pairs
from workbench.report.text import markdown, summary_lines

# bm25 on tea-beir, k1 0.3 and b 0: ndcg@10 0.6300 → 0.5850 against the defaults, 25
# queries, p about 0.048 (a paired randomisation test, computed apart from these tests)
TUNED = {"k1": 0.3, "b": 0.0}
OTHERS = [{"k1": 2.0, "b": 1.0}, {"k1": 3.0, "b": 0.3}]


def _comparison(others: list[dict[str, float]]) -> Comparison:
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("tuned", model.schema.resolve(TUNED))]
    configs += [Configuration(f"other{k}", model.schema.resolve(v))
                for k, v in enumerate(others)]
    comp = compare_configurations(model, ds, configs, n_resamples=2000)
    row = next(r for r in comp.rows if r.metric == "ndcg@10")
    p = row.p_values[1]
    assert p is not None and 0.01 < p < 0.05, p  # the case the rule is about
    # tune's record: tuned on other queries (none here), held out on these 25
    comp.tuned["tuned"] = TunedOn("tea-beir", "split", (), "ndcg@10", row.means[0],
                                  row.means[1], p, 25, start="the model's defaults")
    return comp


@pytest.fixture(scope="module")
def two() -> Comparison:
    return _comparison([])


@pytest.fixture(scope="module")
def four() -> Comparison:
    return _comparison(OTHERS)


def test_the_primary_verdict_does_not_change_with_other_columns(two: Comparison,
                                                                four: Comparison) -> None:
    said = "worse, beyond chance (the primary comparison, tested alone)"
    assert said in summary_lines(two)[0]
    assert said in summary_lines(four)[0]
    assert "weak evidence" not in summary_lines(four)[0].split(".")[0]
    for comp in (two, four):
        # the first table's row: tuned against defaults
        row = next(line for line in markdown(comp).splitlines()
                   if line.startswith("| ndcg@10 |"))
        assert "★" in row.split("|")[4] and "☆" not in row.split("|")[4]


def test_every_pair_gives_the_primary_pair_the_same_verdict(four: Comparison) -> None:
    found = pairs(four)
    (pair,) = [f for f in found.found if (f.a, f.b) == (0, 1)]
    assert pair.primary and pair.beyond_chance and pair.adjusted == pair.p_value
    text = pair_summary(four, found)
    assert "the primary comparison, tested alone" in text
    assert "Not called different" not in text and "weak evidence" not in text.split(
        "Below 0.05 alone")[0]


def test_weak_evidence_on_other_metrics_reads_with_one_colon(four: Comparison) -> None:
    # review dr6, 9: "… over the 4 p-values shown: weak evidence: p@10 …". map@100 of tuned
    # against defaults, p 0.017, is the smallest of the 11 side looks (the three others' ndcg@10,
    # mrr@10, p@10 and map@100 where a query moved, tuned's mrr@10, p@10 and map@100; r@100
    # moved none): 11 × 0.017 = 0.18 by hand, weak evidence
    (line, *_) = summary_lines(four)
    assert ("(the primary comparison, tested alone). Weak evidence on other metrics (p below "
            "0.05 alone, but exploratory, and not below 0.05 after Holm's adjustment over the "
            "11 p-values shown): map@100 ") in line
    assert "weak evidence:" not in line


def test_other_p_values_are_adjusted_over_the_family_shown(two: Comparison) -> None:
    # map@100 of tuned against defaults: exploratory, so its p is Holm-adjusted even with
    # two configurations (it had been read bare below 10 p-values); 6 metrics less the
    # primary ndcg@10, judged@10 (coverage) and r@100 (no query moved): 3
    page = markdown(two)
    # the note counts against its own table (r52 dr8 6): 6 p-values, 1 primary, 3 side
    # looks, the 2 untested named apart
    assert "Of the table's 6 p-values, 1 is the primary comparison's and 3 are side looks" \
        in page
    assert "Untested: 2 (no query moved or coverage)" in page
    assert "(the primary comparison: tuned against defaults on ndcg@10" in page


def test_the_window_cautions_name_one_verdict(four: Comparison) -> None:
    from workbench.gui.compare.window import window_cautions

    whole = " ".join(long for _, long in window_cautions(four))
    assert "beyond chance (the primary comparison, tested alone)" in whole
    assert "Not called different" not in whole


def test_as_shipped_is_set_against_its_own_models_defaults_whatever_comes_first() -> None:
    # review rb, 5: with another model first, the shippable figure was only against it; the
    # status quo is the model's own defaults (here vault-search's, limit 10 → 5, which
    # obsidian-mcp cannot take as measured)
    bm25, vault = get_model("bm25"), get_model("vault-search")
    ds = load_dataset(SAMPLES / "vault")
    comp = compare_configurations(
        bm25, ds, [Configuration("bm25", bm25.schema.defaults()),
                   Configuration("limit=5", vault.schema.resolve({"limit": 5}), model=vault)],
        n_resamples=2000)
    line = summary_lines(comp)[0]
    assert "Only part of it ships" in line, line
    assert "against vault-search's own defaults, what runs today: " in line, line
    # its p read by the rule, not bare (review dr6, 4): the table's 5 p-values where a query
    # moved (judged@10 is coverage) are below 0.0003 but mrr@10's 0.125; with this 0.03125
    # the 5th smallest of 6, Holm p (6 − 4) × 0.03125 = 0.0625 by hand: weak evidence
    assert ("what runs today: 0.7357 → 0.7049 (−0.0308, p 0.031, a side look: Holm p 0.062 "
            "over the 6, weak evidence)") in line, line
    # and not where the first is those defaults: said once, against the first
    own = compare_configurations(
        vault, ds, [Configuration("defaults", vault.schema.defaults()),
                    Configuration("limit=5", vault.schema.resolve({"limit": 5}))],
        n_resamples=2000)
    assert "what runs today" not in summary_lines(own)[0]


def test_length_is_blamed_only_where_the_metric_reads_past_the_short_list() -> None:
    # review rb, 3: bm25 returns 66 results on SciFact's query 768, 100 on the others; nDCG@10
    # reads the top 10 only, so none of its difference is length. The dense side is a FAKE
    # encoder (words hashed, not a language model: the test is about the report's words, and
    # the fake returns 100 on every query as the real model does)
    scifact = DATASETS / "scifact"
    if not scifact.is_dir():
        pytest.skip("SciFact is not here")
    enc = HashEncoder()
    register_encoder(enc.name, enc)
    bm, dn = get_model("bm25"), get_model("dense")
    ds = load_dataset(scifact)
    comp = compare_configurations(bm, ds, [
        Configuration("bm25", bm.schema.defaults(), model=bm),
        Configuration("dense", dn.schema.resolve({"embedding_model": enc.name}), model=dn)],
        n_resamples=2000)
    assert int(comp.lengths(0).min()) == 66 and int(comp.lengths(1).min()) == 100
    line = summary_lines(comp)[0]
    assert line.startswith("dense against bm25: ndcg@10 0.6802 → ")  # the README's bm25
    assert "Part of the difference is length" not in line
    text = markdown(comp)
    assert "r@100 and map@100 of bm25" in text  # the Metrics note keeps the metrics it reaches
    # the HTML page's In short reads the same rule (dr5: the reviewer's sf.html still blamed
    # length on nDCG@10)
    page = html_report(comp)
    assert "In short" in page and "Part of the difference is length" not in page


def test_a_tuned_pair_is_judged_on_the_metric_it_was_tuned_for() -> None:
    # review rc 3: In short and Every pair had judged codeledger against its tuned run on
    # bundle_recall (worse) while tune had tested ndcg@10 (better). Here tuned's record names
    # mrr@10, not the headline ndcg@10: 0.8204 → 0.7694 on tea-beir, 1 better and 4 worse
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("tuned", model.schema.resolve(TUNED)),
               Configuration("other", model.schema.resolve(OTHERS[0]))]
    comp = compare_configurations(model, ds, configs, n_resamples=2000)
    row = next(r for r in comp.rows if r.metric == "mrr@10")
    comp.tuned["tuned"] = TunedOn("tea-beir", "split", (), "mrr@10", row.means[0],
                                  row.means[1], row.p_values[1], 25,
                                  start="the model's defaults")
    lines = summary_lines(comp)
    assert lines[0].startswith("tuned against defaults: mrr@10 0.8204 → 0.7694 (−0.0510) "
                               "over 25 queries, 1 better and 4 worse")
    # said once: no second line for the primary comparison on another metric
    assert sum("tuned against defaults" in line for line in lines) == 1
    assert lines[1].startswith("other against defaults: ndcg@10 ")  # no record: headline
    found = pairs(comp)
    assert [(f.a, f.b, f.metric) for f in found.found] == [
        (0, 1, "mrr@10"), (0, 2, "ndcg@10"), (1, 2, "mrr@10")]
    text = pair_summary(comp, found)
    assert text.startswith("Every pair, each on one metric (mrr@10 where a side was tuned for "
                           "it, else the first quality metric both have: ndcg@10):")
    assert "metric both have (" not in text
    note = pair_note(comp, found)
    assert note.startswith("Each pair on one metric (mrr@10 where a side was tuned for it, "
                           "else the first quality metric both have: ndcg@10), over the 25 ")
