"""One name per signal wherever a person reads it: the model's label for it (`Signal.label`,
declared beside the signal in the model), the name its weight's slider says ("named in the
task", not codeledger's id `mention`; "term frequency", not vault-search's `tf`). The window
(its ranked table, preview, charts and compare view), the report (HTML and Markdown) and the
mover sentences (`MoveExplained.sentence`) all name signals so. The id stays what the code,
the parameter names a user types (`-p w_mention=3`), the CLI's tables of figures and the
exported CSV key on."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.core.engine import Model


def shown_label(label: str) -> str:
    """A label as it reads inside a line: its first letter lower case ("keyword match", as the
    weight's slider under "Weight"), an acronym kept ("BM25 bonus", "KB note")."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label


def signal_labels(model: Model | None, names: Sequence[str]) -> list[str]:
    """The shown name of each signal id in `names` (the id itself where the model does not
    declare it)."""
    known = {s.name: s.label for s in model.signals} if model is not None else {}
    return [shown_label(known[n]) if n in known else n for n in names]
