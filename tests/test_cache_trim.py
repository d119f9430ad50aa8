"""The state caches stay within $WORKBENCH_CACHE_LIMIT: least recently used first, never the
state just written or one in use; reading marks a state used; `workbench cache` shows, trims
and clears. Real prepared states of bm25 on real data, not stand-in files, where it matters."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.engine import prepare, prepare_fingerprint
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.store import trim as trim_module
from workbench.core.store.prepare_cache import prepared_path
from workbench.core.store.trim import parse_size, trim


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(cache))
    monkeypatch.setattr(trim_module, "RECENT_S", 0.0)  # nothing spared for being used now
    return cache


def _state(folder: Path, name: str, size: int, age_s: float) -> Path:
    path = folder / f"{name}.state"
    path.write_bytes(b"x" * size)
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_least_recently_used_go_first_and_the_kept_recent_and_other_files_stay(tmp_path):
    old, mid, new = (_state(tmp_path, n, 100, age) for n, age in
                     (("old", 3000), ("mid", 2000), ("new", 1000)))
    spared = _state(tmp_path, "spared", 100, 4000)
    recent = _state(tmp_path, "recent", 100, 5)
    temp = tmp_path / ".new.state.abcd.tmp"  # a writer's temporary file: not a state
    temp.write_bytes(b"x" * 500)
    done = trim(tmp_path, 250, keep=[spared], recent_s=60)
    # 500 bytes of states: the two oldest that may go are removed, the spared and the
    # recent stay however old or large
    assert (done.removed, done.freed, done.kept_bytes) == (3, 300, 200)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".new.state.abcd.tmp", "recent.state", "spared.state"]
    assert not old.exists() and not mid.exists() and not new.exists() and recent.exists()
    assert trim(tmp_path, None).removed == 0  # no limit: nothing


def test_sizes_read_as_people_write_them():
    assert parse_size("8G", "x") == 8 * 2**30 and parse_size("500m", "x") == 500 * 2**20
    assert parse_size("0", "x") == 0
    for bad in ("lots", "-1G", "", "1e400", "8GG", "5MT", "9" * 30):
        with pytest.raises(ValueError, match="not a size"):
            parse_size(bad, "$WORKBENCH_CACHE_LIMIT")


def test_prepared_states_are_trimmed_to_the_limit_oldest_use_first(own_cache, monkeypatch):
    model = get_model("bm25")
    tea = load_dataset(SAMPLES / "tea-beir")
    variants = [model.schema.resolve({"stemmer": s}) for s in ("snowball-english", "none")]
    assert len({prepare_fingerprint(model, tea, p) for p in variants}) == 2
    paths = [prepared_path(model.id, prepare_fingerprint(model, tea, p)) for p in variants]
    prepare(model, tea, variants[0])
    one = paths[0].stat().st_size
    monkeypatch.setenv("WORKBENCH_CACHE_LIMIT", str(int(one * 1.5)))  # room for one
    prepare(model, tea, variants[1])  # saved: the other, older one goes
    assert not paths[0].exists() and paths[1].exists()
    # a state read is marked used: of two, the one not read goes
    prepare(model, tea, variants[0])  # re-prepared (a miss), and the other trimmed
    assert paths[0].exists() and not paths[1].exists()
    then = time.time() - 3600
    os.utime(paths[0], (then, then))
    prepare(model, tea, variants[0])  # a hit
    assert time.time() - paths[0].stat().st_mtime < 60


def test_a_limit_that_is_no_size_is_one_error(own_cache, monkeypatch, capsys):
    monkeypatch.setenv("WORKBENCH_CACHE_LIMIT", "lots")
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == ("workbench eval: error: $WORKBENCH_CACHE_LIMIT='lots': not a size "
                           "(bytes, or a number with K, M, G or T: 8G or 8GiB = 8 × 1024³ "
                           "bytes, 8GB = 8 × 1000³; 0 keeps everything)")
    assert not (own_cache / "prepared").exists()  # nothing done


def test_cache_command_shows_trims_and_clears(own_cache, capsys):
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25"]) == 0
    capsys.readouterr()
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert f"cache folder: {own_cache}" in out
    prepared = next(line for line in out.splitlines() if line.startswith("prepared"))
    # the whole stage's state, and BM25's documents' index (kept by the corpus alone)
    assert prepared.split()[1] == "2" and "kept under 8.0 GiB" in prepared
    assert main(["cache", "--trim", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("prepared: removed 2 states")
    assert list((own_cache / "prepared").glob("*.state")) == []
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25"]) == 0
    assert main(["cache", "--clear", "prepared"]) == 0
    assert "prepared: cleared" in capsys.readouterr().out
    assert not (own_cache / "prepared").exists()
    assert main(["cache", "--trim", "lots"]) == 2
    err = capsys.readouterr().err
    assert "--trim='lots': not a size" in err and "0 removes every state not in use" in err


def test_a_trim_that_cannot_remove_says_so_and_fails(own_cache, monkeypatch, capsys):
    """On a read-only cache `--trim 0` had said 'removed 0 states … kept' and exited 0, where
    --clear on the same cache says it cannot. (Root writes anywhere: the unlink is made to
    fail as a read-only file system fails it.)"""
    import errno

    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25"]) == 0
    capsys.readouterr()

    class ReadOnlyOs:  # trim's `os`, its unlink failing; every other module's untouched
        def __getattr__(self, name: str) -> object:
            return getattr(os, name)

        @staticmethod
        def unlink(path: object) -> None:
            raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(trim_module, "os", ReadOnlyOs())
    assert main(["cache", "--trim", "0"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("prepared: removed 0 states (0 KiB); ")
    assert out.splitlines()[0].endswith("; could not remove 2 (Read-only file system)")
    assert len(list((own_cache / "prepared").glob("*.state"))) == 2


def test_the_cache_command_says_an_unusable_cache_folder(tmp_path, monkeypatch, capsys):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(afile))
    assert main(["cache"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: the cache folder cannot be written (")
    assert "is a file, not a folder" in err


def test_trim_removes_what_a_killed_writer_left(own_cache, capsys):
    """A prepare killed mid-write leaves `.NAME.XXXX.tmp`, which `cache` counts: `--trim 0`
    said 'removed 0 states' and left it (only a write six hours later swept it). A temporary
    file still changing (a writer at work) stays."""
    folder = own_cache / "prepared"
    folder.mkdir(parents=True)
    dead, live = folder / ".a.state.x1.tmp", folder / ".b.state.x2.tmp"
    dead.write_bytes(b"x" * 3000)
    live.write_bytes(b"y")
    long_ago = time.time() - 3600
    os.utime(dead, (long_ago, long_ago))
    assert main(["cache", "--trim", "0"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("prepared: removed 0 states")
    assert first.endswith("; and 1 unfinished write a killed process left (3 KiB)")
    assert not dead.exists() and live.exists()


def test_a_trim_size_without_a_unit_is_refused_and_nothing_removed(own_cache, capsys):
    """`cache --trim 8` read as 8 bytes and removed every prepared state without a word (the
    help and README speak of 8G); 0 and a size with a unit still trim."""
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25"]) == 0
    states = sorted((own_cache / "prepared").glob("*.state"))
    assert len(states) == 2
    capsys.readouterr()
    for bare in ("8", "8.5"):
        assert main(["cache", "--trim", bare]) == 2
        got = capsys.readouterr()
        assert got.out == ""
        assert got.err.strip() == (
            f"workbench cache: error: --trim {bare}: give a unit: e.g. {bare}G (a bare number is "
            f"bytes, which would remove nearly every state; {bare}B if bytes are meant, 0 to "
            "remove every state not in use); nothing removed")
        assert sorted((own_cache / "prepared").glob("*.state")) == states
    assert main(["cache", "--trim", "8G"]) == 0
    assert capsys.readouterr().out.startswith("prepared: removed 0 states")
    assert main(["cache", "--trim", "8B"]) == 0  # bytes, said so
    assert capsys.readouterr().out.startswith("prepared: removed 2 states")
