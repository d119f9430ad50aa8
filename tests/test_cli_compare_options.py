"""compare's options read as the other commands read them (review rn 4, 9, 10): -p over
--params, -m as a comma list and in any case, --top beside --k, and a key to Δ, p and ▲/▼
under the metric table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

TEA = str(SAMPLES / "tea-beir")


def _compare(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["compare", TEA, *argv]) == 0
    return capsys.readouterr().out


def _row(out: str, metric: str) -> list[str]:
    return next(line.split() for line in out.splitlines() if line.startswith(metric + " "))


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text("k1 = 0.9\nb = 0.4\n", encoding="utf-8")
    return path


def test_param_sets_its_values_over_the_params_file(
        mine: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--params F -p x=y is F with x=y, as in eval and tune: the -p column had silently
    started again from the defaults (k1 1.2, b 0.75)."""
    out = _compare(capsys, "-m", "bm25", "--params", str(mine), "-p", "variant=atire",
                   "--metrics", "ndcg@10", "--movers", "0")
    ds, model = load_dataset(SAMPLES / "tea-beir"), get_model("bm25")
    want = [Pipeline(model, ds, values).run(["ndcg@10"]).means["ndcg@10"] for values in (
        {"k1": 0.9, "b": 0.4}, {"k1": 0.9, "b": 0.4, "variant": "atire"})]
    row = _row(out, "ndcg@10")
    assert row[1:3] == [f"{want[0]:.4f}", f"{want[1]:.4f}"]
    assert "configurations: mine (" in out and "mine + variant=atire;" in out
    # only the variant differs between the two: k1 and b are the file's in both
    table = out.split("\n\n")[1].splitlines()
    assert [line.split()[0] for line in table[2:]] == ["variant"]


def test_param_beside_a_config_file_is_named_and_said_to_start_from_the_defaults(
        mine: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr4 4: -c keeps compare's own meaning (each file a configuration, -p from the
    defaults), and `-c mine.toml -p variant=atire` had been named `variant=atire`, hiding
    that it reset mine's k1 and b: one letter against --params changed nDCG@10 by 0.012."""
    out = _compare(capsys, "-m", "bm25", "-c", str(mine), "-p", "variant=atire",
                   "--metrics", "ndcg@10", "--movers", "0")
    ds, model = load_dataset(SAMPLES / "tea-beir"), get_model("bm25")
    want = [Pipeline(model, ds, values).run(["ndcg@10"]).means["ndcg@10"] for values in (
        {"k1": 0.9, "b": 0.4}, {"variant": "atire"})]
    assert _row(out, "ndcg@10")[1:3] == [f"{want[0]:.4f}", f"{want[1]:.4f}"]
    assert "configurations: mine (" in out and ", defaults + variant=atire;" in out
    assert "metric   mine    defaults + variant=atire  Δ" in out
    notes = [line for line in out.splitlines() if line.startswith("note:")]
    assert notes == [f"note: 'defaults + variant=atire': --param sets its values over bm25's "
                     f"defaults, not over mine.toml; to set them over a file, give it as "
                     f"--params {mine} -p NAME=VALUE"]
    # beside --defaults alone there is nothing else it could build on: named by its values
    out = _compare(capsys, "-m", "bm25", "--defaults", "-p", "k1=2", "--metrics", "ndcg@10",
                   "--movers", "0")
    assert "configurations: defaults, k1=2;" in out and "note:" not in out


def test_param_over_two_params_files_is_refused(
        mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.toml"
    other.write_text("k1 = 2\n", encoding="utf-8")
    assert main(["compare", TEA, "-m", "bm25", "--params", str(mine), "--params", str(other),
                 "-p", "b=0.5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert ("--param sets its values over one --params file, and 2 are given" in err
            and "give the others with --config" in err), err


def test_models_as_a_comma_list_and_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    """bench's help says compare takes -m bm25,dense as it does; -m BM25 reads as bm25, as
    NDCG@10 reads as ndcg@10."""
    out = _compare(capsys, "-m", "BM25,Vault-Search", "--metrics", "ndcg@10", "--movers", "0")
    assert "configurations: bm25, vault-search;" in out
    assert _row(out, "ndcg@10")[2] == "0.0000"  # vault-search's whole-phrase match finds none
    assert main(["eval", TEA, "-m", "BM25", "--metrics", "ndcg@10"]) == 0
    assert "; model bm25\n" in capsys.readouterr().out
    assert main(["models", "BM25"]) == 0
    assert capsys.readouterr().out.startswith("bm25 — ")


def test_top_is_an_alias_of_k(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("-m", "bm25", "--defaults", "-p", "k1=2", "--metrics", "ndcg@10")
    top = _compare(capsys, *argv, "--top", "3")
    assert "top 3 against defaults" in top
    assert _compare(capsys, *argv, "--k", "3") == top


def test_prose_is_wrapped_at_the_terminal_width_and_tables_are_not(
        mine: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """dr4 9: at COLUMNS=80 the key had been one line of 136 columns, the judgments 146 and
    the configurations 116, where eval wraps its own at 80 under a two-space indent."""
    monkeypatch.setenv("COLUMNS", "80")
    out = _compare(capsys, "-m", "bm25", "-c", str(mine), "-p", "k1=1.6", "-p", "b=0.5",
                   "--movers", "2")
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines if str(mine) not in line), out
    key = next(i for i, line in enumerate(lines) if line.startswith("(Δ: "))
    # then a blank line, or the rule p-values are read by (review rb, 1)
    assert lines[key + 1].startswith("  ") and (
        lines[key + 2] == "" or lines[key + 2].startswith("How a report's In short"))
    assert " ".join(" ".join(lines[key:key + 2]).split()) == (
        "(Δ: each mean minus the first's, as shown; p: paired randomisation test on the "
        "exact per-query differences; ▲/▼: queries better / worse)")
    judgments = next(i for i, line in enumerate(lines) if line.startswith("queries read from"))
    assert lines[judgments + 1].startswith("  ")
    said = " ".join(" ".join(lines[judgments:judgments + 2]).split())
    assert said.startswith("queries read from queries.jsonl; judgments: split test "
                           "(qrels/test.tsv), graded 0–2;"), said
    assert lines[1].startswith("  ")  # the first line's continuation
    # a table's rows are not wrapped: each metric and its five figures on one line
    assert len(_row(out, "map@100")) == 6
    moved = next(i for i, line in enumerate(lines) if line.startswith("moved most,"))
    assert lines[moved + 2].startswith("  q") and lines[moved + 3].startswith("    ")


def test_the_metric_table_says_what_its_columns_are(
        mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Δ, p and ▲/▼ were said nowhere in compare's output; and the caution under many
    p-values named an In short that only `report` has."""
    other = tmp_path / "other.toml"
    other.write_text("k1 = 2\n", encoding="utf-8")
    out = _compare(capsys, "-m", "bm25", "--defaults", "-c", str(mine), "-c", str(other),
                   "--movers", "0")
    lines = out.splitlines()
    under = lines.index(next(line for line in lines if line.startswith("judged@10 "))) + 1
    assert lines[under] == ("(Δ: each mean minus the first's, as shown; p: paired randomisation "
                            "test on the exact per-query differences; ▲/▼: queries better / "
                            "worse)")
    # each Δ is the difference of the two means beside it
    row = _row(out, "map@100")
    assert f"{float(row[2]) - float(row[1]):+.4f}" == row[3]
    caution = next(line for line in lines if "and its marks read a p" in line)
    # compare prints no marks: the report's (dr6 5's leftover)
    assert "How a report's In short (`workbench report`) and its marks" in caution
    assert ". In short calls" not in caution



def test_a_parameter_given_twice_in_two_cases_is_said_and_named_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dr7 5: -p k1=1 -p K1=2 (names are read in any case) ran k1=2 without the 'given more
    than once' warning, under a column named 'k1=1 K1=2'."""
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-p", "k1=1", "-p", "K1=2"]) == 0
    captured = capsys.readouterr()
    assert "warning: --param K1 given more than once (as k1 too); using K1=2" in captured.err
    assert "configurations: defaults, k1=2;" in captured.out
    assert _row(captured.out, "k1") == ["k1", "1.2", "2"]
