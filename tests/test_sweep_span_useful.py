"""A fraction swept over its useful span (rv52 8): vault-search's min score, whose scores the
spec clamps to [0, 1], had its default sweep run to 2.0, 23 of 41 rows passing nothing."""

from workbench.cli import main
from workbench.core.models import get_model
from workbench.core.tune import default_values

VAULT = "sample_corpora/vault"


def _min_score():
    return get_model("vault-search").schema["min_score"]


def test_min_score_swept_over_what_can_pass():
    values = default_values(_min_score())
    assert min(values) == 0.0 and max(values) == 1.0  # the clamp's ends (the spec)


def test_a_value_in_use_past_the_span_widens_it():
    values = default_values(_min_score(), 1.5)
    assert max(values) == 1.5 and 1.0 in values


def test_the_cli_sweep_rows_end_at_one(capsys):
    assert main(["sweep", VAULT, "-m", "vault-search", "-s", "min_score"]) == 0
    out = capsys.readouterr().out
    assert " 1.0" in out and " 1.5" not in out and " 2.0" not in out


def test_a_count_keeps_its_span():
    """The rule is the fraction's: a count with a slider top (vault-search's limit) is swept
    as before."""
    limit = get_model("vault-search").schema["limit"]
    assert max(default_values(limit)) > limit.slider_high


def test_other_slider_tops_keep_their_whole_range():
    """Only a fraction's span is its slider's (r52 dr7 8: days and multipliers with slider
    tops had been narrowed too, decision-memory's fresh_days to 0..30)."""
    from workbench.core.tune import sweep_span

    for model, name in (("decision-memory", "fresh_days"), ("decision-memory", "recent_days"),
                        ("vault-search", "tf_multiplier"), ("vault-search", "proximity_scale")):
        p = get_model(model).schema[name]
        assert p.slider_high is not None and p.high is not None
        assert sweep_span(p)[1] > p.slider_high, name
