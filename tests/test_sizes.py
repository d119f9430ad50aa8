"""Sizes say what they count: the cache listing printed "8.0 GB" for 8 × 1024³ bytes, and
$WORKBENCH_CACHE_LIMIT=8GB was read as 8 × 1024³ too. Now sizes print in GiB, MiB and KiB,
and are read as GNU coreutils reads them: 8G = 8GiB = 8 × 1024³ bytes, 8GB = 8 × 1000³."""

from __future__ import annotations

import pytest

from workbench.cli import main
from workbench.core import engine
from workbench.core.store.trim import parse_size


@pytest.mark.parametrize(("text", "size"), [
    ("8G", 8 * 1024**3), ("8GiB", 8 * 1024**3), ("8 gib", 8 * 1024**3),
    ("8GB", 8_000_000_000), ("1.5GB", 1_500_000_000), ("500M", 500 * 1024**2),
    ("500MB", 500_000_000), ("2KiB", 2048), ("2KB", 2000), ("1T", 1024**4),
    ("1TB", 10**12), ("123456", 123456), ("10B", 10),
])
def test_binary_and_decimal_units_mean_what_they_say(text: str, size: int) -> None:
    assert parse_size(text, "x") == size


@pytest.mark.parametrize("bad", ["8iB", "8GIBB", "G", "8 G B"])
def test_what_is_no_size_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a size"):
        parse_size(bad, "x")


def test_the_cache_listing_names_binary_units(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("WORKBENCH_CACHE_LIMIT", "8GB")  # 8 × 1000³ bytes: 7.45 GiB
    assert main(["cache"]) == 0
    prepared = next(line for line in capsys.readouterr().out.splitlines()
                    if line.startswith("prepared"))
    assert prepared.endswith("; kept under 7.5 GiB")
    monkeypatch.setenv("WORKBENCH_CACHE_LIMIT", "3MiB")
    assert main(["cache", "--trim"]) == 0
    out = capsys.readouterr().out
    assert "prepared: removed 0 states (0 KiB); 0 KiB kept" in out
    assert "kept under 3 MiB" in out


def test_the_memory_limit_reads_the_same_units(monkeypatch) -> None:
    monkeypatch.setenv(engine.MEMORY_LIMIT_ENV, "4GB")
    assert engine.available_memory() == 4_000_000_000
    monkeypatch.setenv(engine.MEMORY_LIMIT_ENV, "4GiB")
    assert engine.available_memory() == 4 * 1024**3
    monkeypatch.setenv(engine.MEMORY_LIMIT_ENV, "4 gigs")
    with pytest.raises(engine.MemoryEstimateError) as info:
        engine.available_memory()
    assert str(info.value) == ("$WORKBENCH_MEMORY_LIMIT='4 gigs': not a size (bytes, or a "
                               "number with K, M, G or T: 8G or 8GiB = 8 × 1024³ bytes, 8GB = "
                               "8 × 1000³)")


def test_the_help_says_the_units(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["cache", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Sizes are in binary units, shown as GiB, MiB, KiB: 8G = 8GiB = 8 × 1024³ bytes " \
           "(8GB, with a B, is 8 × 1000³)." in text
