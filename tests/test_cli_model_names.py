"""The command line takes the modelled systems by the names the README uses (`-m openvault` is
the hybrid model), and a params file written for another model is refused naming that model
and the -m to use, not its first key foreign to the model run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")


@pytest.mark.parametrize(("system", "model"), [("openvault", "hybrid"),
                                               ("pi-lodestone", "decision-memory"),
                                               ("obsidian-mcp", "vault-search"),
                                               ("OpenVault", "hybrid")])
def test_a_systems_name_is_its_models_id(system: str, model: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", system]) == 0
    assert capsys.readouterr().out.startswith(f"{model} — ")
    assert main(["eval", TEA, "-m", system, "-p", "embeddings=stored"] if model == "hybrid"
                else ["eval", TEA, "-m", system]) == 0
    assert f"; model {model}\n" in capsys.readouterr().out


def test_an_unknown_model_lists_the_systems_names(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:  # argparse's usage error
        main(["eval", TEA, "-m", "openvaul"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "unknown model 'openvaul'" in err and "openvault (hybrid)" in err


@pytest.mark.parametrize(("typed", "near"), [("bm52", "bm25"), ("BM_25", "bm25"),
                                             ("openvaul", "openvault"), ("desne", "dense")])
def test_a_misspelt_model_names_the_nearest(capsys: pytest.CaptureFixture[str], typed: str,
                                            near: str) -> None:
    """rn 12: a typo had listed every name and suggested none."""
    with pytest.raises(SystemExit) as exit_:
        main(["eval", TEA, "-m", typed])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"unknown model {typed!r} (did you mean {near}?); valid: bm25," in err


def test_a_model_with_no_near_name_is_suggested_none(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", TEA, "-m", "xyzzy"])
    assert "unknown model 'xyzzy'; valid: bm25," in capsys.readouterr().err


def test_the_defaults_of_another_model_are_refused_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "hybrid", "--toml"]) == 0
    defaults = tmp_path / "hyb.toml"
    defaults.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(defaults)]) == 2
    err = capsys.readouterr().err
    assert f"{defaults} holds hybrid's parameters" in err and "run with -m hybrid" in err
    assert "unknown parameter" not in err


def test_a_file_tune_wrote_for_another_model_is_refused_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tuned = tmp_path / "sf.toml"
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1,variant", "--trials", "2",
                 "--folds", "2", "--storage", str(tmp_path / "s.db"), "--out",
                 str(tuned)]) == 0
    capsys.readouterr()
    for command in (["eval", TEA, "-m", "hybrid", "--params", str(tuned)],
                    ["compare", TEA, "-m", "hybrid", "--defaults", "-c", str(tuned)]):
        assert main([*command, "-p", "embeddings=stored"]) == 2
        err = capsys.readouterr().err
        assert "holds bm25's parameters (written by tune for bm25): run with -m bm25" in err
        assert "unknown parameter" not in err


def test_a_file_of_this_model_still_says_its_unknown_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = tmp_path / "own.toml"
    own.write_text("# workbench tune: model bm25 on tea-beir\n[params]\nk2 = 1.0\n",
                   encoding="utf-8")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(own)]) == 2
    assert "unknown parameter 'k2'" in capsys.readouterr().err


def test_every_model_option_names_the_systems_the_same_way() -> None:
    # compare, report and gui said only "model id", though they take -m openvault as well
    import argparse

    from workbench.cli import build_parser

    subparsers = next(a for a in build_parser()._actions
                      if isinstance(a, argparse._SubParsersAction))
    helps = {}
    for name, sub in subparsers.choices.items():
        for action in sub._actions:
            if "-m" in action.option_strings and name != "bench":  # bench: a list of ids
                helps[name] = action.help or ""
    assert {"compare", "report", "gui", "eval"} <= helps.keys()
    said = ("model id (see `workbench models`), or a system's name: openvault, pi-lodestone, "
            "obsidian-mcp, codeledger")
    assert {name: h.startswith(said) for name, h in helps.items()} == dict.fromkeys(helps, True)


def test_bench_takes_repeated_models_as_compare_does() -> None:
    # `bench -m bm25 -m vault-search` had timed vault-search alone (the last -m kept)
    from workbench.cli import build_parser
    from workbench.cli.bench import _models

    args = build_parser().parse_args(["bench", "-m", "bm25", "-m", "obsidian-mcp,bm25,dense"])
    assert _models(args) == ["bm25", "vault-search", "dense"]
    assert _models(build_parser().parse_args(["bench"])) is None


@pytest.mark.parametrize("argv", [["eval", TEA, "-m", ""],
                                  ["compare", TEA, "-m", "bm25,", "--defaults"]])
def test_an_empty_model_name_is_said_so(capsys: pytest.CaptureFixture[str],
                                        argv: list[str]) -> None:
    """dr4 7: -m "" and a trailing comma had said "unknown model ''"."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "no model named (an empty name: -m '' or a stray comma); valid: bm25," in err
    assert "unknown model" not in err
