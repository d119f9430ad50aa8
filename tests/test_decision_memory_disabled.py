"""pi-lodestone's settings.json `disabledProjects` (REFERENCE.md §1): for a prompt whose cwd
is listed, the injection hook builds no query, injects nothing and logs nothing; manual search
is unaffected. The original compares the cwd as a plain string (`includes(cwd)`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.data import Corpus, Dataset, Document, FormatError, Query, QuerySet
from workbench.core.engine import rank, resolve_params
from workbench.core.formats import load_dataset
from workbench.core.formats.pi_memory_settings import parse_disabled_list, read_pi_settings
from workbench.core.models.decision_memory import DecisionMemoryModel
from workbench.core.params import ParamError

NOW = "2026-03-01T00:00:00.000Z"
# a manual, durable decision created at NOW in /repos/app: for the query "git checkpoints"
# (2 tokens, both in the title, weights 1 with token_weights=none) the score is
# 6 + 6 (title) + 6 (same cwd) + 2 (manual, injection) + 2 (age < 1 day) = 22
RECORD = {"createdAt": NOW, "cwd": "/repos/app", "project": "app", "source": "manual",
          "important": False, "archived": False, "retrievalCount": 0, "injectionCount": 0}


def dataset(settings: dict[str, object] | None = None) -> Dataset:
    doc = Document("d1", "Git checkpoints", "We keep git checkpoints.", ("decision",),
                   dict(RECORD))
    queries = [Query("on", "git checkpoints", {"cwd": "/repos/app", "now": NOW}),
               Query("sub", "git checkpoints", {"cwd": "/repos/app/sub", "now": NOW})]
    return Dataset("d", Corpus([doc]), QuerySet(queries), settings=settings or {})


def injected(ds: Dataset, **overrides: object) -> list[list[tuple[str, int]]]:
    model = DecisionMemoryModel()
    params = resolve_params(model, {"token_weights": "none", **overrides})
    scores = model.combine(model.prepare(ds, params), params)
    ranking = rank(scores, 5, model.selection_params(params))
    return [[(ds.corpus[int(ranking.docs[q, j])].id, int(ranking.scores[q, j]))
             for j in range(int(ranking.count[q]))] for q in range(len(ds.queries))]


def test_without_settings_both_cwds_inject() -> None:
    # /repos/app/sub is the same project scope, not the same cwd: 22 − 6 + 4 = 20
    assert injected(dataset(), mode="injection") == [[("d1", 22)], [("d1", 20)]]


def test_the_folder_settings_disable_exactly_the_listed_cwd() -> None:
    ds = dataset({"disabledProjects": ["/repos/app"]})
    # only the exact string: the sub-folder's turn still injects
    assert injected(ds, mode="injection") == [[], [("d1", 20)]]
    # manual search is not the hook: unaffected (search bonuses: manual 4, same cwd 6,
    # title 12, age 2 = 24)
    assert injected(ds, mode="search") == [[("d1", 24)], [("d1", 22)]]


def test_the_parameter_replaces_the_folder_list() -> None:
    ds = dataset({"disabledProjects": ["/repos/app"]})
    assert injected(ds, mode="injection", disabled_projects="[]") == [[("d1", 22)],
                                                                      [("d1", 20)]]
    assert injected(ds, mode="injection",
                    disabled_projects='["/repos/app/sub"]') == [[("d1", 22)], []]


def test_disabled_is_explained_and_gated() -> None:
    ds = dataset({"disabledProjects": ["/repos/app"]})
    model = DecisionMemoryModel()
    params = resolve_params(model, {"mode": "injection"})
    prepared = model.prepare(ds, params)
    scores = model.combine(prepared, params)
    assert scores.gates[int(scores.gate[scores.row(0)][0]) - 1] == "project_disabled"
    why = model.explain(prepared, ds, 0, 0, params)
    assert why["gate"] == "project_disabled" and "disabledProjects" in why["no_query_reason"]


def test_a_bad_parameter_list_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="disabled_projects must be empty or a JSON list"):
        parse_disabled_list("/repos/app")
    model = DecisionMemoryModel()
    # refused where every path resolves values (export only parsed it in its exporter: a
    # ValueError traceback there)
    with pytest.raises(ParamError, match="parameter disabled_projects: expected nothing or a "
                                         "JSON list of cwd strings"):
        resolve_params(model, {"disabled_projects": "[1]", "mode": "injection"})


def test_export_refuses_a_bad_list_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    assert main(["export", "-m", "decision-memory", "-p", "disabled_projects=[1]"]) == 2
    err = capsys.readouterr().err
    assert "disabled_projects" in err and "Traceback" not in err


def test_a_pi_memory_folder_reads_its_settings(tmp_path: Path) -> None:
    rec = {"id": "d1", "title": "Git checkpoints", "text": "x", "tags": ["decision"], **RECORD}
    (tmp_path / "decisions.jsonl").write_text(json.dumps(rec) + "\n")
    (tmp_path / "settings.json").write_text('{"disabledProjects": ["/repos/app"]}')
    assert load_dataset(tmp_path).settings == {"disabledProjects": ["/repos/app"]}


@pytest.mark.parametrize(("text", "line", "field"), [
    ('{"disabledProjects": [1]}', 1, "disabledProjects[0]"),
    ('{\n  "other": 1,\n  "disabledProjects": "/repos/app"\n}', 3, "disabledProjects"),
    ('{"disabledProjects": [', 1, "json"),
    ('["/repos/app"]', 1, "json"),
])
def test_bad_settings_name_file_line_and_field(tmp_path: Path, text: str, line: int,
                                               field: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(FormatError) as err:
        read_pi_settings(path)
    if field == "json":  # the whole file's form: no field printed (`json_error`)
        assert str(err.value).startswith(f"{path}:{line}: ")
        assert err.value.field == "json"
    else:
        assert str(err.value).startswith(f"{path}:{line}: field '{field}'")
