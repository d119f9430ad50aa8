"""Where the on-disk caches live: `$WORKBENCH_CACHE_DIR`, else the user cache folder.

Each cache keeps to its own subfolder of `cache_dir()`: `prepared/` (the prepare cache),
`repo-index/` (the repository index cache), `embeddings/` (the embedding store),
`sample-repos/` (sample repositories built from fast-import streams) and `studies.db` (tuning
studies).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir"]


def cache_dir() -> Path:
    """The root of every on-disk cache: $WORKBENCH_CACHE_DIR, else the user cache folder."""
    env = os.environ.get("WORKBENCH_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("scoring-workbench"))
