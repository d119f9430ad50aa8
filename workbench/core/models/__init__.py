"""The model registry: model id → class. The CLI and the GUI fill their pickers from it."""

from __future__ import annotations

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


def model_ids() -> list[str]:
    return list(_REGISTRY)


def get_model(model_id: str) -> Model:
    """A fresh instance of the model named `model_id`."""
    try:
        target = _REGISTRY[model_id]
    except KeyError:
        raise KeyError(
            f"unknown model {model_id!r}; valid: {', '.join(_REGISTRY)}"
        ) from None
    module, _, cls = target.partition(":")
    model_cls = getattr(importlib.import_module(module), cls)
    instance: Model = model_cls()
    return instance
