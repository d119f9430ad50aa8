"""codeledger's similar-commits signal: past commits read from a real repository (messages,
renames followed, huge and later commits left out), the BM25 over messages against bm25s
(an independent implementation), the votes worked by hand, the stage, explain, and the
leak guard (a task's own commit never votes)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tests.test_repo_index import make_repo
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.formats.code_repo import HISTORY_KEY, read_code_repo
from workbench.core.models import get_model
from workbench.core.models.codeledger.candidates import SIMILAR
from workbench.core.models.codeledger.content import task_tokens
from workbench.core.models.codeledger.explain import content_details
from workbench.core.models.codeledger.params import SIGNAL_NAMES
from workbench.core.models.codeledger.similar import past_commits
from workbench.core.repo import index_repository
from workbench.core.repo.history import Commit, read_messages
from workbench.core.repo.history import past_commits as history_commits

T0 = 1_700_000_000
BODY = "".join(f"line_{i} = {i}\n" for i in range(20))


def _history_repo(root: Path) -> Path:
    make_repo(root, {"src/retry.py": "def backoff(): pass\n", "src/cache.py": BODY,
                     "docs/notes.md": "notes\n"}, message="Initial layout", when=T0)
    make_repo(root, {"src/retry.py": "def backoff(): return 2\n"},
              message="Retry with exponential backoff\n\nThe body names jitter.", when=T0 + 10)
    (root / "src" / "cache.py").rename(root / "src" / "store.py")
    make_repo(root, {"src/store.py": BODY + "z = 1\n"}, message="Rename cache to store",
              when=T0 + 20)
    make_repo(root, {f"gen/f{i}.py": f"v = {i}\n" for i in range(6)},
              message="Generated retry files", when=T0 + 30)
    return root


def test_the_index_keeps_past_commits_with_messages(tmp_path: Path) -> None:
    repo = _history_repo(tmp_path / "r")
    index = index_repository(repo, max_commit_files=5, use_cache=False)
    by_message = {m.split("\n")[0]: paths for _, m, paths, _ in index.history}
    # newest first, each with the files it changed; the rename is followed, so the first
    # commit's src/cache.py counts as src/store.py. The 6-file commit, over the index's own
    # max_commit_files, is kept for codeledger's max_commit_files to choose
    assert [(m.split("\n")[0], n) for _, m, _, n in index.history] == [
        ("Generated retry files", 6), ("Rename cache to store", 1),
        ("Retry with exponential backoff", 1), ("Initial layout", 3)]
    assert by_message["Initial layout"] == ("docs/notes.md", "src/retry.py", "src/store.py")
    assert "The body names jitter." in index.history[2][1]
    ds = read_code_repo(repo)
    paths = [d.id for d in ds.corpus]
    assert past_commits(ds.settings, paths, set(), 5).messages[0].startswith("Rename cache")
    assert past_commits(ds.settings, paths, set(), 6).messages[0] == "Generated retry files"
    # messages are read for the newest commits only (a bound on a very long history)
    newest = read_messages(repo, "HEAD", limit=2)
    assert [m.split("\n")[0] for m in newest.values()] == ["Generated retry files",
                                                           "Rename cache to store"]
    # a snapshot sees only its own past
    first = index.history[-1][0]
    assert [sha for sha, *_ in index_repository(repo, rev=first, use_cache=False).history] \
        == [first]


def test_past_commits_limit_and_time() -> None:
    log = [Commit("c", 30, (("a.py", "a.py"),), "third"),
           Commit("b", 20, (("old.py", "a.py"),), "second: a rename"),
           Commit("a", 10, (("old.py", "old.py"), ("gone.py", "gone.py")), "first")]
    assert history_commits(log, ["a.py"], now=25) == (
        ("b", "second: a rename", ("a.py",), 1), ("a", "first", ("a.py",), 2))
    assert [c[0] for c in history_commits(log, ["a.py"], now=99, limit=2)] == ["c", "b"]
    # the limit counts commits of at most max_commit_files; larger ones up to keep_files
    # come with them, so the default's set is the same whatever is kept beside it
    assert [c[0] for c in history_commits(log, ["a.py"], now=99, limit=2,
                                          max_commit_files=1)] == ["c", "b"]
    assert [c[0] for c in history_commits(log, ["a.py"], now=99, limit=2, max_commit_files=1,
                                          keep_files=2)] == ["c", "b", "a"][:2]
    assert [c[0] for c in history_commits(log, ["a.py"], now=99, limit=3, max_commit_files=1,
                                          keep_files=2)] == ["c", "b", "a"]


MESSAGES = [
    ("s1", "Retry requests with backoff", ["src/retry.py", "tests/test_retry.py"]),
    ("s2", "Cache responses in memory", ["src/cache.py"]),
    ("s3", "Backoff jitter for retry storms", ["src/retry.py", "src/clock.py", "src/a.py",
                                               "src/b.py"]),
    ("s4", "Docs typo", ["README.md"]),
    ("own", "Retry backoff retry backoff", ["src/cache.py"]),
]
PATHS = ["README.md", "src/a.py", "src/b.py", "src/cache.py", "src/clock.py", "src/retry.py",
         "tests/test_retry.py"]


def test_votes_from_bm25_over_messages_by_hand() -> None:
    bm25s = pytest.importorskip("bm25s")
    past = past_commits({HISTORY_KEY: MESSAGES}, PATHS, {"own"})
    assert past.shas == ("s1", "s2", "s3", "s4")
    ref = bm25s.BM25(method="lucene", k1=1.2, b=0.75, dtype="float64")
    ref.index([task_tokens(m) for _, m, _ in MESSAGES[:4]], show_progress=False)
    task = "Retry backoff is too aggressive"
    toks = task_tokens(task)
    sim = ref.get_scores([t for t in toks if t in ref.vocab_dict])
    assert sim[0] > 0 and sim[2] > 0 and sim[1] == 0 and sim[3] == 0
    # k = 1: only the best commit votes; k = 5: both that match
    for k in (1, 5):
        votes = past.votes([task], k)[0]
        want = dict.fromkeys(PATHS, 0.0)
        best_of: dict[str, int] = {}
        given: dict[str, float] = {}
        for c in sorted((c for c in range(4) if sim[c] > 0), key=lambda c: (-sim[c], c))[:k]:
            share = sim[c] / math.sqrt(len(MESSAGES[c][2]))
            for p in MESSAGES[c][2]:
                want[p] += share
                if share > given.get(p, 0.0):
                    given[p], best_of[p] = share, c
        top = max(want.values())
        np.testing.assert_allclose(votes.value, [want[p] / top for p in PATHS], rtol=1e-9)
        assert votes.value.max() == 1.0
        assert [int(s) for s in votes.source] == [best_of.get(p, -1) for p in PATHS]
    assert not past.votes([task], 0)[0].value.any()
    assert not past.votes(["nothing in common"], 5)[0].value.any()


def _dataset(tasks: dict[str, str], commits: dict[str, str]) -> Dataset:
    docs = [Document(p, p, "value = 1\n") for p in PATHS]
    queries = [Query(q, t, {"commit": commits.get(q, "")}) for q, t in tasks.items()]
    return Dataset("similar", Corpus(docs), QuerySet(queries),
                   {q: {"src/retry.py": 1} for q in tasks}, settings={HISTORY_KEY: MESSAGES})


def test_signal_stage_explain_and_the_leak_guard() -> None:
    model = get_model("codeledger")
    ds = _dataset({"t": "Retry backoff is too aggressive", "u": "Retry backoff retry backoff"},
                  {"u": "own"})
    params = model.schema.resolve({"similar_max_candidates": 2, "content_max_candidates": 0,
                                   "keyword_max_candidates": 1, "hot_zone_files": 0,
                                   "dep_depth": 0})
    prep = model.prepare(ds, params)
    past = past_commits(ds.settings, PATHS, {"own"})
    for q, text in enumerate(("Retry backoff is too aggressive", "Retry backoff retry backoff")):
        votes = past.votes([text], int(params["similar_commits"]))[0]
        row = slice(int(prep.row_ptr[q]), int(prep.row_ptr[q + 1]))
        docs = prep.docs[row]
        np.testing.assert_array_equal(prep.similar[row], votes.value[docs])
        # the stage: the two files with the most votes joined
        staged = [PATHS[int(d)] for d, s in zip(docs, prep.stages[row], strict=True)
                  if s & SIMILAR]
        assert sorted(staged) == sorted(PATHS[i] for i in np.argsort(-votes.value,
                                                                     kind="stable")[:2])
    # task u's own commit ("own", which changed src/cache.py) never votes
    row = slice(int(prep.row_ptr[1]), int(prep.row_ptr[2]))
    cache = PATHS.index("src/cache.py")
    assert cache not in prep.docs[row].tolist() or \
        prep.similar[row][prep.docs[row].tolist().index(cache)] == 0.0
    # the live table carries it; explain names the commit that gave the most
    pair = prep.pair_of(0, PATHS.index("src/retry.py"))
    assert pair is not None and prep.similar[pair] == 1.0
    scores = model.combine(prep, params)
    assert scores.parts(np.array([pair]))[SIGNAL_NAMES.index("similar"), 0] == pytest.approx(
        float(params["w_similar"]))
    info = content_details(prep, ds, 0, PATHS.index("src/retry.py"), pair)
    assert info["similar_commit"]["commit"].startswith("s1 ") or \
        info["similar_commit"]["commit"].startswith("s3 ")
    assert info["similar_commit"]["value"] == 1.0


def test_document_model_ignores_history(tmp_path: Path) -> None:
    """codeledger-document (weight 0, no stage) ranks as it did without any history."""
    repo = _history_repo(tmp_path / "r")
    ds = read_code_repo(repo)
    assert ds.settings[HISTORY_KEY]
    bare = Dataset(ds.name, ds.corpus, QuerySet([Query("q", "retry backoff jitter")]))
    with_history = Dataset(ds.name, ds.corpus, QuerySet([Query("q", "retry backoff jitter")]),
                           settings=ds.settings)
    model = get_model("codeledger-document")
    params = model.schema.resolve({})
    a = model.combine(model.prepare(bare, params), params)
    b = model.combine(model.prepare(with_history, params), params)
    np.testing.assert_array_equal(a.docs, b.docs)
    np.testing.assert_array_equal(a.total, b.total)


def test_splits_keep_the_history(tmp_path: Path) -> None:
    """The bench's halves and tune's merged splits keep the repository's past commits: a
    split without them would score the similar signal as 0 on one side only."""
    from workbench.bench.code_selection import _halves
    from workbench.core.tuning.data import merge_splits

    repo = _history_repo(tmp_path / "r")
    ds = read_code_repo(repo)
    queries = QuerySet([Query("a", "retry"), Query("b", "cache")])
    judged = Dataset(ds.name, ds.corpus, queries, {"a": {"src/retry.py": 1},
                                                   "b": {"src/store.py": 1}},
                     ds.source, ds.settings)
    older, newer = _halves(judged)
    assert older.settings[HISTORY_KEY] == newer.settings[HISTORY_KEY] == ds.settings[HISTORY_KEY]
    merged, _, _, _ = merge_splits(older, newer, "older", "newer")
    assert merged.settings[HISTORY_KEY] == ds.settings[HISTORY_KEY]
