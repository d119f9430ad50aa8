"""The prepare cache: a model's prepared state on disk, one state file (`state_file`) per model
and fingerprint under `cache_dir()/prepared/`.

The fingerprint covers the model's id and version, the core's source, the prepare-stage
parameters and the dataset, so a changed input never reads an old state. `engine.prepare` runs
the model's prepare stage on a miss and saves what it returns.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.core.store.checksum import code_fingerprint
from workbench.core.store.paths import cache_dir
from workbench.core.store.state_file import SUFFIX, read_state, write_state
from workbench.core.store.trim import after_save, mark_used

__all__ = ["load_prepared", "prepare_key", "prepared_path", "save_prepared"]


def prepare_key(model_id: str, version: str, params: Mapping[str, object],
                dataset: str) -> str:
    """The fingerprint of a prepared state: model id and version, the core's source, the
    prepare-stage parameter values and the dataset's fingerprint."""
    key = json.dumps(
        {"model": model_id, "version": version, "code": code_fingerprint(),
         "params": params, "dataset": dataset},
        sort_keys=True, default=str,
    )
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def prepared_path(model_id: str, fingerprint: str) -> Path:
    return cache_dir() / "prepared" / f"{model_id}-{fingerprint}{SUFFIX}"


def load_prepared(model_id: str, fingerprint: str) -> Any:
    """The cached state, or None on a miss (or a file that could not be trusted). Its arrays
    are read-only maps of the file (`state_file`): a model never writes into prepared state."""
    path = prepared_path(model_id, fingerprint)
    state = read_state(path)
    if state is not None:
        mark_used(path)  # the last to be trimmed (trim.py)
    return state


def save_prepared(model_id: str, fingerprint: str, prepared: object) -> None:
    path = prepared_path(model_id, fingerprint)
    write_state(path, prepared)
    after_save(path)
