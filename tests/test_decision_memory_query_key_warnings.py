"""decision-memory's warnings about a query file's keys (rv2 4–8): a setting given under two
names that disagree is said once, naming both and the one read, and the workbench's name is
read (forInjection had beaten mode); top_k away from expected_top_ids is said; a "did you
mean" names a key that differs in case or underscores only, or a close misspelling, in the
style written; a warning names the key as written, with FILE:LINE, and the keys read are
listed once; a CSV column's place is the first line holding a value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_decision_memory_original_names import DECISION, NOW, _folder
from workbench.core.formats import load_dataset
from workbench.core.models import get_model


def _warnings(tmp_path: Path, queries: str = "q.jsonl") -> list[str]:
    model = get_model("decision-memory")
    params = model.schema.resolve({})
    ds = load_dataset(tmp_path / "decisions.jsonl", queries=tmp_path / queries)
    return model.data_warnings(ds, params)


def test_two_names_that_disagree_are_said_and_the_workbenchs_is_read(tmp_path: Path) -> None:
    _folder(tmp_path, {"mode": "search", "forInjection": True},
            {"for_injection": True, "forInjection": False},
            {"limit": 1, "topK": 4}, {"mode": "search", "forInjection": True},
            {"minScore": 5, "min_score": 5})  # the same value: no conflict
    model = get_model("decision-memory")
    params = model.schema.resolve({})
    ds = load_dataset(tmp_path / "decisions.jsonl", queries=tmp_path / "q.jsonl")
    prep = model.prepare(ds, params)
    # q1 and q4 say mode "search": the workbench's name is read, as the docs say (−1: none
    # given, an injection)
    assert prep.q_mode.tolist() == [0, 1, -1, 0, -1]
    assert prep.q_limit.tolist()[2] == 1
    said = [w for w in model.data_warnings(ds, params) if " given; " in w]
    where = tmp_path / "q.jsonl"
    assert said == [
        f"{where}:1: query 'q1' (and 1 more): both 'mode' (\"search\") and 'forInjection' "
        "(true) given; 'mode' read",
        f"{where}:2: query 'q2': both 'for_injection' (true) and 'forInjection' (false) "
        "given; 'for_injection' read",
        f"{where}:3: query 'q3': both 'limit' (1) and 'topK' (4) given; 'limit' read"]


def test_typed_context_refuses_two_names_that_disagree(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    _folder(tmp_path, {"mode": "search"})
    assert main(["rank", str(tmp_path / "decisions.jsonl"), "--queries",
                 str(tmp_path / "q.jsonl"), "-m", "decision-memory", "--query", "pooling",
                 "--context", "forInjection=false", "--context", "for_injection=true"]) == 2
    err = capsys.readouterr().err
    assert "both 'for_injection' (\"true\") and 'forInjection' (\"false\") given" in err
    assert "give the setting once" in err


def test_top_k_without_expected_ids_is_said(tmp_path: Path) -> None:
    _folder(tmp_path, {"mode": "search"}, {"forInjection": False, "top_k": 2})
    said = [w for w in _warnings(tmp_path) if "'top_k'" in w]
    assert len(said) == 1
    assert said[0].startswith(f"{tmp_path / 'q.jsonl'}:2: field 'top_k': ")
    assert "query 'q2' has none" in said[0] and "(did you mean topK or limit?)" in said[0]


def test_hints_only_for_slips_in_the_style_written(tmp_path: Path) -> None:
    keys = ["topic", "project", "promptPreview", "nowMs", "MinScore", "minscore", "min-score",
            "for_injecton", "min_Score", "Project_Only"]
    _folder(tmp_path, *({k: 1} for k in keys))
    said = {w.split("field ")[1].split(":")[0].strip("'"): w for w in _warnings(tmp_path)
            if "reads no key" in w}
    assert set(said) == set(keys)
    for key in ("topic", "project", "promptPreview", "nowMs"):  # look-alikes, no slip
        assert "did you mean" not in said[key], said[key]
    assert "(did you mean minScore?)" in said["MinScore"]
    assert "(did you mean min_score?)" in said["minscore"]
    assert "(did you mean min_score?)" in said["min-score"]
    assert "(did you mean for_injection?)" in said["for_injecton"]
    # a capital among underscores is snake_case with a slip (dr5 12: it had been minScore)
    assert "(did you mean min_score?)" in said["min_Score"]
    assert "(did you mean project_only?)" in said["Project_Only"]


def test_warnings_name_the_key_as_written_with_its_place_and_list_the_keys_once(
        tmp_path: Path) -> None:
    _folder(tmp_path, {"mode": "search"}, {"forInjection": "maybe"}, {"minScore": -3},
            {"colour": "red"}, {"flavour": "sour"})
    said = _warnings(tmp_path)
    where = tmp_path / "q.jsonl"
    unreadable = next(w for w in said if "unreadable" in w)
    assert unreadable.startswith(f"{where}:2: 1 query with an unreadable forInjection (")
    negative = next(w for w in said if "negative" in w)
    assert negative.startswith(f"{where}:3: 1 query with a negative minScore (")
    unread = [w for w in said if "reads no key" in w]
    assert len(unread) == 2 and not any("for_injection" in w for w in unread)
    listed = [w for w in said if "for_injection, mode" in w]
    assert listed == ["the query keys decision-memory reads: for_injection, mode, project_only, "
                      "min_score, limit, cwd, now, prompt, forInjection, projectOnly, minScore, "
                      "topK"]


def test_why_stats_names_no_key_the_file_does_not_give(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    (tmp_path / "decisions.jsonl").write_text(json.dumps(DECISION) + "\n")
    (tmp_path / "q.jsonl").write_text(json.dumps(
        {"id": "q1", "text": "connection pooling", "cwd": "/repos/app", "now": NOW,
         "minScore": 2, "topK": 2}) + "\n")
    assert main(["why-stats", "--live", str(tmp_path / "decisions.jsonl"), "--queries",
                 str(tmp_path / "q.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "context sets its own min score" in out
    assert "own min_score" not in out


@pytest.mark.parametrize("sep", [",", "\t"])
def test_a_csv_columns_place_is_its_first_line_with_a_value(tmp_path: Path, sep: str) -> None:
    (tmp_path / "decisions.jsonl").write_text(json.dumps(DECISION) + "\n")
    name = "q.csv" if sep == "," else "q.tsv"
    rows = [["id", "text", "cwd", "colour"], ["q1", "pooling", "/repos/app", ""],
            ["q2", "pooling", "/repos/app", ""], ["q3", "pooling", "/repos/app", "red"]]
    (tmp_path / name).write_text("".join(sep.join(r) + "\n" for r in rows))
    said = [w for w in _warnings(tmp_path, name) if "reads no key" in w]
    assert len(said) == 1 and said[0].startswith(f"{tmp_path / name}:4: field 'colour': ")


def test_the_help_says_the_original_names_take_no_fixture_defaults(
        capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 3: a query file's minScore/topK names are read, but a query without them takes its
    # mode's defaults (search min score 1), not the eval harness's minScore 8 / topK 5
    from workbench.cli import main

    with pytest.raises(SystemExit):
        main(["rank", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "only the names, not its eval harness's defaults minScore 8, topK 5" in out
