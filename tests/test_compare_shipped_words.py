"""compare's as-shipped line: the gain against the configuration's own model's defaults, what
runs today, as the report's In short gives it (dr5 3: compare set it against whatever came
first only); for the first configuration, the difference from its own figure as compared; and
for a configuration none of whose changes can ship, no measured Δ or p of a re-run of the
defaults (dr5 5: "+0.0000 against hybrid, p 1.000")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

DATA = str(SAMPLES / "decisions-eval")
BASE = ["compare", DATA, "-m", "decision-memory", "--movers", "0", "--metrics", "ndcg@10"]


def _ndcg(**params: float) -> float:
    """ndcg@10 by eval's path, not compare's."""
    model = get_model("decision-memory")
    pipe = Pipeline(model, load_dataset(DATA), model.schema.resolve(params))
    return float(pipe.run(["ndcg@10"]).means["ndcg@10"])


def _line(out: str, start: str) -> str:
    flat = " ".join(out.split())
    return flat[flat.index(f"note: {start}: "):].split(" note: ")[0]


def test_as_shipped_is_set_against_its_own_models_defaults(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "strict.toml"
    first.write_text("[params]\ninject_min_score = 30\n")
    other = tmp_path / "titles.toml"
    other.write_text("[params]\nw_title = 1\nw_body = 1\ninject_min_score = 40\n")
    assert main([*BASE, "-c", str(first), "-c", str(other)]) == 0
    line = _line(capsys.readouterr().out, "titles")
    defaults, shipped = _ndcg(), _ndcg(inject_min_score=40)
    assert defaults != shipped
    assert (f"against decision-memory's own defaults, what runs today: {defaults:.4f} → "
            f"{shipped:.4f} (") in line


def test_the_first_configuration_is_set_against_its_figure_as_compared(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "titles.toml"
    first.write_text("[params]\nw_title = 1\nw_body = 1\ninject_min_score = 40\n")
    assert main([*BASE, "-c", str(first), "-p", "inject_min_score=30"]) == 0
    line = _line(capsys.readouterr().out, "titles")
    compared, shipped = _ndcg(w_title=1, w_body=1, inject_min_score=40), _ndcg(
        inject_min_score=40)
    gain = f"{shipped - compared:+.4f}".replace("-", "−")
    # first: its own figure as compared is what the shipped one is set against, said once
    assert (f"as shipped: ndcg@10 {shipped:.4f} ({gain} from its figure as compared, "
            f"{compared:.4f})") in line
    assert line.count("as compared") == 1


def test_nothing_to_ship_gives_no_measured_difference(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*BASE, "--defaults", "-p", "w_title=1", "-p", "w_body=1"]) == 0
    line = _line(capsys.readouterr().out, "w_title=1 w_body=1")
    defaults, compared = _ndcg(), _ndcg(w_title=1, w_body=1)
    assert "none of its changes can ship (w_title, w_body)" in line
    assert f"as shipped it is decision-memory's defaults (ndcg@10 {defaults:.4f})" in line
    gain = f"{compared - defaults:+.4f}".replace("-", "−")
    assert f"the {gain} against defaults needs a change to pi-lodestone" in line
    assert "p 1.000" not in line and "+0.0000" not in line


def test_what_runs_today_reads_its_p_by_the_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr6 4: compare's as-shipped line gave the p against what runs today bare, where the
    report's In short reads it by the rule (a side look, Holm over the family shown)."""
    first = tmp_path / "strict.toml"
    first.write_text("[params]\ninject_min_score = 30\n")
    other = tmp_path / "titles.toml"
    other.write_text("[params]\nw_title = 1\nw_body = 1\ninject_min_score = 50\n")
    assert main([*BASE, "-c", str(first), "-c", str(other)]) == 0
    line = _line(capsys.readouterr().out, "titles")
    today = line.split("what runs today: ")[1].split(")")[0]
    assert ", p <0.001, a side look: Holm p " in today, today
