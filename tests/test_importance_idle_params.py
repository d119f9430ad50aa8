"""Importance parameters that change nothing at the other settings (`needs`) or on the data
(`inert_params`), the explain-only bands among them (reviewer C, F5 and F6)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import prepare, resolve_params
from workbench.core.formats import load_dataset
from workbench.core.models.importance import SCHEMA, ImportanceModel

NOW = "2026-03-01T00:00:00Z"
BANDS = {"resurface_threshold", "standard_threshold", "short_threshold", "resurface_dismissals"}
EXPLAIN_ONLY = "shown in explain only; it ranks nothing"
DATED = "every memory has a readable created_at or last_accessed"


@pytest.mark.parametrize(("setting", "idle", "why"), [
    ({"prefilter": False}, ("prefilter_current", "prefilter_days", "prefilter_importance"),
     "Pre-filter is off"),
    ({"superseded_archive": True}, ("superseded_decay",), "Archive superseded is on"),
    ({"relevance": "coverage"}, ("k1", "b"), "Relevance is coverage"),
    ({"stale_long": 0.0}, ("stale_long_days",), "Staleness: long per day is 0"),
    ({"stale_medium": 0.0}, ("stale_medium_days",), "Staleness: medium per day is 0"),
    ({"repeat_per": 0.0}, ("repeat_free", "repeat_cap"), "Repetition: per mention is 0"),
])
def test_a_parameter_idle_at_the_others_says_which(setting: dict[str, Any],
                                                   idle: tuple[str, ...], why: str) -> None:
    params = SCHEMA.resolve(setting)
    for name in idle:
        assert SCHEMA.idle_because(name, params) == why
    # on again (or another relevance): each acts
    live = SCHEMA.resolve({"prefilter": True, "superseded_archive": False, "relevance": "bm25",
                           "stale_long": 0.01, "stale_medium": 0.05, "repeat_per": 0.1})
    assert not [n for n in idle if SCHEMA.idle_because(n, live)]


def test_idle_really_changes_nothing() -> None:
    # what `needs` claims, checked on scores: with the pre-filter off its thresholds move no
    # score; with it on they do (q01's list on the sample)
    m, ds = ImportanceModel(), load_dataset(SAMPLES / "memories")
    base = resolve_params(m, {"prefilter": False, "limit": 0})
    prep = prepare(m, ds, base, use_cache=False)
    total = m.combine(prep, base).total
    moved = resolve_params(m, {**base, "prefilter_current": 1.0, "prefilter_days": 0.0,
                               "prefilter_importance": 1.0})
    np.testing.assert_array_equal(m.combine(prep, moved).total, total)
    on = resolve_params(m, {**moved, "prefilter": True})
    assert (m.combine(prep, on).total != total).any()


def _memory(i: str, text: str, **meta: Any) -> Document:
    return Document(i, "", text, metadata={"last_accessed": "2026-02-01T00:00:00Z", **meta})


def test_inert_on_the_data() -> None:
    # two long memories and a medium one; outcomes success only; no '!', no dismissal, no
    # supersession; the phrases fire decision ("decided to") and emphasis ("important") only
    docs = [_memory("a", "we decided to use postgres", tier="long", outcome="success"),
            _memory("b", "important: postgres port", tier="long"),
            _memory("c", "postgres backups", tier="medium")]
    ds = Dataset("d", Corpus(docs), QuerySet([Query("q", "postgres", {"now": NOW})]))
    m = ImportanceModel()
    p = resolve_params(m)
    got = m.inert_params(prepare(m, ds, p, use_cache=False), p)
    no_tier = "(and every memory has a tier)"
    assert got == {
        **dict.fromkeys(BANDS, EXPLAIN_ONLY),
        "default_tier": "every memory has a tier",
        "base_ultra_short": f"no memory is ultra-short {no_tier}",
        "stale_ultra_short": f"no memory is ultra-short {no_tier}",
        "stale_ultra_short_days": f"no memory is ultra-short {no_tier}",
        "ultra_short_own_decay": f"no memory is ultra-short {no_tier}",
        "base_short": f"no memory is short {no_tier}",
        "stale_short": f"no memory is short {no_tier}",
        "stale_short_days": f"no memory is short {no_tier}",
        **{f"outcome_{o}": f"no memory has the outcome {o}"
           for o in ("failure", "decision", "observation", "correction")},
        "outcome_fires_failure": "no memory has the outcome failure",
        "exclamation_min": "no memory has an exclamation mark",
        **{f"boost_{c}": f"nothing in the memories fires the {c} category"
           for c in ("emotion", "failure", "correction", "explicit")},
        **dict.fromkeys(("dismissal", "dismiss_cap_count", "dismiss_cap"),
                        "no memory was dismissed"),
        **dict.fromkeys(("superseded_decay", "superseded_archive"), "no memory is superseded"),
        "undated_days": DATED,
    }
    # a memory without a tier: the default tier picks any base, so none is inert
    docs.append(_memory("d", "postgres"))
    ds2 = Dataset("d", Corpus(docs), ds.queries)
    got2 = m.inert_params(prepare(m, ds2, p, use_cache=False), p)
    assert not {"default_tier", "base_short", "stale_short"} & set(got2)


def test_sample_leaves_the_tier_default_and_the_bands_out() -> None:
    m, ds = ImportanceModel(), load_dataset(SAMPLES / "memories")
    p = resolve_params(m)
    assert m.inert_params(prepare(m, ds, p, use_cache=False), p) == {
        **dict.fromkeys(BANDS, EXPLAIN_ONLY), "default_tier": "every memory has a tier",
        "undated_days": DATED}


def test_without_queries_staleness_is_not_called_inert() -> None:
    # no query, no clock yet: "no memory was accessed before its clock" was said of every
    # staleness setting (the key parameter among them), though the first query typed ages them
    m = ImportanceModel()
    ds = load_dataset(SAMPLES / "memories")
    empty = Dataset(ds.name, ds.corpus, QuerySet([]))
    p = resolve_params(m)
    got = m.inert_params(prepare(m, empty, p, use_cache=False), p)
    assert "stale_short" not in got and "whole_days" not in got
