"""CodeLedger's context selection for code (`codeledger`). See `model` for the formulas and
the decisions where the document is silent.

The corpus is one `Document` per repository file (id = title = the repo-relative path, text =
its content) with metadata from the repository index: language, lines, tokens, size, symbols,
keywords, imports, dependents, is_test, tests, commit_days, days_since_last, centrality,
error_infrastructure, branch_changed, ledger {success, fail, entries}. Any key may be missing
(`files`). Queries are task descriptions; qrels name the files a task needed.
"""

from workbench.core.models.codeledger.bundle import Bundles, budget, bundles, confidence
from workbench.core.models.codeledger.candidates import STAGES
from workbench.core.models.codeledger.combine import combine_codeledger, signal_table
from workbench.core.models.codeledger.explain import explain_pair, full_bundles, near_misses
from workbench.core.models.codeledger.model import CodeLedgerDocumentModel, CodeLedgerModel
from workbench.core.models.codeledger.params import (
    BUDGET_PRESETS,
    DOCUMENT_SCHEMA,
    GATES,
    SCHEMA,
    SIGNALS,
    STOP_REASONS,
)
from workbench.core.models.codeledger.prepared import CodeLedgerPrepared, prepare_codeledger
from workbench.core.models.codeledger.text import (
    TASK_TYPES,
    compounds,
    detect_task_type,
    plural_key,
    term_keys,
)

__all__ = [
    "BUDGET_PRESETS", "DOCUMENT_SCHEMA", "GATES", "SCHEMA", "SIGNALS", "STAGES", "STOP_REASONS",
    "TASK_TYPES", "Bundles", "CodeLedgerDocumentModel", "CodeLedgerModel", "CodeLedgerPrepared",
    "budget", "bundles", "combine_codeledger", "compounds", "confidence", "detect_task_type",
    "explain_pair", "full_bundles", "near_misses", "plural_key", "prepare_codeledger",
    "signal_table", "term_keys",
]
