"""The ranked table's CSV export writes a formula-looking title as text."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.gui.export_csv import write_ranked_csv
from workbench.gui.main_window import MainWindow


def test_a_title_that_is_a_formula_is_exported_as_text(window: MainWindow,
                                                      tmp_path: Path) -> None:
    folder = tmp_path / "beir"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text(json.dumps(
        {"_id": "d1", "title": "=HYPERLINK(\"http://x\")", "text": "green tea"}) + "\n")
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "tea"}) + "\n")
    assert window.open_path(folder, model="bm25")
    path = tmp_path / "out.csv"
    assert write_ranked_csv(window.session, path) == 1
    assert ",\"'=HYPERLINK(\"\"http://x\"\")\"," in path.read_text()


def test_the_rank_change_is_a_number_and_an_unchanged_rank_no_formula(
        window: MainWindow, tmp_path: Path) -> None:
    # rg 8 (review r49): "=" was written "'=" (the formula guard) and no column held a number
    import csv

    from tests.conftest import SAMPLES

    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.pin_baseline()
    s.set_param("k1", 0.6)
    path = tmp_path / "ranking.csv"
    write_ranked_csv(s, path)
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    assert "'" not in "".join(r["change"] for r in rows)
    seen = set()
    for r in rows:
        if not r["rank"] or r["change"] == "new":
            assert r["rank_change"] == ""
            continue
        n = int(r["rank_change"])
        seen.add(r["change"][0])
        # the number is the arrow's: ▲2 is 2, ▼1 is −1, "same" 0
        assert r["change"] == ("same" if n == 0 else f"▲{n}" if n > 0 else f"▼{-n}")
    assert {"s", "▲", "▼"} <= seen  # k1 0.6 moves documents both ways and keeps some


def test_columns_are_named_apart_and_float_noise_is_zero(window: MainWindow,
                                                        tmp_path: Path) -> None:
    # dr4 10 (review r49): importance's "relevance" signal and the judged grade were both
    # "relevance" (pandas: relevance.1); m19's clamp was written 1.11022e-16
    import csv

    from tests.conftest import SAMPLES

    assert window.open_path(SAMPLES / "memories", model="importance")
    s = window.session
    s.pin_baseline()
    s.set_param("base_long", 0.4)
    s.select_query(s.dataset.queries.index["q04"])  # type: ignore[union-attr]
    path = tmp_path / "ranking.csv"
    write_ranked_csv(s, path)
    header, *rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    assert len(set(header)) == len(header)
    assert header[7] == "judged_relevance" and header[-1] == "relevance"
    m19 = dict(zip(header, next(r for r in rows if r[4] == "m19"), strict=True))
    assert m19["clamp"] == "0" and m19["judged_relevance"] == ""
    cells = [c for r in rows for c in r[6:]]
    assert not [c for c in cells if "e-" in c or c == "-0"]
