"""The Markdown metric table with several configurations: a table per configuration against
the first, its headers naming it, p below 0.05 starred, a real minus sign."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.text import markdown


def test_each_configuration_has_its_own_named_table_with_significance_starred() -> None:
    model = get_model("bm25")
    configs = [Configuration("defaults", model.schema.resolve({})),
               Configuration("flat", model.schema.resolve({"k1": 3.0, "b": 0.0})),
               Configuration("soft", model.schema.resolve({"k1": 0.5}))]
    comp = compare_configurations(model, load_dataset(SAMPLES / "tea-beir"), configs,
                                  n_resamples=2000)
    text = markdown(comp)
    metrics = text.split("## Metrics", 1)[1].split("\n## ", 1)[0]
    for name in ("flat", "soft"):
        assert f"### {name} against defaults" in metrics
        assert f"| Δ ({name}) |" in metrics
    assert "-0." not in metrics and "−0.0000" not in metrics  # a real minus, no "-0.0000"
    # a row is starred exactly where its p is below 0.05 (some are, on this data)
    assert "★" in metrics
    for i, name in ((1, "flat"), (2, "soft")):
        table = metrics.split(f"### {name} against defaults", 1)[1].split("###", 1)[0]
        for row in comp.rows:
            line = next(x for x in table.splitlines() if x.startswith(f"| {row.metric} |"))
            p = row.p_values[i]
            assert ("★" in line) == (p is not None and p < 0.05), line
