"""The exporters by model id, and what is asked of them by id: an export, where a constant
with no setting is edited, which parameters no setting can carry."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from workbench.core.export.base import Export, Exporter
from workbench.core.export.codeledger import _export_codeledger_document, export_codeledger
from workbench.core.export.decision_memory import export_decision_memory
from workbench.core.export.hybrid import export_hybrid
from workbench.core.export.vault_search import VS_WEIGHTS, export_vault_search
from workbench.core.models import get_model
from workbench.core.params import ParamValue

EXPORTERS: dict[str, Exporter] = {
    "codeledger": export_codeledger,
    "codeledger-document": _export_codeledger_document,
    "decision-memory": export_decision_memory,
    "hybrid": export_hybrid,
    "vault-search": export_vault_search,
}


# where a constant with no setting lives in the target's code, as its documentation names it
# (the design documents and REFERENCE.md in the specs), for "none: edit …" — a reader told only
# "edit the source" did not know where; a constant not listed gets the target's source
_SCORER = "src/services/search/SearchScorer.ts"
SOURCE_OF: dict[str, dict[str, str]] = {
    # pi-lodestone: scoreDecision in extension/scoring.ts (decision-memory-scoring.md); the
    # search and the injection before each turn around it (REFERENCE §1) name no file
    "decision-memory": {
        **dict.fromkeys(("search_min_score", "prompt_min_chars", "query_min_chars"),
                        "pi-lodestone's search and injection code, around extension/scoring.ts"),
    },
    # obsidian-mcp: the weights are its scorer's constructor arguments (src/services/
    # fileSystem.ts builds it); the rest of the score in SearchScorer.ts, context and snippets
    # in MatchExtractor.ts (vault-search-scoring.md, Source Files)
    "vault-search": {
        **dict.fromkeys(VS_WEIGHTS, "the new SearchScorer(…) call in "
                                    "src/services/fileSystem.ts"),
        **dict.fromkeys(("tf_scale", "position_decay", "density_scale", "density_cap"), _SCORER),
        **dict.fromkeys(("context_lines", "max_snippet_length", "highlight_start",
                         "highlight_end"), "src/services/search/MatchExtractor.ts"),
        "early_stop_found": "obsidian-mcp's search_vault code, where it scans the files",
    },
    # OpenVault: calculateScore and scoreMemories score (hybrid-bm25-vector-blend.md §5); the
    # query they are given is built from the chat before them (extractQueryContext)
    "hybrid": dict.fromkeys(
        ("entity_lines", "entity_window", "recency_decay", "top_entities",
         "active_character_boost", "entity_max_share", "quote_min_chars", "quote_max_chars",
         "user_messages", "user_chars", "embedding_lines", "embedding_window",
         "embedding_entities", "embedding_chars"),
        "the code where OpenVault builds the query from the chat, around "
        "extractQueryContext"),
}
SOURCE_DEFAULT = {
    "decision-memory": "scoreDecision in extension/scoring.ts",
    "vault-search": "obsidian-mcp's source",
    "hybrid": "OpenVault's calculateScore and scoreMemories",
}


def no_setting_text(model_id: str, name: str) -> str:
    """What a changed constant with no setting takes, for a table's "setting" column: where to
    edit it ("none: edit src/services/search/SearchScorer.ts"); for CodeLedger, whose ranker
    is closed, that it cannot be set."""
    if model_id.startswith("codeledger"):
        return "none: CodeLedger cannot take it (its ranker is closed)"
    where = SOURCE_OF.get(model_id, {}).get(name) or SOURCE_DEFAULT.get(model_id)
    return f"none: edit {where}" if where else "none: edit the source"


def exporter_ids() -> list[str]:
    return list(EXPORTERS)


def export_params(model_id: str, params: Mapping[str, ParamValue] | None = None) -> Export:
    """The parameters (missing ones at their defaults, all validated) of `model_id` in its
    target system's terms."""
    try:
        exporter = EXPORTERS[model_id]
    except KeyError:
        raise KeyError(f"no exporter for model {model_id!r}; valid: "
                       f"{', '.join(EXPORTERS)}") from None
    schema = get_model(model_id).schema
    return dataclasses.replace(exporter(params or {}),
                               measured=schema.changed(schema.resolve(params or {})))


def unshippable(model_id: str, names: list[str]) -> tuple[list[str], list[str]]:
    """Of the parameters `names`, those a value of which the target cannot take as a setting:
    (hard-coded there: a change to its code; not in it at all: a workbench option), each
    found by exporting the parameter moved off its default. Empty for a model without a
    target."""
    if model_id not in EXPORTERS:
        return [], []
    schema = get_model(model_id).schema
    code: list[str] = []
    absent: list[str] = []
    for name in names:
        p = schema[name]
        other: ParamValue | None
        if p.kind in ("choice", "bool"):
            other = next((c for c in (p.choices if p.kind == "choice" else (True, False))
                          if c != p.default), None)
        elif p.kind in ("int", "float") and p.low is not None and p.high is not None:
            end = p.high if p.default != p.high else p.low
            other = int(end) if p.kind == "int" else float(end)
        else:
            continue  # text: not searched by the optimiser
        if other is None:
            continue
        values: dict[str, ParamValue] = {name: other}
        for need in p.needs:  # what makes it act (rrf k: normalisation rrf)
            key, equals, wanted = need.partition("=")
            if not key.startswith("!"):
                values[key] = wanted if equals else True
        try:
            export = export_params(model_id, values)
        except ValueError:  # ParamError: a value the schema refuses here; unknown, unsaid
            continue
        if any(c.name == name or c.name in values for c in export.outside):
            absent.append(name)
        elif any(c.name == name and c.setting is None for c in export.changed):
            code.append(name)
    return code, absent
