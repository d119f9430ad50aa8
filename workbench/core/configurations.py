"""The session's named configurations: a model and its parameter values under a name the user
chose ("defaults", "tuned on train", "alpha 0.3"), kept in order, saved in the session file and
exchanged as params TOML files. The pinned baseline is one of them.

`Configurations` holds them with unique, non-empty names and announces every change through
its `changed` event; `configuration_toml` / `read_configuration_toml` write and read one as the
parameter file `-p` and `compare --config` take.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.core.comparison import Configuration
from workbench.core.events import Event
from workbench.core.models import get_model
from workbench.core.params import Params, params_toml, resolve_file
from workbench.core.store import atomic_write_text
from workbench.core.tuned_on import TunedOn, read_tuned_on, tuned_json, tuned_toml

MAX_NAME = 80


@dataclass(frozen=True)
class SavedConfiguration:
    """A named model and every one of its parameter values (resolved)."""

    name: str
    model_id: str
    params: Params
    tuned_on: TunedOn | None = None  # a tuning run's result: the queries it was tuned on
    # the name of the dataset it was made on ("" where unknown): values tuned on one dataset
    # are no defaults for another, and the menus say whose they are
    dataset: str = ""

    def as_configuration(self) -> Configuration:
        """The configuration with its model (a comparison runs each with its own)."""
        return Configuration(self.name, dict(self.params), model=get_model(self.model_id))

    def changed(self) -> Params:
        """The values that differ from the model's defaults."""
        return get_model(self.model_id).schema.changed(self.params)


def check_name(name: str) -> str:
    """The name trimmed; ValueError when it is empty or too long."""
    name = " ".join(name.split())
    if not name:
        raise ValueError("a configuration needs a name")
    if len(name) > MAX_NAME:
        raise ValueError(f"a configuration name has at most {MAX_NAME} characters")
    return name


class Configurations:
    """Named configurations in the order they were saved; names unique. `dataset`: the name
    of the dataset open (the session sets it), which a configuration saved now is made on."""

    def __init__(self) -> None:
        self._items: list[SavedConfiguration] = []
        self.dataset = ""
        self.changed = Event("configurations_changed")
        # the one last saved or switched to: of several with the same values, the one the
        # user means (rt 3: Export current had named the first, not the one just saved)
        self._last: str | None = None

    def __iter__(self) -> Iterator[SavedConfiguration]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, name: object) -> bool:
        return any(c.name == name for c in self._items)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self._items]

    def get(self, name: str) -> SavedConfiguration:
        for c in self._items:
            if c.name == name:
                return c
        raise KeyError(f"no configuration named {name!r}")

    def find(self, model_id: str, params: Mapping[str, object]) -> SavedConfiguration | None:
        """The configuration with exactly these values, if one is saved: the one last saved or
        switched to (`used`) where several have them, else the first."""
        alike = [c for c in self._items
                 if c.model_id == model_id and dict(c.params) == dict(params)]
        return next((c for c in alike if c.name == self._last), alike[0] if alike else None)

    def used(self, name: str) -> None:
        """`name` was just switched to: `find` prefers it among configurations alike."""
        if name in self:
            self._last = name

    def unique_name(self, base: str) -> str:
        """`base`, or `base (2)`, `base (3)` … whichever is free. Where `base` is another
        dataset's, `base for DATASET` first: a baseline pinned on a second dataset is not
        "baseline (2)", a number that says nothing of where it came from."""
        base = check_name(base)
        if base not in self:
            return base
        taken = self.get(base).dataset
        if self.dataset and taken and taken != self.dataset:
            base = check_name(f"{base} for {self.dataset}"[:MAX_NAME])
            if base not in self:
                return base
        n = 2
        while f"{base} ({n})" in self:
            n += 1
        return f"{base} ({n})"

    def save(self, name: str, model_id: str, params: Mapping[str, object], *,
             replace: bool = False, tuned_on: TunedOn | None = None) -> SavedConfiguration:
        """Add (or, with `replace`, overwrite in place) a configuration; ValueError on a taken
        or empty name, ParamError on a bad value — nothing changes then. `tuned_on`: for a
        tuning run's result, the queries it was tuned on."""
        name = check_name(name)
        resolved = get_model(model_id).schema.resolve(params)
        saved = SavedConfiguration(name, model_id, resolved, tuned_on, self.dataset)
        if name in self:
            if not replace:
                raise ValueError(f"a configuration named {name!r} exists already")
            self._items[self.names.index(name)] = saved
        else:
            self._items.append(saved)
        self._last = name
        self.changed.emit()
        return saved

    def rename(self, old: str, new: str) -> SavedConfiguration:
        new = check_name(new)
        item = self.get(old)
        if new == old:
            return item
        if new in self:
            raise ValueError(f"a configuration named {new!r} exists already")
        renamed = replace(item, name=new)
        self._items[self.names.index(old)] = renamed
        if self._last == old:
            self._last = new
        self.changed.emit()
        return renamed

    def remove(self, name: str) -> None:
        item = self.get(name)
        self._items.remove(item)
        if self._last == name:
            self._last = None
        self.changed.emit()

    def insert(self, index: int, saved: SavedConfiguration) -> None:
        """`saved` as it is (its tuning record and dataset kept) at `index` (a deleted one
        put back by Undo); ValueError on a taken name."""
        if saved.name in self:
            raise ValueError(f"a configuration named {saved.name!r} exists already")
        self._items.insert(min(index, len(self._items)), saved)
        self.changed.emit()

    def swap(self, old: SavedConfiguration, new: SavedConfiguration) -> bool:
        """`new` in `old`'s place where `old` is here as it is; False (nothing changed) where
        it is not (renamed, replaced or deleted since)."""
        at = next((i for i, c in enumerate(self._items) if c == old), None)
        if at is None:
            return False
        self._items[at] = new
        if self._last == old.name:
            self._last = new.name
        self.changed.emit()
        return True

    def find_saved(self, saved: SavedConfiguration) -> bool:
        """Whether `saved` is here as it is (name, values, record and dataset)."""
        return any(c == saved for c in self._items)

    def replace_all(self, items: list[SavedConfiguration]) -> None:
        """All of them at once (a session opened); one that does not say which dataset it was
        made on (a file from before they said) is taken as made on the dataset open."""
        names = [c.name for c in items]
        if len(set(names)) != len(names):
            raise ValueError("two configurations have the same name")
        self._items = [c if c.dataset else replace(c, dataset=self.dataset) for c in items]
        self._last = None
        self.changed.emit()

    def described(self, name: str) -> str:
        """Where and with what `name` was made, in words: "made on tea with bm25 (k1=1.9)" —
        what a question about replacing or deleting it names, since names are one pool across
        the datasets while the menus list them by dataset."""
        c = self.get(name)
        values = ", ".join(f"{k}={v}" for k, v in c.changed().items()) or "its defaults"
        where = f"made on {c.dataset} with" if c.dataset else "of"
        return f"{where} {c.model_id} ({values})"

    def on_dataset(self, saved: SavedConfiguration) -> bool:
        """Whether `saved` was made on the dataset open (or says nothing of where)."""
        return not saved.dataset or not self.dataset or saved.dataset == self.dataset

    def to_json(self) -> list[dict[str, object]]:
        """As the session file keeps them: name, model and the values that differ from the
        defaults."""
        return [{"name": c.name, "model": c.model_id, "params": c.changed(),
                 **({"tuned_on": tuned_json(c.tuned_on)} if c.tuned_on else {}),
                 **({"dataset": c.dataset} if c.dataset else {})}
                for c in self._items]


def configuration_toml(saved: SavedConfiguration) -> str:
    """The configuration as a params TOML file, with comments naming it and its model and,
    for a tuning run's values, how they were validated and did held out, as `tune --out`
    heads its file. The values: those that differ from the defaults and those the run searched
    (rt 5); where that leaves none, the model's tunable ones, written out with a line saying
    they are its defaults (rt 2: an empty `[params]` had stated no value)."""
    t, edited = saved.tuned_on, ""
    if t is not None:  # as it holds for these values: edited since, the run's figures,
        # verdict and kept trial are not theirs (dr8 2: they had headed hand-moved values)
        held, edited = t.applies_to(saved.model_id, saved.params)
        if held is not None and edited:
            t = replace(held, run=(), held_default=math.nan, held_tuned=math.nan,
                        p_value=math.nan)
        else:  # whole, or another model's record, written as it was
            edited = ""
    values = written_values(saved)
    at_defaults = not saved.changed()
    return params_toml(values, [
        # its run's advice against the values, first, as tune writes it
        *([f"{t.lead().replace('not recommended', 'NOT RECOMMENDED', 1)} — {t.verdict}; the "
            "verdict in [tuned] says so too"]
          if t is not None and t.verdict else []),
        *([f"edited from values a tuning run wrote: {edited.split(': ', 1)[-1]}"]
          if t is not None and edited else []),
        f"configuration {saved.name!r}",
        f"model {saved.model_id} (workbench eval DATA -m {saved.model_id} --params THIS_FILE)",
        *([f"validation: {t.validation}"] if t is not None and t.validation else []),
        *([t.held_out_text()] if t is not None and t.held_out_text() else []),
        *(["every parameter is at the model's default: "
           + ("those the run searched" if _searched(saved) else "its tunable ones")
           + " are written out below"] if at_defaults and values else [])]
    ) + (tuned_toml(t) if t is not None else "")


def written_values(saved: SavedConfiguration) -> Params:
    """What `configuration_toml` writes under `[params]`, in the model's order: the values
    changed from the defaults and those the tuning run searched; with neither, the model's
    tunable ones (`tuning.space.default_names`)."""
    schema = get_model(saved.model_id).schema
    names = set(saved.changed()) | set(_searched(saved))
    if not names:
        from workbench.core.tuning.space import default_names

        names = set(default_names(schema))
    return {p.name: saved.params[p.name] for p in schema if p.name in names}


def _searched(saved: SavedConfiguration) -> list[str]:
    """The parameters the run that tuned `saved` searched (its record's `searched`), of the
    model's; none where it does not say."""
    import tomllib

    text = dict(saved.tuned_on.run).get("searched") if saved.tuned_on else None
    if not text:
        return []
    try:
        names = tomllib.loads(f"searched = {text}")["searched"]
    except tomllib.TOMLDecodeError:
        return []
    schema = get_model(saved.model_id).schema
    known = {p.name for p in schema}
    return [n for n in names if isinstance(n, str) and n in known] \
        if isinstance(names, list) else []


def write_configuration_toml(saved: SavedConfiguration, path: str | Path) -> None:
    atomic_write_text(Path(path), configuration_toml(saved))


def read_configuration_toml(path: str | Path, model_id: str, name: str | None = None,
                            said: list[str] | None = None) -> SavedConfiguration:
    """A params TOML file as a configuration of `model_id`, named after the file unless
    `name` is given; ParamError naming the file on a bad or unknown value."""
    p = Path(path)
    schema = get_model(model_id).schema
    params = schema.resolve(resolve_file(schema, p))
    record = read_tuned_on(p)
    if record is not None:  # as it holds for these values of this model (`applies_to`)
        record, why = record.applies_to(model_id, params)
        if why and said is not None:
            said.append(why)
        if record is not None and record.unread and said is not None:  # dr1 9
            said.append(record.unread)
        if record is not None and record.verdict and said is not None:  # dr1 8
            said.append(record.verdict_text())
    return SavedConfiguration(check_name(name or p.stem), model_id, params, record)
