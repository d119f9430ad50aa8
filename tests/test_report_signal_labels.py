"""One name per signal in the report and the mover sentences (review F, 2): each signal is
named as its weight's slider names it in the window ("term frequency", not vault-search's id
`tf`), the id in the HTML table's tooltip; a parameter keeps the name a user types
(`w_tf 0.4 → 1`)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.signal_labels import signal_labels
from workbench.report.html import html_report
from workbench.report.text import markdown, mover_lines


@pytest.fixture(scope="module")
def tf_up() -> Comparison:
    model = get_model("vault-search")
    return compare_configurations(
        model, load_dataset(SAMPLES / "vault"),
        [Configuration("defaults", model.schema.defaults()),
         Configuration("w_tf=1", model.schema.resolve({"w_tf": 1.0}))],
        ["ndcg@10"], n_resamples=200)


def test_vault_search_labels_tf_as_its_slider() -> None:
    # the premise: the slider under "Weight" reads "Term frequency"
    model = get_model("vault-search")
    label = next(p.label for p in model.schema if p.name == "w_tf")
    assert label.removeprefix("Weight: ").lower() == "term frequency"
    assert signal_labels(model, ["tf", "position", "unknown"]) == [
        "term frequency", "position", "unknown"]


def test_the_window_reads_the_same_rule() -> None:
    from workbench.core import signal_labels as core
    from workbench.gui import signal_names as gui

    assert gui.signal_labels is core.signal_labels and gui.shown_label is core.shown_label


def test_mover_sentences_name_signals_by_label_and_parameters_by_id(
        tf_up: Comparison) -> None:
    lines = mover_lines(tf_up, 1, top=5)
    assert lines and all(re.search(r"\btf [+−]", line) is None for line in lines), lines
    assert any("term frequency +" in line or "term frequency −" in line for line in lines)
    assert all("w_tf 0.4 → 1" in line for line in lines)
    assert "term frequency" in markdown(tf_up)


def test_html_mover_tables_name_signals_by_label_with_the_id_in_a_tooltip(
        tf_up: Comparison) -> None:
    page = html_report(tf_up)
    movers = page[page.index('<section id="movers"'):]
    assert '<td title="tf">term frequency</td>' in movers
    assert "<td>tf</td>" not in movers
    # a signal whose label is its id has no tooltip to add
    assert "<td>position</td>" in movers or "position" not in movers
