"""The comparison as one self-contained HTML file: every section, nothing loaded from
anywhere, user text escaped, the metric table's numbers as the comparison computed them, the
confidence interval against an independent computation, the CLI's format choice, and a real
browser (headless Chromium) that opens it without a console message and paints it."""

from __future__ import annotations

import dataclasses
import re
import shutil
import struct
import subprocess
import zlib
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.data import Corpus, Dataset, QuerySet
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.params import params_toml
from workbench.report.html import difference_interval, html_report
from workbench.report.text import p_text

TEA = SAMPLES / "tea-beir"
SECTIONS = ("compared", "parameters", "metrics", "per-query", "movers", "distributions",
            "settings")
INJECTED = '<script>throw new Error("injected")</script>'


def _compare(dataset: Dataset, model_id: str, settings: dict[str, dict[str, object]]
             ) -> Comparison:
    model = get_model(model_id)
    configs = [Configuration(name, model.schema.resolve(values), f"{name}.toml")
               for name, values in settings.items()]
    return compare_configurations(model, dataset, configs, n_resamples=2000)


@pytest.fixture(scope="module")
def tea() -> Comparison:
    return _compare(load_dataset(TEA), "bm25",
                    {"defaults": {}, "tuned": {"k1": 0.9, "b": 0.4}, "flat": {"b": 0.0}})


@pytest.fixture(scope="module")
def hostile() -> Comparison:
    """tea-beir with markup in its name, a query, every title and a configuration's name."""
    ds = load_dataset(TEA)
    queries = [dataclasses.replace(q, text=f"{q.text} {INJECTED}") if q.id == "q01" else q
               for q in ds.queries]
    docs = [dataclasses.replace(d, title=f"{d.title} <b>&amp;</b> {INJECTED}")
            for d in ds.corpus]
    odd = Dataset(f"tea <i>{INJECTED}</i>", Corpus(docs), QuerySet(queries), ds.qrels)
    return _compare(odd, "bm25", {"defaults": {}, f"k1 <{INJECTED}>": {"k1": 0.9, "b": 0.4}})


class _Cells(HTMLParser):
    """The text of every cell of the table with id `table`, row by row."""

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table, self.inside = table, False
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and dict(attrs).get("id") == self.table:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_every_section_and_nothing_external(tea: Comparison) -> None:
    page = html_report(tea)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for section in SECTIONS:
        assert f'id="{section}"' in page, section
        assert f'href="#{section}"' in page, section
    assert "http" not in page.lower()
    refs = re.findall(r"""(?:src|href)\s*=\s*["']?([^"'\s>]*)""", page, re.I)
    assert refs and all(r.startswith(("#", "data:")) for r in refs), refs
    for word in ("<link", "@import", "url(", "@font-face"):
        assert word not in page.lower(), word
    assert page.count("<svg") == 2 + 3  # a per-query chart per other config, a histogram each
    assert "<mark>" in page and "workbench-only model" in page
    assert "[params]\nk1 = 0.9\nb = 0.4" in page


def test_user_text_is_escaped(hostile: Comparison) -> None:
    page = html_report(hostile)
    assert "<script" not in page.lower() and "<i>" not in page and "<b>&amp;" not in page
    escaped = "&lt;script&gt;throw new Error(&quot;injected&quot;)&lt;/script&gt;"
    assert escaped in page
    assert "tea &lt;i&gt;" in page  # the dataset's name
    assert "k1 &lt;&lt;script&gt;" in page  # the configuration's name
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in page  # a title, in the movers


def test_metric_table_numbers_are_the_comparisons(tea: Comparison) -> None:
    parser = _Cells("metric-table")
    parser.feed(html_report(tea))
    header, sub, *rows = parser.rows
    assert header == ["metric", "defaults", "tuned", "flat"]
    assert sub == ["mean"] + ["mean", "Δ", "95% CI of Δ¹", "p²", "▲/▼"] * 2
    assert [r[0] for r in rows] == [r.metric for r in tea.rows]
    for cells, row in zip(rows, tea.rows, strict=True):
        # 4 decimals, more where the rounded Δ would not be the difference of the rounded
        # means (16.583 → 16.25 had read 16.6 → 16.2 beside −0.3)
        places = len(cells[1].split(".")[1])
        assert 4 <= places <= 5
        assert cells[1] == f"{row.means[0]:.{places}f}"
        for i in (1, 2):
            mean, delta, ci, p, moved = cells[2 + 5 * (i - 1):7 + 5 * (i - 1)]
            # a real minus sign, as the window prints one
            assert mean == f"{row.means[i]:.{places}f}" and "-" not in delta
            shown = Decimal(delta.replace("−", "-"))
            assert shown == Decimal(mean) - Decimal(cells[1])
            assert abs(shown - Decimal(row.deltas[i])) <= Decimal(1).scaleb(-places)
        if places > 4:  # no more decimals than it takes
            fewer = places - 1
            assert any(Decimal(f"{row.deltas[i]:.{fewer}f}")
                       != Decimal(f"{row.means[i]:.{fewer}f}")
                       - Decimal(f"{row.means[0]:.{fewer}f}") for i in (1, 2))
        for i in (1, 2):
            mean, delta, ci, p, moved = cells[2 + 5 * (i - 1):7 + 5 * (i - 1)]
            assert p == p_text(row.p_values[i])
            assert moved == f"▲{row.improved[i]} ▼{row.worsened[i]}"
            lo, hi = (float(x.replace("−", "-")) for x in ci.strip("[]").split(","))
            assert lo - 5e-5 <= row.deltas[i] <= hi + 5e-5


def test_difference_interval_is_the_randomisation_tests_own() -> None:
    """rB 5: the interval inverts the p column's test (a t-interval had barely left out 0
    beside p 0.005); its ends against an independent inversion, NaN left out."""
    from tests.sign_flip_reference import interval as reference

    d = [0.1, float("nan"), -0.05, 0.3, 0.0, 0.25, 0.2, -0.1, 0.4]
    for level in (0.9, 0.95, 0.99):
        assert difference_interval(d, level) == pytest.approx(
            reference([x for x in d if x == x], level), abs=1e-9)
    assert difference_interval([0.2] * 6) == pytest.approx((0.2, 0.2))
    # too few for the test to leave any shift out (2/2^5 ≥ 0.05): blank
    assert difference_interval([0.2] * 5) is None
    assert difference_interval([0.5]) is None and difference_interval([]) is None


def test_settings_in_the_targets_terms() -> None:
    comp = _compare(load_dataset(SAMPLES / "vault"), "vault-search",
                    {"defaults": {}, "tf heavy": {"w_tf": 0.6, "w_density": 0.1}})
    page = html_report(comp)
    settings = page[page.index('id="settings"'):]
    assert "workbench-only" not in settings and "obsidian-mcp" in settings
    # the weights have no setting in obsidian-mcp: said, with where to pass them
    assert "new SearchScorer({&quot;termFrequency&quot;: 0.6" in settings
    # and where to edit a weight, the setting it lacks
    assert "none: edit the new SearchScorer(…) call in src/services/fileSystem.ts" in settings
    assert "search_vault" in settings


@pytest.fixture
def tuned(tmp_path: Path) -> Path:
    path = tmp_path / "tuned.toml"
    path.write_text(params_toml({"k1": 0.9, "b": 0.4}))
    return path


@pytest.mark.parametrize(("name", "extra", "start"), [
    ("report.html", [], "<!DOCTYPE html>"),
    ("report.md", [], "# Ranking comparison\n"),
    ("REPORT.MD", [], "# Ranking comparison\n"),
    ("report.txt", ["--format", "html"], "<!DOCTYPE html>"),  # alone: refused (test_cli_compare)
    ("report.html", ["--format", "md"], "# Ranking comparison\n"),
    ("report.md", ["--format", "html"], "<!DOCTYPE html>"),
])
def test_cli_picks_the_format(name: str, extra: list[str], start: str, tuned: Path,
                              tmp_path: Path) -> None:
    out = tmp_path / name
    assert main(["report", str(TEA), "-m", "bm25", "--defaults", "-c", str(tuned), "-o",
                 str(out), *extra]) == 0
    assert out.read_text().startswith(start)


def test_cli_html_to_standard_output(tuned: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(TEA), "-m", "bm25", "--defaults", "-c", str(tuned), "-o",
                 "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and 'id="settings"' in out


# -- a real browser --

CONSOLE = re.compile(r":CONSOLE\b|Uncaught")


def _browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium: install Debian's chromium package to run the browser check")


def _open(browser: str, page: Path, shot: Path, profile: Path) -> list[str]:
    """Load `page` headless, screenshot it to `shot`; the console messages it logged (with
    --enable-logging=stderr Chromium prints each as `…:CONSOLE:<line>] "message", source:
    …`, uncaught exceptions as "Uncaught …")."""
    run = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=1200,1600", f"--user-data-dir={profile}", f"--screenshot={shot}",
         "--enable-logging=stderr", "--v=0", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=180, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert shot.is_file(), run.stderr[-2000:]
    return [line for line in run.stderr.splitlines() if CONSOLE.search(line)]


def _pixels(png: Path) -> np.ndarray:
    """uint8 (H, W, channels) of an 8-bit, non-interlaced RGB/RGBA PNG (what Chromium
    writes), decoded here with zlib: the five row filters of the PNG specification."""
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
        elif kind == b"IDAT":
            idat += body
    bpp = 3 if colour == 2 else 4
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, width * bpp + 1)
    out = np.zeros((height, width * bpp), np.uint8)
    prev = np.zeros(width * bpp, np.int64)
    for y in range(height):
        kind, line = int(raw[y, 0]), raw[y, 1:].astype(np.int64)
        if kind == 0:
            row = line
        elif kind == 1:
            row = line.reshape(-1, bpp).cumsum(axis=0).reshape(-1) % 256
        elif kind == 2:
            row = (line + prev) % 256
        else:
            row = _sequential(line.tolist(), prev.tolist(), bpp, kind)
        out[y] = row
        prev = np.asarray(row, np.int64)
    return out.reshape(height, width, bpp)


def _sequential(line: list[int], prev: list[int], bpp: int, kind: int) -> np.ndarray:
    """Average (3) and Paeth (4) rows: each byte depends on the one reconstructed before."""
    row = [0] * len(line)
    for i, x in enumerate(line):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        if kind == 3:
            row[i] = (x + (a + b) // 2) & 255
            continue
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        row[i] = (x + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return np.asarray(row, np.int64)


def test_the_console_check_catches_an_error(tmp_path: Path) -> None:
    browser = _browser()
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><body><p>x</p><script>throw new Error("x")'
                    "</script></body></html>")
    lines = _open(browser, page, tmp_path / "broken.png", tmp_path / "profile")
    assert any("Uncaught Error: x" in line for line in lines), lines


def test_a_browser_opens_the_report(tea: Comparison, hostile: Comparison,
                                    tmp_path: Path) -> None:
    browser = _browser()
    page = tmp_path / "report.html"
    page.write_text(html_report(tea), encoding="utf-8")
    shot = tmp_path / "report.png"
    assert _open(browser, page, shot, tmp_path / "profile") == []
    pixels = _pixels(shot)[..., :3]
    assert pixels.shape[:2] == (1600, 1200)
    packed = pixels.astype(np.int32) @ np.array([65536, 256, 1], np.int32)
    colours = np.unique(packed)
    not_white = (pixels < 245).any(axis=2).mean()
    assert len(colours) > 200 and not_white > 0.02, (len(colours), not_white)
    reds, greens = pixels[..., 0].astype(int), pixels[..., 1].astype(int)
    assert ((greens - reds) > 60).sum() > 500  # the green bars and Δ cells painted
    # the markup in user text stays text: an unescaped <script> would log "Uncaught Error"
    odd = tmp_path / "hostile.html"
    odd.write_text(html_report(hostile), encoding="utf-8")
    assert _open(browser, odd, tmp_path / "hostile.png", tmp_path / "profile") == []


def test_judged_movers_come_first_in_each_group(tea: Comparison) -> None:
    """The moves that changed the metrics (judged documents) lead each group of movers."""
    page = html_report(tea, k=10, top=50)
    movers = page[page.index('id="movers"'):page.index('id="distributions"')]
    groups = movers.split("<h4>")[1:]
    assert len(groups) >= 3
    rank = {"judged relevant": 0, "judged not relevant": 1, "not judged": 2}
    seen_any = False
    for group in groups:
        found = re.findall(r"judged relevant|judged not relevant|not judged", group)
        order = [rank[f] for f in found]
        assert order == sorted(order), group[:200]
        seen_any |= bool(order) and order[0] < 2
    assert seen_any  # the check above is not vacuous on this sample


def test_per_query_bars_run_from_most_improved_to_most_worsened(tea: Comparison) -> None:
    """As the window's delta chart: improved queries on the left."""
    page = html_report(tea)
    section = page[page.index('id="per-query"'):page.index('id="movers"')]
    first = section.split("<h3>")[1]
    deltas = [float(x.replace("−", "-")) for x in re.findall(r"\(Δ ([+\-−][0-9.]+)\)", first)]
    metric = tea.rows[0].metric
    judged = np.isfinite(tea.per_query_delta(metric, 1))
    assert len(deltas) == int(judged.sum()) > 2
    assert deltas == sorted(deltas, reverse=True) and deltas[0] > deltas[-1]


def test_a_movers_signal_table_has_no_negative_zero() -> None:
    """code.html showed "fail_prior -0 -0 +0": a 0 contribution that is a negated 0."""
    from workbench.report.html import _g

    assert _g(-0.0) == "0" and _g(-0.0, sign=True) == "±0" and _g(0.0, sign=True) == "±0"
    assert _g(-1.25) == "−1.25" and _g(1.25, sign=True) == "+1.25"
    assert _g(-1.25, sign=True) == "−1.25"
    # no scientific notation a reader must decode: a 0 to 4 places is 0, the rest written out
    assert _g(1.892e-21, sign=True) == "±0" and _g(2.39e-05) == "0"
    assert _g(7.5e-05, sign=True) == "+0.000075" and _g(123456.7) == "123457"


def test_text_and_markdown_movers_put_judged_documents_first(tmp_path: Path) -> None:
    """The Markdown picks its movers as the HTML does, judged relevant, then judged not
    relevant, then unjudged (it listed unjudged 1-place moves before a relevant document's
    jump the HTML shows); `--movers 0` says it was not asked for, not "No document moved"."""
    cfg = tmp_path / "k09.toml"
    cfg.write_text(params_toml({"k1": 0.9, "b": 0.4}))
    out = tmp_path / "r.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                 str(cfg), "--movers", "8", "-o", str(out)]) == 0
    text = out.read_text()
    moved = [line for line in text[text.index("## Moved most"):].splitlines()
             if line.startswith("- ")]
    assert len(moved) == 8
    kinds = [0 if "judged relevant" in m else 1 if "judged not relevant" in m else 2
             for m in moved]
    assert kinds == sorted(kinds) and kinds[0] == 0, moved
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                 str(cfg), "--movers", "0", "-o", str(out)]) == 0
    text = out.read_text()
    assert "Not asked for." in text and "No document moved." not in text


def test_a_difference_that_rounds_to_zero_has_no_minus_sign() -> None:
    from workbench.report.text import delta_text

    assert [delta_text(x) for x in (-0.00001, 0.00004, -0.04)] == [
        "+0.0000", "+0.0000", "-0.0400"]
    assert [delta_text(x, count=True) for x in (-0.04, -1234.56)] == ["+0.0", "-1,234.6"]


def test_the_metric_table_scrolls_rather_than_leaving_the_page(tea: Comparison) -> None:
    html = html_report(tea)
    assert '<div class="wide"><table id="metric-table" class="metrics-table">' in html
    assert ".wide{overflow-x:auto" in html


def test_the_report_explains_each_metric_it_shows(tmp_path: Path) -> None:
    """A reader who does not know the abbreviations gets one line per metric compared and
    the meaning of Δ, p and ▲/▼; judged@10 (coverage) is not coloured as a loss."""
    cfg = tmp_path / "k09.toml"
    cfg.write_text(params_toml({"k1": 0.9, "b": 0.4}))
    md, page = tmp_path / "r.md", tmp_path / "r.html"
    for out in (md, page):
        assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                     str(cfg), "-o", str(out)]) == 0
    text = md.read_text()
    key = text[text.index("How to read it:"):text.index("## Moved most")]
    for metric in ("nDCG@10 (ndcg@10): ", "MRR@10 (mrr@10): ", "P@10 (p@10): ",
                   "R@100 (r@100): ", "MAP@100 (map@100): ", "judged@10: ", "Δ: "):
        assert f"- {metric}" in key, metric
    html = page.read_text()
    assert "<summary>How to read it</summary>" in html
    row = re.search(r'<tr data-metric="judged@10">(.*?)</tr>', html)
    assert row and 'class="num up"' not in row.group(1) and 'class="num down"' not in row.group(1)


def test_codeledger_report_says_what_can_be_shipped_and_folds_zero_signals(
        tmp_path: Path) -> None:
    """Once, not per configuration: the figures are the workbench's model and CodeLedger
    reads only config.json. A mover's signal table lists the signals that are not 0 on both
    sides, then names the others in one line (16 rows of "0 0 ±0" made the page 9,000 px)."""
    cfg = tmp_path / "small.toml"
    cfg.write_text(params_toml({"w_keyword": 0.6, "w_churn": 2.0}))
    out = tmp_path / "r.html"
    assert main(["report", str(SAMPLES / "code-repo"), "-m", "codeledger", "--defaults",
                 "-c", str(cfg), "-o", str(out)]) == 0
    html = out.read_text()
    assert html.count("CodeLedger reads only the settings") == 1
    rows = re.findall(r"<tr><td>([^<]+)</td><td class=\"num\">([^<]+)</td>"
                      r"<td class=\"num\">([^<]+)</td>", html)
    assert rows and not any(a == b == "0" for _, a, b in rows)
    assert "0 on both sides: " in html
    # beside the table, not a row of it: a row as wide as that list pushed the card's
    # document off the page
    assert '<p class="note zeros">0 on both sides: ' in html
    assert '<td colspan="4" class="note">0 on both sides' not in html


def test_per_query_differences_are_named_in_words_and_nothing_is_not_drawn(
        tmp_path: Path) -> None:
    """Under each per-query chart, the three most improved and most worsened queries with
    their Δ (a printed page has no tooltips); a configuration that changes no query gets a
    sentence, not a chart of zeros."""
    from workbench.core.pipeline import Pipeline

    cfg, same = tmp_path / "k09.toml", tmp_path / "same.toml"
    cfg.write_text(params_toml({"k1": 0.9, "b": 0.4}))
    same.write_text(params_toml({"k1": 1.2}))
    out = tmp_path / "r.html"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                 str(cfg), "-c", str(same), "-o", str(out)]) == 0
    html = out.read_text()
    ds = load_dataset(SAMPLES / "tea-beir")
    a, b = (Pipeline(get_model("bm25"), ds, p).run(["ndcg@10"]).per_query["ndcg@10"]
            for p in ({}, {"k1": 0.9, "b": 0.4}))
    d = b - a
    ids = ds.queries.ids
    order = np.argsort(-d, kind="stable")
    best = ", ".join(f"{ids[q]} {d[q]:+.4f}" for q in order[:3]).replace("-", "−")
    worst = ", ".join(f"{ids[q]} {d[q]:+.4f}" for q in order[::-1][:3]).replace("-", "−")
    assert f"most improved: {best}" in html and f"most worsened: {worst}" in html
    assert "No query changed on ndcg@10: all 25 score the same under both." in html


def test_the_per_query_chart_shows_a_metric_that_moved() -> None:
    # on the first metric nothing moved, on another it did: "No query changed" read as
    # nothing changed at all
    from workbench.report.html import chart_metric

    ds = load_dataset(TEA)
    model = get_model("bm25")
    configs = [Configuration(n, model.schema.resolve(v)) for n, v in
               (("defaults", {}), ("tuned", {"k1": 0.9, "b": 0.4}))]
    comp = compare_configurations(model, ds, configs, ["r@1000", "ndcg@10"], n_resamples=200)
    assert not np.any(comp.per_query_delta("r@1000", 1))  # every judged document found
    assert chart_metric(comp) == "ndcg@10"
    assert "tuned − defaults: ndcg@10</h3>" in html_report(comp)


def test_settings_the_target_cannot_take_are_scored_as_shipped() -> None:
    # a changed constant with no setting stays at the original's value once the settings
    # are shipped: the report scores what shipping gives, here worse than the defaults
    from workbench.core.pipeline import Pipeline
    from workbench.report.text import markdown

    ds = load_dataset(SAMPLES / "decisions-eval")
    comp = _compare(ds, "decision-memory", {
        "defaults": {}, "edited": {"w_title": 1, "w_body": 1, "inject_min_score": 20}})
    md = markdown(comp)
    settings = md[md.index("## Settings to ship"):]
    assert ("2 values it was measured with pi-lodestone 418f9a1 cannot take — w_title 6 → 1 has "
            "no setting (edit scoreDecision in extension/scoring.ts); w_body 3 → 1") in settings
    row = next(line for line in settings.splitlines() if line.startswith("| ndcg@10 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # as shipped: only what the environment carries (inject_min_score), scored by eval's path
    only_env = Pipeline(get_model("decision-memory"), ds,
                        get_model("decision-memory").schema.resolve({"inject_min_score": 20}))
    assert cells[3] == f"{only_env.run(['ndcg@10']).means['ndcg@10']:.4f}"
    assert "cases passing: defaults" in settings and "as shipped" in html_report(comp)
    # every changed value carried: no such section
    carried = _compare(ds, "decision-memory", {"defaults": {}, "env": {"inject_min_score": 20}})
    assert "as shipped" not in markdown(carried) and "as shipped" not in html_report(carried)


def test_the_report_says_in_short_what_changed_and_whether_it_ships(tea: Comparison) -> None:
    # a reader who will not read the tables: the headline metric, beyond chance or not,
    # and whether the settings ship as they are
    from workbench.report.text import markdown, summary_lines

    lines = summary_lines(tea)
    assert len(lines) == 2 and lines[0].startswith("tuned against defaults: ndcg@10 ")
    row = next(r for r in tea.rows if r.metric == "ndcg@10")
    p = row.p_values[1]
    assert p is not None
    verdict = ("no clear difference" if p >= 0.05 else
               "better, beyond chance" if row.deltas[1] > 0 else "worse, beyond chance")
    assert f"({p_text(p)}): {verdict}" in lines[0].replace("(p ", "(")
    assert "Ships as its params TOML" in lines[0]  # bm25: a workbench-only model
    assert "## In short" in markdown(tea) and "<h3>In short</h3>" in html_report(tea)
    ds = load_dataset(SAMPLES / "decisions-eval")
    dm = _compare(ds, "decision-memory", {"defaults": {}, "edited": {"w_title": 1},
                                          "env": {"inject_min_score": 9}})
    edited, env = summary_lines(dm)
    # w_title has no setting in pi-lodestone: nothing of "edited" ships
    assert "None of it ships: pi-lodestone" in edited and "the value it changed" in edited
    assert ": cases passing " in edited and "ship as they are" in env
    # each line counts the cases compared: the one after a part-shipping configuration had
    # said "1 cases", the count of the values it could not ship
    n = int(dm.counted.sum())
    assert n > 1 and all(f" {n} cases" in line for line in (edited, env)), (edited, env)


def test_a_delta_is_coloured_only_beyond_chance(tea: Comparison) -> None:
    # map@100 −0.0011 (p 0.72) was as bold a red as r@100 −0.017 (p 0.006)
    page = html_report(tea)
    for r in tea.rows:
        row = re.search(rf'<tr data-metric="{re.escape(r.metric)}">(.*?)</tr>', page).group(1)
        classes = re.findall(r'<td class="([^"]*)">', row)  # the first's mean, then 5 each
        assert len(classes) == 1 + 5 * 2
        for i in (1, 2):
            p = r.p_values[i]
            coloured = classes[1 + 5 * (i - 1) + 1].strip() != "num"  # its Δ
            quality = not r.metric.startswith("judged@")
            assert coloured == (quality and p is not None and p < 0.05 and r.deltas[i] != 0), \
                (r.metric, i, p, classes)
    assert any(r.p_values[i] is not None and r.p_values[i] >= 0.05 and r.deltas[i] != 0
               for r in tea.rows for i in (1, 2))  # the case the rule is about is here


def test_a_bundles_cost_is_charted_as_a_cost_and_the_headline_first() -> None:
    # a chart of bundle_tokens called +55 tokens "improved", green; a codeledger chart
    # showed nDCG@10 where the summary spoke of bundle recall, without a word
    from workbench.report.html import chart_metric
    from workbench.report.text import headline_metric

    ds = load_dataset(SAMPLES / "code-repo")
    model = get_model("codeledger")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("kw", model.schema.resolve({"w_keyword": 0.5}))]
    comp = compare_configurations(model, ds, configs, ["bundle_tokens", "bundle_recall"],
                                  n_resamples=200)
    headline = headline_metric(comp)
    moved = np.any(comp.per_query_delta(headline, 1))
    page = html_report(comp)
    section = page[page.index('id="per-query"'):page.index('id="movers"')]
    assert headline == "bundle_recall" and not moved  # the bundles find the same files
    assert chart_metric(comp) == "bundle_tokens"
    assert f"{headline}, the metric the summary speaks of, changed on no query" in section
    assert 'class="up"' not in section and 'class="down"' not in section
    assert "improved" not in section and "with more" in section
    assert re.search(r'<rect class="cost"', section)
    d = comp.per_query_delta("bundle_tokens", 1)
    assert f"{d[np.nanargmax(d)]:+.1f}" in section  # a count to one decimal


def test_many_p_values_carry_a_caution(tea: Comparison) -> None:
    from workbench.report.text import many_tests_note, markdown, tests_shown

    n = tests_shown(tea)
    # every p-value of a difference on some query, less judged@10's (coverage, never marked,
    # so no test of the family: review dr6, 8)
    assert n == sum(r.improved[i] + r.worsened[i] > 0 for r in tea.rows for i in (1, 2)
                    if not r.metric.startswith("judged@"))
    assert n >= 2
    # the rule p-values are read by, said once under the table (review rb, 1), counted
    # against the table's own p-values, judged@10's among them (review dr8, 6)
    shown = sum(r.p_values[i] is not None for r in tea.rows for i in (1, 2))
    assert shown > n
    caution = f"{n} of the table's {shown} p-values are side looks"
    assert caution.replace("'", "&#x27;") in html_report(tea)
    assert markdown(tea).count(caution) == 1
    # and absent where there is nothing to adjust: no primary comparison and one p-value
    # (it had waited for 10; since review rb, 1 it is said from 2, as Holm adjusts from 2)
    one = dataclasses.replace(tea, rows=[dataclasses.replace(
        r, improved=[0, *r.improved[1:2], 0], worsened=[0, *r.worsened[1:2], 0])
        if r.metric == "ndcg@10" else dataclasses.replace(
        r, improved=[0, 0, 0], worsened=[0, 0, 0]) for r in tea.rows])
    assert tests_shown(one) == 1 and many_tests_note(one) == ""
    assert "are side looks" not in markdown(one)


def test_a_tuned_files_summary_leads_with_tunes_held_out_figures(tmp_path: Path) -> None:
    # In short headlined the training gain (+0.0206) of a k-fold tuned file; tune's held-out
    # estimate, worse, was only in a note above
    out = tmp_path / "best.toml"
    assert main(["tune", str(TEA), "-m", "bm25", "--tune", "k1,b", "--folds", "3",
                 "--trials", "6", "--seed", "0", "--storage", str(tmp_path / "s.db"),
                 "--pick", "best", "--out", str(out)]) == 0  # values of their own
    from workbench.core.tuned_on import read_tuned_on

    t = read_tuned_on(str(out))
    assert t is not None and t.held_n == 25
    page = tmp_path / "r.md"
    assert main(["report", str(TEA), "-m", "bm25", "--defaults", "-c", str(out), "-o",
                 str(page)]) == 0
    short = page.read_text().split("## In short", 1)[1].split("##", 1)[0]
    # the procedure, not the file (review rv3, F9): k-fold scores each query by its own
    # fold's values, not by best's
    estimate = (f"on 25 held-out queries, tuning this way (k-fold: each query scored by the "
                f"values its own fold tuned, not by best's) against the starting values "
                f"scored ndcg@10 {t.held_default:.4f} → {t.held_tuned:.4f}")
    assert estimate in short
    assert short.index(estimate) < short.index("training scores")


def test_a_tuned_file_compared_first_says_whose_held_out_figures_they_are(
        tmp_path: Path) -> None:
    # with the tuned file first, "plain against tuned: … tune measured 0.6131 → 0.6218"
    # read as a figure of plain against tuned, running the other way
    out = tmp_path / "tuned.toml"
    assert main(["tune", str(TEA), "-m", "bm25", "--tune", "k1,b", "--folds", "3",
                 "--trials", "6", "--seed", "0", "--storage", str(tmp_path / "s.db"),
                 "--pick", "best", "--out", str(out)]) == 0  # values of their own
    plain = tmp_path / "plain.toml"
    plain.write_text(params_toml({"k1": 1.2}))
    page = tmp_path / "r.md"
    assert main(["report", str(TEA), "-m", "bm25", "-c", str(out), "-c", str(plain), "-o",
                 str(page)]) == 0
    short = page.read_text().split("## In short", 1)[1].split("##", 1)[0]
    assert "plain against tuned: on 25 held-out queries" in short
    assert "tuning this way (k-fold: each query scored by the values its own fold tuned, " \
           "not by tuned's) against the starting values scored ndcg@10 " in short


def test_a_files_excerpt_keeps_its_lines() -> None:
    # code in a mover card was flattened onto one line: `package cmd import ( "errors" …`
    ds = load_dataset(SAMPLES / "code-repo")
    model = get_model("codeledger")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("kw", model.schema.resolve({"w_keyword": 0.5}))]
    page = html_report(compare_configurations(model, ds, configs, n_resamples=200))
    codes = re.findall(r'<p class="text code">(.*?)</p>', page, re.S)
    assert codes and all("\n" in c for c in codes)
    assert "white-space:pre-wrap" in page


def test_a_configuration_whose_every_change_cannot_ship_says_none_of_it_ships() -> None:
    # "Only part of it ships" for a variant nobody can set: what ships is the defaults
    from workbench.report.text import summary_lines

    ds = load_dataset(SAMPLES / "vault")
    comp = _compare(ds, "vault-search", {"defaults": {}, "doc": {"variant": "documented"},
                                         "part": {"w_tf": 0.6, "limit": 5,
                                                  "early_stop": True}})
    doc, part = summary_lines(comp)[:2]  # then, of these three, the best
    assert "None of it ships: obsidian-mcp cannot take the value it changed, so as shipped " \
           "it runs obsidian-mcp's own settings" in doc and "Only part" not in doc
    assert "Only part of it ships: 1 of the values" in part and "None of it" not in part
    # whatever the first configuration is: the same verdicts after one of other values
    mine = _compare(ds, "vault-search", {"mine": {"w_tf": 0.6}, "doc": {"variant": "documented"},
                                         "both": {"w_tf": 0.6, "limit": 5,
                                                  "early_stop": True,
                                                  "variant": "documented"}})
    doc2, both = summary_lines(mine)[:2]
    assert "None of it ships" in doc2 and "Only part of it ships" in both


def test_settings_to_ship_say_what_was_measured_and_when_not_to_ship() -> None:
    # early_stop "true → false" read as a change someone made (no one had: obsidian-mcp
    # always stops early with a limit), and "ship them only with the source changes" was
    # advised for a configuration that did worse with them too
    from workbench.report.text import markdown

    ds = load_dataset(SAMPLES / "vault")
    comp = _compare(ds, "vault-search", {
        "defaults": {}, "a": {"w_tf": 0.8, "w_position": 0.1, "w_density": 0.1,
                              "min_score": 0.3, "limit": 10}})
    ndcg = next(r for r in comp.rows if r.metric == "ndcg@10")
    assert ndcg.deltas[1] < 0  # worse as compared
    page = markdown(comp)
    settings = page[page.index("## Settings to ship"):]
    assert "early_stop: with a limit, obsidian-mcp always stops scanning early" in settings
    assert "better not shipped at all" in settings and "only with the source" not in settings
    assert "early_stop: with a limit, obsidian-mcp always stops" in html_report(comp)


def test_the_rule_is_said_once_in_plain_words(tea: Comparison) -> None:
    # review dr6, 9: 130 words with Holm's formula, restated in four places; now one plain
    # sentence or two (under ~50 words), Holm's formula only in Every pair's key
    from workbench.report.text import many_tests_note, markdown

    note = many_tests_note(tea)
    assert len(note.split()) <= 50, note
    assert "m − k + 1" not in note and "k-th smallest" not in note
    page = markdown(tea)
    assert page.count("side looks: beyond chance") == 1
    assert page.count("k-th smallest") == 1  # Every pair's key to its Holm p column
    assert "a primary comparison alone at 0.05" not in page


def test_training_scores_per_query_are_neither_coloured_nor_called_gains(
        tea: Comparison) -> None:
    # the metric table withholds p and ▲/▼ against training scores; the chart under it had
    # shown a green "▲ 11 improved" and red bars
    fitted = dataclasses.replace(tea, training=frozenset({"tuned"}))
    page = html_report(fitted)
    section = page[page.index('<section id="per-query">'):]
    tuned = section[: section.index("<h3>flat")]
    assert "training scores: no evidence either way" in tuned and "improved" not in tuned
    assert 'class="up"' not in tuned and 'class="down"' not in tuned
    flat = section[section.index("<h3>flat"): section.index("</section>")]
    assert "improved" in flat and ('class="up"' in flat or 'class="down"' in flat)


def test_every_score_chart_plots_the_same_second_series() -> None:
    # q10's judgments hold two documents judged not relevant: the defaults' top 10 has one
    # and plotted "judged not relevant", k1 0.9 / b 0.4's has none and plotted "unjudged
    # (… no document is judged not relevant)", in the same colour
    full = load_dataset(TEA)
    q10 = Dataset(full.name, full.corpus, QuerySet([q for q in full.queries if q.id == "q10"]),
                  {"q10": full.qrels["q10"]})
    assert 0 in full.qrels["q10"].values()
    comp = _compare(q10, "bm25", {"defaults": {}, "lucene": {"k1": 0.9, "b": 0.4}})
    section = html_report(comp).split('<section id="distributions">')[1].split("</section>")[0]
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", section)
    assert len(captions) == 2
    assert all("judged not relevant (" in c and "unjudged left out" in c for c in captions)
    assert "no document" not in section


def test_a_tuned_configuration_with_the_first_ones_values_is_said_to_be_the_same() -> None:
    # tune kept its starting values: the headline read as a slightly worse configuration
    # ("0.6131 → 0.6128"), the table alone saying the two are identical
    from workbench.report.text import summary_lines

    same = _compare(load_dataset(TEA), "bm25", {"defaults": {}, "kept": {}})
    same.training = frozenset({"kept"})
    line = summary_lines(same)[0]
    assert line.startswith("kept against defaults: the same settings, so the same rankings")
    assert "training scores" not in line


def test_long_names_may_break_anywhere_in_headings_and_table_heads(tea: Comparison) -> None:
    # a 65-character file name with no space ran 101 px past its 480-px chart into the next
    # chart's heading; only the movers' documents could break (no browser here: the rule)
    page = html_report(tea)
    style = page[page.index("<style>"): page.index("</style>")]
    rule = re.search(r"([^{}]*)\{overflow-wrap:anywhere\}", style)
    assert rule is not None
    assert {"h3", "th", "figcaption"} <= set(rule.group(1).split(","))
    # a name heading a column of figures too (th.num kept them on one line)
    assert style.index("th.num{white-space:normal}") > style.index("td.num,th.num{")


def test_the_markdown_says_which_queries_won_or_lost_and_what_made_it(tea: Comparison) -> None:
    # in a pull request the Markdown is all a reviewer sees: it had no per-query section, and
    # no version or date
    import workbench
    from workbench.report.text import markdown

    page = markdown(tea)
    assert f"made by workbench {workbench.__version__}, 20" in page.split("## In short")[0]
    section = page[page.index("## Per-query differences: ndcg@10"):page.index("## Moved most")]
    for i, name in ((1, "tuned"), (2, "flat")):
        d = tea.per_query_delta("ndcg@10", i)
        d = d[np.isfinite(d)]
        up, down = int((d > 0).sum()), int((d < 0).sum())
        line = next(x for x in section.splitlines() if x.startswith(f"- {name} − defaults: "))
        assert f"▲ {up} improved · {len(d) - up - down} unchanged · ▼ {down} worsened" in line
    # the HTML's caption counts the same
    assert (f'<span class="up">▲ {up} improved</span> · {len(d) - up - down} unchanged · '
            f'<span class="down">▼ {down} worsened</span>') in html_report(tea)


def test_a_bundle_size_that_moved_beyond_chance_is_in_the_headline() -> None:
    # "bundle_recall …, the same on every one of the tasks (other metrics moved: see
    # Metrics)": the tokens saved beyond chance went unsaid
    from workbench.core.metrics.bundle import BUNDLE_METRICS
    from workbench.report.text import summary_lines

    model = get_model("codeledger")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("small", model.schema.resolve({"token_budget": 800}))]
    comp = compare_configurations(model, load_dataset(SAMPLES / "code-repo"), configs,
                                  ["ndcg@10", *BUNDLE_METRICS], n_resamples=2000)
    tokens = next(r for r in comp.rows if r.metric == "bundle_tokens")
    p = tokens.p_values[1]
    assert p is not None and p < 0.05 and tokens.deltas[1] < 0
    line = summary_lines(comp)[0]
    # a cost, apart from the Holm verdict (dr6 6)
    costs = line.split(" Costs, which the rule for chance does not count (p not adjusted): ")[1]
    assert (f"bundle_tokens {tokens.means[0]:,.1f} → {tokens.means[1]:,.1f} "
            f"({tokens.deltas[1]:+,.1f}, fewer, p {p_text(p)})").replace("-", "−") in costs
    assert "(-" not in line  # a real minus, as the tables print it


def test_the_markdown_per_query_ids_are_code_spans_as_written() -> None:
    # md()'s backslashes inside a code span are shown: issue#12 read `issue\#12`
    from workbench.report.text import markdown

    ds = load_dataset(TEA)
    renamed = {q.id: f"issue#{q.id}_x" for q in ds.queries}
    queries = QuerySet([dataclasses.replace(q, id=renamed[q.id]) for q in ds.queries])
    qrels = {renamed[k]: v for k, v in (ds.qrels or {}).items()}
    odd = Dataset(ds.name, ds.corpus, queries, qrels)
    page = markdown(_compare(odd, "bm25", {"defaults": {}, "flat": {"b": 0.0}}))
    section = page[page.index("## Per-query differences"):page.index("## Moved most")]
    assert "`issue#" in section and "\\" not in section


def test_a_names_hyphen_is_kept_in_in_short(tea: Comparison) -> None:
    # the real minus was put in by a pattern over the whole sentence: "run -2" became
    # "run −2", a name no table showed
    from workbench.report.text import summary_lines

    named = dataclasses.replace(tea, configs=[tea.configs[0], dataclasses.replace(
        tea.configs[1], name="run -2"), tea.configs[2]])
    line = summary_lines(named)[0]
    assert line.startswith("run -2 against defaults: ") and "(-0" not in line


def test_the_judged_fact_keeps_a_left_out_note_whole() -> None:
    """"15 judged and counted, … (300 not judged in split train, left out)" read "… (300 not
    in split train, left out)": the word was taken out of the note too."""
    from workbench.report.html import _judged_fact

    assert _judged_fact("25 judged") == "25"
    assert _judged_fact("1,109 judged (36 without judgments left out)") == \
        "1,109 (36 without judgments left out)"
    assert _judged_fact("2 judged and counted, 807 tuned on set aside (300 not judged in "
                        "split train, left out)") == (
        "2 counted, 807 tuned on set aside (300 not judged in split train, left out)")


def test_three_compared_configurations_split_the_metric_table_and_keep_names_whole() -> None:
    # 16 columns did not fit the page: Chromium squeezed "ndcg@10" to a letter a line and
    # hid the third configuration behind a scrollbar. At most two compared configurations
    # a table, each table repeating the metric and the first configuration's mean
    comp = _compare(load_dataset(TEA), "bm25",
                    {"defaults": {}, "tuned": {"k1": 0.9, "b": 0.4}, "flat": {"b": 0.0},
                     "steep": {"k1": 2.0}})
    page = html_report(comp)
    first, second = _Cells("metric-table"), _Cells("metric-table-2")
    first.feed(page)
    second.feed(page)
    assert first.rows[0] == ["metric", "defaults", "tuned", "flat"]
    assert second.rows[0] == ["metric", "defaults", "steep"]
    assert second.rows[1] == ["mean", "mean", "Δ", "95% CI of Δ¹", "p²", "▲/▼"]
    row = comp.rows[0]
    places = len(second.rows[2][1].split(".")[1])  # one number of decimals a row (rc 6)
    assert second.rows[2][:4] == [row.metric, f"{row.means[0]:.{places}f}",
                                  f"{row.means[3]:.{places}f}",
                                  f"{row.deltas[3]:+.{places}f}".replace("-", "−")]
    assert first.rows[2][1] == second.rows[2][1]  # the first's mean, the same in both
    style = page[page.index("<style>"): page.index("</style>")]
    assert "th.metric{white-space:nowrap;overflow-wrap:normal}" in style
    assert '<th class="metric">ndcg@10</th>' in page


def test_settings_to_ship_say_once_what_cannot_ship_and_where_to_edit_it() -> None:
    # two banners stacked: "Cannot be shipped as is" named early_stop only, "Shipped as below"
    # w_position and early_stop — they read as disagreeing; "none: edit the source" said not
    # where; the "as shipped" table printed −0.2057 with a hyphen
    from workbench.report.text import markdown

    ds = load_dataset(SAMPLES / "vault")
    comp = _compare(ds, "vault-search", {
        "defaults": {}, "vlim": {"limit": 5, "min_score": 0.3, "w_position": 0.6},
        "tf": {"tf_scale": 20}})
    for page in (markdown(comp), html_report(comp)):
        settings = page[page.index("ettings to ship"):]
        assert settings.count("Cannot be shipped") == 2  # one for each configuration changed
        assert "Shipped as below, it may" not in settings and "as is" not in settings
        assert ("2 values it was measured with obsidian-mcp cannot take — w_position 0.3 → 0.6 "
                "has no setting (edit the new SearchScorer(…) call in "
                "src/services/fileSystem.ts); early_stop: with a limit") in settings
        assert "none: edit src/services/search/SearchScorer.ts" in settings  # tf_scale
        assert "one value it was measured with obsidian-mcp cannot take — tf_scale 100 → 20" \
            in settings
        rows = re.findall(r"ndcg@10 \|[^\n]*|<td>ndcg@10</td>.*?</tr>", settings)
        assert rows and all("−0." in r and "-0." not in r for r in rows[:1]), rows


def test_a_workbench_only_model_ships_only_the_values_that_differ(tmp_path: Path) -> None:
    # importance's Settings to ship printed its 58 parameters for each configuration, though
    # one differed: the reader had to compare them by eye
    from workbench.core.params import load_params_file
    from workbench.report.text import markdown

    ds = load_dataset(SAMPLES / "memories")
    comp = _compare(ds, "importance", {"defaults": {}, "more": {"limit": 100}})
    for page in (markdown(comp), html_report(comp)):
        settings = page[page.index("ettings to ship"):]
        body = re.findall(r"\[params\]\n(.*?)(?:```|</pre>)", settings, re.S)
        assert [b.strip() for b in body] == ["", "limit = 100"]
    # the file still loads as the whole configuration
    path = tmp_path / "more.toml"
    path.write_text(re.findall(r"```toml\n(.*?)```", markdown(comp), re.S)[1])
    model = get_model("importance")
    assert model.schema.resolve(load_params_file(path)) == comp.configs[1].params
