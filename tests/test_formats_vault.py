"""Markdown vaults and their front matter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats import read_vault
from workbench.core.formats.frontmatter import parse_front_matter


def note(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))  # bytes: keep \r\n exactly as written
    return path


ALPHA = (
    "---\r\n"
    "title: Alpha project\r\n"
    "tags: [work, '#planning']\r\n"
    "priority: 2\r\n"
    "draft: false\r\n"
    "---\r\n"
    "# Heading ignored for title\r\n"
    "Body with #inline and #work again, not a#tag, not #2024, `#code` nor [[x#y]].\r\n"
    "```\r\n#fenced stays code\r\n```\r\n"
    "Nested #area/sub-topic.\r\n"
)


def test_read_vault(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    note(root, "projects/alpha.md", ALPHA)
    note(root, "inbox.md", "Intro\n\n# First heading\n\n## Second\n#todo\n")
    note(root, "Zed note.md", "---\ntags:\n  - one\n  - \"#two\"\n---\nno heading\n")
    note(root, "daily/2026-01-01.md", "---\ntags: solo\n---\n")
    note(root, ".obsidian/workspace.md", "ignored")
    note(root, "sub/.git/x.md", "ignored")
    note(root, "node_modules/pkg/readme.md", "ignored")
    note(root, "attachment.png", "not a note")

    ds = read_vault(root)
    assert ds.name == "vault"
    assert ds.corpus.ids == ["Zed note.md", "daily/2026-01-01.md", "inbox.md",
                             "projects/alpha.md"]
    assert len(ds.queries) == 0 and ds.qrels is None

    alpha = ds.corpus.get("projects/alpha.md")
    assert alpha is not None
    assert alpha.text == ALPHA  # raw, front matter and \r\n included
    assert alpha.title == "Alpha project"
    assert alpha.tags == ("work", "planning", "inline", "area/sub-topic")
    assert alpha.metadata["path"] == "projects/alpha.md"
    assert alpha.metadata["frontmatter"] == {"title": "Alpha project",
                                             "tags": ["work", "#planning"],
                                             "priority": 2, "draft": False}
    assert isinstance(alpha.metadata["mtime"], float)

    inbox, zed, daily = (ds.corpus.get(i) for i in ("inbox.md", "Zed note.md",
                                                      "daily/2026-01-01.md"))
    assert inbox is not None and zed is not None and daily is not None
    assert (inbox.title, inbox.tags) == ("First heading", ("todo",))
    assert (zed.title, zed.tags) == ("Zed note", ("one", "two"))
    assert (daily.title, daily.tags) == ("2026-01-01", ("solo",))


def test_notes_subfolder_with_judgments(tmp_path: Path) -> None:
    root = tmp_path / "sample"
    note(root, "README.md", "# Not a note")
    note(root, "notes/a.md", "# A\nalpha")
    note(root, "notes/deep/b.md", "# B\nbeta")
    (root / "queries.jsonl").write_text(
        json.dumps({"_id": "q1", "text": "alpha"}) + "\n"
        + json.dumps({"id": "q2", "text": "unjudged"}) + "\n", encoding="utf-8")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\ta.md\t1\nq1\tdeep/b.md\t0\n", encoding="utf-8")

    for folder in (root, root / "notes"):  # the notes/ folder finds judgments in its parent
        ds = read_vault(folder)
        assert ds.name == "sample"
        assert ds.corpus.ids == ["a.md", "deep/b.md"]
        assert ds.queries.ids == ["q1"]
        assert ds.qrels == {"q1": {"a.md": 1, "deep/b.md": 0}}


def test_unknown_query_in_vault_qrels(tmp_path: Path) -> None:
    note(tmp_path, "notes/a.md", "a")
    (tmp_path / "queries.jsonl").write_text('{"_id": "q1", "text": "a"}\n', encoding="utf-8")
    (tmp_path / "qrels").mkdir()
    qrels = tmp_path / "qrels" / "test.tsv"
    qrels.write_text("q1\ta.md\t1\nq2\ta.md\t1\n", encoding="utf-8")
    with pytest.raises(FormatError, match="unknown query id") as info:
        read_vault(tmp_path)
    assert f"{qrels}:2:" in str(info.value) and "field 'query-id'" in str(info.value)


def test_unclosed_front_matter(tmp_path: Path) -> None:
    path = note(tmp_path, "bad.md", "---\ntitle: x\n\nbody\n")
    with pytest.raises(FormatError, match="never closed") as info:
        read_vault(tmp_path)
    assert f"{path}:1:" in str(info.value) and "field 'front matter'" in str(info.value)


def test_malformed_front_matter_line(tmp_path: Path) -> None:
    path = note(tmp_path, "bad.md", "---\ntitle: x\njust words\n---\nbody\n")
    with pytest.raises(FormatError, match="expected 'key: value'") as info:
        read_vault(tmp_path)
    assert f"{path}:3:" in str(info.value) and "field 'front matter'" in str(info.value)


def test_non_utf8_note(tmp_path: Path) -> None:
    path = tmp_path / "latin.md"
    path.write_bytes(b"# Caf\xe9\n")
    with pytest.raises(FormatError, match="not UTF-8") as info:
        read_vault(tmp_path)
    assert f"{path}:1:" in str(info.value) and "field 'encoding'" in str(info.value)


def test_empty_vault(tmp_path: Path) -> None:
    note(tmp_path, ".obsidian/app.md", "tool settings, not a note")
    with pytest.raises(FormatError, match=r"no markdown notes") as info:
        read_vault(tmp_path)
    assert str(tmp_path) in str(info.value) and "field 'notes'" in str(info.value)


def test_front_matter_parser() -> None:
    text = (
        "---\n"
        "# a comment\n"
        "title: \"Quoted: with colon\"  # trailing comment\n"
        "url: https://example.com/a#frag\n"
        "time: 10:30\n"
        "alias: 'it''s'\n"
        "empty:\n"
        "nothing: ~\n"
        "ratio: 1.5\n"
        "list: [a, \"b, c\", 3]\n"
        "summary: >\n"
        "  folded\n"
        "  text\n"
        "notes: |\n"
        "  line one\n"
        "  line two\n"
        "nested:\n"
        "  inner: 1\n"
        "long: first\n"
        "  continued\n"
        "---\n"
        "body\n"
    )
    fm = parse_front_matter(text.split("\n"), Path("x.md"))
    assert fm.values == {
        "title": "Quoted: with colon",
        "url": "https://example.com/a#frag",
        "time": "10:30",
        "alias": "it's",
        "empty": None,
        "nothing": None,
        "ratio": 1.5,
        "list": ["a", "b, c", 3],
        "summary": "folded text",
        "notes": "line one\nline two",
        "long": "first continued",
    }
    assert text.split("\n")[fm.body_start] == "body"
    assert parse_front_matter(["# no front matter"], Path("x.md")).values == {}


def test_a_vault_kept_in_git_opens_as_a_vault(tmp_path: Path) -> None:
    """A git-tracked vault (Obsidian users often keep one) opened as a code repository:
    'no tasks to evaluate', its front matter unread."""
    import shutil
    import subprocess

    from workbench.core.formats import load_dataset

    samples = Path(__file__).resolve().parents[1] / "sample_corpora"
    vault = tmp_path / "vault"
    shutil.copytree(samples / "vault", vault)
    subprocess.run(["git", "init", "-q", str(vault)], check=True)
    as_vault = load_dataset(samples / "vault")
    got = load_dataset(vault)
    assert len(got.corpus) == len(as_vault.corpus) and got.qrels == as_vault.qrels
    assert [d.title for d in got.corpus] == [d.title for d in as_vault.corpus]
    # an Obsidian vault without the sample's layout: its settings folder says what it is
    plain = tmp_path / "obsidian"
    (plain / ".obsidian").mkdir(parents=True)
    (plain / "idea.md").write_text("---\ntitle: An idea\n---\nSteep it longer.\n")
    subprocess.run(["git", "init", "-q", str(plain)], check=True)
    assert [d.title for d in load_dataset(plain).corpus] == ["An idea"]


@pytest.mark.parametrize(("line", "says"), [
    ("tags: [bad", "tags: an inline list opened with '[' and never closed"),
    ('title: "unclosed', "title: a value opened with \" and never closed"),
    ("tags: {a: [}", "tags: an inline mapping opened with '{' and never closed"),
    ("title: [Draft] My note", "title: an inline list followed by text after its closing"),
])
def test_front_matter_yaml_would_not_read(tmp_path: Path, line: str, says: str) -> None:
    path = note(tmp_path, "bad.md", f"---\n{line}\n---\nbody\n")
    with pytest.raises(FormatError, match="field 'front matter'") as info:
        read_vault(tmp_path)
    assert f"{path}:2:" in str(info.value) and says in str(info.value)


def test_front_matter_yaml_reads_is_still_read(tmp_path: Path) -> None:
    fm = parse_front_matter(["---", "tags: [a, '#b']", "related: [[Note A]]", 'title: "x" ',
                             "meta: {a: 1}", "---"], tmp_path / "n.md")
    assert fm.values["tags"] == ["a", "#b"] and fm.values["title"] == "x"
    assert "related" in fm.values and "meta" not in fm.values  # a mapping: no simple value


def test_a_note_yaml_would_not_read_is_named_and_its_fields_left_out(tmp_path: Path) -> None:
    from workbench.core.checks import skipped_report
    from workbench.core.formats import load_dataset

    note(tmp_path, "good.md", "---\ntags: [tea]\n---\ngreen tea\n")
    note(tmp_path, "broken.md", "---\ntags: [bad\n  : : yaml\n---\nblack tea\n")
    skipped: list[FormatError] = []
    ds = load_dataset(tmp_path, skipped=skipped)
    assert [type(e).__name__ for e in skipped] == ["NoteReadAsText"]
    assert "broken.md:2" in str(skipped[0])
    assert any("broken.md" in line for _, lines in skipped_report(skipped) for line in lines)
    broken = ds.corpus.get("broken.md")
    assert broken is not None and not broken.tags  # no junk tags from it


def test_flow_values_may_go_on_over_indented_lines(tmp_path: Path) -> None:
    fm = parse_front_matter(["---", "title: Release checklist", "tags: [release,",
                             "  deploy]", 'summary: "a long', '  one"', "---"], tmp_path / "n.md")
    assert fm.values == {"title": "Release checklist", "tags": ["release", "deploy"],
                         "summary": "a long one"}
    with pytest.raises(FormatError, match=r"n.md:3: field 'front matter': tags: an inline list "
                                          r"opened with '\[' and never closed"):
        parse_front_matter(["---", "title: x", "tags: [a,", "  b", "more: 1", "---"],
                           tmp_path / "n.md")


def test_an_integer_past_pythons_digit_limit_stays_text(tmp_path: Path) -> None:
    # int() refuses 4,300+ digits: a ValueError escaped the reader as a traceback
    digits = "1" * 5000
    fm = parse_front_matter(["---", f"serial: {digits}", "count: 12", "---"], tmp_path / "n.md")
    assert fm.values["serial"] == digits and fm.values["count"] == 12


def test_a_named_pipe_among_the_notes_is_skipped_not_waited_on(tmp_path: Path) -> None:
    # read_bytes() on a FIFO waits for a writer forever: the load hung
    import os
    import subprocess
    import sys

    note(tmp_path, "a.md", "# A\n\nkettle notes\n")
    os.mkfifo(tmp_path / "zz.md")
    code = ("import sys; from pathlib import Path\n"
            "from workbench.core.formats.vault import read_vault_notes\n"
            "skipped = []\n"
            "corpus = read_vault_notes(sys.argv[1], skipped=skipped)\n"
            "print([d.id for d in corpus], [str(e) for e in skipped])\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "['a.md']" in done.stdout and "zz.md: not a regular file" in done.stdout
