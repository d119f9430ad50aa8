"""How the parameter panel lays out a model's live parameters: its headline parameters first,
in a section of their own, then the rest in schema order, grouped by name prefix when there
are many of them (`w_…`, `recency_…`: three or more sharing one), or by the groups the model
declares (`param_groups`: importance's topics, each switch inside its own).

A group's common label prefix ("Weight: ") becomes its title and leaves its labels, else the
prefix is read as a word (`w` → "Weights"). Labels wrap at word boundaries in a column at
least as wide as their widest word, so no label is cut mid-word or elided into another's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from workbench.core.engine import Model
from workbench.core.params import Param

GROUP_ABOVE = 16  # live parameters beyond which they are grouped
GROUP_MIN = 3  # parameters sharing a prefix that make a group
HEADLINE_TITLE = "Key parameters"

# name prefixes the models use, as a section title reads them (others: the prefix, capitalised)
_PREFIX_TITLES = {"w": "Weights", "mult": "Multipliers", "bonus": "Bonuses",
                  "boost": "Boosts", "base": "Bases", "stale": "Staleness"}


@dataclass
class Section:
    """Parameters shown together: a group (`key` its name prefix), the headline, or a run of
    loose ones. `strip` is the label prefix the section's title already says."""

    key: str | None
    title: str
    params: list[Param]
    strip: str = ""


def headline_section(model: Model) -> Section:
    """The model's headline parameters, in its order; their common "Title: " goes to the
    section title ("Key parameters — Weight")."""
    params = [model.schema[name] for name in model.headline]
    head = _common_head(params) if len(params) > 1 else None
    if head is None:
        return Section("headline", HEADLINE_TITLE, params)
    return Section("headline", f"{HEADLINE_TITLE} — {head}", params, strip=head + ": ")


def rest_of(model: Model) -> list[Param]:
    """The live parameters that are not headline ones, in schema order."""
    return [p for p in model.schema.stage("live") if p.name not in model.headline]


def model_groups(model: Model) -> Sequence[tuple[str, str, Sequence[str]]]:
    """The groups a model declares (`param_groups`: key, title, member names), else none."""
    groups: Sequence[tuple[str, str, Sequence[str]]] = getattr(model, "param_groups", ())
    return groups


def sections(params: list[Param],
             groups: Sequence[tuple[str, str, Sequence[str]]] = ()) -> list[Section]:
    """`params` in schema order, grouped by name prefix when there are many of them; by
    `groups` (`model_groups`), in their order, where the model declares them."""
    if len(params) <= GROUP_ABOVE:
        return [Section(None, "", list(params))]
    if groups:
        return _declared(params, groups)
    prefix = {p.name: p.name.split("_", 1)[0] for p in params if "_" in p.name}
    counts: dict[str, int] = {}
    for head in prefix.values():
        counts[head] = counts.get(head, 0) + 1
    out: list[Section] = []
    by_key: dict[str, Section] = {}
    for p in params:
        key = prefix.get(p.name)
        if key is None or counts[key] < GROUP_MIN:
            if not out or out[-1].key is not None:
                out.append(Section(None, "", []))
            out[-1].params.append(p)
        elif key in by_key:
            by_key[key].params.append(p)
        else:
            by_key[key] = Section(key, _PREFIX_TITLES.get(key, key.capitalize()), [p])
            out.append(by_key[key])
    for sec in by_key.values():
        common = _common_head(sec.params)
        if common is not None:
            sec.title, sec.strip = common, common + ": "
    return out


def _declared(params: list[Param],
              groups: Sequence[tuple[str, str, Sequence[str]]]) -> list[Section]:
    """A section per declared group holding some of `params` (the labels starting with its
    "Title: " shown without it), then the parameters no group names, loose."""
    by_name = {p.name: p for p in params}
    out: list[Section] = []
    placed: set[str] = set()
    for key, title, names in groups:
        members = [by_name[n] for n in names if n in by_name and n not in placed]
        if members:
            strip = title + ": "
            said = any(p.label.startswith(strip) for p in members)
            out.append(Section(key, title, members, strip if said else ""))
            placed.update(p.name for p in members)
    rest = [p for p in params if p.name not in placed]
    return [*out, Section(None, "", rest)] if rest else out


def _common_head(params: list[Param]) -> str | None:
    """The "Title" every label starts with as "Title: …", if they share one."""
    if not params or not all(": " in p.label for p in params):
        return None
    heads = {p.label.split(": ", 1)[0] for p in params}
    return heads.pop() if len(heads) == 1 else None


def short_label(p: Param, section: Section) -> str:
    """The label without the section's common "Title: " prefix."""
    s = section.strip
    return p.label[len(s):] if s and p.label.startswith(s) else p.label


def label_width(fm: QFontMetrics, texts: list[str]) -> int:
    """One label column for every section, so the editors line up: as wide as the longest
    label up to about 17 characters (longer ones wrap, leaving the editors room in a 400 px
    column), never narrower than a word."""
    cap = fm.horizontalAdvance("Weight: success p")
    longest = max((fm.horizontalAdvance(t) for t in texts), default=0)
    widest_word = max((fm.horizontalAdvance(w) for t in texts for w in t.split()), default=0)
    return max(fm.horizontalAdvance("Weight: p"), min(cap, longest), widest_word) + 4


class WrapLabel(QLabel):
    """A parameter's label at a fixed width, wrapped at word boundaries onto more lines when
    it is longer (never elided, never cut)."""

    def __init__(self, text: str, width: int, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setFixedWidth(width)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        # the grid does not ask a fixed-width label for its height; every line must show, in
        # the font the style sheet gives it (polished first: measured in the font before it,
        # a label at a font DPI of 72 was 2 px short of its second line)
        self.ensurePolished()
        self.setMinimumHeight(self.heightForWidth(width))
