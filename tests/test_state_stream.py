"""State files stream their arrays to disk and map them back (issue 13, preparation in chunks):
a round trip rebuilds the object with read-only memory-mapped arrays; a truncated, corrupt or
crafted file reads as a miss and is removed; a failed write leaves nothing behind; writing and
reading a 400 MB array holds no second copy of it."""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.core.metrics.judgments import Judgments
from workbench.core.store import state_file

REPO = Path(__file__).resolve().parents[1]


def _judgments() -> Judgments:
    ideal = np.arange(24, dtype=np.float64).reshape(4, 6)
    return Judgments(
        query_ids=("q1", "q2", "q3"), n_docs=7,
        keys=np.array([0, 3, 8, 20], np.int64),
        grades=np.array([2, 0, 1, 3], np.int64)[::-1],  # a reversed view: negative stride
        n_rel=np.array([1, 1, 1], np.int64),
        n_judged=np.array([2, 1, 1], np.int64),
        ideal=ideal[:3, ::2],  # non-contiguous
        name_rank=np.arange(7, dtype=np.int64),
    )


def _state() -> dict[str, Any]:
    return {
        "judgments": _judgments(),
        "nested": [{"ids": np.array(["d1", "d22"]), "flags": np.array([True, False])},
                   (1, 2.5, float("nan")), {"deep": [np.arange(3, dtype=np.int8)]}],
        "fortran": np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4)),
        "scalar": np.float32(1.5),
        "zero_d": np.array(7, np.uint16),
        "empty": np.zeros((0, 5)),
        "when": np.array(["2024-01-02", "2025-03-04"], "datetime64[D]"),
        "record": np.array([(1, 2.0)], dtype=[("a", "<i2"), ("b", ">f8")]),
        "objects": np.array(["text", 3], dtype=object),
        "pairs": {(1, "x"): b"\x00\xff"},
    }


def _arrays(obj: object) -> list[np.ndarray[Any, Any]]:
    """Every non-object array inside `obj` (dataclass fields, containers)."""
    if isinstance(obj, np.ndarray):
        return [] if obj.dtype.hasobject else [obj]
    if isinstance(obj, dict):
        return [a for v in obj.values() for a in _arrays(v)]
    if isinstance(obj, list | tuple):
        return [a for v in obj for a in _arrays(v)]
    if isinstance(obj, Judgments):
        return [a for v in vars(obj).values() for a in _arrays(v)]
    return []


def _mapped(arr: np.ndarray[Any, Any]) -> bool:
    base: object = arr
    while isinstance(base, np.ndarray):
        base = base.base
    return isinstance(base, mmap.mmap)


def _only(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_round_trip_maps_every_array_read_only(tmp_path: Path) -> None:
    path, obj = tmp_path / "x.state", _state()
    state_file.write_state(path, obj)
    assert _only(tmp_path) == ["x.state"]  # no temporary file left
    back = state_file.read_state(path)
    j, jb = obj["judgments"], back["judgments"]
    assert type(jb) is Judgments and jb.query_ids == j.query_ids and jb.n_docs == 7
    for name in ("keys", "grades", "n_rel", "n_judged", "ideal", "name_rank"):
        a, b = getattr(j, name), getattr(jb, name)
        assert b.dtype == a.dtype and b.shape == a.shape and np.array_equal(a, b), name
    fortran = back["fortran"]  # laid out as it was, no copy to C order on either side
    assert fortran.flags.f_contiguous and not fortran.flags.c_contiguous
    assert np.array_equal(fortran, obj["fortran"])
    nested = back["nested"]
    assert nested[0]["ids"].tolist() == ["d1", "d22"] and nested[0]["flags"].tolist() == [
        True, False]
    assert nested[1][:2] == (1, 2.5) and np.isnan(nested[1][2])
    assert nested[2]["deep"][0].dtype == np.int8
    assert back["scalar"] == np.float32(1.5) and type(back["scalar"]) is np.float32
    assert back["zero_d"].shape == () and back["zero_d"] == 7
    assert back["empty"].shape == (0, 5)
    assert np.array_equal(back["when"], obj["when"]) and back["record"].dtype == obj[
        "record"].dtype and back["record"].tolist() == obj["record"].tolist()
    assert back["objects"].tolist() == ["text", 3] and back["pairs"] == {(1, "x"): b"\x00\xff"}

    arrays = _arrays(back)
    assert len(arrays) == len(_arrays(obj)) == 14
    for arr in arrays:
        assert _mapped(arr) and not arr.flags.writeable
        if arr.size:
            assert arr.ctypes.data % state_file.ALIGN == 0  # every array starts aligned
            first = (0,) * arr.ndim
            with pytest.raises(ValueError, match="read-only"):
                arr[first] = arr[first]


def _blob(root: object, entries: list[dict[str, Any]], data: bytes = b"") -> bytes:
    """A state file with a correct digest around whatever metadata and data it is given."""
    meta = json.dumps({"root": root, "arrays": entries}).encode()
    head = len(meta).to_bytes(8, "little") + meta
    pad = bytes(-(len(state_file.MAGIC) + 32 + len(head)) % state_file.ALIGN)
    body = head + pad + data
    return state_file.MAGIC + hashlib.sha256(body).digest() + body


@pytest.mark.parametrize("damage", ["truncated", "flipped_in_array", "flipped_in_meta",
                                    "old_format", "empty"])
def test_a_damaged_file_is_a_miss_and_is_removed(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "x.state"
    state_file.write_state(path, {"a": np.arange(10_000, dtype=np.float64), "b": [1, 2]})
    blob = bytearray(path.read_bytes())
    if damage == "truncated":
        blob = blob[:len(blob) // 2]
    elif damage == "flipped_in_array":
        blob[-100] ^= 0x01
    elif damage == "flipped_in_meta":
        blob[60] ^= 0x20
    elif damage == "old_format":
        blob[:8] = b"WBPREP2\n"
    else:
        blob = bytearray()
    path.write_bytes(bytes(blob))
    assert state_file.read_state(path) is None
    assert not path.exists()


@pytest.mark.parametrize("crafted", ["os_system", "object_dtype", "past_the_end", "bad_index"])
def test_a_crafted_file_with_a_correct_digest_is_a_miss(tmp_path: Path, crafted: str) -> None:
    path = tmp_path / "x.state"
    entry = {"dtype": "<f8", "shape": [4], "order": "C", "at": 0}
    blob = {
        "os_system": _blob({"$": "object", "cls": "os:system", "state": {}}, []),
        "object_dtype": _blob({"$": "array", "i": 0}, [{**entry, "dtype": "|O"}], bytes(32)),
        "past_the_end": _blob({"$": "array", "i": 0}, [{**entry, "shape": [5]}], bytes(32)),
        "bad_index": _blob({"$": "array", "i": -1}, [entry], bytes(32)),
    }[crafted]
    path.write_bytes(blob)
    assert state_file.read_state(path) is None
    assert not path.exists()


def test_a_sound_crafted_file_reads_back(tmp_path: Path) -> None:
    """The layout the other tests craft is the one `read_state` reads."""
    path = tmp_path / "x.state"
    entry = {"dtype": "<f8", "shape": [4], "order": "C", "at": 0}
    path.write_bytes(_blob({"$": "array", "i": 0}, [entry],
                           np.arange(4, dtype="<f8").tobytes()))
    assert state_file.read_state(path).tolist() == [0.0, 1.0, 2.0, 3.0]


class _FakeArrayFailingMidWrite(np.ndarray):
    """A fake array: not contiguous, so the writer copies it a few rows at a time, and reading
    those rows fails — after the header, the metadata and the arrays before it are written."""

    error: BaseException = RuntimeError("the array's storage went away")

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            raise self.error
        return super().__getitem__(key)


@pytest.mark.parametrize("error", [RuntimeError("gone"), OSError(28, "No space left")])
def test_a_write_failing_midway_leaves_no_file(tmp_path: Path, error: BaseException) -> None:
    path = tmp_path / "x.state"
    state_file.write_state(path, {"old": np.arange(3)})
    fake = np.arange(4000.0)[::2].view(_FakeArrayFailingMidWrite)
    fake.error = error
    obj = {"first": np.arange(100_000), "fake": fake}
    if isinstance(error, OSError):
        state_file.write_state(path, obj)  # a cache that cannot be written only costs time
    else:
        with pytest.raises(RuntimeError, match="gone"):
            state_file.write_state(path, obj)
    assert _only(tmp_path) == ["x.state"]  # no temporary file; the old state in place
    assert state_file.read_state(path)["old"].tolist() == [0, 1, 2]


def test_an_object_the_codec_refuses_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "x.state"
    state_file.write_state(path, {"a": np.arange(3), "f": lambda: None})
    assert not path.parent.exists() or _only(path.parent) == []


@pytest.mark.skipif(os.name == "nt", reason="a mapped file cannot be replaced on Windows")
def test_a_file_replaced_while_mapped_keeps_the_old_arrays(tmp_path: Path) -> None:
    path = tmp_path / "x.state"
    state_file.write_state(path, np.arange(1000))
    old = state_file.read_state(path)
    state_file.write_state(path, np.arange(1000) * 2)
    new = state_file.read_state(path)
    assert old.tolist() == list(range(1000)) and new[-1] == 1998


_PEAK = """
import resource, sys
def peak():  # bytes; ru_maxrss is KiB on Linux, bytes on macOS
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (
        1 if sys.platform == "darwin" else 1024)
"""

_WRITE = _PEAK + """
from pathlib import Path
import numpy as np
from workbench.core.store import state_file
big = np.arange({n}, dtype=np.float64)  # every page touched
strided = big[::16]  # written a few rows at a time
before = peak()
state_file.write_state(Path(sys.argv[1]), {{"big": big, "strided": strided}})
print(peak() - before)
"""

_READ = _PEAK + """
from pathlib import Path
import numpy as np
from workbench.core.store import state_file
before = peak()
back = state_file.read_state(Path(sys.argv[1]))
assert back is not None and back["big"].shape == ({n},) and not back["big"].flags.writeable
print(peak() - before)
"""


def _run(script: str, path: Path) -> int:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(script), str(path)],
                         cwd=REPO, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    return int(out.stdout.split()[-1])


def test_writing_and_reading_400_mb_holds_no_second_copy(tmp_path: Path) -> None:
    n = 50_000_000  # float64: 400 MB
    size = n * 8
    path = tmp_path / "big.state"
    try:
        grew_writing = _run(_WRITE.format(n=n), path)
        assert path.stat().st_size > size
        grew_reading = _run(_READ.format(n=n), path)
    finally:
        path.unlink(missing_ok=True)  # not left in the kept pytest folders
    assert grew_writing < 0.25 * size, f"writing grew the peak by {grew_writing / 1e6:.0f} MB"
    assert grew_reading < 0.25 * size, f"reading grew the peak by {grew_reading / 1e6:.0f} MB"


def test_a_pipe_in_place_of_a_state_file_is_a_miss_not_a_hang(tmp_path: Path) -> None:
    """A named pipe at a cache path blocked `open` until a writer came, forever: it is now
    refused at once, as any file that is not a regular one."""
    fifo = tmp_path / "x.state"
    os.mkfifo(fifo)
    script = textwrap.dedent(f"""
        from pathlib import Path
        from workbench.core.store import state_file
        assert state_file.read_state(Path({str(fifo)!r})) is None
        print("miss")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "miss", done.stderr
