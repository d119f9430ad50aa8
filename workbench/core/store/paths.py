"""Where the on-disk caches live: `$WORKBENCH_CACHE_DIR`, else the user cache folder.

Each cache keeps to its own subfolder of `cache_dir()`: `prepared/` (the prepare cache),
`repo-index/` (the repository index cache), `embeddings/` (the embedding store),
`sample-repos/` (sample repositories built from fast-import streams) and `studies.db` (tuning
studies).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir", "cache_unusable"]


def cache_dir() -> Path:
    """The root of every on-disk cache: $WORKBENCH_CACHE_DIR, else the user cache folder."""
    env = os.environ.get("WORKBENCH_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("scoring-workbench"))


def cache_unusable() -> str | None:
    """Why no cache can be kept under `cache_dir()` (a file where the folder should be, a
    read-only folder), or None when a file can be made there. Made if missing."""
    import tempfile

    root = cache_dir()
    if root.exists() and not root.is_dir():
        return f"{root} is a file, not a folder"
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".wb-probe-", dir=root)
    except OSError as exc:
        return f"{root}: {exc.strerror or exc}"
    os.close(fd)
    os.unlink(probe)
    return None
