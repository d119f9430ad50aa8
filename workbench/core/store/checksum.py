"""SHA-256 checksums the caches share.

Every cache file carries a SHA-256, so a truncated or corrupt file is detected rather than
trusted: a state file in a header slot filled in last, its arrays hashed as they stream
(`state_file`); the embedding store's shards in their own header (`embeddings`). `seal` frames
a payload held in memory as `magic + SHA-256(payload) + payload` and `unseal` checks the
frame. `code_fingerprint` is a hash of the core's source that the prepare and repository index
cache keys include, so a cache written by other code is never read back.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

__all__ = ["DIGEST_BYTES", "code_fingerprint", "seal", "unseal"]

DIGEST_BYTES = 32  # SHA-256


def seal(magic: bytes, payload: bytes) -> bytes:
    """`payload` framed with `magic` and its SHA-256."""
    return magic + hashlib.sha256(payload).digest() + payload


def unseal(magic: bytes, blob: bytes) -> bytes | None:
    """The payload of a `seal`ed blob, or None when the magic, the length or the digest is
    wrong."""
    head = len(magic) + DIGEST_BYTES
    if len(blob) < head or not blob.startswith(magic):
        return None
    digest, payload = blob[len(magic):head], blob[head:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    return payload


@functools.cache
def code_fingerprint() -> str:
    """A hash of the core's source, so a cache written by other code (an older checkout, a
    changed tokenizer) is never read back into this code. Embeddings have their own cache,
    keyed by model and text, so this costs a re-prepare of seconds, not a re-embed."""
    core = Path(__file__).resolve().parents[1]  # workbench/core, this package included
    h = hashlib.sha256()
    for f in sorted(core.rglob("*.py")):
        h.update(str(f.relative_to(core)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]
