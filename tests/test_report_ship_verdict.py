"""The report's Settings to ship says, under a configuration's heading and in its TOML block,
that the run which tuned it advised against it (dr5 3: only a note at the top of the report
had said so; GUI export opened the same values with NOT RECOMMENDED)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")
REPO = str(SAMPLES / "code-repo")
VERDICT = "keep the starting values; held-out ndcg@10 0.6131 → 0.6111"


def _bm25(path: Path) -> Path:
    path.write_text(
        f'[params]\nk1 = 2.5\nb = 0.3\n\n[tuned]\nverdict = "{VERDICT}"\n'
        'dataset = "tea-beir"\nvalidation = "5-fold over 25 queries (seed 0)"\n'
        'metric = "ndcg@10"\nheld_out_default = 0.6131\nheld_out_tuned = 0.6111\n'
        'held_out_p = 0.7\nheld_out_queries = 25\nmodel = "bm25"\ntrained_on = ["q01"]\n',
        encoding="utf-8")
    return path


def _codeledger(path: Path) -> Path:
    path.write_text(
        '[params]\nw_keyword = 0.36\nw_centrality = 4.35\n\n[tuned]\n'
        'verdict = "keep the starting values; held-out ndcg@10 0.6098 → 0.5099"\n'
        'dataset = "code-repo"\n'
        'validation = "time split (by date): 6 older tasks tune, 6 newer held out"\n'
        'metric = "ndcg@10"\nheld_out_default = 0.6098\nheld_out_tuned = 0.5099\n'
        'held_out_p = 0.125\nheld_out_queries = 6\nmodel = "codeledger"\n'
        'trained_on = ["c45484912fc", "c9ade776950", "c8085784bc7", "c163f511319", '
        '"c4af9d632ec", "c22dc43c043"]\n', encoding="utf-8")
    return path


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def test_settings_to_ship_says_a_configuration_is_not_recommended(tmp_path: Path) -> None:
    path = _bm25(tmp_path / "tb.toml")
    for suffix in ("md", "html"):
        page = tmp_path / f"r.{suffix}"
        assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(path),
                     "--metrics", "ndcg@10", "-o", str(page)]) == 0
        text = page.read_text(encoding="utf-8")
        if suffix == "md":
            ship = text[text.index("## Settings to ship"):]
            mine = _section(ship, "### tb", "```\n\n")
            assert mine.startswith(f"### tb\n\n> **Not recommended by the run that tuned it:** "
                                   f"{VERDICT}.\n\n```toml\n")
            assert f"# NOT RECOMMENDED by the run that tuned it — {VERDICT}\n" in mine
            # the defaults, which no run advised against, say nothing of it
            assert "Not recommended" not in _section(ship, "### defaults", "### tb")
        else:
            ship = text[text.index('<section id="settings">'):]
            mine = _section(ship, "<h3>tb</h3>", "</pre>")
            assert mine.startswith('<h3>tb</h3><p class="caveat"><b>Not recommended by the run '
                                   f"that tuned it:</b> {VERDICT}.</p><pre>")
            assert f"# NOT RECOMMENDED by the run that tuned it — {VERDICT}\n" in mine
            assert "Not recommended" not in _section(ship, "<h3>defaults</h3>", "<h3>tb</h3>")


def test_an_exported_configuration_says_it_too(tmp_path: Path) -> None:
    """CodeLedger's settings are a table and JSON, no TOML: the line under its heading."""
    path = _codeledger(tmp_path / "cr5b.toml")
    page = tmp_path / "r.md"
    assert main(["report", REPO, "-m", "codeledger", "--defaults", "-c", str(path),
                 "-o", str(page)]) == 0
    ship = page.read_text(encoding="utf-8").split("## Settings to ship", 1)[1]
    assert ("### cr5b\n\n> **Not recommended by the run that tuned it:** keep the starting "
            "values; held-out ndcg@10 0.6098 → 0.5099.\n\nIn CodeLedger's terms.") in ship
