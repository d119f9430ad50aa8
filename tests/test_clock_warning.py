"""With no `now` set, decision-memory and importance score a query without its own clock as of
the newest timestamp in the corpus: one record dated in the future moved every age (a decision
of last month lost its age bonus; importance archived every other dated memory) and nothing
said why. The data warning names the record, its date and how far it lies from the rest."""

from __future__ import annotations

import datetime as dt

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models import get_model
from workbench.core.models.clock import future_clock_warning

DAY = 86_400_000.0
WALL = dt.datetime(2026, 11, 18, tzinfo=dt.UTC).timestamp() * 1000  # a fixed "today"


def _ms(iso: str) -> float:
    return dt.datetime.fromisoformat(iso).timestamp() * 1000


def _decisions(*created: str, query_now: str | None = None) -> Dataset:
    docs = [Document(f"d{i}", f"title {i}", "text", metadata={"createdAt": c})
            for i, c in enumerate(created)]
    ctx = {} if query_now is None else {"now": query_now}
    return Dataset("dm", Corpus(docs), QuerySet([Query("q", "title", ctx)]))


def test_a_future_record_is_named_with_its_distance_from_the_rest() -> None:
    ds = _decisions("2026-11-01T00:00:00Z", "2030-01-01T00:00:00Z", "2026-10-01T00:00:00Z")
    stamps = [(d.id, _ms(d.metadata["createdAt"])) for d in ds.corpus]
    (line,) = future_clock_warning(ds, "", stamps, "createdAt", wall_ms=WALL)
    assert "2030-01-01T00:00:00Z ('d1'), which is after today (2026-11-18)" in line
    assert "the newest before today is 2026-11-01T00:00:00Z, 1,157 days earlier" in line
    # a clock set, or every query with its own: no implicit clock, nothing to say
    assert future_clock_warning(ds, "2026-11-20", stamps, "createdAt", wall_ms=WALL) == []
    own = _decisions("2030-01-01T00:00:00Z", query_now="2026-11-20T00:00:00Z")
    assert future_clock_warning(own, "", [("d0", _ms("2030-01-01T00:00:00Z"))], "createdAt",
                                wall_ms=WALL) == []
    # dates up to a day ahead are time zones, not typos
    assert future_clock_warning(ds, "", [("d0", WALL + DAY / 2)], "createdAt",
                                wall_ms=WALL) == []


def test_both_models_warn_on_real_records() -> None:
    ds = _decisions("2026-11-01T00:00:00.000Z", "2099-01-01T00:00:00.000Z")
    model = get_model("decision-memory")
    (line,) = model.data_warnings(ds, model.schema.resolve({"mode": "search"}))
    assert "newest createdAt in the corpus, 2099-01-01T00:00:00Z ('d1')" in line
    assert model.data_warnings(_decisions("2026-11-01T00:00:00.000Z"),
                               model.schema.resolve({})) == []
    docs = [Document("m1", "", "a memory", metadata={"created_at": "2026-01-01T00:00:00Z"}),
            Document("m2", "", "another", metadata={"created_at": "2099-01-01T00:00:00Z",
                                                    "last_accessed": "2099-02-01T00:00:00Z"})]
    imp = get_model("importance")
    (line,) = imp.data_warnings(Dataset("m", Corpus(docs), QuerySet([Query("q", "memory")])),
                                imp.schema.resolve({}))
    assert "2099-02-01T00:00:00Z ('m2'), which is after today" in line
    assert "more record" not in line  # its two dates are one record


def test_importance_reads_the_documents_tier_spellings_and_names_what_it_cannot_read() -> None:
    """A tier "Long" read as the default (short) and archived the memory; epoch-ms and
    "yesterday" timestamps read as none (no decay) — each silently."""
    from workbench.core.models.importance.rules import tier_index

    assert [tier_index(t) for t in ("Long", "Long-term", " short-term ", "Ultra-Short",
                                    "forever", 3, None)] == [3, 3, 1, 0, -1, -1, -1]
    docs = [Document("m1", "", "a", metadata={"tier": "Long-term", "created_at": "2026-01-01"}),
            Document("m2", "", "b", metadata={"tier": "forever", "outcome": "win",
                                               "created_at": 1772000000000,
                                               "last_accessed": "yesterday"})]
    model = get_model("importance")
    lines = model.data_warnings(Dataset("m", Corpus(docs), QuerySet([Query("q", "a")])),
                                model.schema.resolve({"now": "2026-02-01"}))
    text = "\n".join(lines)
    assert "1 memory with an unreadable tier" in text and "m2 'forever'" in text
    assert "unreadable outcome" in text and "m2 'win'" in text
    assert "unreadable created_at" in text and "m2 1772000000000" in text
    assert "unreadable last_accessed" in text and "m2 'yesterday'" in text
    assert "m1" not in text
