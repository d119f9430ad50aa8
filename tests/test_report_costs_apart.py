"""In short lists a bundle's files and tokens apart from the metrics judged beyond chance
after Holm's adjustment: a cost is not in that family (the ★ key: a cost is never marked), so
it is never under that verdict (review dr6, 6)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES
from workbench.cli import main


def test_costs_are_listed_apart_from_the_holm_verdict(tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    assert main(["report", str(SAMPLES / "code-repo"), "-m", "codeledger", "--defaults",
                 "-p", "sufficiency=0.3", "--movers", "0", "-o", str(out)]) == 0
    page = out.read_text()
    (line,) = [x for x in page.splitlines() if x.startswith("- sufficiency=0.3 against")]
    holm = line.split("Beyond chance on other metrics, after Holm's adjustment: ", 1)[1]
    holm = holm.split(". ", 1)[0]
    assert "bundle_precision" in holm and "bundle_files" not in holm, line
    assert "bundle_tokens" not in holm, line
    # the sample's defaults hand over 199 files over its 12 tasks: 16.6 a task
    assert (" Costs, which the rule for chance does not count (p not adjusted): bundle_files "
            "16.6 → ") in line, line
    assert "bundle_tokens " in line.split(" Costs, ", 1)[1], line
