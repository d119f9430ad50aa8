"""The normalisation's help says what each choice does, a line each, instead of pointing to
the module (review C, F14): under min-max the lowest BM25 match gets a bonus of exactly 0,
which surprised a reader who had not read normalize.py."""

from __future__ import annotations

import pytest

from workbench.cli import main
from workbench.core.models.hybrid.params import NORMALIZATIONS, SCHEMA


def test_one_line_per_choice_and_no_pointer_to_code() -> None:
    lines = SCHEMA["normalization"].help.split("\n")
    assert "module" not in SCHEMA["normalization"].help
    # an opening line, then one per choice, in the order the choices are offered
    assert [ln.split(" ")[0].rstrip(":") for ln in lines[1:]] == list(NORMALIZATIONS)
    by_choice = dict(zip(NORMALIZATIONS, lines[1:], strict=True))
    assert "lowest gets 0" in by_choice["min-max"]  # the surprise the reviewer met
    assert "negative" in by_choice["z-score"]
    assert "(k + 1)/(k + r)" in by_choice["rrf"]


def test_models_prints_them_a_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "hybrid"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("  normalization "))
    end = next(i for i, ln in enumerate(lines) if ln.startswith("  rrf_k "))
    starts = [ln.split()[0].rstrip(":") for ln in lines[at + 1:end]
              if not ln.startswith("       ")]  # a line of its own, not a wrapped one
    assert [w for w in starts if w in NORMALIZATIONS] == list(NORMALIZATIONS)


def test_the_tooltip_breaks_the_lines_too() -> None:
    pytest.importorskip("PySide6")
    from workbench.gui.param_editors import tooltip

    assert "<br>min-max:" in tooltip(SCHEMA["normalization"])
