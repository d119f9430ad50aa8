"""The opening of the note on what short result lists bound ("importance returns at most 5
results a query (its limit is 5)"): `eval`'s note below its table and the window's metric
cards ("p@10 is at most 0.5") say it in the same words, built here once."""

from __future__ import annotations


def cap_lead(model_id: str, longest: int, limit: int | None) -> str:
    """How many results `model_id` gave a query at most: `longest`, the longest list on a
    judged query. Where the model's `limit` is that length, the limit caps the lists ("returns
    at most 5 results a query (its limit is 5)"); else the longest list is what this data gave,
    worded apart ("returned at most 4 results a query here": "returns at most 4" had read as a
    cap that vault-search does not have)."""
    results = f"{longest:,} result{'s' if longest != 1 else ''} a query"
    if limit == longest:
        return f"{model_id} returns at most {results} (its limit is {limit})"
    return f"{model_id} returned at most {results} here"
