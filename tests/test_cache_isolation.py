"""The test suite's own cache folder is in place before module-scoped fixtures run (they build
pipelines, which write the prepare and embedding caches)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module")
def cache_seen_by_a_module_fixture() -> str | None:
    return os.environ.get("WORKBENCH_CACHE_DIR")


def test_module_fixtures_see_the_isolated_cache(cache_seen_by_a_module_fixture: str | None,
                                                tmp_path_factory: pytest.TempPathFactory
                                                ) -> None:
    assert cache_seen_by_a_module_fixture == str(tmp_path_factory.getbasetemp() / "cache")
