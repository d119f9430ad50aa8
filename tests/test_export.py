"""Exporting parameters in the target system's terms (`workbench.core.export`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from workbench.core.export import (
    EXPORTERS,
    PI_ENV,
    export_params,
    exporter_ids,
    write_export,
)
from workbench.core.models import get_model, model_ids
from workbench.core.models.decision_memory import DEFAULTS
from workbench.core.params import ParamError, resolve_file

DEFAULT_ENV = """\
# pi-lodestone 418f9a1 settings from Scoring Workbench
export PI_MEMORY_MAX_TEXT_CHARS=4000
export PI_MEMORY_GLOBAL_AUTO_INJECT=false
export PI_MEMORY_INJECT_LIMIT=3
export PI_MEMORY_INJECT_MIN_SCORE=8
export PI_MEMORY_INJECT_SNIPPET_CHARS=180
export PI_MEMORY_INJECT_QUERY_MAX_TOKENS=32
export PI_MEMORY_SEARCH_DEFAULT_LIMIT=5
export PI_MEMORY_SEARCH_SNIPPET_CHARS=220
"""


@pytest.mark.parametrize("model_id", sorted(set(EXPORTERS) - {"codeledger"}))
def test_defaults_export_no_changes(model_id: str) -> None:
    assert model_id in model_ids()
    out = export_params(model_id)
    assert out.changed == ()
    assert json.loads(out.changes_json()) == {"model": model_id, "target": out.target,
                                              "changed": []}


def test_default_env_text_exact() -> None:
    out = export_params("decision-memory")
    assert out.env_text() == DEFAULT_ENV
    assert out.env_text(shell=False) == DEFAULT_ENV.replace("export ", "")
    assert dict(out.env)["PI_MEMORY_INJECT_MIN_SCORE"] == "8"
    assert out.settings == {}  # pi-lodestone reads its environment, no settings file


def test_env_follows_the_parameters() -> None:
    out = export_params("decision-memory", {"inject_min_score": 11.5, "inject_limit": 2,
                                            "global_inject": True, "w_body": 2})
    assert out.env_text() == (
        "# pi-lodestone 418f9a1 settings from Scoring Workbench\n"
        "export PI_MEMORY_MAX_TEXT_CHARS=4000\n"
        "export PI_MEMORY_GLOBAL_AUTO_INJECT=true\n"
        "export PI_MEMORY_INJECT_LIMIT=2\n"
        "export PI_MEMORY_INJECT_MIN_SCORE=11.5\n"
        "export PI_MEMORY_INJECT_SNIPPET_CHARS=180\n"
        "export PI_MEMORY_INJECT_QUERY_MAX_TOKENS=32\n"
        "export PI_MEMORY_SEARCH_DEFAULT_LIMIT=5\n"
        "export PI_MEMORY_SEARCH_SNIPPET_CHARS=220\n"
        "# also changed, with no environment variable (edit the source): w_body\n")


def test_changed_values_carry_their_original_defaults() -> None:
    out = export_params("decision-memory", {"inject_min_score": 12, "w_title": 7.5,
                                            "mode": "search", "now": "2026-01-01"})
    doc = json.loads(out.changes_json())["changed"]
    assert doc == [
        {"name": "w_title", "label": "Title match", "original": DEFAULTS.w_title,
         "value": 7.5, "setting": None},
        {"name": "inject_min_score", "label": "Inject min score",
         "original": DEFAULTS.inject_min_score, "value": 12.0,
         "setting": "PI_MEMORY_INJECT_MIN_SCORE"},
    ]  # mode and now are the workbench's, not pi-lodestone's constants


def test_every_env_variable_is_a_parameter() -> None:
    schema = get_model("decision-memory").schema
    assert all(name in schema for name in PI_ENV)


def test_hybrid_settings_and_vault_search_weights() -> None:
    hybrid = export_params("hybrid", {"alpha": 0.55, "normalization": "min-max"})
    # as SillyTavern's settings.json holds them: under extension_settings.openvault
    assert hybrid.settings == {"extension_settings": {"openvault": {
        "alpha": 0.55, "combinedBoostWeight": 15.0, "vectorSimilarityThreshold": 0.5,
        "entityBoostWeight": 5.0}}}
    assert hybrid.config_path == "settings.json"
    assert [(c.name, c.original, c.value, c.setting) for c in hybrid.changed] == [
        ("alpha", 0.7, 0.55, "alpha")]
    assert hybrid.env_text() == ""
    # obsidian-mcp: search_vault's arguments, its batch size from the environment; its
    # scorer is `new SearchScorer()`, so the weights are a code change (said where)
    vault = export_params("vault-search", {"w_density": 0.5})
    assert vault.settings == {"search_vault": {}}
    assert vault.env == (("OBSIDIAN_SEARCH_BATCH_SIZE", "10"),)
    assert [(c.name, c.setting) for c in vault.changed] == [("w_density", None)]
    assert ('new SearchScorer({"termFrequency": 0.4, "position": 0.3, "density": 0.5})'
            in vault.where)
    args = export_params("vault-search", {"min_score": 0.3, "limit": 10, "offset": 5,
                                          "batch_size": 20})
    assert args.settings == {"search_vault": {"minScore": 0.3, "limit": 10, "offset": 5}}
    assert args.env == (("OBSIDIAN_SEARCH_BATCH_SIZE", "20"),)
    assert all(c.setting for c in args.changed) and "SearchScorer" not in args.where
    # offset acts only with a limit (0: not passed, every result)
    assert export_params("vault-search", {"offset": 5}).settings == {"search_vault": {}}


def test_hybrid_vector_candidates_is_the_workbenchs_own_and_ships_nothing() -> None:
    # it was called a change to OpenVault's code; it only bounds what prepare keeps, the
    # rankings being the all-pairs ones
    pruned = export_params("hybrid", {"vector_candidates": 50})
    assert not pruned.changed and not pruned.outside


def test_a_vault_limit_without_the_early_stop_does_not_ship_as_measured() -> None:
    # obsidian-mcp stops scanning early whenever a limit is passed: a limit scored with
    # early_stop off was called shippable, and an offset without a limit was dropped unsaid
    off = export_params("vault-search", {"limit": 1, "batch_size": 3})
    assert [(c.name, c.original, c.value) for c in off.outside] == [("early_stop", True, False)]
    # said once, true to the model (its early_stop defaults to off) and readable: it read
    # "obsidian-mcp has no early_stop = False (default True)", and the note said it again
    # rv52 11: no "these figures" where none were measured, and no "not shippable": the
    # settings ship; figures at the limit are to be measured with the early stop
    assert off.outside_text() == (
        "your figures at this limit (eval, compare) should be measured with -p "
        "early_stop=true to match obsidian-mcp, which always stops scanning early with a limit")
    # the record keeps it as obsidian-mcp's own behaviour, not as a value it cannot take
    doc = json.loads(off.changes_json())
    assert "not_in_target" not in doc
    assert doc["target_always_has"] == [{
        "name": "early_stop", "label": "Early stop", "in_target": True, "measured": False,
        "note": "behaviour obsidian-mcp always has: your figures at this limit (eval, compare) "
                "should be measured with -p early_stop=true to match obsidian-mcp, which "
                "always stops scanning early with a limit"}]
    # beside a value it cannot take, each said in its own words
    both = export_params("vault-search", {"limit": 1, "variant": "documented"})
    assert both.outside_text().startswith("not shippable as is: measured with variant = ")
    assert both.outside_text().endswith("; your figures at this limit (eval, compare) should be "
                                        "measured with -p early_stop=true to match obsidian-mcp"
                                        ", which always stops scanning early with a limit")
    doc = json.loads(both.changes_json())
    assert [c["name"] for c in doc["not_in_target"]] == ["variant"]
    assert [c["name"] for c in doc["target_always_has"]] == ["early_stop"]
    assert "early" not in off.where and "default True" not in off.outside_text()
    on = export_params("vault-search", {"limit": 1, "batch_size": 3, "early_stop": True})
    assert not on.outside and "early" not in on.where
    assert not export_params("vault-search", {"early_stop": False}).outside  # no limit
    offset = export_params("vault-search", {"offset": 5})
    assert offset.settings == {"search_vault": {}}
    assert "offset 5 is not passed: without a limit" in offset.where


def test_openvault_prompt_is_its_setting_and_one_for_both_sides() -> None:
    """REFERENCE §3: one prefix setting prepended to queries and documents — a setting of
    its panel, not a code change; a query prompt that differs cannot ship."""
    same = "task: narrative understanding | query: "
    both = export_params("hybrid", {"query_prompt": same, "document_prompt": same})
    assert {c.setting for c in both.changed} == {
        "the embedding prompt (settings panel; one for both sides)"}
    assert not both.outside and repr(same) in both.where and "re-embeds" in both.where
    split = export_params("hybrid", {"query_prompt": same})
    assert [c.name for c in split.outside] == ["query_prompt"]


def test_openvault_prompt_is_recorded_as_set_by_hand(tmp_path: Path) -> None:
    """rm 4: a prompt change was called shipped ("every changed value has a setting") while
    `export --out` wrote only alpha and the other sliders' keys: the specs name no key of
    settings.json for OpenVault's prompt. The record now says the export does not write it."""
    params = tmp_path / "noprompt.toml"
    params.write_text('query_prompt = ""\ndocument_prompt = ""\n')
    out = export_params("hybrid", resolve_file(get_model("hybrid").schema, params))
    written = write_export(out, tmp_path / "st")
    settings = json.loads((tmp_path / "st" / "settings.json").read_text())
    assert "" not in settings["extension_settings"]["openvault"].values()  # no prompt key
    record = json.loads(next(p for p in written if p.name == "hybrid.changes.json").read_text())
    assert [(c["name"], c["value"], c.get("written")) for c in record["changed"]] == [
        ("query_prompt", "", False), ("document_prompt", "", False)]
    assert all("settings panel" in c["set_by_hand"] for c in record["changed"])
    assert [c.name for c in out.by_hand()] == ["query_prompt", "document_prompt"]
    assert out.by_hand_text().startswith(
        "export --out does not write query_prompt '' and document_prompt '': set them by "
        "hand, in OpenVault's settings panel")
    assert "is not written" in out.where
    # the sliders are written: nothing of theirs is set by hand
    alpha = export_params("hybrid", {"alpha": 0.6})
    assert not alpha.by_hand() and alpha.by_hand_text() == ""
    assert "written" not in json.loads(alpha.changes_json())["changed"][0]


def test_unknown_model_and_bad_value() -> None:
    with pytest.raises(KeyError, match="valid: " + ", ".join(exporter_ids())):
        export_params("bm25")
    with pytest.raises(ParamError):
        export_params("decision-memory", {"inject_limit": -1})


def test_write_export(tmp_path: Path) -> None:
    out = export_params("decision-memory", {"inject_limit": 4})
    paths = write_export(out, tmp_path / "out")
    # no settings file: pi-lodestone reads none but settings.json's disabledProjects
    assert [p.name for p in paths] == ["decision-memory.env", "decision-memory.changes.json"]
    assert paths[0].read_text(encoding="utf-8") == out.env_text(shell=False)
    assert json.loads(paths[1].read_text())["changed"][0]["value"] == 4
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.name for p in paths)
    hybrid = write_export(export_params("hybrid"), tmp_path)
    assert [p.name for p in hybrid] == ["settings.json", "hybrid.changes.json"]
    # the folder itself is made, not a missing one above it (a typo, as other outputs say)
    with pytest.raises(ValueError, match=r"folder .*no does not exist"):
        write_export(out, tmp_path / "no" / "out")
    assert not (tmp_path / "no").exists()


def test_codeledger_defaults_are_changes_against_the_document() -> None:
    """`codeledger`'s fitted defaults differ from CodeLedger's: each shows as a change, with
    its config key when the document has one."""
    from workbench.core.models.codeledger.params import FITTED

    changed = {c.name: (c.original, c.value, c.setting)
               for c in export_params("codeledger").changed}
    assert set(changed) == set(FITTED)
    assert changed["w_keyword"] == (0.30, FITTED["w_keyword"], "selector.weights.keyword")
    assert changed["w_content"] == (0.0, FITTED["w_content"], None)  # no key: a code edit
    assert changed["hot_zone_files"] == (5, 10, None)


def test_codeledger_config_json(tmp_path: Path) -> None:
    """The document's defaults are codeledger-scoring.md's weights and REFERENCE §2's default
    budget; the file lands where CodeLedger reads it, the record of changes beside it in
    .codeledger/ (review G, 9: not a second stray file at the repository root)."""
    import json

    paths = write_export(export_params("codeledger-document"), tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in paths] == [
        ".codeledger/config.json", ".codeledger/codeledger-document.changes.json"]
    config = json.loads((tmp_path / ".codeledger" / "config.json").read_text("utf-8"))
    assert config["selector"]["weights"] == {
        "keyword": 0.30, "centrality": 0.15, "churn": 0.15, "recent_touch": 0.10,
        "test_relevance": 0.10, "size_penalty": 0.10, "success_prior": 0.05,
        "fail_prior": 0.05}
    assert config["selector"]["default_budget"] == {"tokens": 8000, "max_files": 25}
    assert config["selector"]["sufficiency_threshold"] == 0.85
    # the document's 250 lines, written although unchanged: CodeLedger's own default is 200
    assert config["selector"]["excerpt_full_file_max_lines"] == 250
    assert "excerpt_full_file_max_lines is written even at the document's 250 lines, since " \
        "CodeLedger's versions that read it default to 200" in \
        export_params("codeledger-document").where
    tuned = export_params("codeledger-document", {"w_keyword": 0.5, "budget_preset": "generous",
                                         "mult_test_update_churn": 0.2})
    assert tuned.settings["selector"]["default_budget"] == {  # type: ignore[index]
        "tokens": 15000, "max_files": 40}
    changed = {c.name: c.setting for c in tuned.changed}
    assert changed == {"w_keyword": "selector.weights.keyword",
                       "mult_test_update_churn": None}  # no documented key: a code edit


def test_an_existing_codeledger_config_is_updated_not_replaced(tmp_path: Path) -> None:
    import json

    import pytest

    config = tmp_path / ".codeledger" / "config.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"selector": {"weights": {"keyword": 0.9}, "mine": 1},
                                  "repo": {"include": ["src/**"]}}), encoding="utf-8")
    write_export(export_params("codeledger", {"w_keyword": 0.4}), tmp_path)
    merged = json.loads(config.read_text("utf-8"))
    assert merged["selector"]["weights"]["keyword"] == 0.4
    assert merged["selector"]["mine"] == 1 and merged["repo"] == {"include": ["src/**"]}
    assert merged["selector"]["default_budget"] == {"tokens": 8000, "max_files": 25}
    config.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError, match="not a JSON object"):
        write_export(export_params("codeledger"), tmp_path)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(ValueError, match="not a folder"):
        write_export(export_params("codeledger"), tmp_path / "file")


def test_values_the_target_cannot_take_are_listed_apart() -> None:
    """A z-score normalisation (OpenVault has batch-max only) or the documented variant
    (obsidian-mcp ships the other) changes the figures and cannot be exported: `outside`
    names it; idle values (rrf k without rrf, documented-only constants under the shipped
    variant) and the original's own early stop are not listed."""
    def names(model: str, params: dict[str, object]) -> list[str]:
        return [c.name for c in export_params(model, params).outside]

    assert names("hybrid", {}) == []
    assert names("hybrid", {"normalization": "z-score", "rrf_k": 300}) == ["normalization"]
    assert names("hybrid", {"normalization": "rrf", "rrf_k": 300}) == ["normalization", "rrf_k"]
    assert names("hybrid", {"batch_size": 8, "alpha": 0.3}) == []
    assert names("vault-search", {"tf_multiplier": 20.0}) == []
    assert names("vault-search", {"variant": "documented", "tf_multiplier": 20.0}) == [
        "variant", "tf_multiplier"]
    assert names("vault-search", {"early_stop": True, "limit": 5}) == []
    assert names("decision-memory", {"mode": "search"}) == []
    # the changes record keeps them: a file holding only "changed" lost that the figures
    # needed z-score
    doc = json.loads(export_params("hybrid", {"normalization": "z-score", "alpha": 0.6})
                     .changes_json())
    assert [c["name"] for c in doc["changed"]] == ["alpha"]
    assert [(c["name"], c["value"], c["setting"]) for c in doc["not_in_target"]] == [
        ("normalization", "z-score", None)]
    assert "not_in_target" not in json.loads(export_params("hybrid", {"alpha": 0.6})
                                             .changes_json())


def test_the_report_says_a_configuration_cannot_be_shipped(tmp_path: Path) -> None:
    from tests.conftest import SAMPLES
    from workbench.cli import main

    cfg = tmp_path / "z.toml"
    cfg.write_text('normalization = "z-score"\nalpha = 0.6\n')
    out = tmp_path / "r.html"
    assert main(["report", str(SAMPLES / "story"), "-m", "hybrid", "--defaults", "-c",
                 str(cfg), "-o", str(out)]) == 0
    html = out.read_text()
    assert html.count("Cannot be shipped") == 1  # z, not the defaults
    assert re.search(r"normalization was measured at z-score, which OpenVault \w+ does not "
                     r"have \(it has batch-max\)", html)


@pytest.mark.parametrize("model_id", ["bm25", "dense", "importance"])
def test_a_model_without_a_target_system_says_what_to_use(
        model_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    assert main(["export", "-m", model_id]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{model_id} has no system to write settings for" in err
    assert "params TOML file" in err and "decision-memory" in err


def test_codeledger_help_names_a_config_key_only_where_export_writes_one() -> None:
    from workbench.core.export import CL_WEIGHTS

    schema = get_model("codeledger").schema
    for p in schema:
        if not p.name.startswith("w_"):
            continue
        if p.name in CL_WEIGHTS:
            assert f"config key selector.weights.{CL_WEIGHTS[p.name]}" in p.help
        else:
            assert "config key" not in p.help and "no key in CodeLedger's config" in p.help


def test_export_out_keeps_the_config_values_not_set_here(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Over a config already there, only the values set with -p/--params replace its own:
    `-p w_keyword=0.5` reset the team's budget 5000/10 to 8000/25, and said so only once
    written ("pass yours with -p to keep them")."""
    from workbench.cli import main

    (tmp_path / ".codeledger").mkdir()
    config = tmp_path / ".codeledger" / "config.json"
    mine = {"selector": {"weights": {"keyword": 0.4},
                         "default_budget": {"tokens": 5000, "max_files": 10}},
            "repo": {"include": ["x"]}}
    config.write_text(json.dumps(mine))
    assert main(["export", "-m", "codeledger-document", "-p", "w_keyword=0.5",
                 "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    selector = json.loads(config.read_text())["selector"]
    assert selector["weights"]["keyword"] == 0.5
    assert selector["default_budget"] == {"tokens": 5000, "max_files": 10}  # theirs
    assert selector["weights"]["churn"] == 0.15  # a key it lacked: added
    assert "note: .codeledger/config.json: wrote selector.weights.keyword 0.4 → 0.5 " \
        "(set here)" in err
    assert ("note: .codeledger/config.json: kept its own selector.default_budget.tokens 5000, "
            "selector.default_budget.max_files 10 (not set here; the values measured were "
            "8000, 25: -p token_budget=8000 -p max_files=25 writes them)") in err
    assert "added what it lacked: selector.weights.centrality 0.15" in err
    # the record beside it says what the config kept: it had listed 8000 and 25 as written
    record = json.loads((tmp_path / ".codeledger" / "codeledger-document.changes.json")
                        .read_text())
    assert record["kept_in_config"]["settings"] == [
        {"setting": "selector.default_budget.tokens", "in_config": 5000, "measured": 8000,
         "measured_not_passed": False, "file": ".codeledger/config.json"},
        {"setting": "selector.default_budget.max_files", "in_config": 10, "measured": 25,
         "measured_not_passed": False, "file": ".codeledger/config.json"}]
    # set explicitly (a preset too, or a params file): written, and said
    config.write_text(json.dumps(mine))
    params = tmp_path / "p.toml"
    params.write_text('budget_preset = "tight"\n')
    assert main(["export", "-m", "codeledger-document", "--params", str(params),
                 "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert json.loads(config.read_text())["selector"]["default_budget"] == {
        "tokens": 3000, "max_files": 10}
    assert "wrote selector.default_budget.tokens 5000 → 3000 (set here)" in err
    assert "kept its own selector.weights.keyword 0.4" in err
    # a value of another kind where an object goes is replaced whole: said too
    config.write_text(json.dumps({"selector": [], "x": 1}))
    assert main(["export", "-m", "codeledger-document", "--out", str(tmp_path)]) == 0
    assert "wrote selector [] → {" in capsys.readouterr().err
    assert json.loads(config.read_text())["x"] == 1


def test_disabled_projects_go_to_the_memory_folders_settings_json(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"disabledProjects": ["/old"],
                                                        "other": 1}))
    out = export_params("decision-memory", {"disabled_projects": '["/repos/x", "/tmp/y"]'})
    assert {c.name: c.setting for c in out.changed} == {
        "disabled_projects": "settings.json disabledProjects"}
    paths = write_export(out, tmp_path)
    assert [p.name for p in paths] == ["decision-memory.env", "settings.json",
                                       "decision-memory.changes.json"]
    # REFERENCE §1's file, the user's other keys kept
    assert json.loads((tmp_path / "settings.json").read_text()) == {
        "disabledProjects": ["/repos/x", "/tmp/y"], "other": 1}
    assert "PI_MEMORY_INJECT_LIMIT=3" in (tmp_path / "decision-memory.env").read_text()


def test_export_out_over_a_config_nested_past_the_parser_is_one_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a RecursionError traceback; the file is left as it was
    from workbench.cli import main

    config = tmp_path / ".codeledger" / "config.json"
    config.parent.mkdir()
    text = "[" * 100_000 + "]" * 100_000
    config.write_text(text)
    assert main(["export", "-m", "codeledger", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not readable JSON (nested too deeply)" in err and "Traceback" not in err
    assert config.read_text() == text


def test_what_a_target_cannot_take_is_known_before_tuning(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """tune's default hybrid search tuned normalisation and four hard-coded constants with
    no word: only `export`, afterwards, said the result could not ship."""
    from tests.conftest import SAMPLES
    from workbench.cli import main
    from workbench.core.export import unshippable

    code, absent = unshippable("hybrid", ["alpha", "normalization", "rrf_k", "k1",
                                          "base_lambda", "combined_boost_weight"])
    assert code == ["k1", "base_lambda"] and absent == ["normalization", "rrf_k"]
    assert unshippable("bm25", ["k1"]) == ([], [])  # no target: nothing to say
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--trials", "1",
                 "--folds", "0", "--storage", str(tmp_path / "s.db")]) == 0
    assert "cannot take as a setting" not in capsys.readouterr().out
    assert main(["tune", str(SAMPLES / "vault"), "-m", "vault-search", "--trials", "1",
                 "--folds", "0", "--storage", str(tmp_path / "v.db")]) == 0
    out = capsys.readouterr().out
    assert "note: obsidian-mcp cannot take as a setting what is tuned here for w_tf" in out
    assert "no setting of obsidian-mcp can raise the score" in out  # min_score: a cut-off (F5)


def test_the_max_text_setting_says_it_cuts_stored_decisions_too() -> None:
    assert "cuts the text of every decision it stores" in export_params(
        "decision-memory", {"prompt_max_chars": 500}).where
    assert "cuts the text" not in export_params("decision-memory", {"inject_limit": 5}).where


def test_codeledger_weights_set_beside_signals_it_lacks_are_said() -> None:
    """The five weights shipped were fitted beside content, named path, graph, co-change and
    similar commits, which CodeLedger has not: alone they rank otherwise."""
    fitted = export_params("codeledger")
    assert "set beside w_content, w_mention, w_graph, w_cochange, w_similar" in fitted.where
    assert "set beside" not in export_params("codeledger-document").where


def test_export_needs_no_encoder_on_this_machine(capsys: pytest.CaptureFixture[str]) -> None:
    """A params file tuned on another machine names its model folder: export, which embeds
    nothing, refused it ("no local embedding model")."""
    from workbench.cli import main

    assert main(["export", "-m", "hybrid", "-p", "embedding_model=/elsewhere/model",
                 "-p", "alpha=0.5"]) == 0
    assert '"alpha": 0.5' in capsys.readouterr().out


def test_a_config_that_is_no_json_is_one_line_and_no_note_says_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the notes said "listed in the changes record (written to …)" before the write was
    # refused, and the refusal read "line 1 column 2 (char 1)"
    from workbench.cli import main

    config = tmp_path / ".codeledger" / "config.json"
    config.parent.mkdir()
    config.write_text("{bad\n")
    assert main(["export", "-m", "codeledger", "-p", "w_keyword=0.5", "--out",
                 str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"workbench export: error: {config}:1: cannot update it, not readable JSON (invalid "
        "JSON at column 2: Expecting property name enclosed in double quotes)"]
    assert config.read_text() == "{bad\n" and sorted(p.name for p in tmp_path.iterdir()) == [
        ".codeledger"]


def test_the_not_shippable_warning_reads_as_a_sentence(
        capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    assert main(["export", "-m", "hybrid", "-p", "normalization=z-score"]) == 0
    err = capsys.readouterr().err
    assert ("warning: not shippable as is: measured with normalization = 'z-score', which "
            "OpenVault c112699 cannot take (it has normalization = 'batch-max'): the settings "
            "leave it out, and these figures are not what it will score\n") in err


def test_the_changes_record_is_in_the_targets_terms() -> None:
    """A list as pi-lodestone stores it (not the parameter's text, not the "" sentinel); a
    parameter in one section only; no change where OpenVault scores alike."""
    def record(model: str, params: dict[str, object]) -> dict[str, list[dict[str, object]]]:
        return json.loads(export_params(model, params).changes_json())  # type: ignore[no-any-return]

    doc = record("decision-memory", {"disabled_projects": '["/a"]'})
    assert [(c["name"], c["original"], c["value"]) for c in doc["changed"]] == [
        ("disabled_projects", [], ["/a"])]
    assert record("decision-memory", {"disabled_projects": "[]"})["changed"] == []
    doc = record("hybrid", {"query_prompt": "q: "})
    assert doc["changed"] == [] and [c["name"] for c in doc["not_in_target"]] == [
        "query_prompt"]
    # OpenVault reads a threshold of 0 as 0.5 (`threshold || 0.5`): the same scores
    assert record("hybrid", {"vector_threshold": 0.0})["changed"] == []
    assert [c["name"] for c in record("hybrid", {"vector_threshold": 0.3})["changed"]] == [
        "vector_threshold"]


def test_out_writes_files_in_the_shape_their_readers_take(tmp_path: Path) -> None:
    """No `<model>.settings.json` no target reads: OpenVault's values go where SillyTavern
    keeps them (merged into its settings.json, its other keys kept); obsidian-mcp's are each
    call's arguments and a variable of its MCP server entry, not a `.env` file a server
    started by its client never reads."""
    st = tmp_path / "default-user"
    st.mkdir()
    (st / "settings.json").write_text(json.dumps({
        "main_api": "openai", "extension_settings": {"openvault": {"alpha": 0.7, "x": 1},
                                                     "other": {"y": 2}}}))
    paths = write_export(export_params("hybrid", {"alpha": 0.3}), st, given={"alpha"})
    assert [p.name for p in paths] == ["settings.json", "hybrid.changes.json"]
    assert json.loads((st / "settings.json").read_text()) == {
        "main_api": "openai", "extension_settings": {
            "openvault": {"alpha": 0.3, "x": 1, "combinedBoostWeight": 15.0,
                          "vectorSimilarityThreshold": 0.5, "entityBoostWeight": 5.0},
            "other": {"y": 2}}}
    # SillyTavern's own user folder (its chats beside settings.json): settings.json alone
    (st / "hybrid.changes.json").unlink()
    (st / "chats").mkdir()
    assert write_export(export_params("hybrid", {"alpha": 0.4}), st, given={"alpha"}) == [
        st / "settings.json"]
    assert sorted(p.name for p in st.iterdir()) == ["chats", "settings.json"]
    vs = tmp_path / "vs"
    paths = write_export(export_params("vault-search", {"limit": 10, "offset": 3,
                                                        "batch_size": 20}), vs)
    assert [p.name for p in paths] == ["search_vault.args.json", "mcp-server-env.json",
                                       "vault-search.changes.json"]
    assert json.loads((vs / "search_vault.args.json").read_text()) == {"limit": 10,
                                                                       "offset": 3}
    assert json.loads((vs / "mcp-server-env.json").read_text()) == {
        "mcpServers": {"obsidian-mcp": {"env": {"OBSIDIAN_SEARCH_BATCH_SIZE": "20"}}}}


def test_the_variables_files_there_are_merged_not_replaced(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ra 5: an mcp-server-env.json or decision-memory.env already in --out was replaced whole:
    the other servers, the command, its args, the other variables and lines were lost."""
    from workbench.cli import main

    entry = tmp_path / "om" / "mcp-server-env.json"
    entry.parent.mkdir()
    entry.write_text(json.dumps({"mcpServers": {
        "github": {"command": "gh-mcp"},
        "obsidian-mcp": {"command": "node", "args": ["x.js"],
                         "env": {"OBSIDIAN_VAULT": "/v", "OBSIDIAN_SEARCH_BATCH_SIZE": "10"}}}}))
    assert main(["export", "-m", "obsidian-mcp", "-p", "batch_size=30",
                 "--out", str(entry.parent)]) == 0
    assert json.loads(entry.read_text()) == {"mcpServers": {
        "github": {"command": "gh-mcp"},
        "obsidian-mcp": {"command": "node", "args": ["x.js"],
                         "env": {"OBSIDIAN_VAULT": "/v", "OBSIDIAN_SEARCH_BATCH_SIZE": "30"}}}}
    assert ('note: mcp-server-env.json: wrote OBSIDIAN_SEARCH_BATCH_SIZE "10" → "30" (set here)'
            in capsys.readouterr().err)
    env = tmp_path / "dm" / "decision-memory.env"
    env.parent.mkdir()
    env.write_text("OTHER_VAR=1\n# mine\nPI_MEMORY_INJECT_LIMIT=7\nPI_MEMORY_MAX_TEXT_CHARS=99\n")
    assert main(["export", "-m", "decision-memory", "-p", "inject_limit=4",
                 "--out", str(env.parent)]) == 0
    lines = env.read_text().splitlines()
    # set here: written; not set here: its own kept (and said); others there kept
    assert lines[:4] == ["OTHER_VAR=1", "# mine", "PI_MEMORY_INJECT_LIMIT=4",
                         "PI_MEMORY_MAX_TEXT_CHARS=99"]
    assert "PI_MEMORY_INJECT_MIN_SCORE=8" in lines[4:]  # one it lacked: added
    assert ('kept its own PI_MEMORY_MAX_TEXT_CHARS "99" (not set here; the values measured '
            'were "4000"') in " ".join(capsys.readouterr().err.split())


def test_a_variables_file_or_settings_it_cannot_read_is_refused_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ra 5: a line of garbage in decision-memory.env was dropped without a word, and a
    non-object extension_settings.openvault replaced by an object."""
    from workbench.cli import main

    env = tmp_path / "dm" / "decision-memory.env"
    env.parent.mkdir()
    env.write_text("OTHER_VAR=1\n\ngarbage here\n")
    assert main(["export", "-m", "decision-memory", "--out", str(env.parent)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"workbench export: error: {env}:3: cannot update it, not a NAME=value line "
        "('garbage here'): fix or remove it")
    assert sorted(p.name for p in env.parent.iterdir()) == ["decision-memory.env"]
    assert env.read_text() == "OTHER_VAR=1\n\ngarbage here\n"
    st = tmp_path / "st" / "settings.json"
    st.parent.mkdir()
    st.write_text('{\n  "a": 1,\n  "extension_settings": {"openvault": "x"}\n}\n')
    assert main(["export", "-m", "hybrid", "-p", "alpha=0.5", "--out", str(st.parent)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"workbench export: error: {st}:3: field 'extension_settings.openvault': cannot update "
        "it, expected a JSON object, found a string: fix or remove it")
    assert st.read_text() == '{\n  "a": 1,\n  "extension_settings": {"openvault": "x"}\n}\n'
    entry = tmp_path / "om" / "mcp-server-env.json"
    entry.parent.mkdir()
    entry.write_text('{"mcpServers": {"obsidian-mcp": {"env": {"A": "unterminated')
    assert main(["export", "-m", "obsidian-mcp", "--out", str(entry.parent)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"workbench export: error: {entry}:1: cannot update it, not readable JSON (invalid JSON "
        "at column 47: Unterminated string starting at column 47)")
    assert sorted(p.name for p in entry.parent.iterdir()) == ["mcp-server-env.json"]


def test_a_variable_set_twice_in_the_env_file_is_rewritten_on_each_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr3 2: only the first line setting a variable was rewritten; the later one, which the
    shell's `.` and dotenv both read last, stayed at its old value."""
    from workbench.cli import main

    env = tmp_path / "decision-memory.env"
    env.write_text("PI_MEMORY_INJECT_LIMIT=3\nOTHER=1\nPI_MEMORY_INJECT_LIMIT=4\n")
    assert main(["export", "-m", "decision-memory", "-p", "inject_limit=5",
                 "--out", str(tmp_path)]) == 0
    lines = env.read_text().splitlines()
    assert lines[:3] == ["PI_MEMORY_INJECT_LIMIT=5", "OTHER=1", "PI_MEMORY_INJECT_LIMIT=5"]
    # the value it had is the one the shell read: the last line's
    assert ('note: decision-memory.env: wrote PI_MEMORY_INJECT_LIMIT "4" → "5" (set here)'
            in capsys.readouterr().err)


def test_env_values_are_read_as_the_shell_reads_them_and_the_file_keeps_its_form(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr3 4: "8" in quotes was another value than 8, `6 # tuned` the value "6 # tuned", a
    quoted value lost its quotes when rewritten; CRLF line ends and a byte-order mark were
    dropped."""
    from workbench.cli import main

    env = tmp_path / "decision-memory.env"
    env.write_bytes(b"\xef\xbb\xbf# mine\r\nexport PI_MEMORY_INJECT_LIMIT=\"3\"\r\n"
                    b"PI_MEMORY_INJECT_MIN_SCORE=\"8\"\r\n"
                    b"PI_MEMORY_SEARCH_SNIPPET_CHARS=300 # tuned\r\n"
                    b"OTHER='hello world'\r\n")
    assert main(["export", "-m", "decision-memory", "-p", "inject_limit=5",
                 "--out", str(tmp_path)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert 'wrote PI_MEMORY_INJECT_LIMIT "3" → "5" (set here)' in err
    assert "PI_MEMORY_INJECT_MIN_SCORE" not in err  # 8 already: neither kept nor written
    assert 'kept its own PI_MEMORY_SEARCH_SNIPPET_CHARS "300" (not set here' in err
    raw = env.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf# mine\r\nexport PI_MEMORY_INJECT_LIMIT=\"5\"\r\n"
                          b"PI_MEMORY_INJECT_MIN_SCORE=\"8\"\r\n"
                          b"PI_MEMORY_SEARCH_SNIPPET_CHARS=300 # tuned\r\n"
                          b"OTHER='hello world'\r\n")
    added = raw.split(b"\r\n")[5:]
    assert b"PI_MEMORY_MAX_TEXT_CHARS=4000" in added and added[-1] == b""  # CRLF after each
    assert b"\n" not in raw.replace(b"\r\n", b"")
    env.write_text('PI_MEMORY_INJECT_LIMIT="3\n')
    assert main(["export", "-m", "decision-memory", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"workbench export: error: {env}:1: cannot update it, field 'PI_MEMORY_INJECT_LIMIT': "
        "the quote (\") is not closed: fix it")


def test_the_record_lists_what_the_variables_files_kept(tmp_path: Path) -> None:
    """dr3 5: a .env value kept (not set here) went unrecorded, so the record read as if the
    shipped system ran with the values measured."""
    from workbench.cli import main

    (tmp_path / "decision-memory.env").write_text("PI_MEMORY_INJECT_MIN_SCORE=6\n")
    assert main(["export", "-m", "decision-memory", "-p", "inject_limit=5",
                 "--out", str(tmp_path)]) == 0
    record = json.loads((tmp_path / "decision-memory.changes.json").read_text())
    assert record["kept_in_config"]["settings"] == [
        {"setting": "PI_MEMORY_INJECT_MIN_SCORE", "in_config": "6", "measured": "8",
         "measured_not_passed": False, "file": "decision-memory.env"}]
    assert record["kept_in_config"]["note"].startswith("decision-memory.env kept its own")
    vs = tmp_path / "vs"
    vs.mkdir()
    (vs / "mcp-server-env.json").write_text(json.dumps({"mcpServers": {"o": {
        "command": "npx", "args": ["-y", "obsidian-mcp"],
        "env": {"OBSIDIAN_SEARCH_BATCH_SIZE": "15"}}}}))
    assert main(["export", "-m", "vault-search", "-p", "limit=5", "--out", str(vs)]) == 0
    record = json.loads((vs / "vault-search.changes.json").read_text())
    assert record["kept_in_config"]["settings"] == [
        {"setting": "OBSIDIAN_SEARCH_BATCH_SIZE", "in_config": "15", "measured": "10",
         "measured_not_passed": False, "file": "mcp-server-env.json"}]


def test_the_search_vault_arguments_there_are_merged_in_their_form(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 4: search_vault.args.json was replaced whole by --out (the query, the path and a
    minScore there lost, its byte-order mark, CRLF and indent too), where the variables' files
    are merged: its other keys are kept, a value not set here kept and recorded."""
    from workbench.cli import main

    args = tmp_path / "search_vault.args.json"
    args.write_bytes(b'\xef\xbb\xbf{\r\n    "query": "tea",\r\n    "path": "notes",\r\n'
                     b'    "limit": 20,\r\n    "minScore": 0.3\r\n}\r\n')
    assert main(["export", "-m", "vault-search", "-p", "limit=5", "--out", str(tmp_path)]) == 0
    assert args.read_bytes() == (b'\xef\xbb\xbf{\r\n    "query": "tea",\r\n    "path": "notes",'
                                 b'\r\n    "limit": 5,\r\n    "minScore": 0.3\r\n}\r\n')
    err = " ".join(capsys.readouterr().err.split())
    assert "note: search_vault.args.json: wrote limit 20 → 5 (set here)" in err
    assert "note: search_vault.args.json: kept its own minScore 0.3 (not set here" in err
    record = json.loads((tmp_path / "vault-search.changes.json").read_text())
    assert record["kept_in_config"]["settings"] == [
        {"setting": "minScore", "in_config": 0.3, "measured": None, "measured_not_passed": True,
         "file": "search_vault.args.json"}]
    assert record["kept_in_config"]["note"].startswith("search_vault.args.json kept its own")
    # set here to 0, "not passed": taken out; a file on one line stays on one line
    args.write_text('{"query": "tea", "minScore": 0.3, "offset": 2}')
    assert main(["export", "-m", "vault-search", "-p", "min_score=0", "-p", "limit=5",
                 "-p", "offset=2", "--out", str(tmp_path)]) == 0
    assert args.read_text() == '{"query": "tea", "offset": 2, "limit": 5}'
    assert "kept_in_config" not in json.loads(
        (tmp_path / "vault-search.changes.json").read_text())
    # tabs stay tabs
    args.write_text('{\n\t"query": "tea"\n}\n')
    assert main(["export", "-m", "vault-search", "-p", "limit=3", "--out", str(tmp_path)]) == 0
    assert args.read_text() == '{\n\t"query": "tea",\n\t"limit": 3\n}\n'
    capsys.readouterr()


def test_search_vault_arguments_it_cannot_read_are_refused_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A search_vault.args.json that is not a JSON object: one error naming the file and the
    line, nothing written."""
    from workbench.cli import main

    args = tmp_path / "search_vault.args.json"
    for text, said in (('{\n  "query": "tea",\n  "limit": 5,,\n}\n',
                        f"{args}:3: cannot update it, not readable JSON (invalid JSON at "
                        "column 14: Expecting property name enclosed in double quotes)"),
                       ('["tea"]\n', f"{args}: cannot update it, not a JSON object")):
        args.write_text(text)
        assert main(["export", "-m", "vault-search", "-p", "limit=5",
                     "--out", str(tmp_path)]) == 2
        assert capsys.readouterr().err.strip() == f"workbench export: error: {said}"
        assert args.read_text() == text
        assert [p.name for p in tmp_path.iterdir()] == ["search_vault.args.json"]


def test_the_server_entry_is_found_by_what_it_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr3 3: only a server named obsidian-mcp was looked for; under another name, a second
    entry with no command was added and the real one left at its old value."""
    from workbench.cli import main

    entry = tmp_path / "mcp-server-env.json"
    servers = {"github": {"command": "gh-mcp"},
               "obsidian": {"command": "npx", "args": ["obsidian-mcp", "/vault"],
                            "env": {"OBSIDIAN_SEARCH_BATCH_SIZE": "10"}}}
    entry.write_text(json.dumps({"mcpServers": servers}))
    assert main(["export", "-m", "vault-search", "-p", "batch_size=30",
                 "--out", str(tmp_path)]) == 0
    assert json.loads(entry.read_text()) == {"mcpServers": {
        "github": {"command": "gh-mcp"},
        "obsidian": {"command": "npx", "args": ["obsidian-mcp", "/vault"],
                     "env": {"OBSIDIAN_SEARCH_BATCH_SIZE": "30"}}}}
    capsys.readouterr()
    # none runs it, or two do: refused, nothing written
    for mine, why in (
            ({"github": {"command": "gh-mcp"}}, "no server there runs obsidian-mcp"),
            ({"a": {"command": "obsidian-mcp"}, "b": {"command": "node", "env": {
                "OBSIDIAN_VAULT": "/v"}}}, "2 servers there run obsidian-mcp (a, b): keep one")):
        for old in tmp_path.iterdir():
            old.unlink()
        entry.write_text(json.dumps({"mcpServers": mine}))
        assert main(["export", "-m", "vault-search", "-p", "batch_size=30",
                     "--out", str(tmp_path)]) == 2
        err = " ".join(capsys.readouterr().err.split())
        assert f"error: {entry}:1: field 'mcpServers': cannot update it, {why}" in err
        assert json.loads(entry.read_text()) == {"mcpServers": mine}
        assert [p.name for p in tmp_path.iterdir()] == ["mcp-server-env.json"]


def test_the_notes_on_search_vault_arguments_never_say_null(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An argument measured as not passed had been said as "null" ("the values measured were
    null", "minScore 0.3 → null", "-p min_score=0 writes them"), though the key is taken out,
    not set to null (dr1 6)."""
    from workbench.cli import main

    args = tmp_path / "search_vault.args.json"
    args.write_text('{"minScore": 0.3, "limit": 20, "offset": 3}')
    assert main(["export", "-m", "vault-search", "--out", str(tmp_path)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert ("note: search_vault.args.json: kept its own minScore 0.3, limit 20, offset 3 (not "
            "set here; measured without them, not passed: take them out of the file, or "
            "-p min_score=0.0 -p limit=0 -p offset=0 takes them out)") in err
    assert "null" not in err
    args.write_text('{"query": "tea", "minScore": 0.3, "limit": 20}')
    assert main(["export", "-m", "vault-search", "-p", "min_score=0", "-p", "limit=5",
                 "--out", str(tmp_path)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "note: search_vault.args.json: wrote limit 20 → 5 (set here)" in err
    assert ("note: search_vault.args.json: took out minScore 0.3 (not passed, as measured)"
            in err)
    assert "null" not in err
    assert json.loads(args.read_text()) == {"query": "tea", "limit": 5}


def test_the_record_says_not_passed_apart_from_a_null_in_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """r50: the record stored `"measured": null` for an argument measured as not passed: a
    script could not tell it from nothing measured. Each entry holds `measured` (a script's
    `entry["measured"]` never raises KeyError) and `measured_not_passed`, and the record's
    note gives the stderr note's remedies (dr1 7)."""
    from workbench.cli import main

    args = tmp_path / "search_vault.args.json"
    args.write_text('{"query": "tea", "minScore": 0.3, "limit": 20}')
    assert main(["export", "-m", "vault-search", "-p", "limit=5", "--out", str(tmp_path)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert ("kept its own minScore 0.3 (not set here; measured without it, not passed: take it "
            "out of the file, or -p min_score=0.0 takes it out)") in err
    record = json.loads((tmp_path / "vault-search.changes.json").read_text())
    assert record["kept_in_config"]["settings"] == [
        {"setting": "minScore", "in_config": 0.3, "measured": None, "measured_not_passed": True,
         "file": "search_vault.args.json"}]
    assert record["kept_in_config"]["note"] == (
        "search_vault.args.json kept its own value of these (not set with -p or --params): the "
        "figures were measured with the value under measured; where measured_not_passed is "
        "true, without the setting (not passed to obsidian-mcp, which then takes its own "
        "default): to match them, take each such setting out of the file named with it, or "
        "export again setting it with -p as measured, which takes it out")
    # a value measured beside it stays a value; the note has no word of "not passed"
    (tmp_path / "mcp-server-env.json").write_text(json.dumps({"mcpServers": {"o": {
        "env": {"OBSIDIAN_SEARCH_BATCH_SIZE": "15"}}}}))
    args.write_text('{"query": "tea", "minScore": 0.3}')
    assert main(["export", "-m", "vault-search", "-p", "min_score=0.5",
                 "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    record = json.loads((tmp_path / "vault-search.changes.json").read_text())
    assert record["kept_in_config"]["settings"] == [
        {"setting": "OBSIDIAN_SEARCH_BATCH_SIZE", "in_config": "15", "measured": "10",
         "measured_not_passed": False, "file": "mcp-server-env.json"}]
    assert "not_passed" not in record["kept_in_config"]["note"]


@pytest.mark.parametrize("off", ["0", "0.0", "null", "-1"])
def test_a_min_score_that_acts_as_not_passed_is_not_told_to_change(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], off: str) -> None:
    """minScore 0, 0.0, null or below 0 acts as not passed (obsidian-mcp applies it only above
    0): measured without it, the file already matches, and no note tells the user to take it
    out, nor does the record list it as kept (dr1 6)."""
    from workbench.cli import main

    args = tmp_path / "search_vault.args.json"
    text = f'{{"query": "tea", "minScore": {off}, "limit": 20}}'
    args.write_text(text)
    assert main(["export", "-m", "vault-search", "-p", "limit=5", "-p", "early_stop=true",
                 "--out", str(tmp_path)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "minScore" not in err
    assert json.loads(args.read_text()) == {**json.loads(text), "limit": 5}
    assert "kept_in_config" not in json.loads(
        (tmp_path / "vault-search.changes.json").read_text())


def test_search_vault_arguments_in_a_tool_call_are_written_in_its_arguments(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file in a tool call's form had got a stray top-level limit beside its arguments, its
    own limit left as it was, and a note that it "lacked" one (dr1 7)."""
    from workbench.cli import main

    args = tmp_path / "search_vault.args.json"
    args.write_text('{\n    "name": "search_vault",\n    "arguments": {\n        "query": "tea",'
                    '\n        "limit": 20\n    }\n}\n')
    assert main(["export", "-m", "vault-search", "-p", "limit=5", "--out", str(tmp_path)]) == 0
    assert args.read_text() == ('{\n    "name": "search_vault",\n    "arguments": {\n        '
                                '"query": "tea",\n        "limit": 5\n    }\n}\n')
    err = " ".join(capsys.readouterr().err.split())
    assert "note: search_vault.args.json: wrote arguments.limit 20 → 5 (set here)" in err
    assert "lacked" not in err


def test_a_tool_call_without_an_arguments_object_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tool call whose arguments are not an object is one error naming the file, the line
    and the field, and nothing is written."""
    from workbench.cli import main

    args = tmp_path / "search_vault.args.json"
    text = '{\n  "name": "search_vault",\n  "arguments": "tea"\n}\n'
    args.write_text(text)
    assert main(["export", "-m", "vault-search", "-p", "limit=5", "--out", str(tmp_path)]) != 0
    err = " ".join(capsys.readouterr().err.split())
    assert (f"{args}:3: field 'arguments': cannot update it, expected a JSON object (a tool "
            "call's search_vault arguments), found a string: fix it, or give the arguments "
            "object itself") in err
    assert "Traceback" not in err
    assert args.read_text() == text
    assert not (tmp_path / "vault-search.changes.json").exists()
