"""A setting the compared queries cannot exercise (each eval case sets its own top K, so
inject_limit does nothing there) is said to be untested, not shipped as a tested result."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.html import html_report
from workbench.report.text import markdown, summary_lines


@pytest.fixture(scope="module")
def limited() -> Comparison:
    model = get_model("decision-memory")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("two", model.schema.resolve({"inject_limit": 2})),
               Configuration("one", model.schema.resolve({"inject_limit": 1}))]
    return compare_configurations(model, load_dataset(SAMPLES / "decisions-eval"), configs,
                                  n_resamples=500)


def test_the_cases_set_their_own_top_k(limited: Comparison) -> None:
    # the premise, from the data: every case's context carries its own top K (the sample's
    # README: each case sets topK), so no ranking differs whatever inject_limit is
    assert all("top_k" in q.context for q in limited.dataset.queries)
    for res in limited.results[1:]:
        assert (res.ranking.count == limited.results[0].ranking.count).all()
        assert (res.ranking.docs == limited.results[0].ranking.docs).all()


def test_in_short_says_the_limit_was_not_exercised_and_not_to_ship_it_on_this(
        limited: Comparison) -> None:
    for line in summary_lines(limited):
        assert "(none of its changes can have an effect here)" in line
        assert ("Not exercised: inject_limit has no effect on these cases (every query's "
                "context sets its own limit), so this comparison says nothing about it."
                in line)
        assert "ship as they are" not in line
        assert "inject_limit was not tested here: ship it only on other evidence" in line


def test_settings_to_ship_flag_the_untested_value(limited: Comparison) -> None:
    text = markdown(limited)
    assert text.count("> **Not tested:** inject_limit has no effect on these cases") == 2
    assert html_report(limited).count("<b>Not tested:</b> inject_limit has no effect") == 2
