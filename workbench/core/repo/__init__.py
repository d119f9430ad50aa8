"""A local git repository as a code corpus: the index CodeLedger-style selection runs on.

`index_repository(path, rev=…)` → `RepoIndex` (files with language, tokens, symbols, keywords,
import graph both ways, test pairing, churn, recency, centrality, error-infrastructure and
branch-changed flags). `build_sample_repo(dest)` builds the sample repository the tests and
the window use from `sample_corpora/code-repo/history.fi`.
"""

from workbench.core.repo.git import GitError
from workbench.core.repo.index import index_repository
from workbench.core.repo.model import FileInfo, RepoIndex
from workbench.core.repo.sample import build_sample_repo

__all__ = ["FileInfo", "GitError", "RepoIndex", "build_sample_repo", "index_repository"]
