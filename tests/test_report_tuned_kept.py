"""A tuned file that kept its starting values is said to be them, with tune's held-out
verdict; a k-fold held-out figure is the procedure's, not the file's (review rv3, F9)."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuned_on import TunedOn
from workbench.report.text import summary_lines


def test_a_kept_start_file_is_said_to_be_the_defaults_with_a_verdict() -> None:
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    comp = compare_configurations(
        model, ds, [Configuration("defaults", model.schema.defaults()),
                    Configuration("kept", model.schema.defaults())], ["ndcg@10"],
        n_resamples=200)
    comp.training = frozenset({"kept"})
    comp.tuned["kept"] = TunedOn("tea-beir", "5-fold over 25 queries (seed 0)",
                                 tuple(ds.queries.ids), "ndcg@10", 0.3697, 0.3714, 0.254, 25)
    (line,) = summary_lines(comp)
    assert line.startswith("kept against defaults: the same settings, so the same rankings: "
                           "tune found nothing surer than its starting values, and kept is "
                           "them"), line
    assert ("on 25 held-out queries, tuning this way (k-fold: each query scored by the "
            "values its own fold tuned, not by kept's) against the starting values scored "
            "ndcg@10 0.3697 → 0.3714 (+0.0017, p 0.254): tuning this way made no clear "
            "difference held out: it may be chance.") in line
    assert "kept's ndcg@10" not in line
