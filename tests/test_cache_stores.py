"""`workbench cache` lists the embedding stores one by one, with the prompt each holds: the
folders are named by a hash of it, and which of three was the SciFact prompt could not be
told."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.cli import main
from workbench.core.store.embeddings import EmbeddingStore, store_folder, store_summaries, text_key


def _store(identity: str, prompt: str, n: int, about: bool = True) -> Path:
    folder = store_folder(identity, prompt)
    store = EmbeddingStore(folder, 4, {"encoder": identity, "prompt": prompt} if about else None)
    vectors = np.ones((n, 4), np.float32)
    assert store.add([text_key(f"{prompt}{i}") for i in range(n)], vectors)
    return folder


def test_cache_lists_each_store_with_its_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    _store("enc-a", "query: ", 3)
    _store("enc-a", "", 5)
    # made before stores kept about.json: the empty prompt is known by its hash
    _store("enc-b", "", 2, about=False)
    odd = _store("enc-b", "a prompt no model uses", 1, about=False)
    found = sorted((s.encoder, s.prompt or "", s.vectors)
                   for s in store_summaries(tmp_path / "embeddings"))
    # without about.json the prompt is not recorded (None, sorted here as "")
    assert found == [("enc-a", "", 5), ("enc-a", "query: ", 3), ("enc-b", "", 1),
                     ("enc-b", "", 2)]
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("enc-")}
    assert "'query: '" in rows[store_folder("enc-a", "query: ").name]
    assert "(none)" in rows[store_folder("enc-a", "").name]
    assert "(none)" in rows[store_folder("enc-b", "").name]  # recognised by its hash
    assert "not recorded" in rows[odd.name]
    assert rows[store_folder("enc-a", "").name].split()[-3] == "5"  # vectors, from headers


def test_a_damaged_about_json_is_said_and_written_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # review rv2, 5: `{"enc` in about.json was listed as "made by an earlier version"
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    odd = _store("enc-c", "a prompt no model uses", 2)
    plain = _store("enc-c", "", 3)
    for folder in (odd, plain):
        (folder / "about.json").write_text('{"enc', encoding="utf-8")
    _store("enc-c", "no about.json", 1, about=False)
    by_name = {s.folder.name: s for s in store_summaries(tmp_path / "embeddings")}
    assert by_name[odd.name].about_unreadable and by_name[plain.name].about_unreadable
    assert not by_name[store_folder("enc-c", "no about.json").name].about_unreadable
    assert main(["cache"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
            if line.startswith("enc-")}
    assert "(about.json unreadable)" in rows[odd.name]
    assert "earlier version" not in rows[odd.name]
    # the empty prompt is still known by its folder's hash
    assert "(none) (by its hash; about.json unreadable)" in rows[plain.name]
    assert "earlier version" in rows[store_folder("enc-c", "no about.json").name]
    # the next shard written there writes it again
    store = EmbeddingStore(odd, 4, {"encoder": "enc-c", "prompt": "a prompt no model uses"})
    assert store.add([text_key("one more")], np.ones((1, 4), np.float32))
    (again,) = [s for s in store_summaries(tmp_path / "embeddings") if s.folder == odd]
    assert (again.prompt, again.about_unreadable) == ("a prompt no model uses", False)
