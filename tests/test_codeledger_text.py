"""codeledger task analysis: terms, plural keys, compounds, task types."""

from __future__ import annotations

import pytest

from workbench.core.models import get_model
from workbench.core.models.codeledger import (
    CodeLedgerModel,
    compounds,
    detect_task_type,
    plural_key,
    term_keys,
)


@pytest.mark.parametrize(("plural", "singular"), [
    ("retries", "retry"), ("handlers", "handler"), ("aliases", "alias"), ("classes", "class"),
    ("cases", "case"), ("boxes", "box"), ("matches", "match"), ("statuses", "status"),
    ("caches", "cache"), ("entries", "entry")])
def test_plural_and_singular_share_a_key(plural: str, singular: str) -> None:
    assert plural_key(plural) == plural_key(singular)


def test_words_split_and_filter() -> None:
    keys = term_keys("Fix getUserById in the api_gateway for HTTPServer retries, on x-y")
    # camelCase and _ split, lowercased; "the", "for", "on", ≤ 2-letter words dropped
    assert list(keys) == ["fix", "get", "user", "api", "gateway", "http", "server", "retry"]
    assert keys["retry"] == "retries"


def test_compounds_kept_whole() -> None:
    assert compounds("Move stripe_billing into the API-Gateway, then api-gateway") == [
        "stripe_billing", "api-gateway"]


@pytest.mark.parametrize(("task", "kind"), [
    ("fix the test", "bug_fix"),  # bug_fix is tried first
    ("Fixes a crash in the parser", "bug_fix"),
    ("add tests for the parser", "feature_add"),
    ("improve test coverage of store", "test_update"),
    ("rename the logger everywhere", "refactor"),
    ("bump the yaml config for ci", "config"),
    ("handle addresses in profile", "unknown"),  # "addresses" is not "add"
    ("", "unknown"),
])
def test_task_type_first_hit_in_order(task: str, kind: str) -> None:
    assert detect_task_type(task) == kind


def test_registered() -> None:
    """`codeledger-document` keeps the document's defaults; `codeledger` differs only in the
    fitted ones."""
    from workbench.core.models.codeledger import CodeLedgerDocumentModel
    from workbench.core.models.codeledger.params import FITTED

    assert isinstance(get_model("codeledger"), CodeLedgerModel)
    assert isinstance(get_model("codeledger-document"), CodeLedgerDocumentModel)
    fitted = CodeLedgerModel.schema.defaults()
    defaults = CodeLedgerDocumentModel.schema.defaults()
    assert {k for k in defaults if defaults[k] != fitted[k]} == set(FITTED)
    assert defaults["w_content"] == defaults["w_mention"] == defaults["w_graph"] == 0.0
    assert defaults["content_max_candidates"] == 0 and not defaults["mention_stage"]
    assert defaults["w_keyword"] == 0.30 and defaults["w_size_penalty"] == 0.10
    assert defaults["max_files"] == 25 and defaults["token_budget"] == 8000
    assert defaults["sufficiency"] == 0.85 and defaults["excerpt_threshold_lines"] == 250
