"""What `workbench export --out` writes, given back to --params (review 45 rv1, F6): its
record of changes reads as the values it was measured with; its other files (the variables'
.env, the call arguments, a settings file) are refused with what they are and the record to
give instead. Each had read "not valid TOML: Invalid statement" or "unknown parameter
'PI_MEMORY_MAX_TEXT_CHARS'"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.core.export import changes_path, export_params, write_export
from workbench.core.models import get_model
from workbench.core.params import ParamError, load_params_file, resolve_file

VAULT = get_model("vault-search").schema
MEMORY = get_model("decision-memory").schema


def _export(model: str, params: dict[str, object], folder: Path) -> Path:
    export = export_params(model, params)
    write_export(export, folder)
    return folder / changes_path(export)  # CodeLedger's beside its config, in .codeledger/


def test_the_record_reads_back_as_the_values_exported(tmp_path: Path) -> None:
    # the review's export: limit 10, min score 0.3, w_tf 0.5; early stop off (the
    # workbench's default, which obsidian-mcp cannot take with a limit) stays off
    record = _export("vault-search", {"limit": 10, "min_score": 0.3, "w_tf": 0.5,
                                      "early_stop": False}, tmp_path)
    values = resolve_file(VAULT, record)
    assert values == {"limit": 10, "min_score": 0.3, "w_tf": 0.5}
    assert VAULT.resolve(values)["early_stop"] is False


def test_the_records_values_include_the_evaluations_own(tmp_path: Path) -> None:
    # a manual search, a disabled project: the mode is no pi-lodestone setting, and
    # disabledProjects is stored as settings.json's list, yet both were measured with
    record = _export("decision-memory", {"mode": "search", "inject_limit": 5,
                                         "disabled_projects": '["/x/y"]'}, tmp_path)
    assert resolve_file(MEMORY, record) == {"mode": "search", "inject_limit": 5,
                                            "disabled_projects": '["/x/y"]'}


def test_a_record_at_the_defaults_is_the_defaults(tmp_path: Path) -> None:
    assert resolve_file(MEMORY, _export("decision-memory", {}, tmp_path)) == {}


def test_a_record_written_before_it_kept_the_values(tmp_path: Path) -> None:
    # the review's own file: changed and not_in_target, names and values, no more
    old = tmp_path / "vault-search.changes.json"
    old.write_text(json.dumps({
        "model": "vault-search", "target": "obsidian-mcp",
        "changed": [{"name": "w_tf", "label": "Weight: term frequency", "original": 0.4,
                     "value": 0.5, "setting": None},
                    {"name": "limit", "label": "Limit", "original": 0, "value": 10,
                     "setting": "search_vault limit"}],
        "not_in_target": [{"name": "early_stop", "label": "Early stop", "original": True,
                           "value": False, "setting": None}]}, indent=2))
    assert resolve_file(VAULT, old) == {"w_tf": 0.5, "limit": 10, "early_stop": False}
    text = old.read_text()
    old.write_text(text.replace('"value": 10', '"value": -3'))
    line = text.splitlines().index('      "name": "limit",') + 1
    with pytest.raises(ParamError, match=rf"changes\.json:{line}: field 'limit'"):
        resolve_file(VAULT, old)
    memory = tmp_path / "decision-memory.changes.json"
    memory.write_text(json.dumps({
        "model": "decision-memory", "target": "pi-lodestone 418f9a1",
        "changed": [{"name": "disabled_projects", "label": "Disabled projects",
                     "original": [], "value": ["/x/y"], "setting": "settings.json"}]}))
    assert resolve_file(MEMORY, memory) == {"disabled_projects": '["/x/y"]'}
    # CodeLedger's changes are against its document's values, not the workbench's defaults
    ledger = tmp_path / "codeledger.changes.json"
    ledger.write_text(json.dumps({"model": "codeledger", "target": "CodeLedger",
                                  "changed": []}))
    with pytest.raises(ParamError, match=r"codeledger\.changes\.json: a record of changes "
                       r"written before it kept the values measured"):
        load_params_file(ledger)


def test_codeledger_reads_back_a_value_at_its_documents(tmp_path: Path) -> None:
    # its record lists changes against CodeLedger's document: a weight set to the document's
    # value is no change there, yet differs from the workbench's default
    from workbench.core.models.codeledger.params import DOCUMENT_SCHEMA

    schema = get_model("codeledger").schema
    name = next(p.name for p in schema if p.name in DOCUMENT_SCHEMA
                and p.default != DOCUMENT_SCHEMA[p.name].default)
    value = DOCUMENT_SCHEMA[name].default
    record = _export("codeledger", {name: value}, tmp_path)
    assert name not in [c["name"] for c in json.loads(record.read_text())["changed"]]
    assert resolve_file(schema, record) == {name: value}


def test_another_models_record_says_which(tmp_path: Path) -> None:
    # `limit` is a name both take: the record's model is said before its values are read
    record = _export("vault-search", {"limit": 10}, tmp_path)
    with pytest.raises(ParamError, match=r"holds vault-search's parameters \(the record of "
                       r"changes `workbench export` wrote for vault-search\): run with "
                       r"-m vault-search"):
        resolve_file(get_model("bm25").schema, record)


def test_a_bad_value_in_a_record_is_said_at_its_line(tmp_path: Path) -> None:
    record = _export("vault-search", {"limit": 10}, tmp_path)
    text = record.read_text().replace('"limit": 10', '"limit": -3')
    record.write_text(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if '"limit": -3' in row)
    with pytest.raises(ParamError, match=rf"changes\.json:{line}: field 'limit'"):
        resolve_file(VAULT, record)
    record.write_text('{"model": "vault-search", "changed": [{"label": "Limit"}]}')
    with pytest.raises(ParamError, match=r"changes\.json: field 'changed\[0\]': expected an "
                       "object with a name and a value"):
        load_params_file(record)


@pytest.mark.parametrize(("name", "what"), [
    ("search_vault.args.json", "obsidian-mcp's search_vault arguments"),
    ("mcp-server-env.json", "an MCP server entry"),
])
def test_the_exports_other_files_name_the_record(tmp_path: Path, name: str, what: str) -> None:
    record = _export("vault-search", {"limit": 10, "min_score": 0.3}, tmp_path)
    with pytest.raises(ParamError) as err:
        load_params_file(tmp_path / name)
    said = str(err.value)
    assert said.startswith(f"{tmp_path / name}: {what}")
    assert said.endswith(f"not a parameter file: give --params the record of changes beside "
                         f"it, {record}")
    assert "\n" not in said


def test_the_variables_env_and_settings_json_name_the_record(tmp_path: Path) -> None:
    record = _export("decision-memory", {"inject_limit": 5, "disabled_projects": '["/a"]'},
                     tmp_path)
    with pytest.raises(ParamError, match=r"decision-memory\.env: pi-lodestone's environment "
                       r"variables \(PI_MEMORY_MAX_TEXT_CHARS, PI_MEMORY_GLOBAL_AUTO_INJECT, "
                       r"…\), as `workbench export` writes them, not a parameter file: give "
                       rf"--params the record of changes beside it, {record}"):
        load_params_file(tmp_path / "decision-memory.env")
    with pytest.raises(ParamError, match=r"settings\.json: pi-lodestone's settings\.json"):
        load_params_file(tmp_path / "settings.json")


def test_a_json_file_of_no_export_says_what_to_give(tmp_path: Path) -> None:
    other = tmp_path / "mine.json"
    other.write_text('{"limit": 10}')
    with pytest.raises(ParamError, match=r"mine\.json: a JSON file, not a parameter file: "
                       r"give --params the record of changes that `workbench export --out` "
                       r"writes"):
        load_params_file(other)
    other.write_text('{"limit": 10,\n')
    with pytest.raises(ParamError, match=r"mine\.json:2: invalid JSON at column"):
        load_params_file(other)


def test_eval_with_the_record_gives_the_figures_of_the_values(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    given = ["-p", "inject_limit=5", "-p", "inject_min_score=12", "-p", "mode=search"]
    assert main(["export", "-m", "decision-memory", *given, "--out", str(tmp_path)]) == 0
    data = str(SAMPLES / "decisions")
    capsys.readouterr()
    assert main(["eval", data, "-m", "decision-memory", *given]) == 0
    by_hand = capsys.readouterr().out
    assert main(["eval", data, "-m", "decision-memory", "--params",
                 str(tmp_path / "decision-memory.changes.json")]) == 0
    assert capsys.readouterr().out == by_hand
    assert "mode=search" in by_hand
