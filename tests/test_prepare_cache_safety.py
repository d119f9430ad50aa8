"""The prepare cache holds arrays and JSON, never pickle: a crafted file with a correct
checksum, dropped into the cache folder, never runs code; state round-trips exactly."""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models import get_model
from workbench.core.store import codec, state_file


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.write_text, (self.marker, "code ran"))


def _tiny() -> Dataset:
    docs = [Document("d1", "Cats", "cats purr"), Document("d2", "Dogs", "dogs bark at cats")]
    return Dataset("tiny", Corpus(docs), QuerySet([Query("q1", "cats")]))


def _framed(magic: bytes, payload: bytes) -> bytes:
    return magic + hashlib.sha256(payload).digest() + payload


def _state(root: object) -> bytes:
    """A state file holding `root` and no arrays, with a correct digest (`state_file`'s
    layout: magic, SHA-256 of the rest, the metadata's length, the metadata)."""
    meta = json.dumps({"root": root, "arrays": []}).encode()
    return _framed(state_file.MAGIC, len(meta).to_bytes(8, "little") + meta)


def test_a_crafted_cache_file_never_runs_code(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    model, ds = get_model("bm25"), _tiny()
    params = model.schema.defaults()
    stem = f"{model.id}-{engine.prepare_fingerprint(model, ds, params)}"
    folder = tmp_path / "cache" / "prepared"
    folder.mkdir(parents=True)
    marker = tmp_path / "marker"
    evil = pickle.dumps(_Payload(marker))
    # a pickle under the old name and format, and under the new name; a JSON naming os.system
    (folder / f"{stem}.pkl").write_bytes(_framed(b"WBPREP1\n", evil))
    (folder / f"{stem}.state").write_bytes(_framed(state_file.MAGIC, evil))
    prepared = engine.prepare(model, ds, params)
    assert not marker.exists()
    assert prepared.cand.size  # prepared afresh
    (folder / f"{stem}.state").write_bytes(_state({"$": "object", "cls": "os:system",
                                                   "state": {}}))
    engine.prepare(model, ds, params)
    assert not marker.exists()
    again = state_file.read_state(folder / f"{stem}.state")
    assert type(again) is type(prepared)  # the crafted file was replaced by a sound one


def test_state_round_trips_and_refuses_what_it_cannot_rebuild() -> None:
    model, ds = get_model("bm25"), _tiny()
    params = model.schema.defaults()
    prepared = model.prepare(ds, params)
    back = codec.loads(codec.dumps(prepared))
    a, b = model.combine(prepared, params), model.combine(back, params)
    assert np.array_equal(a.total, b.total) and np.array_equal(a.docs, b.docs)
    odd = {"t": (1, 2.5, float("inf")), "s": {3}, "k": {(1, "x"): b"\x00"}, "n": np.int32(4)}
    assert codec.loads(codec.dumps(odd)) == odd
    with pytest.raises(codec.UnsupportedState):
        codec.dumps({"f": lambda: None})
    with pytest.raises(codec.UnsupportedState):
        codec.dumps(Path("x"))
