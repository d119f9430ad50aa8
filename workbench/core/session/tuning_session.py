"""`TuningSession` made of its parts, one concept a mixin, and saved and loaded as one
file (`session_file`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.core.session.baseline import BaselineMixin
from workbench.core.session.computing import ComputeMixin
from workbench.core.session.datasets import DatasetMixin
from workbench.core.session.named import ConfigurationsMixin
from workbench.core.session.queries import QueryMixin
from workbench.core.session.undo import UndoMixin
from workbench.core.session.values import ValuesMixin
from workbench.core.session_file import load_session, session_dict, write_session_file


class TuningSession(DatasetMixin, QueryMixin, ValuesMixin, UndoMixin, ComputeMixin,
                    BaselineMixin, ConfigurationsMixin):
    """Dataset, model, parameters, baseline and selection, each announcing its changes."""

    # -- saving ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return session_dict(self)

    def save(self, path: str | Path) -> None:
        """The session as a file (temporary + rename), its data's paths beneath the file's
        folder also kept relative to it, so a moved project folder opens."""
        write_session_file(self, path)

    def load(self, path: str | Path) -> None:
        """Open a saved session: its dataset, model, parameters, configurations, k, query and
        baseline — all of it or, on any bad field, none of it (FormatError, the session
        untouched)."""
        load_session(self, path)
