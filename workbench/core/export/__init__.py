"""The current parameters in the target system's own terms.

A tuned parameter set is only useful once it is back in the system it was tuned for, so each
faithful model can register an exporter here, keyed by model id (`EXPORTERS`; an unknown id
raises an error listing the valid ones). An exporter turns resolved parameters into an `Export`:

- `settings`: what the target system reads, as it names it (pi-lodestone: the `PI_MEMORY_*`
  environment variables; OpenVault: its settings keys; obsidian-mcp: search_vault's
  arguments and OBSIDIAN_SEARCH_BATCH_SIZE), with `where` saying where it reads them;
- `changed`: every constant that differs from the original's default — the faithful models'
  parameter defaults are the originals' constants (REFERENCE.md), so "changed" is "differs
  from the schema default" — with its original default, its new value and the setting that
  carries it, if the target has one (else the change needs a code edit in the original).

Workbench-only parameters (query modes, normalisation experiments, embedding back-ends…) are
not the target's constants and never appear among them; but where one that changes scores
differs from the workbench default (a z-score normalisation, the documented variant's
constants), the figures measured with it cannot be had in the target: such values are listed
apart (`outside`), so an export or report never looks shippable while it is not. A value that
is idle (rrf k without rrf normalisation, a documented-only constant under the shipped
variant) and the evaluation's own settings (the clock, the query form) are not listed.
`write_export` writes the files atomically.

One file a concept: `base` (the record), one exporter a target (`decision_memory`, `hybrid`,
`vault_search`, `codeledger`), `registry` (by model id), `update`, `files` and `env_file`
(merging into what is there), `write`, `readback` (a record given to --params).
"""

from workbench.core.export.base import Change, Export, Exporter
from workbench.core.export.codeledger import CL_WEIGHTS
from workbench.core.export.decision_memory import PI_ENV
from workbench.core.export.files import plan_file_updates
from workbench.core.export.hybrid import encoder_caveat
from workbench.core.export.readback import (
    ENV_MODEL,
    instead_text,
    is_record,
    record_values,
    written_file_text,
)
from workbench.core.export.registry import (
    EXPORTERS,
    export_params,
    exporter_ids,
    no_setting_text,
    unshippable,
)
from workbench.core.export.update import Update, plan_update
from workbench.core.export.vault_search import VS_ARGS, VS_ENV
from workbench.core.export.write import changes_path, is_home, write_export

__all__ = [
    "CL_WEIGHTS",
    "ENV_MODEL",
    "EXPORTERS",
    "PI_ENV",
    "VS_ARGS",
    "VS_ENV",
    "Change",
    "Export",
    "Exporter",
    "Update",
    "changes_path",
    "encoder_caveat",
    "export_params",
    "exporter_ids",
    "instead_text",
    "is_home",
    "is_record",
    "no_setting_text",
    "plan_file_updates",
    "plan_update",
    "record_values",
    "unshippable",
    "write_export",
    "written_file_text",
]
