"""A parameter value as the comparison's tables and sentences write it: one rendering for
every place that sets two configurations' values side by side.

A text parameter (an embedding prompt) is quoted, so that an empty prompt and the literal
word "none" do not read alike (review rm 1, 6: the parameter table had shown both as `none`,
and the movers' sentence an empty prompt as nothing after its arrow); an empty one is the
empty quotes, ''. Any other value as a reader types it (`params.value_text`: true, 0.75,
porter)."""

from __future__ import annotations

from collections.abc import Iterable

from workbench.core.params import ParamSchema, ParamValue, value_text

EMPTY = "''"


def shown_value(value: ParamValue, text: bool) -> str:
    """`value` as written beside another: a text parameter's quoted ('task: … | query: ',
    'none', and '' where empty); any other by `value_text`."""
    if text and isinstance(value, str):
        return repr(value)
    return value_text(value)


def text_params(schemas: Iterable[ParamSchema]) -> frozenset[str]:
    """The names of the text parameters (`kind="text"`) of any of `schemas`."""
    return frozenset(p.name for schema in schemas for p in schema.params if p.kind == "text")
