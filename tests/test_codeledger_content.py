"""codeledger's content relevance, named paths and graph expansion: tokens by the rule in
`content`'s docstring, BM25 against bm25s (an independent implementation) on the same tokens,
mentions and the graph signal worked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_codeledger_fixtures import make_dataset
from workbench.core.models.codeledger import CodeLedgerModel, signal_table
from workbench.core.models.codeledger.candidates import CONTENT, MENTION
from workbench.core.models.codeledger.content import (
    build_content_index,
    code_tokens,
    issue_refs,
    task_tokens,
)
from workbench.core.models.codeledger.graph import neighbours
from workbench.core.models.codeledger.mentions import mentioned_files, path_mentions
from workbench.core.models.codeledger.params import SIGNAL_NAMES


def test_identifiers_split_and_whole_stemmed_without_code_stop_words() -> None:
    assert code_tokens("HTTPTransport") == ["http", "transport", "httptransport"]
    assert code_tokens("max_redirects = self.max_redirects") == [
        "max", "redirect", "maxredirect", "max", "redirect", "maxredirect"]
    # keywords and builtins every file repeats go; one-letter parts go; stems meet
    assert code_tokens("def retries(self, x): return None") == ["retri"]
    assert code_tokens("retry") == ["retri"]
    assert code_tokens("getUserById") == ["get", "user", "id", "getuserbyid"]  # "by": stop


def test_issue_and_pr_numbers_are_not_tokens() -> None:
    text = "Fix retry loop (#1234), see GH-56 and issue #7; colour #fff stays"
    assert issue_refs(text) == ["#1234", "GH-56", "#7"]
    assert "1234" not in task_tokens(text) and "56" not in task_tokens(text)
    assert "fff" in task_tokens(text)  # not a number: kept
    assert task_tokens("Use `HttpClient.sendRequest`") == [
        "use", "http", "client", "httpclient", "send", "request", "sendrequest"]


FILES = {
    "src/retry.py": "class RetryPolicy:\n    def backoff(self, attempt):\n"
                    "        return min(cap, base * 2 ** attempt)  # retry backoff\n",
    "src/client.py": "from src.retry import RetryPolicy\n\nclass Client:\n"
                     "    def send(self, request):\n        policy = RetryPolicy()\n",
    "docs/guide.md": "Retries: the client retries with backoff. Retries are capped.\n",
    "src/util.py": "def clamp(value, low, high):\n    return max(low, min(high, value))\n",
}


def test_bm25_equals_bm25s_on_the_same_tokens() -> None:
    bm25s = pytest.importorskip("bm25s")
    paths, texts = list(FILES), list(FILES.values())
    ix = build_content_index(paths, texts, k1=1.2, b=0.75, path_weight=0.0)
    ref = bm25s.BM25(method="lucene", k1=1.2, b=0.75, dtype="float64")
    ref.index([code_tokens(t) for t in texts], show_progress=False)
    for task in ("retry backoff policy", "client send request retries", "clamp value"):
        toks = task_tokens(task)
        mine = ix.scores([toks])[0]
        theirs = ref.get_scores([t for t in toks if t in ref.vocab_dict])
        np.testing.assert_allclose(mine, theirs, rtol=1e-9, atol=1e-12, err_msg=task)


def test_the_path_counts_as_a_field() -> None:
    paths, texts = list(FILES), list(FILES.values())
    plain = build_content_index(paths, texts, k1=1.2, b=0.75, path_weight=0.0)
    field = build_content_index(paths, texts, k1=1.2, b=0.75, path_weight=3.0)
    # "util" is only in a path: nothing without the field, the util file with it
    assert not plain.scores([["util"]]).any()
    assert np.flatnonzero(field.scores([["util"]])[0]).tolist() == [paths.index("src/util.py")]


def test_path_mentions() -> None:
    text = ('Crash in httpx/_client.py:123; File "/venv/lib/site-packages/httpx/_models.py", '
            'line 88; see https://example.org/a/b.py, index.ts and _urls.py')
    assert path_mentions(text) == ["httpx/_client.py", "venv/lib/site-packages/httpx/_models.py",
                                   "index.ts", "_urls.py"]
    paths = ["httpx/_client.py", "httpx/_models.py", "httpx/_urls.py", "a/index.ts",
             "b/index.ts"]
    # the longest suffix that some path ends with; a name two files share names neither
    assert mentioned_files(text, paths) == {0: "httpx/_client.py",
                                            1: "venv/lib/site-packages/httpx/_models.py",
                                            2: "_urls.py"}


def test_graph_neighbours_by_hand() -> None:
    # 0 imports 1, 1 imports 2 (so 2's dependents hold 1), 3 is the test of 2, 4 alone
    imports = [(1,), (2,), (), (), ()]
    dependents = [(), (0,), (1,), (), ()]
    tests = [(), (), (3,), (2,), ()]
    nb = neighbours((imports, dependents, tests), 5)
    rel = np.array([1.0, 0.0, 0.25, 0.5, 0.9])
    assert nb.best(rel, 1).tolist() == [0.0, 1.0, 0.5, 0.25, 0.0]
    assert nb.best(rel, 2).tolist() == [0.25, 0.5, 1.0, 0.0, 0.0]
    assert nb.source(rel, 2, 2) == 0 and nb.source(rel, 4, 1) == -1


def test_signals_and_stages_in_the_model() -> None:
    """Through prepare and combine: the content signal is bm25 ÷ the task's best, a named
    file gets mention 1 and its stage, graph = share · the best neighbour's relevance."""
    ds = make_dataset({"q": "Retry backoff is wrong in src/retry.py"})
    model = CodeLedgerModel()
    params = model.schema.resolve({"graph_share": 0.4, "graph_hops": 1})
    prep = model.prepare(ds, params)
    table = signal_table(prep, params)
    paths = prep.files.paths
    row = {paths[int(d)]: i for i, d in enumerate(prep.docs[prep.row_ptr[0]:prep.row_ptr[1]])}
    content = table[SIGNAL_NAMES.index("content")]
    assert content.max() == 1.0 and content[row["svc/retry.py"]] == 1.0
    mention = table[SIGNAL_NAMES.index("mention")]
    # src/retry.py is not in that repository, but its name is, once: svc/retry.py is named
    assert mention[row["svc/retry.py"]] == 1.0 and mention.sum() == 1.0
    ds2 = make_dataset({"q": "Retry backoff is wrong in svc/retry.py:12"})
    prep2 = model.prepare(ds2, params)
    t2 = signal_table(prep2, params)
    docs2 = [prep2.files.paths[int(d)] for d in prep2.docs]
    at = docs2.index("svc/retry.py")
    assert t2[SIGNAL_NAMES.index("mention"), at] == 1.0
    assert int(prep2.stages[at]) & MENTION and int(prep2.stages[at]) & CONTENT
    graph = t2[SIGNAL_NAMES.index("graph")]
    np.testing.assert_allclose(graph, 0.4 * prep2.graph1)
    # a neighbour of the named file takes its share: svc/retry.py's test
    test_at = docs2.index("tests/test_retry.py")
    assert prep2.files.paths[int(prep2.from1[test_at])] in docs2
    assert graph[test_at] == pytest.approx(0.4 * max(
        prep2.relevance[docs2.index(prep2.files.paths[n])] if prep2.files.paths[n] in docs2
        else 0.0 for n in (*prep2.files.tests[prep2.files.paths.index("tests/test_retry.py")],
                           *prep2.files.imports[prep2.files.paths.index("tests/test_retry.py")],
                           *prep2.files.dependents[
                               prep2.files.paths.index("tests/test_retry.py")])))


def test_cochange_by_hand() -> None:
    """p(f | g) = c(f, g) / (n_g + 1) from commit ages shared by files; the signal is the best
    relevance(g) · p(f | g), and the g it came from."""
    from workbench.core.data import Document
    from workbench.core.models.codeledger.cochange import cochange
    from workbench.core.models.codeledger.files import read_files

    # commits at ages 1, 2, 3 and 9; a.py in 1, 2, 3; b.py in 1, 2; c.py in 3, 9; d.py none
    days = {"a.py": [1.0, 2.0, 3.0], "b.py": [1.0, 2.0], "c.py": [3.0, 9.0], "d.py": []}
    files = read_files([Document(p, text="x = 1", metadata={"commit_days": d})
                        for p, d in days.items()])
    cc = cochange(files)
    p = cc.p.toarray()
    assert p.tolist() == [[0, 2 / 3, 1 / 3, 0],   # a | b: 2 of b's 2 commits (+1)
                          [2 / 4, 0, 0, 0],         # b | a: 2 of a's 3 commits (+1)
                          [1 / 4, 0, 0, 0],         # c | a: 1 of a's 3 commits (+1)
                          [0, 0, 0, 0]]
    value, source = cc.best(np.array([1.0, 0.9, 0.2, 1.0]))
    np.testing.assert_allclose(value, [max(0.9 * 2 / 3, 0.2 / 3), 0.5, 0.25, 0.0])
    assert source.tolist() == [1, 0, 0, -1]
    # no history: nothing changed together
    bare = cochange(read_files([Document("x.py", text="y = 2")]))
    assert bare.best(np.array([1.0]))[1].tolist() == [-1]


def test_cochange_signal_and_stage_in_the_model() -> None:
    """Through prepare: cochange is the pair's stored best, the co-change stage brings files
    with cochange > 0 (at most cochange_max_candidates), and explain names the partner."""
    from tests.test_codeledger_fixtures import FILES
    from workbench.core.models.codeledger.candidates import COCHANGE
    from workbench.core.models.codeledger.cochange import cochange as build

    # svc/retry.py was changed at ages 1, 5, 40 and 200: three files share some of those
    shared = {"svc/store.py": [1.0, 40.0], "misc/other.py": [5.0], "api-gateway/route.py": [200.0]}
    files = {p: {**m, "commit_days": shared.get(p, m.get("commit_days", []))}
             for p, m in FILES.items()}
    ds = make_dataset({"q": "Retry backoff is wrong"}, files=files)
    model = CodeLedgerModel()
    params = model.schema.resolve({"cochange_max_candidates": 2})
    prep = model.prepare(ds, params)
    table = signal_table(prep, params)
    np.testing.assert_array_equal(table[SIGNAL_NAMES.index("cochange")], prep.cochange)
    rel = np.zeros(prep.files.n)
    row = slice(int(prep.row_ptr[0]), int(prep.row_ptr[1]))
    rel[prep.docs[row]] = prep.relevance[row]
    value, _ = build(prep.files).best(rel)
    np.testing.assert_allclose(prep.cochange[row], value[prep.docs[row]])
    staged = [int(d) for d, s in zip(prep.docs[row], prep.stages[row], strict=True)
              if int(s) & COCHANGE]
    assert 0 < len(staged) <= 2 and all(value[d] > 0 for d in staged)
    top = sorted(value[value > 0], reverse=True)[:2]
    assert sorted(value[staged].tolist(), reverse=True) == top
    info = model.explain(prep, ds, 0, staged[0], params)
    assert info["changed_with"]["value"] == pytest.approx(value[staged[0]])
    assert info["changed_with"]["with"] in prep.files.paths


def test_a_cited_line_is_kept_in_the_excerpt_of_the_file_it_names() -> None:
    """`_multipart.py:290` found the file, but its excerpt (keyword windows) was the same for
    lines 5, 100 and 290 and held none of them: the line the agent most needs."""
    from tests.test_codeledger_fixtures import BIG_LINES
    from workbench.core.models.codeledger.explain import explain_pair
    from workbench.core.models.codeledger.mentions import cited_lines

    text = ('widget count wrong at big/large.py:100; File "/srv/app/big/large.py", line 580; '
            "and svc/retry.py:12")
    paths = ["svc/retry.py", "big/large.py"]
    assert cited_lines(text, paths) == {1: (100, 580), 0: (12,)}
    assert BIG_LINES > 580
    model = CodeLedgerModel()
    ds = make_dataset({"q": text})
    big = ds.corpus.index["big/large.py"]
    for on, holds in ((True, True), (False, False)):
        params = model.schema.resolve({"excerpt_cited_lines": on})
        prep = model.prepare(ds, params)
        ranges = explain_pair(prep, ds, 0, big, params)["excerpt"]["ranges"]
        kept = {line for a, b in ranges for line in range(a, b + 1)}
        assert ({100, 580} <= kept) == holds, ranges
    # codeledger-document keeps keyword hits only, as CodeLedger's document
    from workbench.core.models import get_model

    assert get_model("codeledger-document").schema["excerpt_cited_lines"].default is False


def test_a_files_lines_are_counted_as_the_model_counts_them() -> None:
    # explain said "0 of 890 lines" of an 889-line file (a trailing newline counted as a line)
    from tests.conftest import SAMPLES
    from workbench.core.data import Document
    from workbench.core.formats import load_dataset
    from workbench.core.models.codeledger.files import file_lines

    assert file_lines(Document("a.py", "", "x = 1\ny = 2\n")) == 2
    assert file_lines(Document("a.py", "", "x = 1\ny = 2")) == 2
    assert file_lines(Document("a.py", "", "")) == 0
    assert file_lines(Document("a.py", "", "x\n", metadata={"lines": 7})) == 7  # the index's
    ds = load_dataset(SAMPLES / "code-repo")
    for doc in ds.corpus:
        assert file_lines(doc) == len(doc.text.splitlines()), doc.id


def test_a_plain_corpus_files_lines_are_its_lines() -> None:
    # without the index's count the model read text.count("\n") + 1: "301 of 302 lines"
    from workbench.core.data import Corpus, Document
    from workbench.core.models.codeledger.files import read_files

    text = "".join(f"x{i} = {i}\n" for i in range(301))
    files = read_files(Corpus([Document("a.py", "a.py", text, metadata={"language": "python"})]))
    assert int(files.lines[0]) == 301


def test_the_keyword_constants_are_parameters_read_from_the_text() -> None:
    """REFERENCE §2: content keywords are words over 2 characters from the first 50 lines
    (and the definition lines after), at most 100. Each is a prepare parameter; another value
    reads the keywords again from each file's text, in place of the index's."""
    from tests.conftest import SAMPLES
    from workbench.core.data import Document
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model
    from workbench.core.models.codeledger.files import read_files
    from workbench.core.models.codeledger.text import plural_key
    from workbench.core.pipeline import Pipeline
    from workbench.core.repo.lang import keywords

    lines = ["ab = cd_efg", "x = 1", "x = 2", "zzz_top = 3", "def load_user(): pass"]
    # by hand from the rule: ab, cd (2 characters) and x left out
    assert keywords(lines, "python") == ("efg", "zzz", "top", "def", "load", "user", "pass")
    assert keywords(lines, "python", min_chars=2)[:3] == ("ab", "cd", "efg")
    # the first line, then only definition lines: zzz_top = 3 is neither
    assert keywords(lines, "python", head_lines=1) == ("efg", "def", "load", "user", "pass")
    assert keywords(lines, "python", limit=2) == ("efg", "zzz")
    doc = Document("a.py", "a.py", "\n".join(lines),
                   metadata={"language": "python", "keywords": ["stated"]})
    assert read_files([doc]).content[0] == {plural_key("stated")}  # the index's, as stated
    read = read_files([doc], keyword_rule=(100, 1, 3)).content[0]
    assert plural_key("load") in read and plural_key("top") not in read
    assert plural_key("stated") not in read
    # the index's keywords are the rule's at its defaults: one rule, read in two places
    ds = load_dataset(SAMPLES / "code-repo")
    for d in ds.corpus:
        assert keywords(d.text.splitlines(), d.metadata["language"]) == \
            tuple(d.metadata["keywords"]), d.id
    model = get_model("codeledger")
    base = Pipeline(model, ds, {})
    fewer = Pipeline(model, ds, {"max_keywords": 3})
    assert not np.array_equal(model.combine(base.prepared, base.params).total,
                              model.combine(fewer.prepared, fewer.params).total)


def test_the_largest_commit_is_a_parameter(tmp_path) -> None:
    """REFERENCE §2: commits touching more than 50 files are ignored. The index keeps every
    commit of up to KEEP_COMMIT_FILES files with its size; `max_commit_files` chooses among
    them (it had been fixed inside the index)."""
    import math

    from tests.test_repo_index import make_repo
    from workbench.core.data import Document, Query, QuerySet
    from workbench.core.formats.code_repo import read_code_repo
    from workbench.core.models import get_model
    from workbench.core.models.codeledger.files import read_files
    from workbench.core.pipeline import Pipeline

    docs = [Document("a.py", text="x = 1", metadata={
                "commit_days": [1.0, 2.0, 3.0], "commit_files": [10, 60, 5],
                "days_since_last": 1.0}),
            Document("b.py", text="y = 2", metadata={
                "commit_days": [0.5], "commit_files": [60]})]
    for limit, ages, since in ((50, [[1.0, 3.0], []], [1.0, math.nan]),
                               (100, [[1.0, 2.0, 3.0], [0.5]], [1.0, 0.5]),
                               (5, [[3.0], []], [3.0, math.nan])):
        files = read_files(docs, max_commit_files=limit)
        got = [files.ages[a:b].tolist()
               for a, b in zip(files.age_ptr[:-1], files.age_ptr[1:], strict=True)]
        assert got == ages, limit
        np.testing.assert_array_equal(files.days_since_last, since)
    # a corpus that gives no sizes: every age it gives, whatever the limit
    bare = read_files([Document("c.py", text="", metadata={"commit_days": [4.0]})],
                      max_commit_files=1)
    assert bare.ages.tolist() == [4.0]
    # a real repository: a 60-file commit, the newest to touch core.py
    repo = tmp_path / "r"
    make_repo(repo, {"core.py": "def run(): pass\n", "util.py": "def help(): pass\n"},
              message="Start", when=1_700_000_000)
    make_repo(repo, {"core.py": "def run(): return 1\n",
                     **{f"gen/g{i}.py": f"v = {i}\n" for i in range(59)}},
              message="Regenerate everything", when=1_700_000_000 + 30 * 86400)
    ds = read_code_repo(repo)
    core = next(d for d in ds.corpus if d.id == "core.py")
    assert core.metadata["commit_files"] == [60, 2]
    assert core.metadata["days_since_last"] == pytest.approx(30.0)  # the 60-file one ignored
    i = [d.id for d in ds.corpus].index("core.py")
    days = {n: float(read_files(ds.corpus.documents, max_commit_files=n).days_since_last[i])
            for n in (50, 60)}
    assert days == {50: pytest.approx(30.0), 60: pytest.approx(0.0)}
    # the parameter reaches the prepared state: a task's recency of core.py moves with it
    tasks = ds.__class__(ds.name, ds.corpus, QuerySet([Query("t", "run core")]), None,
                         ds.source, ds.settings)
    model = get_model("codeledger-document")
    recent = {}
    for n in (50, 60):
        pipe = Pipeline(model, tasks, {"max_commit_files": n})
        info = model.explain(pipe.prepared, tasks, 0, i, pipe.params)
        recent[n] = info["signals"]["recency"]
    assert recent == {50: 0.6, 60: 1.0}  # REFERENCE §2 bands: 30 days, then today
