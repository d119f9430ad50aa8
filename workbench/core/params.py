"""Parameters, declared once as data.

Each model declares a `ParamSchema` of frozen `Param` records. From that one declaration come
validation (messages naming the parameter, the range and the value), the CLI's `--param` and
`--params file.toml`, the GUI editors, the saved session and the exported configs.

`stage="live"` parameters are applied in combine (a slider tick); `stage="prepare"` parameters
change what prepare computes (tokenizer options, embedding model) and so invalidate its cache.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from workbench.core import toml_text

ParamValue = float | int | bool | str
Params = dict[str, ParamValue]
Kind = Literal["float", "int", "bool", "choice", "text"]
Stage = Literal["live", "prepare"]


class ParamError(ValueError):
    """A parameter value or name that the schema rejects; str() is one readable line."""


@dataclass(frozen=True)
class Param:
    name: str
    label: str
    default: ParamValue
    kind: Kind = "float"
    low: float | None = None
    high: float | None = None
    step: float | None = None
    stage: Stage = "live"
    help: str = ""
    choices: tuple[str, ...] = ()
    # False for knobs that page, display or speed up results rather than score them (offset,
    # snippet length, batch size): an optimiser leaves them out unless named
    tunable: bool = True
    # parameters that must be on (a box ticked, a number not 0; "!name": ticked off;
    # "name=value": a choice at that value) for this one to change anything: the window
    # greys it while one is not, and a default search leaves it out
    needs: tuple[str, ...] = ()
    zero: str = ""  # what 0 means, where it is not a number like the others ("all")
    # a text parameter's own rule: what is wrong with a value ("" when nothing is)
    check: Callable[[str], str] | None = field(default=None, compare=False, repr=False)
    # a text parameter's canonical form (a word list's entries trimmed, in lower case, joined
    # by ", "): a value that reads alike is the same value — no change, no new cache entry
    canon: Callable[[str], str] | None = field(default=None, compare=False, repr=False)
    # the slider's right end, where the useful values end well before `high` (an inject
    # min score of 0–1000 whose scores top out near 80: a pixel moved it by 20); a value
    # above it is typed, and the slider then sits at its end. None: `high`
    slider_high: float | None = None
    # True for a parameter that moves only the model's own figures (`objectives.MODEL_FIGURES`:
    # CodeLedger's bundle stop rule and budget), never a score, a ranking or a selection: a
    # search whose objectives and constraints read none of those figures leaves it at its start
    figures_only: bool = False

    @property
    def slider_top(self) -> float:
        """Where the window's slider ends (`slider_high`, else `high`; never past `high`,
        which a search may narrow: a limit capped at the corpus size)."""
        assert self.high is not None
        top = self.slider_high if self.slider_high is not None else self.high
        return float(min(top, self.high))

    @property
    def zero_unlimited(self) -> bool:
        """0 means no limit (vault-search's limit "all", importance's "no limit"): a value
        above every other, not below them (importance's "off" is below)."""
        return self.zero in ("all", "no limit")

    def __post_init__(self) -> None:
        if self.kind in ("float", "int") and (self.low is None or self.high is None):
            raise ValueError(f"parameter {self.name}: numeric parameters need low and high")
        if self.kind == "choice" and self.default not in self.choices:
            raise ValueError(f"parameter {self.name}: default not among choices")
        if self.slider_high is not None and not (
                self.low is not None and self.low < self.slider_high):
            raise ValueError(f"parameter {self.name}: slider_high at or below low")
        # the default must itself be valid
        self.validate(self.default)

    def range_text(self) -> str:
        if self.kind in ("float", "int"):
            return f"[{_fmt(self.low)}, {_fmt(self.high)}]"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "bool":
            return "true or false"
        return "text"

    def validate(self, value: object) -> ParamValue:
        """Return `value` coerced to this parameter's type, or raise ParamError."""
        what = {"float": "a number in ", "int": "a whole number in "}.get(self.kind, "")
        # a TOML true said as the file has it, not as Python's True (ra 10)
        shown = ("true" if value else "false") if isinstance(value, bool) else repr(value)
        bad = f"parameter {self.name} must be {what}{self.range_text()}, got {shown}"
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _BOOL_WORDS:
                return _BOOL_WORDS[value.strip().lower()]
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise ParamError(bad)
        if self.kind == "choice":
            if isinstance(value, str) and value.strip() in self.choices:
                return value.strip()
            # in any case where one choice alone folds to it (ATIRE is atire), as names are
            folded = [c for c in self.choices
                      if isinstance(value, str) and c.casefold() == value.strip().casefold()]
            if len(folded) == 1:
                return folded[0]
            raise ParamError(bad)
        if self.kind == "text":
            if not isinstance(value, str):
                raise ParamError(bad)
            wrong = self.check(value) if self.check is not None else ""
            if wrong:
                raise ParamError(f"parameter {self.name}: {wrong}, got {value!r}")
            if self.canon is not None:
                return self.canon(value)
            return value
        number: float
        if isinstance(value, bool):
            raise ParamError(bad)
        if isinstance(value, int | float):
            try:
                number = float(value)
            except OverflowError:  # an integer of hundreds of digits
                raise ParamError(bad) from None
        elif isinstance(value, str):
            if "_" in value:  # no digit grouping: float("0_1") is 1.0, a typo read as a value
                raise ParamError(bad)
            try:
                number = float(value)
            except ValueError:
                raise ParamError(bad) from None
        else:
            raise ParamError(bad)
        if not math.isfinite(number):
            raise ParamError(bad)
        assert self.low is not None and self.high is not None
        if number < self.low or number > self.high:  # a number, said as one: 9, not '9'
            raise ParamError(bad.removesuffix(shown) + (
                value.strip() if isinstance(value, str) else repr(value)))
        if self.kind == "int":
            if number != int(number):
                raise ParamError(f"parameter {self.name} must be a whole number, got {value!r}")
            return int(number)
        return number


_BOOL_WORDS = {"true": True, "yes": True, "on": True, "1": True,
               "false": False, "no": False, "off": False, "0": False}


def _fmt(x: float | None) -> str:
    if x is None:
        return "?"
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


class ParamSchema:
    """An ordered set of parameters with unique names."""

    def with_slider_tops(self, tops: Mapping[str, float]) -> ParamSchema:
        """The same parameters, each named in `tops` with its slider ending there
        (`Param.slider_high`)."""
        unknown = set(tops) - set(self.by_name)
        if unknown:
            raise ValueError(f"slider tops for unknown parameters {sorted(unknown)}")
        return ParamSchema(replace(p, slider_high=float(tops[p.name])) if p.name in tops
                           else p for p in self.params)

    def __init__(self, params: Iterable[Param]) -> None:
        self.params: tuple[Param, ...] = tuple(params)
        self.by_name: dict[str, Param] = {}
        for p in self.params:
            if p.name in self.by_name:
                raise ValueError(f"duplicate parameter {p.name}")
            self.by_name[p.name] = p
        for p in self.params:
            for need in p.needs:
                if need.removeprefix("!").partition("=")[0] not in self.by_name:
                    raise ValueError(f"parameter {p.name} needs unknown {need}")

    def idle_because(self, name: str, params: Mapping[str, object]) -> str:
        """Why parameter `name` changes nothing at `params` ("" when it may): the first of
        its `needs` that is not met, in words ("Early stop is off", "Limit is 0",
        "Normalisation is not rrf" for a need written `normalization=rrf`)."""
        for need in self.by_name[name].needs:
            off = need.startswith("!")
            key, equals, wanted = need.removeprefix("!").partition("=")
            other = self.by_name[key]
            value = params.get(other.name, other.default)
            if equals:  # a choice that must have one value
                if (str(value) == wanted) == off:
                    return f"{other.label} is {'' if off else 'not '}{wanted}"
                continue
            on = bool(value) if other.kind == "bool" else value not in (0, 0.0, "")
            if on == off:
                state = ("on" if off else "off") if other.kind == "bool" else \
                    ("set" if off else "0")
                return f"{other.label} is {state}"
        return ""

    def __iter__(self) -> Iterator[Param]:
        return iter(self.params)

    def __len__(self) -> int:
        return len(self.params)

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __getitem__(self, name: str) -> Param:
        try:
            return self.by_name[name]
        except KeyError:
            near = self._near(str(name))
            raise ParamError(
                f"unknown parameter {name!r}" + (f" (did you mean {near}?)" if near else "")
                + f"; valid: {', '.join(self.by_name)}"
            ) from None

    def name_of(self, name: str) -> str:
        """The parameter `name` stands for, in any case, as model ids and metric names are
        read (`K1` is k1, `B` is b); ParamError as `schema[name]` where none is."""
        if name in self.by_name:
            return name
        folded = [p for p in self.by_name if p.casefold() == name.strip().casefold()]
        return folded[0] if len(folded) == 1 else self[name].name

    def _near(self, name: str) -> str | None:
        """The parameter a typo most likely meant: the same in another case, or but for a
        lookalike (kl and k1: l for 1, O for 0), else difflib's nearest; None where none is
        close. difflib alone had missed kl (ratio 0.5, under its 0.6) and K1 (dr4 7)."""
        def plain(text: str) -> str:
            return text.strip().casefold().translate(_LOOKALIKE)

        same = [p for p in self.by_name if plain(p) == plain(name)]
        if same:
            return same[0]
        near = difflib.get_close_matches(name.strip().casefold(), self.by_name, n=1)
        return near[0] if near else None

    def defaults(self) -> Params:
        return {p.name: p.default for p in self.params}

    def stage(self, stage: Stage) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.stage == stage)

    def resolve(self, overrides: Mapping[str, object] | None = None) -> Params:
        """Defaults updated by `overrides`, every value validated."""
        values = self.defaults()
        for name, value in (overrides or {}).items():
            param = self[self.name_of(name)]  # -p K1=1 sets k1
            values[param.name] = param.validate(value)
        return values

    def prepare_values(self, values: Mapping[str, ParamValue]) -> Params:
        """The prepare-stage values, each one idle by its `needs` at its default (hybrid's
        embedding model under stored embeddings): what prepare reads, so that changing one
        of those asks for no new preparation and keys no other cache entry."""
        return {p.name: p.default if p.needs and self.idle_because(p.name, values)
                else values[p.name] for p in self.params if p.stage == "prepare"}

    def changed(self, values: Mapping[str, ParamValue]) -> Params:
        """The values that differ from the defaults."""
        return {p.name: values[p.name] for p in self.params
                if p.name in values and values[p.name] != p.default}


# letters typed for the digits they look like, and back: kl for k1, O for 0
_LOOKALIKE = str.maketrans({"l": "1", "i": "1", "o": "0"})

_FLOOR_NAMES = ("min_score", "min_similarity")
_FLOOR_PARTS = ("min_score", "min_similarity", "minscore")


def min_score_param(schema: ParamSchema) -> Param | None:
    """The schema's min score, the floor under which nothing is ranked: `min_score` or
    `min_similarity` when it has one, else the first live numeric parameter whose name
    contains min_score / min_similarity / minScore; None when it has none."""
    for name in _FLOOR_NAMES:
        if name in schema and schema[name].stage == "live":
            return schema[name]
    for p in schema:
        if (p.stage == "live" and p.kind in ("float", "int")
                and any(part in p.name.lower() for part in _FLOOR_PARTS)):
            return p
    return None


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """`["k1=1.2", "b=0.75"]` → `{"k1": "1.2", "b": "0.75"}` (values validated later). A
    value is kept as typed: a text parameter's spaces are part of it (OpenVault's prompt
    `task: sentence similarity | query: ` ends in one, and lost it); `validate` reads numbers,
    choices and switches with spaces around them as without."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ParamError(f"--param expects name=value, got {item!r}")
        out[name.strip()] = value
    return out


def load_params_file(path: str | Path) -> dict[str, object]:
    """Read a TOML parameter file: top-level `name = value` pairs, or a `[params]` table; or
    the record of changes `workbench export --out` writes (`<model>.changes.json`: the
    values it records, `_json_params`). The export's other files are refused with what
    they are and what to give instead."""
    from workbench.core.data import FormatError
    from workbench.core.formats._common import read_bytes

    p = Path(path)
    try:
        # read once: `--params <(…)` is a pipe, empty when read again (ra 1)
        text = read_bytes(p).decode("utf-8-sig")
        if text.lstrip().startswith("{"):  # JSON (no TOML file starts so): an export's
            return _json_params(p, text)
        data = toml_text.loads(text)
    except FormatError as exc:  # a named pipe that nothing writes to
        raise ParamError(f"{p}: {exc.message}") from None
    except FileNotFoundError:
        raise ParamError(f"{p}: no such parameter file") from None
    except IsADirectoryError:
        raise ParamError(f"{p}: is a folder, not a parameter file") from None
    except OSError as exc:
        raise ParamError(f"{p}: cannot read the parameter file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        if exc.object.startswith((b"\xff\xfe", b"\xfe\xff")):  # Notepad's "Unicode"
            raise ParamError(f"{p}:1: UTF-16 text (it starts with a UTF-16 byte order mark): "
                             "save it as UTF-8") from None
        bad_line = exc.object[:exc.start].count(b"\n") + 1
        raise ParamError(f"{p}:{bad_line}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x})"
                         ) from None
    except tomllib.TOMLDecodeError as exc:
        # "Invalid value (at line 2, column 5)" → file:2 first, as every other error is
        at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", str(exc))
        if at is None and str(exc).endswith("(at end of document)"):  # a file cut off
            last = max(1, len(text.splitlines()))
            raise ParamError(f"{p}:{last}: not valid TOML: "
                             f"{str(exc).removesuffix(' (at end of document)')} (the file "
                             "ends there: cut off?)") from None
        if at is None:
            raise ParamError(f"{p}: not valid TOML: {exc}") from None
        raise ParamError(f"{p}:{at[1]}: not valid TOML: {str(exc)[:at.start()]} "
                         f"(column {at[2]})") from None
    _refuse_env_file(p, data)
    if not data:  # comments at most: a file cut off before [params] read as the defaults
        raise ParamError(f"{p}: no parameters in it (an empty file, or one cut off before its "
                         "[params] table); write NAME = VALUE lines or a [params] table")
    table = data.get("params", data)
    if not isinstance(table, dict):
        raise ParamError(f"{p}: [params] must be a table")
    # keys beside [params] would be silently ignored; [tuned] is what `tune --out` records of
    # how the values were found (core.tuned_on)
    if "params" in data and len(set(data) - {"params", "tuned"}) > 0:
        extra = [k for k in data if k not in ("params", "tuned")]
        line = line_of(p, extra[0]) or _table_line(p, extra[0])
        raise ParamError(f"{p}{f':{line}' if line else ''}: unknown key(s) "
                         f"{', '.join(repr(k) for k in extra)} outside [params]")
    out: dict[str, object] = {}
    for key, value in table.items():
        if isinstance(value, dict):  # a [k1] table, or an inline `k1 = {a = 1}`
            line = _table_line(p, key) or line_of(p, key)
            raise ParamError(f"{p}{f':{line}' if line else ''}: field '{key}': expected a "
                             "value, found a table")
        out[key] = value
    return out


def _json_params(p: Path, text: str) -> dict[str, object]:
    """A JSON file given as parameters: the values of an export's record of changes
    (`export.record_values`); ParamError saying what any other JSON file is and what to
    give instead (before, each read "not valid TOML: Invalid statement")."""
    from workbench.core import export
    from workbench.core.formats._common import json_problem

    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        # as every reader says it (ra 10: "Unterminated string starting at, column 65")
        line = exc.lineno if isinstance(exc, json.JSONDecodeError) else 1
        raise ParamError(f"{p}:{line}: {json_problem(exc)}; a parameter file is TOML, or an "
                         "export's record of changes") from None
    if export.is_record(doc):
        try:
            return export.record_values(p, doc)[1]
        except ValueError as exc:
            raise ParamError(str(exc)) from None
    from workbench.core.session_file import saved_session, saved_session_text

    if saved_session(p) is not None:  # read as "a JSON file", with an export's advice
        raise ParamError(f"{p}: {saved_session_text(doc)}, not a parameter file: open it in "
                         f"the window (`workbench gui {p}`, or File ▸ Open session…) and "
                         "write its values with Configurations ▸ Export current as params "
                         "TOML…; or give them as -p NAME=VALUE")
    what = export.written_file_text(p, doc) or "a JSON file"
    raise ParamError(f"{p}: {what}, not a parameter file: {export.instead_text(p)}")


def _record_model(p: Path) -> str | None:
    """The model an export's record of changes names (None: the file is none)."""
    try:
        doc = json.loads(p.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return None
    model = doc.get("model") if isinstance(doc, dict) and "changed" in doc else None
    return model if isinstance(model, str) else None


def _refuse_env_file(p: Path, data: Mapping[str, object]) -> None:
    """A .env file of the variables an export writes (`decision-memory.env`: NAME=value
    lines parse as TOML) refused with what it is, not as an unknown parameter."""
    from workbench.core.export import ENV_MODEL, instead_text

    owners = sorted({ENV_MODEL[k] for k in data if k in ENV_MODEL})
    if owners and all(k.isupper() for k in data):
        model, target = owners[0]
        raise ParamError(f"{p}: {target}'s environment variables ({', '.join(list(data)[:2])}"
                         f"{', …' if len(data) > 2 else ''}), as `workbench export` writes "
                         f"them, not a parameter file: {instead_text(p, model)}")


def resolve_file(schema: ParamSchema, path: str | Path) -> dict[str, ParamValue]:
    """A parameter file's values, each validated against `schema`: ParamError naming the file,
    the line of the value and the parameter for one that is unknown or out of range."""
    p = Path(path)
    values = load_params_file(p)
    other = _other_model(p, schema) if _record_model(p) else None
    if other:  # a record names its model: checked before names it shares with this one
        raise ParamError(f"{p} holds {other[0]}'s parameters ({other[1]}): run with "
                         f"-m {other[0]}")
    out: dict[str, ParamValue] = {}
    for name, value in values.items():
        try:
            # a key in any case, as -p reads it (dr7 4: K1 = 1.2 had been refused)
            own = schema.name_of(name)
            if own in out:
                raise ParamError(f"parameter {name} names {own} again, given above: "
                                 "keep one")
            out[own] = schema[own].validate(value)
        except ParamError as exc:
            other = _other_model(p, schema)
            if other:  # the file's own model said, not its first key foreign to this one
                raise ParamError(f"{p} holds {other[0]}'s parameters ({other[1]}): run with "
                                 f"-m {other[0]}") from None
            line = line_of(p, name)
            where = f"{p}:{line}" if line else str(p)
            text = str(exc)
            if text.startswith(f"parameter {name} "):  # the field is named once
                text = f"field '{name}': {text[len(f'parameter {name} '):]}"
            raise ParamError(f"{where}: {text}") from None
    return out


def _other_model(path: Path, schema: ParamSchema) -> tuple[str, str] | None:
    """(model id, how the file names it) where the file says it was written for a model
    whose parameters are not `schema`'s: its [tuned] record's model, or the first line that
    `tune --out` or `models ID --toml` writes; or the model an export's record names."""
    record = _record_model(path)
    if record is not None:
        return _named_model(schema, (record, "the record of changes `workbench export` "
                                     f"wrote for {record}"))
    text = path.read_text(encoding="utf-8-sig")
    named: tuple[str, str] | None = None
    tuned = toml_text.loads(text).get("tuned")
    if isinstance(tuned, dict) and isinstance(tuned.get("model"), str):
        named = (tuned["model"], f"written by tune for {tuned['model']}")
    for line in text.splitlines()[:3] if named is None else ():
        found = (re.match(r"#\s*workbench tune: model (\S+) on ", line)
                 or re.match(r"#\s*the defaults of (\S+) ", line))
        if found:
            named = (found[1], f"written by tune for {found[1]}" if "tune" in found[0] else
                     f"the defaults `workbench models {found[1]} --toml` prints")
            break
    return _named_model(schema, named)


def file_model(path: str | Path) -> str | None:
    """The model a parameter file names, if it names one: an export's record's `model`, a
    tune --out file's [tuned] model, or the first line `tune --out` / `models ID --toml`
    writes. None for a plain file (or one that cannot be read: its own error says so)."""
    p = Path(path)
    record = _record_model(p)
    if record is not None:
        return record
    try:
        text = p.read_text(encoding="utf-8-sig")
        tuned = toml_text.loads(text).get("tuned")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if isinstance(tuned, dict) and isinstance(tuned.get("model"), str):
        return str(tuned["model"])
    for line in text.splitlines()[:3]:
        found = (re.match(r"#\s*workbench tune: model (\S+) on ", line)
                 or re.match(r"#\s*the defaults of (\S+) ", line))
        if found:
            return found[1]
    return None


def _named_model(schema: ParamSchema, named: tuple[str, str] | None) -> tuple[str, str] | None:
    """`named` where its model's parameters are not `schema`'s, else None."""
    from workbench.core.models import get_model

    if named is None:
        return None
    try:
        return None if get_model(named[0]).schema is schema else named
    except KeyError:  # a model this version does not know: the key's own error says more
        return None


def line_of(path: Path, name: str) -> int | None:
    """The 1-based line where a TOML file sets `name`, or where an export's record of changes
    gives its value (None where no line does)."""
    key = re.escape(name)
    if path.read_text(encoding="utf-8-sig").lstrip().startswith("{"):
        return _record_line(path, key)
    return _first_line(path, re.compile(
        rf"""^\s*(?:params\s*\.\s*)?(?:{key}|"{key}"|'{key}')\s*="""))


def _record_line(path: Path, key: str) -> int | None:
    """The line of a record of changes that gives the value read (`key`: escaped): under
    its `workbench_params`, else the change that names it."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith(
        '"workbench_params"')), None)
    pattern = re.compile(rf'^\s*"{key}"\s*:' if start is not None
                         else rf'^\s*"name"\s*:\s*"{key}"\s*,?\s*$')
    return next((i for i, line in enumerate(lines[start or 0:], (start or 0) + 1)
                 if pattern.match(line)), None)


def _table_line(path: Path, name: str) -> int | None:
    """The 1-based line of a `[name]` (or `[params.name]`) table header, if any."""
    key = re.escape(name)
    return _first_line(path, re.compile(rf"""^\s*\[\s*(?:params\.)?(?:{key}|"{key}")\s*\]"""))


def _first_line(path: Path, pattern: re.Pattern[str]) -> int | None:
    for i, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        if pattern.match(line):
            return i
    return None


def params_toml(values: Mapping[str, ParamValue], comments: Iterable[str] = ()) -> str:
    """A parameter file `load_params_file` reads back: `# comment` lines, then `[params]`."""
    lines = [f"# {_comment_text(c)}".rstrip() for c in comments]
    lines.append("[params]")
    for name, value in values.items():
        lines.append(f"{name} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_value(value: ParamValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(round(value, 10))
    return toml_string(value)


def value_text(v: ParamValue) -> str:
    """A parameter value as a reader writes it: batch-max, 0.75, 12, true (not Python's
    'batch-max' and True)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):  # as typed: 2.0 is "2", 1.2345678 stays whole (:g cut it to 6)
        return f"{v:.12g}"
    return str(v)


def toml_string(text: str) -> str:
    """`text` as a TOML basic string. JSON's escapes are TOML's, but JSON leaves U+007F (DEL)
    as it is, which TOML refuses: a folder name holding one made `tune --out` write a file
    its own reader rejected. A lone surrogate (a folder name that is not UTF-8) has no TOML
    form and becomes '?'."""
    import json

    text = text.encode("utf-8", "replace").decode("utf-8")
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _comment_text(text: str) -> str:
    """`text` fit for a `#` comment: a control character (a newline in a dataset's name) as
    its escape, so the comment stays one line TOML accepts."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return "".join(f"\\u{ord(ch):04x}" if (ord(ch) < 0x20 and ch != "\t") or ch == "\x7f"
                   else ch for ch in text)
