"""The numbers a repository's own CodeLedger config (`.codeledger/config.json`) sets under
`selector` (REFERENCE §2: the weights, the default budget, and in later versions the
sufficiency threshold and the excerpt threshold); its `repo` globs are `formats.code_repo`'s."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["SELECTOR_KEY", "SELECTOR_SETTINGS", "read_selector"]

SELECTOR_KEY = "repo_selector"  # dataset.settings: [[setting, value], …] as the config has them
WEIGHTS = ("keyword", "centrality", "churn", "recent_touch", "test_relevance", "size_penalty",
           "success_prior", "fail_prior")
# the settings read, dotted under `selector`, in the order CodeLedger's config lists them
SELECTOR_SETTINGS = (*(f"weights.{w}" for w in WEIGHTS), "default_budget.tokens",
                     "default_budget.max_files", "sufficiency_threshold",
                     "excerpt_full_file_max_lines")


def read_selector(path: Path) -> list[tuple[str, float]]:
    """(setting, value) of each number among `SELECTOR_SETTINGS` the config holds; [] without
    a file, or a readable one without them (a file that does not read is said by the loader,
    which reads its globs)."""
    try:
        config = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return []
    selector = config.get("selector") if isinstance(config, dict) else None
    out = []
    for setting in SELECTOR_SETTINGS:
        value: object = selector
        for part in setting.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool):
            out.append((setting, float(value)))
    return out
