"""Prepared state without pickle: numpy arrays as raw bytes, everything else as JSON.

Reading a pickle runs whatever code the file names, so a crafted file dropped into a shared
cache folder would run on the next `eval`. This codec can only rebuild plain data: numbers,
text, bytes, lists, tuples, sets, dicts, numpy arrays and scalars, and instances of the
workbench's own classes (a module under `workbench.core.`, rebuilt field by field without
calling their code, as pickle does). Anything else — an object from another package, a lambda
— raises `UnsupportedState` on encoding, and the caller keeps it uncached.

`encode` splits an object into a JSON tree and the list of its arrays, `decode` joins them
back; a state file (`state_file`) streams the arrays to disk and maps them back, describing
each with `array_entry` and viewing it with `array_view`. `dumps` and `loads` hold the same in
one in-memory `.npz` blob (read with `allow_pickle=False`), for small objects.

JSON shapes: a list is a JSON array; every other non-JSON value is an object with one `$`
key naming its kind (`{"$": "array", "i": 3}` → the fourth array). Arrays of Python objects
(dtype=object) are JSON too, item by item; only arrays of plain numbers, booleans, text,
dates and records of them are arrays. An array entry is `{"dtype": descr, "shape": [...],
"order": "C" | "F", "at": offset}`, the descr as `.npy` headers write it.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import io
import json
import math
import mmap
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["ARRAYS_META", "UnsupportedState", "array_entry", "array_view", "decode", "dumps",
           "encode", "loads"]

ARRAYS_META = "__meta__"  # the JSON, stored as the .npz's uint8 array of this name
_OWN_PREFIX = "workbench.core."

Arrays = Sequence[np.ndarray[Any, Any]]
Readable = bytes | bytearray | memoryview | mmap.mmap


class UnsupportedState(TypeError):
    """A value this codec will not write (it could not be read back without pickle)."""


def encode(obj: object) -> tuple[Any, list[np.ndarray[Any, Any]]]:
    """`obj` as (JSON tree, its arrays): the arrays themselves, not copies, numbered as the
    tree's `{"$": "array", "i": i}` nodes name them. UnsupportedState for what `decode` could
    not rebuild."""
    arrays: list[np.ndarray[Any, Any]] = []
    return _encode(obj, arrays), arrays


def decode(tree: Any, arrays: Arrays) -> Any:
    """The object `encode` split into `tree` and `arrays`. ValueError (or another exception)
    for anything malformed; never imports a module outside the workbench's core."""
    return _decode(tree, arrays)


def array_entry(arr: np.ndarray[Any, Any], at: int) -> dict[str, Any]:
    """How `arr`'s raw bytes, written at offset `at`, are read back: its dtype, its shape and
    the order its elements are laid out in — "F" for a Fortran-contiguous array (written as it
    lies in memory, a transposed matrix needs no copy), "C" for everything else."""
    order = "F" if arr.flags.f_contiguous and not arr.flags.c_contiguous else "C"
    return {"dtype": np.lib.format.dtype_to_descr(arr.dtype), "shape": list(arr.shape),
            "order": order, "at": at}


def array_view(buffer: Readable, entry: dict[str, Any], base: int) -> np.ndarray[Any, Any]:
    """The array `entry` describes, at `base + entry["at"]` in `buffer`: a view of it, no copy
    (read-only where the buffer is). ValueError for an entry that does not fit the buffer or
    would need pickle."""
    descr = entry["dtype"]
    if isinstance(descr, list):  # a record dtype: JSON turned its (name, type) pairs into lists
        descr = [tuple(field) for field in descr]
    dtype = np.lib.format.descr_to_dtype(descr)
    if dtype.hasobject:
        raise ValueError("an array of Python objects cannot be read from raw bytes")
    shape = tuple(int(n) for n in entry["shape"])
    at, order = int(entry["at"]), entry["order"]
    if at < 0 or min(shape, default=0) < 0 or order not in ("C", "F"):
        raise ValueError(f"malformed array entry {entry!r}")
    return np.ndarray(shape, dtype, buffer=buffer, offset=base + at, order=order)


def dumps(obj: object) -> bytes:
    """`obj` as `.npz` bytes: its arrays, and the JSON describing the rest (in memory, so for
    small objects; a state file streams instead)."""
    tree, arrays = encode(obj)
    meta = json.dumps(tree, separators=(",", ":"), allow_nan=True)
    buf = io.BytesIO()
    named = {f"a{i}": a for i, a in enumerate(arrays)}
    named[ARRAYS_META] = np.frombuffer(meta.encode("utf-8"), np.uint8)
    np.savez(buf, allow_pickle=False, **named)
    return buf.getvalue()


def loads(blob: bytes) -> Any:
    """The object `dumps` wrote. ValueError for anything malformed."""
    with np.load(io.BytesIO(blob), allow_pickle=False) as npz:
        named = {name: npz[name] for name in npz.files}
    meta = named.pop(ARRAYS_META, None)
    if meta is None:
        raise ValueError("no metadata in the prepared state")
    arrays = [named[f"a{i}"] for i in range(len(named))]
    return decode(json.loads(meta.tobytes().decode("utf-8")), arrays)


def _encode(obj: object, arrays: list[np.ndarray[Any, Any]]) -> Any:
    if obj is None or type(obj) in (bool, str, int):
        return obj
    if type(obj) is float:
        return obj if math.isfinite(obj) else {"$": "float", "v": repr(obj)}
    if isinstance(obj, np.ndarray):
        if obj.dtype.hasobject:
            return {"$": "objarray", "shape": list(obj.shape),
                    "items": [_encode(x, arrays) for x in obj.ravel().tolist()]}
        arrays.append(obj)
        return {"$": "array", "i": len(arrays) - 1}
    if isinstance(obj, np.generic):
        arrays.append(np.asarray(obj))
        return {"$": "scalar", "i": len(arrays) - 1}
    if isinstance(obj, list):
        return [_encode(x, arrays) for x in obj]
    if isinstance(obj, tuple) and type(obj) is tuple:
        return {"$": "tuple", "items": [_encode(x, arrays) for x in obj]}
    if isinstance(obj, set | frozenset):
        return {"$": type(obj).__name__, "items": [_encode(x, arrays) for x in obj]}
    if isinstance(obj, bytes):
        return {"$": "bytes", "hex": obj.hex()}
    if type(obj) is dict:
        if all(isinstance(k, str) for k in obj):
            return {"$": "dict", "items": {k: _encode(v, arrays) for k, v in obj.items()}}
        return {"$": "pairs", "items": [[_encode(k, arrays), _encode(v, arrays)]
                                        for k, v in obj.items()]}
    return _encode_object(obj, arrays)


def _encode_object(obj: object, arrays: list[np.ndarray[Any, Any]]) -> Any:
    cls = type(obj)
    if not cls.__module__.startswith(_OWN_PREFIX) or "<locals>" in cls.__qualname__:
        raise UnsupportedState(f"cannot store a {cls.__module__}.{cls.__qualname__}")
    if isinstance(obj, tuple | list | dict | set | int | float | str | enum.Enum):
        raise UnsupportedState(f"cannot store a {cls.__qualname__} (a built-in's subclass)")
    if hasattr(obj, "__dict__"):
        state = dict(vars(obj))
    elif dataclasses.is_dataclass(obj):  # slots=True
        state = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    else:
        raise UnsupportedState(f"cannot store a {cls.__qualname__} (no fields to read)")
    return {"$": "object", "cls": f"{cls.__module__}:{cls.__qualname__}",
            "state": {k: _encode(v, arrays) for k, v in state.items()}}


def _decode(node: Any, arrays: Arrays) -> Any:
    if isinstance(node, list):
        return [_decode(x, arrays) for x in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("$")
    if kind == "array":
        return _array(node, arrays)
    if kind == "scalar":
        return _array(node, arrays)[()]
    if kind == "float":
        return float(node["v"])
    if kind == "objarray":
        out = np.empty(len(node["items"]), dtype=object)
        out[:] = [_decode(x, arrays) for x in node["items"]]
        return out.reshape(node["shape"])
    if kind in ("tuple", "set", "frozenset"):
        items = [_decode(x, arrays) for x in node["items"]]
        return {"tuple": tuple, "set": set, "frozenset": frozenset}[kind](items)
    if kind == "bytes":
        return bytes.fromhex(node["hex"])
    if kind == "dict":
        return {k: _decode(v, arrays) for k, v in node["items"].items()}
    if kind == "pairs":
        return {_decode(k, arrays): _decode(v, arrays) for k, v in node["items"]}
    if kind == "object":
        return _decode_object(node, arrays)
    raise ValueError(f"unknown kind {kind!r} in the prepared state")


def _array(node: dict[str, Any], arrays: Arrays) -> np.ndarray[Any, Any]:
    i = int(node["i"])
    if not 0 <= i < len(arrays):
        raise ValueError(f"no array {i} in the prepared state")
    return arrays[i]


def _decode_object(node: dict[str, Any], arrays: Arrays) -> Any:
    module_name, _, qualname = str(node["cls"]).partition(":")
    if not module_name.startswith(_OWN_PREFIX):
        raise ValueError(f"refusing to rebuild {module_name}:{qualname}")
    target: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    if not isinstance(target, type) or target.__module__ != module_name:
        raise ValueError(f"{module_name}:{qualname} is not a workbench class")
    obj: Any = object.__new__(target)
    for name, value in node["state"].items():
        object.__setattr__(obj, name, _decode(value, arrays))  # frozen dataclasses too
    return obj
