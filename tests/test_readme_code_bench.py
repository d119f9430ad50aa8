"""The tables of `bench --code` (docs/codeledger.md, from the README's section "CodeLedger on
real repositories") give every
repository the same comparison rows in every block: a reader comparing the document's defaults
with the new ones finds both wherever a repository is listed. The sample's fresh-history
block had left out its "document defaults" row, the one where the document's defaults win."""

from __future__ import annotations

from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "codeledger.md"
COMPARED = {"document defaults", "new defaults", "history unused", "BM25, same files",
            "BM25, same tokens", "plain bm25s, same tokens"}


def _groups() -> dict[tuple[str, str], set[str]]:
    """(block, repository) → the systems its rows name, from the section's one table."""
    text = PAGE.read_text(encoding="utf-8").partition("# CodeLedger on real repositories")[2]
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    groups: dict[tuple[str, str], set[str]] = {}
    block = repo = ""
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if cells[0].startswith("**"):
            block = cells[0]
            continue
        if cells[0] and not cells[0].startswith("repository"):
            repo = cells[0]
        if block:
            groups.setdefault((block, repo), set()).add(cells[1])
    return groups


def test_every_repository_lists_every_system_in_every_block() -> None:
    groups = _groups()
    assert len(groups) >= 10  # three blocks, three or four repositories each
    for (block, repo), systems in groups.items():
        assert systems >= COMPARED, (block, repo, sorted(COMPARED - systems))
