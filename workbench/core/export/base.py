"""The record every exporter returns (`Export`, its `Change`s and its record of changes as
JSON), and the helpers each exporter builds its changes with."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from workbench.core.params import ParamSchema, ParamValue


@dataclass(frozen=True)
class Change:
    """One constant that differs from the original: `setting` is the target's name for it,
    None when the original hard-codes it."""

    name: str
    label: str
    original: ParamValue
    value: ParamValue
    setting: str | None
    # for a workbench-only value (`Export.outside`): why the target cannot take it, in words,
    # where the general "measured at …, where the target has …" would mislead
    why: str = ""
    # (original, value) as the target stores them, where the parameter's own form differs
    # (pi-lodestone's disabledProjects: a JSON list, [] for the workbench's "")
    stored: tuple[object, object] | None = None
    # a setting the target has but the export does not write (OpenVault's embedding prompt,
    # chosen in its settings panel: no settings.json key for it is known): how to set it by
    # hand; "" where the export writes it. The record says it (`written: false`), so that a
    # report does not call the settings shipped by `export --out` alone (rm 4)
    by_hand: str = ""
    # for a behaviour the target always has that figures measured at these values lack
    # (obsidian-mcp's early stop with a limit): how to measure as the target runs, said by
    # `outside_text` where no figure was measured (export), `why` being said beside figures
    # (a report). No value the user set, nor one the target cannot take: the record keeps it
    # apart from `not_in_target` (rv52 11)
    always: str = ""

    def as_json(self) -> dict[str, object]:
        original, value = self.stored or (self.original, self.value)
        out: dict[str, object] = {"name": self.name, "label": self.label,
                                  "original": original, "value": value,
                                  "setting": self.setting}
        if self.by_hand:
            out |= {"written": False, "set_by_hand": self.by_hand}
        return out


@dataclass(frozen=True)
class Export:
    """A model's parameters as the target system reads them."""

    model: str
    target: str
    settings: dict[str, object]
    changed: tuple[Change, ...]
    env: tuple[tuple[str, str], ...] = ()  # environment variables, in the original's order
    # the target's own file that holds `settings`, relative to the folder it reads it from
    # (CodeLedger: .codeledger/config.json; OpenVault: SillyTavern's settings.json); None:
    # the target reads no file (obsidian-mcp: `settings` are each call's arguments)
    config_path: str | None = None
    # workbench-only values that change scores and that the target cannot take (see the
    # module docstring): the figures measured with them are not the shipped system's
    outside: tuple[Change, ...] = ()
    # where the target reads `settings` and `env` from, in words ("" where `config_path`
    # says it), and how to set what has no setting
    where: str = ""
    # each value of `settings` (its dotted key) → the parameters that set it: over a config
    # already there, `write_export` writes only those set explicitly (`given`)
    sources: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    # the other files `write_export` writes, (name, text), each in the shape its reader
    # takes: the variables as .env text, obsidian-mcp's call arguments and its MCP server
    # entry
    files: tuple[tuple[str, str], ...] = ()
    # what `settings` are, named where no file of the target holds them (a report's heading)
    settings_name: str = ""
    # where `settings` are a part of `config_path`, not the whole file, that part in words
    # (OpenVault's: SillyTavern's settings.json holds every extension's and more)
    fragment: str = ""
    # what the target's own data folder holds (pi-lodestone's memory folder: its
    # decisions.jsonl…): --out there writes `config_path` alone, none of the workbench's files
    home: tuple[str, ...] = ()
    # every value the figures were measured with that is off the workbench's default (the
    # evaluation's own settings too, which `changed` leaves out): the record keeps them as
    # `workbench_params`, which --params reads back (`record_values`)
    measured: Mapping[str, ParamValue] = dataclasses.field(default_factory=dict)
    # the advice against these values of the run that tuned them ("FILE: not recommended by
    # the run that tuned it — …"), kept in the record as `not_recommended`: the warning on
    # stderr is gone by the time a reviewer reads the repository (dr7 2); "" where none
    verdict: str = ""

    def outside_text(self) -> str:
        """The workbench-only values the figures were measured with that the target cannot
        take, in one sentence ("" when there are none)."""
        plain = [c for c in self.outside if not c.why]
        parts = [c.why for c in self.outside if c.why and not c.always]
        always = [c.always for c in self.outside if c.always]
        if plain:
            one = len(plain) == 1
            parts.insert(0, "measured with " + ", ".join(f"{c.name} = {c.value!r}" for c in plain)
                         + f", which {self.target} cannot take (it has "
                         + ", ".join(f"{c.name} = {c.original!r}" for c in plain)
                         + f"): the settings leave {'it' if one else 'them'} out, and these "
                         "figures are not what it will score")
        return "; ".join(([f"not shippable as is: {'; '.join(parts)}"] if parts else [])
                         + always)

    def by_hand(self) -> tuple[Change, ...]:
        """The changed values the export does not write, each to be set by hand
        (`Change.by_hand`)."""
        return tuple(c for c in self.changed if c.by_hand)

    def by_hand_text(self, command: str = "export --out") -> str:
        """The changed values the export does not write, in one sentence ("" when it writes
        them all): "export --out does not write query_prompt '' and document_prompt '':
        set by hand in …". `command`: the export as the reader would run it (a report names
        it in full, "workbench export -m hybrid --params FILE.toml --out DIR": its own -o
        writes the report)."""
        hand = self.by_hand()
        if not hand:
            return ""
        how = dict.fromkeys(c.by_hand for c in hand)  # each way once, in order
        return (f"{command} does not write " + " and ".join(
            f"{c.name} {c.value!r}" for c in hand) + ": set "
            + ("it" if len(hand) == 1 else "them") + " by hand, " + "; ".join(how))

    def env_text(self, *, shell: bool = True) -> str:
        """The environment variables as a shell snippet (`export NAME=value`) or, with
        `shell=False`, as .env text (`NAME=value`); "" for a target without any."""
        if not self.env:
            return ""
        prefix = "export " if shell else ""
        lines = [f"# {self.target} settings from Scoring Workbench"]
        lines += [f"{prefix}{name}={value}" for name, value in self.env]
        hard = [c.name for c in self.changed if c.setting is None]
        if hard:
            lines.append(f"# also changed, with no environment variable (edit the source): "
                         f"{', '.join(hard)}")
        return "\n".join(lines) + "\n"

    def settings_json(self) -> str:
        return json.dumps(self.settings, indent=2, ensure_ascii=False) + "\n"

    def changes_json(self, kept: Sequence[tuple[str, object, object]] = (),
                     elsewhere: Sequence[tuple[str, Sequence[tuple[str, object, object]]]] = (),
                     ) -> str:
        """Every changed constant against the original's defaults, as JSON; and the
        workbench-only values the figures were measured with that the target cannot take
        (`not_in_target`: a z-score normalisation, …), so the record keeps them. `kept`: the
        settings a config already there kept its own value of (`Update.kept`: key, its
        value, the one measured), so the record does not claim them written; `elsewhere`:
        (file name, its `Update.kept`) for the variables' files there (decision-memory.env,
        mcp-server-env.json: dr3 5); each entry names its file. Each entry has both
        `measured` and `measured_not_passed`: a setting measured as not passed (search_vault's
        minScore at 0: the target's own default) is `"measured": null,
        "measured_not_passed": true`, so that a null there is never read as the file's null
        or as nothing measured (r50), and `entry["measured"]` is always there (dr1 7)."""
        doc: dict[str, object] = {"model": self.model, "target": self.target,
                                  **({"not_recommended": self.verdict} if self.verdict else {}),
                                  "changed": [c.as_json() for c in self.changed]}
        if any(not c.always for c in self.outside):
            doc["not_in_target"] = [c.as_json() for c in self.outside if not c.always]
        if any(c.always for c in self.outside):
            doc["target_always_has"] = [
                {"name": c.name, "label": c.label, "in_target": c.original,
                 "measured": c.value,
                 "note": f"behaviour {self.target} always has: {c.always}"}
                for c in self.outside if c.always]
        files = ([str(self.config_path)] if kept else []) + [n for n, k in elsewhere if k]
        if files:
            entries = [_kept_entry(str(name), key, old, new)
                       for name, its in [(self.config_path, kept), *elsewhere]
                       for key, old, new in its]
            unpassed = any(entry["measured_not_passed"] for entry in entries)
            doc["kept_in_config"] = {
                "note": f"{' and '.join(files)} kept {'its' if len(files) == 1 else 'their'} "
                        "own value of these (not set with -p or --params): the figures were "
                        "measured with the value under measured"
                        + (f"; where measured_not_passed is true, without the setting (not "
                           f"passed to {self.target}, which then takes its own default): to "
                           "match them, take each such setting out of the file named with it, "
                           "or export again setting it with -p as measured, which takes it out"
                           if unpassed else ""),
                "settings": entries}
        if self.measured:
            doc["workbench_params"] = dict(self.measured)
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


Exporter = Callable[[Mapping[str, ParamValue]], Export]


def _kept_entry(file: str, key: str, old: object, new: object) -> dict[str, object]:
    """One setting a config kept its own value of: the value measured (None where the figures
    were measured with the setting not passed) and whether it was not passed."""
    return {"setting": key, "in_config": old, "measured": new,
            "measured_not_passed": new is None, "file": file}


def _number(value: ParamValue) -> str:
    """A number as JavaScript's `Number()` reads it back: integers without a fraction."""
    x = float(value)
    return str(int(x)) if math.isfinite(x) and x.is_integer() else repr(x)


def _changes(schema: ParamSchema, params: Mapping[str, ParamValue],
             workbench_only: frozenset[str], settings: Mapping[str, str]) -> tuple[Change, ...]:
    return tuple(Change(p.name, p.label, p.default, params[p.name], settings.get(p.name))
                 for p in schema if p.name not in workbench_only and p.name in params
                 and params[p.name] != p.default)


def _outside(schema: ParamSchema, params: Mapping[str, ParamValue],
             workbench_only: frozenset[str]) -> tuple[Change, ...]:
    """The workbench-only values that change scores here and that the target cannot take:
    those of `workbench_only` that differ from the default, less the settings that change no
    score (`NOT_SCORING`) and those idle by the schema's `needs` (rrf k without rrf)."""
    return tuple(Change(p.name, p.label, p.default, params[p.name], None) for p in schema
                 if p.name in workbench_only and p.name not in NOT_SCORING
                 and p.name in params and params[p.name] != p.default
                 and not schema.idle_because(p.name, params))


# workbench-only settings that change how a run is made or evaluated, not any score
# (vector_candidates: how many memories prepare keeps per query; the rankings it serves are
# the all-pairs ones, so it is no code change to ship)
NOT_SCORING = frozenset(("batch_size", "now", "mode", "query_form", "embeddings",
                         "vector_candidates"))
