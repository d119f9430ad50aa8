"""The model registry: model id → class. The CLI and the GUI fill their pickers from it."""

from __future__ import annotations

import difflib
import importlib

from workbench.core.engine import Model

# id → "module:Class"; imported on first use so that start-up stays cheap
_REGISTRY: dict[str, str] = {
    "bm25": "workbench.core.models.bm25:BM25Model",
    "vault-search": "workbench.core.models.vault_search:VaultSearchModel",
    "hybrid": "workbench.core.models.hybrid:HybridModel",
    "dense": "workbench.core.models.dense:DenseModel",
    "decision-memory": "workbench.core.models.decision_memory:DecisionMemoryModel",
    "importance": "workbench.core.models.importance:ImportanceModel",
    "codeledger": "workbench.core.models.codeledger:CodeLedgerModel",
    "codeledger-document": "workbench.core.models.codeledger:CodeLedgerDocumentModel",
}


# the modelled systems by the names the README and the help use for them: `-m openvault` is
# the hybrid model (CodeLedger's name is already its model's id)
SYSTEM_NAMES: dict[str, str] = {
    "openvault": "hybrid",
    "pi-lodestone": "decision-memory",
    "obsidian-mcp": "vault-search",
}


def model_ids() -> list[str]:
    return list(_REGISTRY)


def canonical_id(name: str) -> str:
    """The model id `name` stands for, in any case (as metric names are read): a system's
    name → its model's id, a model id as registered (`-m BM25` is bm25); anything else as
    given."""
    folded = name.strip().lower()
    return SYSTEM_NAMES.get(folded, folded if folded in _REGISTRY else name)


def get_model(model_id: str) -> Model:
    """A fresh instance of the model named `model_id` (or a system's name, `SYSTEM_NAMES`)."""
    try:
        target = _REGISTRY[canonical_id(model_id)]
    except KeyError:
        systems = ", ".join(f"{s} ({m})" for s, m in SYSTEM_NAMES.items())
        if not model_id.strip():  # -m "" or -m bm25, (dr4 7: "unknown model ''")
            raise KeyError(f"no model named (an empty name: -m '' or a stray comma); valid: "
                           f"{', '.join(_REGISTRY)}, or a system's name: {systems}") from None
        near = difflib.get_close_matches(model_id.strip().lower(), [*_REGISTRY, *SYSTEM_NAMES],
                                         n=1)
        raise KeyError(
            f"unknown model {model_id!r}" + (f" (did you mean {near[0]}?)" if near else "")
            + f"; valid: {', '.join(_REGISTRY)}, or a system's "
            f"name: {systems}"
        ) from None
    module, _, cls = target.partition(":")
    model_cls = getattr(importlib.import_module(module), cls)
    instance: Model = model_cls()
    return instance
