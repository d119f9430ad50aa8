"""A hand-built twelve-file repository for the codeledger tests (helpers, and a sanity test).

IDF over N = 12 files: "fix" is in 6 files' content keywords (idf ln 3), "retry" in 3 files
(idf ln 5), "policy", "busy", "alias", "resolve" in one each (idf ln 13).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models.codeledger import CodeLedgerDocumentModel as CodeLedgerModel
from workbench.core.models.codeledger import CodeLedgerPrepared
from workbench.core.params import Params

BIG_LINES = 600
HIT_LINE = 300  # 0-based line holding "widget_count"


def big_text() -> str:
    lines = ["    x = 1"] * BIG_LINES
    lines[0] = "def alpha():"
    lines[HIT_LINE] = "    widget_count = 2"
    lines[500] = "class Beta:"
    return "\n".join(lines)


FILES: dict[str, dict[str, Any]] = {
    "svc/retry.py": dict(symbols=["RetryPolicy"], keywords=["retry", "policy", "backoff"],
                         imports=["svc/util.py"], dependents=["svc/client.py",
                                                              "tests/test_retry.py"],
                         tests=["tests/test_retry.py"], lines=100, tokens=320,
                         commit_days=[1.0, 5.0, 40.0, 200.0], days_since_last=1.0,
                         centrality=0.5, ledger={"success": 3.0, "fail": 1.0, "entries": 30}),
    "svc/client.py": dict(symbols=["Client", "fetch"], keywords=["client", "fetch", "retry"],
                          imports=["svc/retry.py", "svc/util.py"], lines=50, tokens=160,
                          commit_days=[45.0], days_since_last=45.0, centrality=0.4),
    "svc/util.py": dict(symbols=["helper"], keywords=["helper", "fix"], lines=20, tokens=64,
                        dependents=["svc/retry.py", "svc/client.py", "svc/handlers.py",
                                    "svc/store.py"], centrality=1.0),
    "svc/handlers.py": dict(symbols=["ErrorHandler"], keywords=["handler", "error", "fix"],
                            imports=["svc/util.py"], error_infrastructure=True, lines=30,
                            tokens=96, tests=["tests/test_handlers_missing.py"]),
    "svc/store.py": dict(symbols=["Store"], keywords=["store", "fix"], imports=["svc/util.py"],
                         lines=40, tokens=128, branch_changed=True),
    "tests/test_retry.py": dict(is_test=True, tests=["svc/retry.py"], imports=["svc/retry.py"],
                                keywords=["test", "retry"], lines=30, tokens=96),
    "api-gateway/route.py": dict(symbols=["Route"], keywords=["route", "fix"], lines=10,
                                 tokens=32),
    "api-gateway/aliases.py": dict(symbols=["resolve_alias"], keywords=["alias", "resolve"],
                                   lines=10, tokens=32),
    "docs/notes.md": dict(keywords=["fix", "notes"], lines=10, tokens=40),
    "hot/busy.py": dict(keywords=["busy"], commit_days=[0.5] * 30, days_since_last=0.5,
                        lines=10, tokens=32),
    "big/large.py": dict(symbols=["alpha", "Beta"], keywords=["alpha", "beta", "widget"],
                         lines=BIG_LINES, tokens=2400),
    "misc/other.py": dict(keywords=["other", "fix"], lines=10, tokens=40,
                          ledger={"success": 1.0, "fail": 3.0, "entries": 60}),
}


def make_dataset(tasks: Mapping[str, str], qrels: dict[str, dict[str, int]] | None = None,
                 files: Mapping[str, dict[str, Any]] = FILES) -> Dataset:
    docs = [Document(p, p, big_text() if p == "big/large.py" else "", metadata=m)
            for p, m in files.items()]
    queries = [Query(q, t) for q, t in tasks.items()]
    return Dataset("hand", Corpus(docs), QuerySet(queries), qrels)


def prepare(tasks: Mapping[str, str], **overrides: object
            ) -> tuple[CodeLedgerModel, Dataset, CodeLedgerPrepared, Params]:
    model = CodeLedgerModel()
    ds = make_dataset(tasks)
    params = model.schema.resolve(overrides)
    return model, ds, model.prepare(ds, params), params


def stages_of(prep: CodeLedgerPrepared, q: int) -> dict[str, int]:
    row = slice(int(prep.row_ptr[q]), int(prep.row_ptr[q + 1]))
    return {prep.files.paths[int(d)]: int(s)
            for d, s in zip(prep.docs[row], prep.stages[row], strict=True)}


IDF_FIX = float(np.log(3.0))
IDF_RETRY = float(np.log(5.0))
IDF_ONE = float(np.log(13.0))


def test_fixture_idf() -> None:
    _, _, prep, _ = prepare({"q": "fix retry"})
    assert prep.files.df["fix"] == 6 and prep.files.df["retry"] == 3
    assert prep.files.idf("fix") == IDF_FIX and prep.files.idf("retry") == IDF_RETRY
