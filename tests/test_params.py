"""The parameter schema: validation messages, coercion, CLI assignments and TOML files."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.models import get_model, model_ids
from workbench.core.params import (
    Param,
    ParamError,
    ParamSchema,
    load_params_file,
    parse_assignments,
)

SCHEMA = ParamSchema([
    Param("alpha", "Alpha", 0.7, low=0.0, high=1.0, step=0.05, help="blend"),
    Param("limit", "Limit", 3, kind="int", low=1, high=50, step=1),
    Param("mode", "Mode", "injection", kind="choice", choices=("injection", "search")),
    Param("stem", "Stem", True, kind="bool", stage="prepare"),
    Param("prompt", "Prompt", "query: ", kind="text", stage="prepare"),
])


def test_defaults_and_stages() -> None:
    assert SCHEMA.defaults() == {"alpha": 0.7, "limit": 3, "mode": "injection", "stem": True,
                                 "prompt": "query: "}
    assert [p.name for p in SCHEMA.stage("prepare")] == ["stem", "prompt"]
    assert SCHEMA.prepare_values(SCHEMA.defaults()) == {"stem": True, "prompt": "query: "}


def test_values_are_coerced_from_cli_strings() -> None:
    values = SCHEMA.resolve({"alpha": "0.25", "limit": "7", "stem": "off", "mode": "search"})
    assert values["alpha"] == 0.25 and values["limit"] == 7
    assert values["stem"] is False and values["mode"] == "search"
    assert SCHEMA.changed(values) == {"alpha": 0.25, "limit": 7, "mode": "search",
                                      "stem": False}


@pytest.mark.parametrize(("name", "value", "needle"), [
    ("alpha", 1.5, "parameter alpha must be a number in [0, 1], got 1.5"),
    ("alpha", "abc", "parameter alpha must be a number in [0, 1], got 'abc'"),
    ("alpha", float("nan"), "parameter alpha must be a number in [0, 1]"),
    # a boolean said as TOML writes it (ra 10)
    ("alpha", True, "parameter alpha must be a number in [0, 1], got true"),
    ("limit", 2.5, "parameter limit must be a whole number, got 2.5"),
    ("limit", 0, "parameter limit must be a whole number in [1, 50], got 0"),
    ("mode", "other", "parameter mode must be one of injection, search, got 'other'"),
    ("stem", "maybe", "parameter stem must be true or false, got 'maybe'"),
])
def test_validation_names_parameter_range_and_value(name: str, value: object,
                                                    needle: str) -> None:
    with pytest.raises(ParamError) as err:
        SCHEMA.resolve({name: value})
    assert needle in str(err.value)


def test_unknown_parameter_lists_valid_ones() -> None:
    with pytest.raises(ParamError, match="unknown parameter 'beta'; valid: alpha, limit"):
        SCHEMA.resolve({"beta": 1})


def test_declaration_errors() -> None:
    with pytest.raises(ValueError, match="numeric parameters need low and high"):
        Param("x", "X", 1.0)
    with pytest.raises(ParamError):  # a default outside its own range
        Param("x", "X", 2.0, low=0, high=1)
    with pytest.raises(ValueError, match="duplicate parameter"):
        ParamSchema([SCHEMA["alpha"], SCHEMA["alpha"]])


def test_parse_assignments() -> None:
    # values as typed: a text parameter's spaces are its own; numbers read the same
    assert parse_assignments(["k1=1.5", " b = 0.3 "]) == {"k1": "1.5", "b": " 0.3 "}
    assert parse_assignments(["query_prompt=query: "]) == {"query_prompt": "query: "}
    with pytest.raises(ParamError, match="--param expects name=value, got 'k1'"):
        parse_assignments(["k1"])


def test_params_file(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text('alpha = 0.4\nmode = "search"\n')
    assert SCHEMA.resolve(load_params_file(f))["alpha"] == 0.4
    g = tmp_path / "q.toml"
    g.write_text("[params]\nlimit = 9\n")
    assert SCHEMA.resolve(load_params_file(g))["limit"] == 9
    bad = tmp_path / "bad.toml"
    bad.write_text("alpha = = 1\n")
    with pytest.raises(ParamError, match=r"bad\.toml:1: not valid TOML: Invalid value "
                       r"\(column 9\)$"):
        load_params_file(bad)
    cut = tmp_path / "cut.toml"  # a file cut off mid-line: tomllib gives no line for it
    cut.write_text("k1 = 1.2\nb")
    with pytest.raises(ParamError, match=r"cut\.toml:2: not valid TOML: .*cut off\?\)$"):
        load_params_file(cut)
    # every error names its line: a table where a value belongs, a key outside [params],
    # a byte that is not UTF-8
    for text, says in (("alpha = 1\n[mode]\nx = 1\n", r":2: field 'mode': expected a value"),
                       ("[params]\nalpha = 1\n[other]\n", r":3: unknown key\(s\) 'other'"),
                       ("[params]\n# \udcff\n", r":2: not UTF-8 text \(byte 0xff\)")):
        bad.write_bytes(text.encode("utf-8", "surrogateescape"))
        with pytest.raises(ParamError, match=r"bad\.toml" + says):
            load_params_file(bad)
    with pytest.raises(ParamError, match="no such parameter file"):
        load_params_file(tmp_path / "missing.toml")
    # Notepad's "Unicode" is named as such ("not UTF-8 text (byte 0xff)" had said)
    bad.write_bytes("[params]\nk1 = 1.2\n".encode("utf-16"))
    with pytest.raises(ParamError, match=r"bad\.toml:1: UTF-16 text .*save it as UTF-8"):
        load_params_file(bad)


@pytest.mark.parametrize("model_id", model_ids())
def test_every_model_declares_valid_params_and_signals(model_id: str) -> None:
    model = get_model(model_id)
    assert model.id == model_id
    assert len(model.schema) > 0 and model.signals
    defaults = model.schema.defaults()
    assert model.schema.resolve(defaults) == defaults
    for p in model.schema:
        assert p.label and p.help, f"{model_id}.{p.name} needs a label and help text"
        assert p.stage in ("live", "prepare")
    assert len(set(model.signal_names)) == len(model.signal_names)


def test_a_parameter_that_needs_another_says_why_it_is_idle() -> None:
    vault = get_model("vault-search").schema
    assert vault.idle_because("offset", {"limit": 0}) == "Limit is 0"
    assert vault.idle_because("offset", {"limit": 5}) == ""
    assert vault.idle_because("batch_size", {"limit": 5}) == "Early stop is off"
    assert vault.idle_because("batch_size", {"limit": 0, "early_stop": True}) == "Limit is 0"
    assert vault.idle_because("batch_size", {"limit": 5, "early_stop": True}) == ""
    assert vault.idle_because("w_tf", {}) == ""  # needs nothing
    hybrid = get_model("hybrid").schema  # "!name": acts while that box is unticked
    assert hybrid.idle_because("vector_threshold", {"no_vector_threshold": True}) \
        == "No vector threshold (plain blend) is on"
    assert hybrid.idle_because("vector_threshold", {"no_vector_threshold": False}) == ""
    with pytest.raises(ValueError, match="needs unknown nothing"):
        ParamSchema([Param("a", "A", 1.0, low=0, high=2, needs=("nothing",))])
    # "name=value": acts while a choice has that value
    assert hybrid.idle_because("rrf_k", {}) == "Normalisation is not rrf"
    assert hybrid.idle_because("rrf_k", {"normalization": "rrf"}) == ""
    assert vault.idle_because("tf_multiplier", {}) == "Variant is not documented"
    assert vault.idle_because("tf_scale", {"variant": "documented"}) == "Variant is not shipped"
    with pytest.raises(ValueError, match="needs unknown nope=x"):
        ParamSchema([Param("a", "A", 1.0, low=0, high=2, needs=("nope=x",))])


def test_a_default_search_leaves_idle_parameters_out() -> None:
    """The documented variant's constants change no score under the shipped variant, nor rrf
    k under another normalisation: a default search leaves them out, unless the parameter
    they need is searched too."""
    from workbench.core.tuning.space import idle_names

    vault = get_model("vault-search").schema
    names = ["w_tf", "tf_multiplier", "w_proximity", "tf_scale"]
    assert idle_names(vault, names, vault.defaults()) == {
        "tf_multiplier": "no effect while Variant is not documented",
        "w_proximity": "no effect while Variant is not documented"}
    assert idle_names(vault, [*names, "variant"], vault.defaults()) == {}
    hybrid = get_model("hybrid").schema
    assert set(idle_names(hybrid, ["alpha", "rrf_k"], hybrid.defaults())) == {"rrf_k"}
    assert idle_names(hybrid, ["rrf_k"], {**hybrid.defaults(), "normalization": "rrf"}) == {}


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    """Windows Notepad starts a UTF-8 file with a BOM: 'Invalid statement (column 1)'."""
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbfk1 = 0.9\n")
    assert load_params_file(f) == {"k1": 0.9}


@pytest.mark.parametrize("text", ["", "# workbench tune: model bm25 on tea-beir\n# validation:\n"])
def test_a_parameter_file_with_no_parameters_is_refused(tmp_path: Path, text: str) -> None:
    # a file cut off before [params] loaded as the defaults without a word
    path = tmp_path / "best.toml"
    path.write_text(text)
    with pytest.raises(ParamError, match=r"best.toml: no parameters in it \(an empty file, or one"):
        load_params_file(path)
    path.write_text(text + "[params]\n")  # an empty table is a file that changes nothing
    assert load_params_file(path) == {}


def test_a_typed_value_keeps_a_text_parameters_spaces() -> None:
    """OpenVault's default prompt ends in a space: `-p 'query_prompt=…query: '` lost it,
    counted as a change and embedded every memory differently from the original."""
    from workbench.core.models import get_model

    schema = get_model("hybrid").schema
    default = str(schema["query_prompt"].default)
    assert default.endswith(" ")
    typed = parse_assignments([f"query_prompt={default}", "normalization= min-max ",
                               "alpha= 0.3"])
    values = schema.resolve(typed)
    assert values["query_prompt"] == default and not schema.changed(
        {"query_prompt": values["query_prompt"]})
    assert values["normalization"] == "min-max" and values["alpha"] == 0.3


def test_messages_say_the_values_as_the_file_has_them(tmp_path: Path) -> None:
    """ra 10: a TOML `true` was said as Python's True; a cut-off JSON file as "Unterminated
    string starting at, column 65"."""
    from workbench.core.models import get_model

    schema = get_model("bm25").schema
    params = tmp_path / "p.toml"
    params.write_text("k1 = true\n")
    with pytest.raises(ParamError) as info:
        schema.resolve(load_params_file(params))
    assert str(info.value) == "parameter k1 must be a number in [0, 3], got true"
    cut = tmp_path / "s.json"
    cut.write_text('{"params": {"k1": 1.2, "b": "0.')
    with pytest.raises(ParamError) as info:
        load_params_file(cut)
    assert str(info.value) == (f"{cut}:1: invalid JSON at column 29: Unterminated string "
                               "starting at column 29; a parameter file is TOML, or an export's "
                               "record of changes")


def test_a_misspelt_parameter_names_the_nearest() -> None:
    """rn 12: hybrid's 34 names had been listed with none suggested."""
    from workbench.core.models import get_model

    schema = get_model("hybrid").schema
    with pytest.raises(ParamError, match=r"unknown parameter 'alpah' \(did you mean alpha\?\); "
                       r"valid: alpha, "):
        schema.resolve({"alpah": 1})


def test_parameter_names_are_read_in_any_case() -> None:
    """dr4 7: -p K1=1 and -p B=0.5 had been refused, while -m BM25 and --metrics NDCG@10
    were read."""
    schema = get_model("bm25").schema
    values = schema.resolve({"K1": "1.5", "B": "0.3"})
    assert values["k1"] == 1.5 and values["b"] == 0.3
    assert "K1" not in values and "B" not in values


@pytest.mark.parametrize(("typed", "meant"), [("kl", "k1"), ("K1", "k1"), ("KL", "k1"),
                                              ("B", "b")])
def test_a_lookalike_or_another_case_is_suggested(typed: str, meant: str) -> None:
    """dr4 7: kl (l for 1) had had no suggestion, difflib's ratio 0.5 under its cut-off; a
    name asked for as it is typed (sweep -s K1) is suggested in its own case."""
    schema = get_model("bm25").schema
    with pytest.raises(ParamError) as info:
        schema[typed]
    assert str(info.value).startswith(f"unknown parameter {typed!r} (did you mean {meant}?); "
                                      "valid: k1, b")


def test_parameter_names_in_any_case_in_files_ranges_and_tune_names(tmp_path: Path) -> None:
    """dr7 4: -p K1=1.2 was read while a [params] K1 = 1.2, --range K1=0.5:2 and --tune K1
    were refused as unknown: each reader takes the name in any case, under the schema's own."""
    from workbench.core.params import resolve_file
    from workbench.core.tuning.space import parse_names, parse_ranges

    schema = get_model("bm25").schema
    mine = tmp_path / "mine.toml"
    mine.write_text("[params]\nK1 = 1.2\nB = 0.3\n", encoding="utf-8")
    assert resolve_file(schema, mine) == {"k1": 1.2, "b": 0.3}
    assert parse_ranges(["K1=0.5:2"], schema) == {"k1": (0.5, 2.0)}
    assert parse_names("K1,B", schema) == ["k1", "b"]
    both = tmp_path / "both.toml"
    both.write_text("[params]\nk1 = 1.0\nK1 = 2.0\n", encoding="utf-8")
    with pytest.raises(ParamError) as info:
        resolve_file(schema, both)
    assert str(info.value) == (f"{both}:3: field 'K1': names k1 again, given above: "
                               "keep one")


def test_a_choice_in_another_case_is_read_as_the_choice() -> None:
    """dr7 4: -p variant=ATIRE was refused as not one of lucene, robertson, atire."""
    schema = get_model("bm25").schema
    assert schema.resolve({"variant": "ATIRE"})["variant"] == "atire"
    with pytest.raises(ParamError, match="must be one of"):
        schema.resolve({"variant": "atirex"})
