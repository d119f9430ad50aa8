"""CodeLedger's exporter: its .codeledger/config.json, told against its document's
values."""

from __future__ import annotations

from collections.abc import Mapping

from workbench.core.export.base import Export, _changes
from workbench.core.models import get_model
from workbench.core.params import ParamValue

# -- codeledger: .codeledger/config.json (REFERENCE §2) --
CL_WEIGHTS = {f"w_{key}": key for key in ("keyword", "centrality", "churn", "recent_touch",
                                          "test_relevance", "size_penalty", "success_prior",
                                          "fail_prior")}
CL_SETTINGS = {**{k: f"selector.weights.{v}" for k, v in CL_WEIGHTS.items()},
               "token_budget": "selector.default_budget.tokens",
               "max_files": "selector.default_budget.max_files",
               "sufficiency": "selector.sufficiency_threshold",
               "excerpt_threshold_lines": "selector.excerpt_full_file_max_lines"}
CL_WORKBENCH_ONLY = frozenset(("task_type", "budget_preset"))


def export_codeledger(params: Mapping[str, ParamValue], model_id: str = "codeledger"
                      ) -> Export:
    """CodeLedger's config: the eight documented weights, the default budget, the sufficiency
    threshold and the excerpt threshold. The model's other constants (signal shapes,
    task-type multipliers, candidate stages, the weights the document does not name —
    content, named path, graph, non-code, error infrastructure, branch changed) have no
    documented key: they appear in `changed`, against the document's values, with no
    setting."""
    from workbench.core.models.codeledger.bundle import budget
    from workbench.core.models.codeledger.params import DOCUMENT_SCHEMA

    values = get_model(model_id).schema.resolve(params)
    schema = DOCUMENT_SCHEMA  # what changed is told against CodeLedger's own defaults
    tokens, files = budget(values)  # a preset wins over the sliders, as in the model
    selector: dict[str, object] = {
        "weights": {key: values[name] for name, key in CL_WEIGHTS.items()},
        "default_budget": {"tokens": tokens, "max_files": files},
        "sufficiency_threshold": values["sufficiency"],
        "excerpt_full_file_max_lines": values["excerpt_threshold_lines"],
    }
    changed = _changes(schema, values, CL_WORKBENCH_ONLY, CL_SETTINGS)
    # weights set beside signals CodeLedger lacks rank otherwise without them (ky: MRR@10
    # 0.549 → 0.450 with these weights and the document's signals alone)
    lacking = [c.name for c in changed if c.setting is None and c.name.startswith("w_")
               and float(c.value) != 0.0]
    where = ("CodeLedger reads these from .codeledger/config.json in the repository"
             + (f"; the weights here were set beside {', '.join(lacking)}, which it does not "
                "have: without them the same weights rank otherwise, and the figures measured "
                "here are not what it will score" if lacking else "")
             # written at any value: CodeLedger's own default is not the document's
             + "; excerpt_full_file_max_lines is written even at the document's 250 lines, "
             "since CodeLedger's versions that read it default to 200")
    sources = {key: (name, "budget_preset") if key.startswith("selector.default_budget.")
               else (name,) for name, key in CL_SETTINGS.items()}
    return Export(model_id, "CodeLedger", {"selector": selector}, changed,
                  config_path=".codeledger/config.json", where=where, sources=sources)


def _export_codeledger_document(params: Mapping[str, ParamValue]) -> Export:
    return export_codeledger(params, "codeledger-document")
