"""The "changed on disk" check looks at the files a dataset format reads: a session saved
beside the data (as relative session paths invite), or an exported CSV or PNG, had read as the
data changed."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import SAMPLES

from workbench.gui.disk_watch import changed, stamp


def test_files_no_format_reads_are_not_changes(tmp_path: Path) -> None:
    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    before = stamp([str(folder)])
    (folder / "my.session.json").write_text("{}", encoding="utf-8")
    (folder / "ranked.csv").write_text("rank,id\n", encoding="utf-8")
    (folder / "chart.png").write_bytes(b"\x89PNG")
    assert changed(before, stamp([str(folder)])) == []
    with (folder / "queries.jsonl").open("a", encoding="utf-8") as f:
        f.write('{"_id": "q99", "text": "tea"}\n')
    (folder / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\n", encoding="utf-8")
    assert changed(before, stamp([str(folder)])) == [str(folder / "qrels" / "dev.tsv"),
                                                     str(folder / "queries.jsonl")]
