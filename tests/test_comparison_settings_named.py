"""With many changed values, a mover's sentence names first those tied to what moved the
document (review F, 11): the setting of the gate that let it through, then those whose undoing
alone moves it back (rv51 2), then "and N more" (it had named base_short, base_medium and
base_long of 35 on every mover, whatever moved it)."""

from __future__ import annotations

import re

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations, explain_move
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

# 35 values a 3-fold tune of importance on the memories sample wrote (review F's mem_tuned)
TUNED = {
    "base_short": 0.8, "base_medium": 0.65, "base_long": 0.7, "boost_emphasis": 0.95,
    "boost_decision": 0.45, "boost_emotion": 0.95, "boost_failure": 0.75,
    "boost_correction": 0.65, "boost_explicit": 0.3, "exclamation_min": 0,
    "outcome_fires_failure": True, "outcome_failure": 0.15, "outcome_decision": 0.1,
    "outcome_observation": 0.2, "outcome_correction": 0.35, "repeat_per": 0.85,
    "repeat_free": 10, "repeat_cap": 0.25, "stale_short": 0.4, "stale_short_days": 226.0,
    "stale_medium": 0.54, "stale_medium_days": 285.0, "stale_long": 0.15,
    "stale_long_days": 2215.0, "whole_days": False, "dismissal": 0.95, "dismiss_cap_count": 5,
    "dismiss_cap": 0.25, "superseded_decay": 0.55, "archive_threshold": 0.35,
    "exclude_archived": False, "prefilter": False, "relevance": "bm25", "k1": 2.65, "b": 0.65}


def test_the_gates_setting_and_the_moved_signals_come_first() -> None:
    model = get_model("importance")
    ds = load_dataset(SAMPLES / "memories")
    comp = compare_configurations(
        model, ds, [Configuration("defaults", model.schema.defaults()),
                    Configuration("tuned", model.schema.resolve(TUNED))], ["ndcg@10"],
        n_resamples=200)
    assert len(comp.differing) == 35  # the premise: every value above differs
    q, doc = ds.queries.ids.index("q17"), ds.corpus.ids.index("m54")
    move = explain_move(comp, 1, q, doc)
    text = move.sentence()
    # m54 is archived: the archived gate filtered it out under the defaults
    # (exclude_archived true), and its decay ("− (staleness + dismissals + superseded)")
    # moved most
    assert text.startswith("entered at 2: filtered out by the archived gate under defaults, "
                           "let through by tuned; decays +"), text
    # then the values whose undoing alone moves it back (rv51 2): stale_medium_days, undone,
    # drops it out of q17's list again; stale_short and stale_short_days, named before by
    # their names' likeness to decay's help, move it not at all (a plain eval run says both)
    def place(values: dict[str, object]) -> int | None:
        ranking = Pipeline(model, ds, values).run(["ndcg@10"]).ranking
        row = ranking.docs[q, :int(ranking.count[q])].tolist()
        return row.index(doc) + 1 if doc in row else None

    assert place(TUNED) == 2
    assert place({**TUNED, "stale_medium_days": 30.0}) is None
    assert place({**TUNED, "stale_short": 0.1}) == place({**TUNED, "stale_short_days": 7}) == 2
    assert "— exclude_archived true → false, stale_medium_days 30 → 285 (only it set back: " \
           "out of the list; score +" in text, text
    assert "stale_short" not in text, text
    # stale_long_days alone held it back a place (dr4 5): said apart, not among the causes
    assert place({**TUNED, "stale_long_days": 0.0}) == 1
    assert text.endswith(" more; held back by stale_long_days 0 → 2215 (only it set "
                         "back: at 1)"), text
    # of the 35, most move nothing here (stale_short, stale_short_days above): "and N more"
    # no longer counts them ("and 31 more" had read as 31 further causes: dr7 7)
    more = re.search(r" and (\d+) more; held back by ", text)
    assert more is not None and int(more.group(1)) < 31, text
