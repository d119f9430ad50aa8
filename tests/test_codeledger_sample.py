"""codeledger end to end on the sample repository (git needed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import rank
from workbench.core.models.codeledger import STOP_REASONS, CodeLedgerModel, near_misses
from workbench.core.pipeline import Pipeline
from workbench.core.repo import build_sample_repo, index_repository

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def sample_dataset(tmp_path: Path) -> Dataset:
    repo = build_sample_repo(tmp_path / "repo")
    index = index_repository(repo, use_cache=False)
    # TODO: the repository Dataset adapter (formats/) will replace this hand-made mapping
    docs = []
    for f in index.files:
        meta = {"language": f.language, "lines": f.lines, "tokens": f.tokens, "size": f.size,
                "symbols": list(f.symbols), "keywords": list(f.keywords),
                "imports": list(f.imports), "dependents": list(f.dependents),
                "is_test": f.is_test, "tests": list(f.tests),
                "commit_days": list(getattr(f, "commit_days", ())),
                "days_since_last": f.days_since_last, "centrality": f.centrality,
                "error_infrastructure": f.error_infrastructure,
                "branch_changed": f.branch_changed,
                "ledger": getattr(f, "ledger", {"success": 0.0, "fail": 0.0, "entries": 0})}
        text = (repo / f.path).read_text(encoding="utf-8", errors="replace")
        docs.append(Document(f.path, f.path, text, metadata=meta))
    queries = [Query("retry", "Add retry with backoff to the client"),
               Query("alias", "Fix alias collision in the store"),
               Query("vague", "fix the bug")]
    qrels = {"retry": {"client/src/retry.ts": 1, "client/src/client.ts": 1},
             "alias": {"api/shorty/alias.py": 1, "api/shorty/store.py": 1}}
    return Dataset("sample", Corpus(docs), QuerySet(queries), qrels)


def test_sample_repository_end_to_end(tmp_path: Path) -> None:
    ds = sample_dataset(tmp_path)
    model = CodeLedgerModel()
    pipe = Pipeline(model, ds, use_cache=False)
    res = pipe.run(("ndcg@10", "r@100"))
    prep = pipe.prepared
    assert prep.scopes[0] == "client"  # a top-level directory named in the task
    top = {ds.corpus[int(d)].id for d in res.ranking.docs[0, :3]}
    assert "client/src/retry.ts" in top
    assert res.means["r@100"] == 1.0
    assert res.per_query["bundle_recall"][0] == 1.0 and res.per_query["bundle_recall"][1] == 1.0
    assert np.isnan(res.per_query["bundle_recall"][2])
    scores = res.scores
    ok = scores.gate == 0
    assert np.allclose(scores.contributions.sum(axis=0)[ok], scores.total[ok])
    b = model.bundles(prep, pipe.params, scores, rank(scores, 1000))
    assert b.tokens[0] <= 8000 * 1.1 and set(b.stop) <= set(STOP_REASONS)
    assert b.confidence[2] == "LOW"
    info = model.explain(prep, ds, 0, ds.corpus.index["client/src/retry.ts"], pipe.params)
    assert info["in_bundle"] and "keyword" in info["stages"]
    assert isinstance(near_misses(prep, pipe.params, 0), list)
