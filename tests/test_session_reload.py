"""A dataset read again from disk (`set_dataset(reloaded=True)`, File ▸ Reload dataset in the
window): the data is new, the session's own state stays."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from workbench.core.formats import load_dataset
from workbench.core.session import TuningSession

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def test_a_reload_reads_the_files_again_and_keeps_the_sessions_state(tmp_path: Path) -> None:
    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    s = TuningSession()
    s.open(folder)
    s.set_model("bm25", {"k1": 2.0})
    s.recompute()
    s.pin_baseline()
    s.set_params({"k1": 0.5})
    s.save_configuration("low k1")
    s.select_query(s.dataset.queries.index["q05"])  # type: ignore[union-attr]
    s.add_query("withering of tea leaves")
    s.recompute()
    docs = len(s.dataset.corpus)  # type: ignore[union-attr]
    with (folder / "corpus.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"_id": "zz1", "title": "withering flavor tea leaves",
                            "text": "withering affects the flavor of tea leaves"}) + "\n")
    s.select_query(s.dataset.queries.index["q05"])  # type: ignore[union-attr]
    opened = s.opened
    s.set_dataset(load_dataset(folder), str(folder), reloaded=True)
    s.recompute()
    ds = s.dataset
    assert ds is not None and len(ds.corpus) == docs + 1 and "zz1" in ds.corpus.index
    assert ds.queries[s.query].id == "q05"  # the query shown, by id
    assert ds.queries.ids[-1].startswith("typed-")  # a typed query appended again
    assert s.model is not None and s.params["k1"] == 0.5 and s.can_undo
    assert "low k1" in s.configurations and s.opened == opened
    # the baseline at its values, computed on the new data (its ranking holds the new doc)
    assert s.baseline is not None and s.baseline.params["k1"] == 2.0
    assert s.baseline.result.ranking.docs.shape[0] == len(ds.queries)
    assert s.result is not None and s.result.ranking.docs.shape[0] == len(ds.queries)
