"""An embedding model name is a model folder or an installed package that ships one — found
without importing anything, so a name can never run code."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.embeddings import EmbeddingError, resolve_model_path

NOISY = "import pathlib\npathlib.Path({marker!r}).write_text('imported')\n"


def _package(root: Path, name: str, marker: Path, *, ships_model: bool) -> None:
    pkg = root / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(NOISY.format(marker=str(marker)) +
                                     "def get_model_path():\n    return pathlib.Path('.')\n")
    if ships_model:
        (pkg / "model").mkdir()
        (pkg / "model" / "modules.json").write_text("[]")


def test_a_module_name_is_never_imported(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "marker"
    _package(tmp_path, "wb_not_a_model", marker, ships_model=False)
    _package(tmp_path, "wb_ships_a_model", marker, ships_model=True)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(EmbeddingError, match="no local embedding model 'wb_not_a_model'"):
        resolve_model_path("wb_not_a_model")
    assert resolve_model_path("wb-ships-a-model") == tmp_path / "wb_ships_a_model" / "model"
    assert not marker.exists()  # neither package ran


def test_an_empty_name_or_a_folder_without_a_model(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="empty"):
        resolve_model_path("")
    with pytest.raises(EmbeddingError, match="a folder without a model"):
        resolve_model_path(str(tmp_path))
    (tmp_path / "config.json").write_text("{}")
    assert resolve_model_path(str(tmp_path)) == tmp_path.resolve()
