"""`explain --format json` for codeledger gives what its text gives: at least the whole
bundle and the files skipped for the budget, and a `bundle` object a script can rebuild the
bundle from (rv2 7: on ky the JSON had 5 results of a bundle of 15, and no bundle summary)."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

ARGS = ["explain", str(SAMPLES / "code-repo"), "-m", "codeledger", "--query-id",
        "c45484912fc", "-p", "token_budget=400"]


def test_json_holds_the_bundle_the_text_shows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ARGS) == 0
    text = capsys.readouterr().out
    size, count = (int(x) for x in re.search(r"^bundle: (\d+) of (\d+) candidates", text,
                                             re.M).groups())  # type: ignore[union-attr]
    shown = re.findall(r"^#(\d+)  (\S+)  score", text, re.M)
    skipped = [(int(r), p) for r, p in re.findall(r"#(\d+) (\S+) [\d,]+ tokens",
                                                  text.split("skipped for the budget")[1]
                                                  .splitlines()[0])]
    assert size == 6 and len(skipped) == 3 and len(shown) == 9  # more than --top's 5
    assert main([*ARGS, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    results = out["results"]
    assert [(str(r["rank"]), r["id"]) for r in results] == shown
    bundle = out["bundle"]
    in_bundle = [r for r in results if r["breakdown"]["in_bundle"]]
    assert bundle["files"] == [r["id"] for r in in_bundle] and bundle["size"] == size
    assert bundle["tokens"] == pytest.approx(sum(r["breakdown"]["tokens"] for r in in_bundle))
    assert [(s["rank"], s["id"]) for s in bundle["skipped"]] == skipped
    assert bundle["candidates"] == count and bundle["reach"] == len(shown)
    assert (bundle["stop"], bundle["token_budget"], bundle["max_files"]) == (
        "token_budget", 400, 25)


def test_a_model_without_bundles_has_no_bundle_object(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(SAMPLES / "code-repo"), "-m", "bm25", "--query-id",
                 "c45484912fc", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "bundle" not in out and len(out["results"]) == 5


def test_json_names_the_file_that_stopped_the_bundle(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dr2 7: the text says "stopped: token_budget (… #10 x costs N tokens …)"; the JSON's
    `bundle` named no file, and `results` ends before it."""
    assert main(ARGS) == 0
    text = capsys.readouterr().out
    rank, path, cost = re.search(r"stopped: token_budget \(.*?: #(\d+) (\S+) costs ([\d,]+) "
                                 r"tokens", text).groups()  # type: ignore[union-attr]
    assert main([*ARGS, "--format", "json"]) == 0
    stopped = json.loads(capsys.readouterr().out)["bundle"]["stopped_at"]
    assert (stopped["rank"], stopped["id"]) == (int(rank), path)
    assert round(stopped["tokens"]) == int(cost.replace(",", ""))


def test_a_bundle_stopped_by_sufficiency_names_no_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dr8 7: under sufficiency the text names no file after "stopped:", but the JSON gave
    the next one, whose tokens read as the reason: none now."""
    assert main([*ARGS[:-2]]) == 0
    text = capsys.readouterr().out
    said = re.search(r"stopped: (.*)", text).group(1)  # type: ignore[union-attr]
    assert said.startswith("sufficiency") and " costs " not in said and "#" not in said
    assert main([*ARGS[:-2], "--format", "json", "--top", "40"]) == 0
    bundle = json.loads(capsys.readouterr().out)["bundle"]
    assert bundle["stop"] == "sufficiency" and bundle["reach"] < bundle["candidates"]
    assert bundle["stopped_at"] is None


def test_a_bundle_stopped_by_max_files_names_the_next_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS[:-2], "-p", "max_files=3", "-p", "budget_preset=custom", "-p",
                 "sufficiency=1", "--format", "json", "--top", "40"]) == 0
    out = json.loads(capsys.readouterr().out)
    bundle = out["bundle"]
    assert bundle["stop"] == "file_limit" and len(bundle["files"]) == 3
    after = out["results"][bundle["reach"]]  # --top 40 lists the file past the reach too
    assert bundle["stopped_at"]["rank"] == after["rank"] == bundle["reach"] + 1
    assert bundle["stopped_at"]["id"] == after["id"] not in bundle["files"]
