"""The comparison as Markdown: every section, the parameters that differ, the metric table's
numbers as the comparison computed them, and movers with their explain sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.html import html_report
from workbench.report.text import markdown, metric_table, p_text


def test_markdown_has_every_section() -> None:
    model = get_model("bm25")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("tuned", model.schema.resolve({"k1": 0.9, "b": 0.4})),
               Configuration("flat", model.schema.resolve({"b": 0.0}))]
    comp = compare_configurations(model, load_dataset(SAMPLES / "tea-beir"), configs)
    text = markdown(comp)
    for heading in ("# Ranking comparison", "## Parameters that differ", "## Metrics",
                    "## Moved most: defaults → tuned", "## Moved most: defaults → flat"):
        assert f"\n{heading}" in f"\n{text}"
    assert "| k1 | 1.2 | 0.9 | 1.2 |" in text and "| b | 0.75 | 0.4 | 0 |" in text
    ndcg = next(r for r in comp.rows if r.metric == "ndcg@10")
    line = next(x for x in text.splitlines() if x.startswith("| ndcg@10 |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    star = " ★" if (ndcg.p_values[1] or 1.0) < 0.05 else ""  # the Markdown's p < 0.05 mark
    # 4 decimals, the Δ the difference of the means shown (rc 6): 0.61306 → 0.60373 had
    # read 0.6131 → 0.6037 beside −0.0093
    places = len(cells[1].split(".")[1])
    assert places == 4
    a, b = f"{ndcg.means[0]:.4f}", f"{ndcg.means[1]:.4f}"
    assert cells[1:4] == [a, b, f"{float(b) - float(a):+.4f}".replace("-", "−") + star]
    assert cells[3].startswith("−0.0094")
    # the interval the HTML report gives, here too (the randomisation test's own, rB 5: an
    # independent inversion of it), to the row's decimals
    from tests.sign_flip_reference import interval

    d = comp.results[1].per_query["ndcg@10"] - comp.results[0].per_query["ndcg@10"]
    low, high = interval(d)
    assert cells[4] == f"{low:+.{places}f} to {high:+.{places}f}".replace("-", "−")
    assert cells[5] == p_text(ndcg.p_values[1])
    assert cells[6] == f"{ndcg.improved[1]}/{ndcg.worsened[1]}"
    assert "- 95% CI of Δ: the range the mean per-query difference lies in" in text
    header, rows = metric_table(comp)  # the window's and compare's: no interval column
    assert len(header) == 2 + 4 * 2 and len(rows) == len(comp.rows)
    movers = [x for x in text.splitlines() if x.startswith("- `q")]
    words = (" moved from ", " entered at ", " dropped out ", " stayed at ")
    assert movers and all(any(w in m for w in words) for m in movers)
    # each setting with what its change alone did (rv51 2; dr4 5), the one that moved it most
    # first; one that moves nothing counted, not named; one that held it back said apart
    plain = [re.sub(r" \(only it set back: [^)]*\)", "", m).rsplit(" — ", 1)[1] for m in movers]
    assert set(plain) <= {"k1 1.2 → 0.9, b 0.75 → 0.4", "b 0.75 → 0.4, k1 1.2 → 0.9",
                          "k1 1.2 → 0.9 and 1 more", "b 0.75 → 0.4 and 1 more",
                          "k1 1.2 → 0.9; held back by b 0.75 → 0.4",
                          "b 0.75 → 0.4; held back by k1 1.2 → 0.9", "b 0.75 → 0"}, plain
    assert any("(only it set back: " in m for m in movers)


def test_a_file_is_named_once() -> None:
    """A repository's files have their path as id and title: a mover names it once."""
    model = get_model("codeledger")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("similar", model.schema.resolve({"w_similar": 2.0}))]
    ds = load_dataset(SAMPLES / "code-repo")
    assert all(d.title in ("", d.id) for d in ds.corpus)
    text = markdown(compare_configurations(model, ds, configs))
    movers = [x for x in text.splitlines() if x.startswith("- `c")]
    assert movers
    for line in movers:  # the path as code: shown literally (src/__tests__ is no emphasis)
        path = line.split(" · ", 1)[1].split(":", 1)[0].split(", judged")[0].strip("`")
        assert path in ds.corpus.index, line  # the path alone, no “path” after it


def test_values_are_written_plainly_and_a_sample_repository_is_not_a_cache_path() -> None:
    # the parameter table showed 'batch-max' 'z-score' and the subject line the cache path
    # /root/.cache/scoring-workbench/sample-repos/code-repo-741cecef…@072f535a…
    from workbench.core.store import cache_dir

    model = get_model("hybrid")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("z", model.schema.resolve({"normalization": "z-score"}))]
    text = markdown(compare_configurations(model, load_dataset(SAMPLES / "tea-beir"), configs))
    assert "| normalization | batch-max | z-score |" in text
    assert "'batch-max'" not in text
    code = get_model("codeledger")
    ds = load_dataset(SAMPLES / "code-repo")
    commit = ds.source.rpartition("@")[2]
    comp = compare_configurations(code, ds, [
        Configuration("defaults", code.schema.defaults()),
        Configuration("similar", code.schema.resolve({"w_similar": 2.0}))])
    text = markdown(comp)
    assert str(cache_dir()) not in text
    assert (f"(the code-repo sample's repository, built from its history, at commit "
            f"{commit[:12]})") in text


def test_origin_splits_a_commit_only_and_finds_the_sample_through_a_relative_cache(
        tmp_path, monkeypatch) -> None:
    from workbench.core.store import cache_dir
    from workbench.report.text import origin

    # a folder with an @ of its own is no repository@commit
    assert origin("/data/me@example.com/tea") == "/data/me@example.com/tea"
    assert origin("/src/repo@0123456789abcdef0123456789abcdef01234567") == \
        "/src/repo at commit 0123456789ab"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", "cache")  # relative, as a user may set it
    repo = (cache_dir() / "sample-repos" / "code-repo-741cecef4714c64f").resolve()
    assert origin(f"{repo}@{'a' * 40}") == (
        "the code-repo sample's repository, built from its history, at commit aaaaaaaaaaaa")


def test_a_bundle_models_summary_speaks_of_its_bundles() -> None:
    """codeledger's "in short" spoke of R@10, which two configurations differing in budget
    alone tie on; what the agent is handed is the bundle."""
    from types import SimpleNamespace

    from workbench.report.text import headline_metric

    rows = [SimpleNamespace(metric=m, means=[0.5, 0.6]) for m in (
        "r@10", "ndcg@10", "bundle_recall", "bundle_tokens")]
    assert headline_metric(SimpleNamespace(rows=rows, configs=[0, 1])) == "bundle_recall"  # type: ignore[arg-type]
    assert headline_metric(SimpleNamespace(rows=rows[:2], configs=[0, 1])) == "r@10"  # type: ignore[arg-type]
    # beside a model with no bundle (bm25's blank mean), the first figure both have
    rows[2].means = [float("nan"), 0.9]
    assert headline_metric(SimpleNamespace(rows=rows, configs=[0, 1])) == "r@10"  # type: ignore[arg-type]


def _rendered(text: str) -> str:
    """Markdown as a CommonMark renderer with GitHub's tables shows it (raw HTML passed
    through, as GitHub passes the tags it allows)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(
        text)


def test_markdown_shows_titles_queries_and_names_literally(tmp_path) -> None:
    # a pull request's Markdown showed a title `</td></table><h1>x` as markup, `&amp;` as
    # "&", "`x` *y*" as code and italics, and a config named `k1|b <i>x` in italics
    import dataclasses

    from workbench.core.data import Corpus, Dataset, QuerySet

    ds = load_dataset(SAMPLES / "tea-beir")
    odd = ["</td></tr></table><h1>broken", "ampersand &amp; &lt;e&gt;",
           "`tick` *star* _u_ [l](http://x.org) ~~g~~"]
    docs = [dataclasses.replace(d, title=odd[i % 3]) for i, d in enumerate(ds.corpus)]
    queries = [dataclasses.replace(q, text=f"# {q.text} <b>bold</b>") for q in ds.queries]
    hostile = Dataset("tea *bold*", Corpus(docs), QuerySet(queries), ds.qrels)
    model = get_model("bm25")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("k1|b <i>x & y*z*", model.schema.resolve({"k1": 0.3, "b": 1.0}))]
    text = markdown(compare_configurations(model, hostile, configs, n_resamples=500), top=200)
    html = _rendered(text)
    for tag in ("<h1>broken", "<b>bold", "<i>x", "<em>", "<del>", "<a href", "</table><h1>"):
        assert tag not in html, tag
    for title in odd:  # each shown as typed, once escaped for HTML
        from html import escape

        assert escape(title, quote=False) in html, title
    assert "k1|b &lt;i&gt;x &amp; y*z*" in html
    assert html.count("<h1>") == 1  # the report's own title; no query opened a heading


def test_a_newline_in_a_file_name_keeps_every_table_whole(tmp_path) -> None:
    from workbench.core.comparison import configuration_file

    model = get_model("bm25")
    f = tmp_path / "line\nbreak.toml"
    f.write_text("k1 = 0.9\n", encoding="utf-8")
    config = configuration_file(model, f)
    assert config.name == "line break"
    comp = compare_configurations(model, load_dataset(SAMPLES / "tea-beir"),
                                  [Configuration("defaults", model.schema.defaults()), config],
                                  n_resamples=500)
    tables = [x for x in markdown(comp).splitlines() if x.startswith("|")]
    assert tables and all(x.endswith("|") for x in tables)
    assert "<table>" in _rendered(markdown(comp))


def test_in_short_says_what_a_reader_needs() -> None:
    """Identical rankings are not "maybe chance"; another metric's change beyond chance is
    named beside a headline with none; a change on too few queries says no test can tell."""
    import dataclasses

    from workbench.report.text import summary_lines

    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")

    def summary(values: dict[str, object]) -> str:
        configs = [Configuration("defaults", model.schema.defaults()),
                   Configuration("other", model.schema.resolve(values))]
        comp = compare_configurations(model, ds, configs, n_resamples=2000)
        return summary_lines(comp)[0], comp

    same, _ = summary({})
    assert "the same on every one of the 25 queries (the settings are identical)" in same
    assert "chance" not in same
    # k1 = 1.15 moves two queries' nDCG@10: no test over two can reach p < 0.05
    few, comp = summary({"k1": 1.15})
    row = next(r for r in comp.rows if r.metric == "ndcg@10")
    assert row.improved[1] + row.worsened[1] == 2
    assert "too few queries changed (2) for any test to tell it from chance" in few
    # a headline with no clear difference beside another metric beyond chance: both said
    # (the p-values set here; the sentence is what is tested)
    line, comp = summary({"b": 0.0})
    assert "Beyond chance" not in line
    comp.rows = [dataclasses.replace(r, p_values=[None, 0.006]) if r.metric == "r@100"
                 else dataclasses.replace(r, p_values=[None, 0.3]) for r in comp.rows]
    r100 = next(r for r in comp.rows if r.metric == "r@100")
    line = summary_lines(comp)[0]
    assert "no clear difference: it may be chance" in line
    assert (f"Beyond chance on other metrics, after Holm's adjustment: r@100 "
            f"{r100.means[0]:.4f} → {r100.means[1]:.4f} "
            f"({r100.deltas[1]:+.4f}, p 0.006, ") in line


def test_markdown_leaves_no_heading_mention_math_or_code_block_live() -> None:
    from workbench.report.text import md

    html = _rendered("### " + md("release #") + "\n\n- " + md("    four spaces") + "\n\n"
                     + md("@alice $x$ #12"))
    assert "<h3>release #</h3>" in html
    assert "<pre>" not in html and "four spaces" in html
    assert "@alice $x$ #12" in html
    assert md("ndcg@10 bundle_recall") == "ndcg@10 bundle_recall"  # inside words: as typed


def test_in_short_names_other_metrics_beyond_chance_when_the_headline_is_unchanged() -> None:
    import dataclasses

    from workbench.report.text import summary_lines

    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("other", model.schema.resolve({"b": 0.0}))]
    comp = compare_configurations(model, ds, configs, n_resamples=500)
    # the headline unchanged, r@100 changed beyond chance (set here: the sentence is tested)
    comp.rows = [dataclasses.replace(r, improved=[0, 0], worsened=[0, 0])
                 if r.metric == "ndcg@10" else
                 dataclasses.replace(r, p_values=[None, 0.01]) if r.metric == "r@100"
                 else dataclasses.replace(r, p_values=[None, 0.5]) for r in comp.rows]
    line = summary_lines(comp)[0]
    assert "the same on every one of the 25 queries (other metrics moved" in line
    assert "Beyond chance on other metrics, after Holm's adjustment: r@100 " in line


def test_identical_configurations_carry_no_caution_about_many_p_values() -> None:
    from workbench.report.text import many_tests_note, tests_shown

    model = get_model("bm25")
    configs = [Configuration(n, model.schema.defaults()) for n in ("a", "b", "c")]
    comp = compare_configurations(model, load_dataset(SAMPLES / "tea-beir"), configs,
                                  n_resamples=200)
    assert tests_shown(comp) == 0 and many_tests_note(comp) == ""


def test_a_signals_change_that_rounds_to_a_whole_number_keeps_its_digits() -> None:
    # "bm25 −4" for a change of −3.997 read as a whole number
    from workbench.core.comparison import _signed

    assert [_signed(x) for x in (-3.997, 4.0, 0.3, 11.996, 123.4)] == [
        "−4.00", "+4", "+0.3", "+12.0", "+123"]


def test_a_shared_page_shows_paths_near_not_absolute(tmp_path, monkeypatch) -> None:
    # a pull request's first line held /home/alice/…/tea-beir
    from workbench.report.text import origin

    home, work = tmp_path / "home", tmp_path / "home" / "work"
    (work / "data").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    assert origin(str(work / "data")) == "data"
    assert origin(str(home / "other")) == "~/other"
    assert origin(str(work / "data") + "@" + "a" * 40) == "data at commit aaaaaaaaaaaa"
    assert origin("/elsewhere/x") == "/elsewhere/x"


@pytest.mark.parametrize("embeddings", ["encoder", "stored"])
def test_hybrid_settings_ship_but_the_encoders_vectors_are_said(embeddings: str) -> None:
    # "Its settings ship as they are", while the vector share was of all-MiniLM-L6-v2's
    # vectors and OpenVault scores with those its own model stored
    from workbench.core.export import export_params
    from workbench.report.text import summary_lines

    model = get_model("hybrid")
    configs = [Configuration(name, model.schema.resolve({"embeddings": embeddings, **values}))
               for name, values in (("defaults", {}), ("half", {"alpha": 0.5}))]
    (line,) = summary_lines(compare_configurations(model, load_dataset(SAMPLES / "tea-beir"),
                                                   configs))
    said = "the vector share was measured with all-MiniLM-L6-v2's embeddings"
    assert "ship as they are" in line
    assert (said in line) == (embeddings == "encoder"), line
    where = export_params("hybrid", {"embeddings": embeddings}).where
    assert (said in where and "-p embeddings=stored" in where) == (embeddings == "encoder")


def test_vault_search_settings_are_named_as_call_arguments() -> None:
    """obsidian-mcp reads no settings file: the reports titled its values
    'vault-search.settings.json', a file export no longer writes (or ever was read)."""

    model = get_model("vault-search")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("limit 5", model.schema.resolve({"limit": 5, "w_tf": 0.3}))]
    comp = compare_configurations(model, load_dataset(SAMPLES / "vault"), configs)
    for text in (markdown(comp), html_report(comp)):
        assert "settings.json" not in text
        assert ("each search_vault call's arguments:" in text
                or "<h4>each search_vault call&#x27;s arguments</h4>" in text)


def test_openvaults_settings_are_headed_as_a_part_of_sillytaverns_file() -> None:
    """Headed 'settings.json', the block read as the whole file, which it is a part of."""
    model = get_model("hybrid")
    configs = [Configuration("defaults", model.schema.resolve({"embeddings": "stored"})),
               Configuration("half", model.schema.resolve({"embeddings": "stored",
                                                           "alpha": 0.5}))]
    text = markdown(compare_configurations(model, load_dataset(SAMPLES / "story"), configs))
    assert "the extension\\_settings.openvault part of SillyTavern's settings.json:" in text \
        or "the extension_settings.openvault part of SillyTavern's settings.json:" in text
    assert "`settings.json`:" not in text


def test_markdown_movers_heading_is_short_with_the_explanation_under_it(
        tmp_path: Path) -> None:
    """rb 11: "## Moved most: bm25 → codeledger (moves into, … so the places compare and
    the scores do not)" rendered as a three-line heading; the heading names the pair, the
    paragraph under it says what the list holds."""
    out = tmp_path / "r.md"
    assert main(["report", str(SAMPLES / "code-repo"), "-m", "bm25", "-m", "codeledger",
                 "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    at = lines.index("## Moved most: bm25 → codeledger")
    assert lines[at + 1] == ""
    assert lines[at + 2].startswith("Moves into, out of or within the top 10")
    assert lines[at + 2].endswith("so the places compare and the scores do not.")
    assert not any(line.startswith("## Moved most") and "(" in line for line in lines)


def test_a_prompt_export_cannot_write_is_not_said_to_ship_as_it_is() -> None:
    """dr3 1: OpenVault's embedding prompt has a setting (its settings panel) that export
    does not write; In short had said "Its settings ship as they are" and the table had listed
    the prompt like any written setting."""
    model = get_model("hybrid")
    configs = [Configuration("defaults", model.schema.resolve({"embeddings": "stored"})),
               Configuration("noprompt", model.schema.resolve(
                   {"embeddings": "stored", "query_prompt": "", "document_prompt": ""}))]
    comp = compare_configurations(model, load_dataset(SAMPLES / "story"), configs)
    text = markdown(comp)
    line = next(x for x in text.splitlines() if x.startswith("- noprompt against defaults"))
    assert "ship as they are" not in line
    assert ("Every changed value has a setting, but " in line
            and "does not write query_prompt '' and document_prompt '': set them by hand, "
            "in OpenVault's settings panel" in line), line
    hand = "— set by hand (export does not write it)"
    rows = [x for x in text.splitlines() if x.startswith(("| query_prompt |",
                                                          "| document_prompt |"))
            and hand in x]
    assert len(rows) == 2, text
    page = html_report(comp)
    assert page.count(hand) == 2


def test_where_they_go_names_the_export_command_not_a_bare_out() -> None:
    """rv 10: "with --out, search_vault.args.json holds …" in a report, whose own --out is
    another thing: the export command is named."""
    model = get_model("vault-search")
    comp = compare_configurations(
        model, load_dataset(SAMPLES / "vault"),
        [Configuration("defaults", model.schema.defaults()),
         Configuration("limit 5", model.schema.resolve({"limit": 5}))], n_resamples=200)
    for text in (markdown(comp), html_report(comp)):
        where = text[text.index("Where they go: "):]
        where = where[:where.index("\n")]
        assert ("with workbench export -m vault-search --params FILE.toml --out DIR, "
                "search_vault.args.json holds the arguments") in where, where
        assert " --out" not in where.replace("FILE.toml --out DIR", ""), where


def test_in_short_names_the_export_command_that_does_not_write_a_prompt() -> None:
    """Item 4 of the dr6 fixes: In short's "export --out does not write query_prompt …" in
    a report, whose own -o/--out writes the report: the export command is named, as Where
    they go names it."""
    model = get_model("hybrid")
    configs = [Configuration("defaults", model.schema.resolve({"embeddings": "stored"})),
               Configuration("noprompt", model.schema.resolve(
                   {"embeddings": "stored", "query_prompt": "", "document_prompt": ""}))]
    comp = compare_configurations(model, load_dataset(SAMPLES / "story"), configs,
                                  n_resamples=200)
    text = markdown(comp)
    line = next(x for x in text.splitlines() if x.startswith("- noprompt against defaults"))
    assert ("but workbench export -m hybrid --params FILE.toml --out DIR does not write "
            "query_prompt '' and document_prompt ''") in line, line
    assert " --out" not in line.replace("FILE.toml --out DIR", ""), line


def test_an_empty_search_vault_block_says_there_is_nothing_to_pass() -> None:
    """Item 4 of the dr6 fixes: vault-search at obsidian-mcp's defaults ships
    {"search_vault": {}}, which Settings to ship had shown unsaid."""
    model = get_model("vault-search")
    comp = compare_configurations(
        model, load_dataset(SAMPLES / "vault"),
        [Configuration("defaults", model.schema.defaults()),
         Configuration("limit 5", model.schema.resolve({"limit": 5}))], n_resamples=200)
    text = markdown(comp)
    lines = text.splitlines()
    heads = [x for x in lines if x.startswith("each search_vault call's arguments")]
    assert heads == ["each search_vault call's arguments (no arguments to pass):",
                     "each search_vault call's arguments:"], heads
    page = html_report(comp)
    assert page.count("each search_vault call&#x27;s arguments (no arguments to pass)") == 1
