"""The two files that set a session up, read and checked whole before anything changes:

- a saved session (`session.json`, written by `TuningSession.save`): dataset (and the query
  and judgment files opened with it, when they were given apart from it, and the split read;
  files without one read the test split), model, parameters
  (and the queries they were tuned on, when they were), the named configurations and which
  one is the baseline, query, k, the tuning study's storage (version 1 files, with one
  unnamed baseline, are still read: it becomes the configuration "baseline"), and the
  window's view where it is not the default one (the chart tab shown, the query filter);
- a sample folder's `workbench.toml`: the model that suits it, parameter overrides, an example
  query, the file to open.

Each reader returns a plain record or raises one `FormatError` naming the file and the field,
so a caller can apply the file in full or leave everything as it was.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.core import toml_text
from workbench.core.configurations import check_name
from workbench.core.data import DEFAULT_SPLIT, FormatError
from workbench.core.formats._common import _json_type, json_error, read_text
from workbench.core.models import get_model
from workbench.core.params import ParamError, Params
from workbench.core.tuned_on import TunedOn, tuned_from_json, tuned_json

if TYPE_CHECKING:
    from workbench.core.session import TuningSession

# a saved configuration: name, model, the values given, what it was tuned on (if tuned), the
# name of the dataset it was made on ("" where the file does not say)
Saved = tuple[str, str, Params, TunedOn | None, str]

SESSION_VERSION = 2
READ_VERSIONS = (1, 2)
K_RANGE = (1, 1000)  # the window's k box offers the same
# every key a session file has held, version 1 on (each version wrote a subset of these)
SESSION_KEYS = ("version", "dataset", "queries", "qrels", "split", "model", "params",
                "tuned_on", "configurations", "baseline", "query", "typed", "k",
                "study_storage", "relative", "held", "view")
# what the window showed ("view"): the chart tab by its panel's name, the query list's filter.
# Other keys in it are a later version's view and are ignored: a view changes no result
VIEW_KEYS = ("chart", "filter")
SAMPLE_KEYS = ("model", "params", "example_query", "data")


@dataclass(frozen=True)
class SessionPlan:
    """A session file, checked: every value valid for the model it belongs to."""

    dataset: str
    model: str
    params: Params
    configurations: tuple[Saved, ...]
    baseline: str | None  # the name of the configuration pinned as baseline
    query: str | None
    k: int
    study_storage: str = ""  # the Tune panel's study file or URL ("" = the default)
    queries: str | None = None  # a query (or task) file opened with the dataset
    qrels: str | None = None  # a judgments file opened with the dataset
    tuned_on: TunedOn | None = None  # the queries the live values were tuned on
    split: str = DEFAULT_SPLIT  # the BEIR / OpenVault split the dataset was read at
    # queries typed into the dataset (id, text, context): added again after it is read
    typed: tuple[tuple[str, str, dict[str, Any]], ...] = ()
    # prepare-stage edits held in the window's Prepare box, not applied when it was saved:
    # held there again (a typed word list had been lost on Save session)
    held: Params = field(default_factory=dict)
    # where the file says the dataset was, when the user located it elsewhere (`dataset_at`)
    located_from: str | None = None
    # the window's view ("view"): the chart tab shown (a panel's name, "" = the tab the
    # window shows by itself) and the query list's filter text
    chart: str = ""
    query_filter: str = ""


class DatasetMissing(FormatError):
    """The session's dataset is not where the file says (nor beside it): the window offers to
    locate it (`read_session_file(dataset=…)`)."""


def read_session_file(path: str | Path, dataset_at: str | None = None) -> SessionPlan:
    """The session file checked whole. `dataset_at`: where its dataset is now, in place of
    the path the file records (a folder moved where the file could not follow). An error of
    a field of the file names the line that field is on (`key_line`), or where it is missing,
    the line of the object that lacks it."""
    p = Path(path)
    try:
        return _read_session_file(p, dataset_at)
    except FormatError as err:
        if err.line is not None or not err.field or err.path != str(p):
            raise
        # a key that is missing: the line of the object that lacks it
        parts = err.field.split(".")
        line = next((n for i in range(len(parts), 0, -1)
                     if (n := key_line(p, ".".join(parts[:i]))) is not None), None)
        if line is None:
            raise
        raise type(err)(p, err.message, line=line, field=err.field) from None


def _read_session_file(p: Path, dataset_at: str | None) -> SessionPlan:
    text = read_text(p)  # a folder, bytes not UTF-8: said as every reader says them
    if not text.strip():
        raise FormatError(p, "an empty file, not a session file")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # RecursionError: thousands of brackets
        raise json_error(p, exc) from None
    if not isinstance(data, dict):  # a list read as "expected a session file of version …"
        raise FormatError(p, f"expected a JSON object (a session file: version, dataset, "
                          f"model …), found {_json_type(data)}",
                          line=text.count("\n", 0, len(text) - len(text.lstrip())) + 1,
                          field="json")
    version = data.get("version")
    if version not in READ_VERSIONS:
        newer = (isinstance(version, int) and not isinstance(version, bool)
                 and version > max(READ_VERSIONS))
        raise FormatError(p, f"a session file of version {version}, written by a newer "
                          "Scoring Workbench: this one reads versions "
                          f"{' and '.join(map(str, READ_VERSIONS))}; update it to open the file"
                          if newer else "expected a session file of version "
                          f"{' or '.join(map(str, READ_VERSIONS))}", field="version")
    unknown = [k for k in data if k not in SESSION_KEYS]
    if unknown:  # a misspelled "baseline" or "k" fell back to none or 10 without a word
        raise FormatError(p, f"unknown key(s) {', '.join(map(repr, unknown))}; valid: "
                          f"{', '.join(SESSION_KEYS)}", field=unknown[0])
    dataset, model = data.get("dataset"), data.get("model")
    if not isinstance(dataset, str) or not dataset:
        raise FormatError(p, "expected the dataset's path (text)", field="dataset")
    if not isinstance(model, str) or not model:
        raise FormatError(p, "expected a model id (text)", field="model")
    params = _model_params(p, "model", model, data.get("params"), "params")
    held = _model_params(p, "model", model, data.get("held"), "held")
    live = [n for n in held if get_model(model).schema[n].stage != "prepare"]
    if live:
        raise FormatError(p, f"{live[0]} is a live parameter: only prepare-stage edits are "
                          "held (a live value goes in params)", field=f"held.{live[0]}")
    if data["version"] == 1:
        configurations, baseline = _baseline_v1(p, data.get("baseline"))
    else:
        configurations = _configurations(p, data.get("configurations", []))
        baseline = data.get("baseline")
        if isinstance(baseline, str):  # named as its configuration is (`check_name`)
            baseline = " ".join(baseline.split())
        if baseline is not None and (not isinstance(baseline, str) or
                                     baseline not in [c[0] for c in configurations]):
            raise FormatError(p, f"expected null or the name of a configuration, got "
                              f"{baseline!r}", field="baseline")
    query = data.get("query")
    if query is not None and not isinstance(query, str):
        raise FormatError(p, f"expected a query id (text) or null, got {query!r}",
                          field="query")
    k = data.get("k", 10)
    if isinstance(k, bool) or not isinstance(k, int) or not K_RANGE[0] <= k <= K_RANGE[1]:
        raise FormatError(p, f"expected a whole number in [{K_RANGE[0]}, {K_RANGE[1]}], "
                          f"got {k!r}", field="k")
    storage = data.get("study_storage", "")
    if not isinstance(storage, str):
        raise FormatError(p, f"expected a file or URL (text), got {storage!r}",
                          field="study_storage")
    files = []
    for key in ("queries", "qrels"):
        value = data.get(key)
        if value is not None and (not isinstance(value, str) or not value):
            raise FormatError(p, f"expected null or a file's path (text), got {value!r}",
                              field=key)
        files.append(value)
    split = data.get("split", DEFAULT_SPLIT)
    if not isinstance(split, str) or not split.strip():
        raise FormatError(p, f"expected a split's name (text, e.g. test), got {split!r}",
                          field="split")
    tuned = None
    if data.get("tuned_on") is not None:
        try:
            tuned = tuned_from_json(data["tuned_on"])
        except (TypeError, ValueError) as exc:
            raise FormatError(p, str(exc), field="tuned_on") from None
    relative = _relative(p, data.get("relative", {}))
    recorded = dataset
    if dataset_at is not None:  # located by the user: the rest as the file has it
        dataset = dataset_at
        relative = {k: v for k, v in relative.items() if k != "dataset"}
    if relative:  # written with the paths beside it: the folder moved, read from where it is
        dataset, files, storage = _moved(p, relative, dataset, files, storage)
    # relative paths (written by hand, or the file moved with its data) are read from the
    # session file's folder where the dataset is there, every one of them; else as written,
    # from the current folder (a session saved with a relative path, as it was opened)
    elif not Path(dataset).is_absolute() and (p.parent / dataset).exists():
        dataset, files = _beside(p, dataset), [_beside(p, f) if f else f for f in files]
        if storage and "://" not in storage:
            storage = _beside(p, storage)
    for key, value in (("dataset", dataset), ("queries", files[0]), ("qrels", files[1])):
        if value is not None and not os.path.exists(value):
            kind = DatasetMissing if key == "dataset" else FormatError
            raise kind(p, _missing(p, key, value, relative.get(key)), field=key)
    chart, query_filter = _view(p, data.get("view", {}))
    return SessionPlan(dataset, model, params, configurations, baseline, query, k, storage,
                       files[0], files[1], tuned, split, _typed(p, data.get("typed", [])),
                       held, recorded if dataset_at is not None else None, chart,
                       query_filter)


def _view(p: Path, raw: object) -> tuple[str, str]:
    """The "view" object: (the chart tab's panel name, the filter text), "" where absent."""
    if not isinstance(raw, dict):
        raise FormatError(p, f"expected an object of {', '.join(VIEW_KEYS)}, got {raw!r}",
                          field="view", line=key_line(p, "view"))
    out = []
    for key in VIEW_KEYS:
        value = raw.get(key, "")
        if not isinstance(value, str):
            raise FormatError(p, f"expected text, got {value!r}", field=f"view.{key}",
                              line=key_line(p, f"view.{key}"))
        out.append(value)
    return out[0], out[1]


# the paths a session file also keeps relative to its own folder, where they lie beneath it
RELATIVE_KEYS = ("dataset", "queries", "qrels", "study_storage")


def _relative(p: Path, raw: object) -> dict[str, str]:
    """The "relative" object: each path beneath the session file's folder, as `session_dict`
    writes it ("/"-separated, never absolute, never leading out with "..")."""
    if not isinstance(raw, dict):
        raise FormatError(p, f"expected an object of path keys ({', '.join(RELATIVE_KEYS)}), "
                          f"got {raw!r}", field="relative")
    for key, value in raw.items():
        if key not in RELATIVE_KEYS:
            raise FormatError(p, f"unknown key; valid: {', '.join(RELATIVE_KEYS)}",
                              field=f"relative.{key}")
        if (not isinstance(value, str) or not value or Path(value).is_absolute()
                or ".." in Path(value).parts):
            raise FormatError(p, f"expected a path beneath this file's folder (text), got "
                              f"{value!r}", field=f"relative.{key}")
    return dict(raw)


def _moved(p: Path, relative: Mapping[str, str], dataset: str, files: list[str | None],
           storage: str) -> tuple[str, list[str | None], str]:
    """The dataset, its query and judgment files and the study storage read from beside the
    session file where they are there (the folder was moved or copied with its data, and in a
    copy the copy's data is the one meant); each elsewhere as written."""
    def pick(key: str, written: str) -> str:
        if key not in relative:
            return written
        here = str(p.parent / relative[key])
        # a study's storage is made on the first trial: beside wins unless only the other is
        there = os.path.exists(here) or (key == "study_storage"
                                         and not os.path.exists(os.path.expanduser(written)))
        return here if there else written

    return (pick("dataset", dataset),
            [pick(k, f) if f else f for k, f in zip(("queries", "qrels"), files, strict=True)],
            pick("study_storage", storage) if storage and "://" not in storage else storage)


def _missing(p: Path, key: str, path: str, relative: str | None) -> str:
    """A dataset (or its query or judgment file) that is not where the session file says:
    every place looked, and what to do."""
    tried = f"{path}: no such file or folder"
    if relative is not None and str(p.parent / relative) != path:
        tried = f"{p.parent / relative}: no such file or folder (nor {path})"
    what = "the dataset" if key == "dataset" else f"the {key} file"
    return (f"{tried} — {what} was moved or deleted since the session was saved; put it back, "
            f"or write where it is now in the field '{key}' (a path relative to this file's "
            "folder is read from there)")


def _beside(session: Path, path: str) -> str:
    """`path` read from the session file's folder (an absolute one as it is)."""
    # ~/x.db is the home folder's (storage_url expands it), not a folder named ~ beside it
    return path if path.startswith("~") or Path(path).is_absolute() \
        else str(session.parent / path)


def _typed(p: Path, raw: object) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    if not isinstance(raw, list):
        raise FormatError(p, "expected a list of {\"id\", \"text\", \"context\"}",
                          field="typed")
    out = []
    for i, item in enumerate(raw):
        where = f"typed[{i}]"
        if not isinstance(item, dict):
            raise FormatError(p, "expected {\"id\": TEXT, \"text\": TEXT, \"context\": "
                              "{…}}", field=where)
        qid, text, context = item.get("id"), item.get("text"), item.get("context", {})
        if not isinstance(qid, str) or not qid.strip():
            raise FormatError(p, f"expected a query id (text), got {qid!r}", field=f"{where}.id")
        if not isinstance(text, str) or not text.strip():
            raise FormatError(p, f"expected the query's text, got {text!r}",
                              field=f"{where}.text")
        if not isinstance(context, dict):
            raise FormatError(p, f"expected an object, got {context!r}",
                              field=f"{where}.context")
        out.append((qid, text, context))
    return tuple(out)


def _json_context(context: Mapping[str, Any]) -> dict[str, Any]:
    """A typed query's context as JSON keeps it: the values JSON can hold."""
    out = {}
    for key, value in context.items():
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue
        out[key] = value
    return out


def _baseline_v1(p: Path, raw: object) -> tuple[tuple[Saved, ...], str | None]:
    """Version 1's one unnamed baseline as the configuration named "baseline"."""
    if raw is None:
        return (), None
    if not isinstance(raw, dict) or not isinstance(raw.get("model"), str):
        raise FormatError(p, "expected null or {\"model\": ID, \"params\": {…}}",
                          field="baseline")
    params = _model_params(p, "baseline.model", raw["model"], raw.get("params"),
                           "baseline.params")
    return (("baseline", raw["model"], params, None, ""),), "baseline"


def _configurations(p: Path, raw: object) -> tuple[Saved, ...]:
    if not isinstance(raw, list):
        raise FormatError(p, "expected a list of {\"name\", \"model\", \"params\"}",
                          field="configurations")
    out: list[Saved] = []
    for i, item in enumerate(raw):
        where = f"configurations[{i}]"
        if not isinstance(item, dict):
            raise FormatError(p, "expected {\"name\": TEXT, \"model\": ID, \"params\": "
                              "{…}}", field=where)
        name, model = item.get("name"), item.get("model")
        if not isinstance(name, str) or not name.strip():
            raise FormatError(p, f"expected a name (text), got {name!r}", field=f"{where}.name")
        try:  # as Save current as… takes a name: spaces collapsed, its length checked
            name = check_name(name)
        except ValueError as exc:
            raise FormatError(p, str(exc), field=f"{where}.name") from None
        if name in [c[0] for c in out]:
            as_given = item["name"]
            raise FormatError(p, f"a second configuration named {name!r}" + (
                f" ({as_given!r} with its spaces collapsed, as the window names it)"
                if as_given != name else ""), field=f"{where}.name")
        if not isinstance(model, str) or not model:
            raise FormatError(p, f"expected a model id (text), got {model!r}",
                              field=f"{where}.model")
        params = _model_params(p, f"{where}.model", model, item.get("params"),
                               f"{where}.params")
        tuned = None
        if item.get("tuned_on") is not None:
            try:
                tuned = tuned_from_json(item["tuned_on"])
            except ValueError as exc:
                raise FormatError(p, str(exc), field=f"{where}.tuned_on") from None
        made_on = item.get("dataset")
        out.append((name, model, params, tuned, made_on if isinstance(made_on, str) else ""))
    return tuple(out)


def saved_session(path: Path) -> dict[str, Any] | None:
    """The JSON object of `path` where it is a session the window saved (`version`, `dataset`
    and `model`, as the window's drop tells one), else None: for the error that says so where
    a session is given as data or as parameters (it was read as OpenVault memories, or "a
    JSON file"). Parsed only when its first 4 KB, beginning "{", name "version": a session
    is small, and a large memories file is not read twice."""
    try:
        with path.open("rb") as f:
            head = f.read(4096).decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
        if not head.startswith("{") or '"version"' not in head:
            return None
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    if isinstance(data, dict) and {"version", "dataset", "model"} <= data.keys():
        return data
    return None


def saved_session_text(data: Mapping[str, Any]) -> str:
    """"a session saved by the window (dataset D, model M, values k1=1.5)", for a session
    file's object (`saved_session`)."""
    from workbench.core.params import value_text

    params = data.get("params")
    values = (", values " + " ".join(f"{k}={value_text(v)}" for k, v in params.items())
              if isinstance(params, dict) and params else "")
    return (f"a session saved by the window (dataset {data.get('dataset')}, model "
            f"{data.get('model')}{values})")


def read_sample_settings(folder: Path,
                         skipped: list[FormatError] | None = None) -> dict[str, Any]:
    """A folder's `workbench.toml`, checked ({} when there is none).

    The name is not ours alone (a project folder may keep its own workbench.toml), so a file
    is read as ours only as far as it is: one with none of our keys (`SAMPLE_KEYS`) is
    ignored; one with some of ours beside keys we do not know has those keys ignored, and the
    whole file ignored where a value of ours is one we cannot use, each said in `skipped`
    (a warning, the dataset opened all the same). A file of our keys alone is ours: a bad
    value there is the `FormatError` naming its field. One that is not TOML is an error: it
    cannot tell whose it is."""
    path = folder / "workbench.toml"
    if not path.exists():
        return {}
    data = _read_toml(path)
    ours = {k: v for k, v in data.items() if k in SAMPLE_KEYS}
    if not ours:  # another tool's workbench.toml
        return {}
    unknown = [k for k in data if k not in SAMPLE_KEYS]
    try:
        _check_sample_settings(path, ours)
    except FormatError as err:
        if not unknown:
            raise
        if skipped is not None:
            skipped.append(SettingsIgnored(path, f"{err.message}; ignored, with the whole "
                                           f"file (keys {_listed(unknown)} are not ours: "
                                           "another tool's file?)", field=err.field))
        return {}
    if unknown and skipped is not None:
        skipped.append(SettingsIgnored(path, f"unknown key(s) {_listed(unknown)} ignored "
                                       f"(ours: {', '.join(SAMPLE_KEYS)})", field=unknown[0]))
    return ours


class SettingsIgnored(FormatError):
    """What of a folder's workbench.toml was not read (keys not ours, or the whole file where
    they sit beside a value of ours it cannot use): said apart from malformed data lines."""


def _listed(keys: Sequence[str]) -> str:
    return ", ".join(map(repr, keys))


def _check_sample_settings(path: Path, data: Mapping[str, Any]) -> None:
    for key in ("model", "example_query", "data"):
        if key in data and (not isinstance(data[key], str) or not data[key]):
            raise FormatError(path, f"expected text, got {data[key]!r}", field=key,
                              line=key_line(path, key))
    if "params" in data and "model" not in data:
        raise FormatError(path, "parameters need the model they belong to", field="params",
                          line=key_line(path, "params"))
    if "model" in data:
        _model_params(path, "model", data["model"], data.get("params"), "params")


def _read_toml(path: Path) -> dict[str, Any]:
    """The TOML file's table; an error naming the line where it does not parse."""
    text = read_text(path)
    try:
        return toml_text.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # "Invalid value (at line 2, column 5)" → file:2 first, as every other error is
        message = str(exc)
        at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if at is not None:
            raise FormatError(path, f"not valid TOML: {message[:at.start()]} (column {at[2]})",
                              line=int(at[1]), field="toml") from None
        if message.endswith("(at end of document)"):  # a file cut off
            raise FormatError(path, f"not valid TOML: "
                              f"{message.removesuffix(' (at end of document)')} (the file "
                              "ends there: cut off?)", line=max(1, len(text.splitlines())),
                              field="toml") from None
        raise FormatError(path, f"not valid TOML: {message}", field="toml") from None


def _model_params(path: Path, model_field: str, model_id: str, raw: object,
                  params_field: str) -> Params:
    """`raw` (a JSON object / TOML table of name → value) validated against the model; only
    the values given are returned."""
    try:
        model = get_model(model_id)
    except KeyError as exc:
        raise FormatError(path, str(exc.args[0]), field=model_field,
                          line=key_line(path, model_field)) from None
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise FormatError(path, f"expected a table of name = value, got {raw!r}",
                          field=params_field, line=key_line(path, params_field))
    given: dict[str, object] = {}  # under the parameters' own names (dr8 1: "K1" refused)
    for typed, value in raw.items():  # JSON and TOML have numbers and true/false: text for
        # one is a hand-edit's mistake (the -p NAME=VALUE of the command line reads text)
        field = f"{params_field}.{typed}"  # each value named at its own depth, with its line
        try:
            name = model.schema.name_of(typed)  # in any case, as -p and [params] read it
        except ParamError as exc:
            raise FormatError(path, str(exc), field=field, line=key_line(path, field)) from None
        if name in given:
            raise FormatError(path, f"names {name} again, given above: keep one", field=field,
                              line=key_line(path, field))
        given[name] = value
        kind = model.schema[name].kind
        if isinstance(value, str) and kind in ("float", "int", "bool"):
            raise FormatError(path, f"expected {'true or false' if kind == 'bool' else 'a number'}"
                              f", found the text {value!r} (write it without quotes)",
                              field=field, line=key_line(path, field))
        try:
            model.schema[name].validate(value)
        except ParamError as exc:  # "must be a number in [0, 3], got 99", the name once
            raise FormatError(path, str(exc).removeprefix(f"parameter {name} "), field=field,
                              line=key_line(path, field)) from None
    raw = given
    try:
        resolved = model.schema.resolve(raw)
    except ParamError as exc:
        raise FormatError(path, str(exc), field=params_field) from None
    if "embedding_model" in raw:  # an encoder not installed here: said before anything changes
        from workbench.core.embeddings import EmbeddingError, get_encoder

        try:
            get_encoder(str(resolved["embedding_model"]))
        except EmbeddingError as exc:
            raise FormatError(path, str(exc), field=f"{params_field}.embedding_model") from None
    return {name: resolved[name] for name in raw}


def key_line(path: Path, field: str) -> int | None:
    """The line of `field` ("params.k1", "configurations[2].params.b") in the JSON or TOML
    file `path`, found by its keys in turn (a list's item by counting its items), or None."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return None
    toml = path.suffix == ".toml"
    at, pos = 0, None
    for part in field.split("."):
        item = re.fullmatch(r"(.+)\[(\d+)\]", part)
        key = item.group(1) if item else part
        # [ \t]*, not \s*: a blank line above had been taken into the match, its line given
        pattern = (rf'^[ \t]*(\[[ \t]*)?"?{re.escape(key)}"?[ \t]*(\]|=)' if toml
                   else rf'"{re.escape(key)}"\s*:')
        found = re.compile(pattern, re.M).search(text, at)
        if found is None:
            return None
        at, pos = found.end(), found.start()
        if item is not None:
            start = _list_item(text, at, int(item.group(2)))
            if start is None:
                return None
            at = pos = start  # the item's own line ("configurations[0]": its "{")
    return None if pos is None else text.count("\n", 0, pos) + 1


def _list_item(text: str, at: int, index: int) -> int | None:
    """Where item `index` of the JSON list that opens after `at` starts."""
    depth, n, quoted, escaped = 0, -1, False, False
    for i in range(at, len(text)):
        c = text[i]
        if quoted:
            quoted, escaped = (not (c == '"' and not escaped)), (c == "\\" and not escaped)
            continue
        if c == '"':
            quoted = True
        if c in "[{":
            depth += 1
            if depth == 2:
                n += 1
                if n == index:
                    return i
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return None
    return None


def write_session_file(s: TuningSession, path: str | Path,
                       held: Mapping[str, Any] | None = None,
                       view: Mapping[str, str] | None = None) -> None:
    """`s` saved to `path` (a temporary file renamed over it): `session_dict` with the paths
    beneath the file's folder also kept relative to it. `held`: prepare-stage edits the
    window holds unapplied (`SessionPlan.held`); `view`: what the window shows (`VIEW_KEYS`)."""
    from workbench.core.store import atomic_write_text

    atomic_write_text(Path(path),
                      json.dumps(session_dict(s, Path(path), held, view), indent=2) + "\n")


def _relative_paths(s: TuningSession, session: Path) -> dict[str, str]:
    """Each path of `s` that lies beneath the folder of the session file `session`, relative
    to it: a project folder moved, copied or checked out elsewhere opens with its own data
    (the absolute paths alone tied the file to the machine and folder it was saved in)."""
    folder = Path(os.path.abspath(session)).parent
    out = {}
    for key, value in (("dataset", s.source), ("queries", s.queries_file),
                       ("qrels", s.qrels_file), ("study_storage", s.study_storage)):
        if not value or "://" in value or value.startswith("~"):
            continue
        try:
            out[key] = Path(os.path.abspath(value)).relative_to(folder).as_posix()
        except ValueError:  # elsewhere: kept absolute only
            continue
    return out


def session_dict(s: TuningSession, path: Path | None = None,
                 held: Mapping[str, Any] | None = None,
                 view: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What `TuningSession.save` writes; saved to `path`, the paths beneath its folder also
    relative to it ("relative", read first when they are there; versions before it ignore
    the key and read the absolute ones); `held` edits under "held" where there are some (a
    file without them opens in versions that do not know the key); `view` under "view"
    likewise, its empty values left out (the window leaves out a tab it shows by itself)."""
    relative = {} if path is None else _relative_paths(s, path)
    kept_view = {k: v for k, v in (view or {}).items() if k in VIEW_KEYS and v}
    return {
        "version": SESSION_VERSION,
        "dataset": s.source,
        "queries": s.queries_file,
        "qrels": s.qrels_file,
        "split": s.split,
        "model": s.model.id if s.model else None,
        "params": s.model.schema.changed(s.params) if s.model else {},
        "tuned_on": None if s.tuned_on is None else tuned_json(s.tuned_on),
        "configurations": s.configurations.to_json(),
        "baseline": None if s.baseline is None else s.baseline.name,
        "query": s.dataset.queries[s.query].id if s.dataset and len(s.dataset.queries)
        else None,
        "typed": [{"id": q.id, "text": q.text, "context": _json_context(q.context)}
                  for q in s.typed],
        "k": s.k,
        "study_storage": s.study_storage,
    } | ({"relative": relative} if relative else {}) | ({"held": dict(held)} if held else {}) \
        | ({"view": kept_view} if kept_view else {})


def load_session(s: TuningSession, path: str | Path) -> None:
    """`TuningSession.load`: the file checked whole and the baseline computed aside first, so
    a bad field or a failing dataset changes nothing."""
    apply_session(s, read_session(path))


@dataclass
class LoadedSession:
    """A session file read, its dataset loaded and its baseline computed (`read_session`):
    everything but the changes to a session (`apply_session`)."""

    plan: SessionPlan
    dataset: Any
    saved: list[Any]
    baseline: Any


def read_session(path: str | Path, dataset_at: str | None = None) -> LoadedSession:
    """The slow part of loading a session, which changes nothing (the window runs it off its
    thread): the file checked whole, its dataset read, its baseline computed aside.
    `dataset_at`: where its dataset is now, where the recorded path is gone."""
    from workbench.core.configurations import SavedConfiguration
    from workbench.core.formats import load_dataset
    from workbench.core.session import Baseline, TuningSession

    plan = read_session_file(path, dataset_at)  # every field checked first
    try:
        dataset = load_dataset(plan.dataset, queries=plan.queries, qrels=plan.qrels,
                               split=plan.split)
    except FormatError as err:  # the session names what is wrong: said from it
        field = err.field if err.field in ("split", "queries", "qrels") else "dataset"
        said = str(err)
        if Path(err.path) == Path(plan.dataset) and err.line is None:  # path and field once
            said = err.message if err.field in (None, field) else \
                f"field '{err.field}': {err.message}"
        raise FormatError(Path(path), f"{plan.dataset} does not load: {said}",
                          field=field) from None
    dataset = _with_typed(dataset, plan.typed)
    # located under another name ("tea" found as "moved_tea"): the session's configurations
    # made on its dataset are the located one's (they were filed as another dataset's); the
    # dataset's name as the readers give it, a folder's name or a file's stem
    was = ({Path(plan.located_from).name, Path(plan.located_from).stem}
           if plan.located_from else set())
    saved = [SavedConfiguration(name, model_id, get_model(model_id).schema.resolve(values),
                                tuned, dataset.name if made_on in was else made_on)
             for name, model_id, values, tuned, made_on in plan.configurations]
    baseline = None
    if plan.baseline is not None:  # computed aside, so a failure here changes nothing
        chosen = next(c for c in saved if c.name == plan.baseline)
        aside = TuningSession(k=plan.k)
        aside.set_dataset(dataset, plan.dataset, queries=plan.queries, qrels=plan.qrels,
                          split=plan.split)
        aside.set_model(chosen.model_id, chosen.params)
        aside.recompute()
        assert aside.result is not None
        baseline = Baseline(chosen.model_id, dict(aside.params), aside.result, chosen.name)
    return LoadedSession(plan, dataset, saved, baseline)


def apply_session(s: TuningSession, loaded: LoadedSession) -> None:
    """A session read by `read_session` put into `s` (quick: events, no reading)."""
    plan, dataset = loaded.plan, loaded.dataset
    s.study_storage = plan.study_storage  # before the events: panels read it then
    s.set_dataset(dataset, plan.dataset, queries=plan.queries, qrels=plan.qrels,
                  split=plan.split, typed=_typed_ids(dataset, plan.typed))
    s.set_k(plan.k)
    s.set_model(plan.model, plan.params)
    s.tuned_on = plan.tuned_on
    s.configurations.replace_all(loaded.saved)
    if loaded.baseline is not None:
        s.baseline = loaded.baseline
        s.baseline_changed.emit(loaded.baseline)
    s.select_query(dataset.queries.index.get(plan.query or "", 0))


def _with_typed(dataset: Any, typed: Sequence[tuple[str, str, dict[str, Any]]]) -> Any:
    """`dataset` with the session's typed queries after its own; one whose id the data has
    taken since is kept under a new one (typed-N, as the window numbers them)."""
    if not typed:
        return dataset
    from workbench.core.data import Query, QuerySet

    taken = set(dataset.queries.ids)
    added = []
    for qid, text, context in typed:
        new = qid
        n = 1
        while new in taken:
            new, n = f"typed-{n}", n + 1
        taken.add(new)
        added.append(Query(new, text, dict(context)))
    return replace(dataset, queries=QuerySet([*dataset.queries, *added],
                                             name=dataset.queries.name))


def _typed_ids(dataset: Any, typed: Sequence[tuple[str, str, dict[str, Any]]]) -> list[str]:
    """The ids the typed queries got in `dataset` (`_with_typed`): its last ones."""
    ids = dataset.queries.ids
    return list(ids[len(ids) - len(typed):]) if typed else []
