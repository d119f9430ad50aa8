"""Files on disk: atomic writes, checksums and the caches, in one place.

- `paths`: `cache_dir()`, the root every cache lives under.
- `atomic`: atomic writes of one file or several, all or none, or of one file piece by piece;
  where a write lands.
- `checksum`: the SHA-256 frame of a payload; the fingerprint of the core's source.
- `codec`: an object as JSON and its arrays, never pickle.
- `state_file`: one cached object per file, its arrays streamed to disk and mapped back
  read-only, checksummed, read and written safely.
- `prepare_cache`: models' prepared state, keyed by model, parameters and dataset.
- `index_cache`: repository indexes, keyed by commit and options.
- `embeddings`: the embedding store, vectors by text key per encoder and prompt.

Nothing here imports the engine: `engine.prepare` and `repo.index` call into this package.
"""

from workbench.core.store.atomic import (
    NotRegularFileError,
    atomic_write_bytes,
    atomic_write_many,
    atomic_write_text,
    atomic_writer,
    write_target,
)
from workbench.core.store.checksum import code_fingerprint, seal, unseal
from workbench.core.store.codec import UnsupportedState
from workbench.core.store.embeddings import EmbeddingStore, store_folder, text_key
from workbench.core.store.index_cache import index_key, load_index, save_index
from workbench.core.store.paths import cache_dir, cache_unusable
from workbench.core.store.prepare_cache import (
    load_prepared,
    prepare_key,
    prepared_path,
    save_prepared,
)
from workbench.core.store.state_file import read_state, write_state

__all__ = [
    "EmbeddingStore", "NotRegularFileError", "UnsupportedState", "atomic_write_bytes",
    "atomic_write_many", "atomic_write_text", "atomic_writer", "cache_dir", "cache_unusable",
    "code_fingerprint",
    "index_key", "load_index", "load_prepared", "prepare_key", "prepared_path", "read_state",
    "save_index", "save_prepared", "seal", "store_folder", "text_key", "unseal", "write_state",
    "write_target",
]
