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


@pytest.mark.parametrize(("config", "said"), [
    ("{}", "config.json: field 'model_type': missing"),
    ('{"broken', "config.json: not valid JSON"),
])
def test_a_damaged_model_folder_is_one_line_naming_its_config(tmp_path: Path, config: str,
                                                              said: str) -> None:
    """A config.json without model_type, or cut off, ended in a 60–90-line chained traceback
    from transformers (KeyError 'hidden_size', then 'Unrecognized model')."""
    from workbench.core.embeddings import SentenceTransformerEncoder

    (tmp_path / "config.json").write_text(config)
    encoder = SentenceTransformerEncoder(str(tmp_path))
    with pytest.raises(EmbeddingError) as caught:
        encoder.encode(["tea"])
    text = str(caught.value)
    assert said in text and "\n" not in text and "not a sentence-transformers model" in text


def test_a_loader_failure_that_is_not_the_folder_keeps_its_own_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sentence_transformers

    from workbench.core.embeddings import SentenceTransformerEncoder

    (tmp_path / "config.json").write_text('{"model_type": "bert", "hidden_size": 4}')

    def fails(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("CUDA out of memory. Tried to allocate 2 GiB")

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", fails)
    with pytest.raises(EmbeddingError) as caught:
        SentenceTransformerEncoder(str(tmp_path)).encode(["tea"])
    assert str(caught.value) == (f"{tmp_path.resolve()}: the model did not load "
                                 "(RuntimeError: CUDA out of memory. Tried to allocate 2 GiB)")
