"""A decision-memory query file's context as users write it: a CSV column's "false" is false
(it had run as true: a CSV could ask for no manual search), a mode in another case is read, a
number in a string is a number, and a value that cannot be read is warned of, query by query,
with what it is taken as — never silently replaced."""

from __future__ import annotations

import math
from pathlib import Path

from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.decision_memory.queries import context_problems, query_spec

DECISIONS = (
    '{"id":"a-1","title":"Use PgBouncer for connection pooling","text":"Transaction mode",'
    '"tags":["decision"],"cwd":"/repos/app","project":"app","source":"manual",'
    '"createdAt":"2026-03-01T00:00:00.000Z"}\n')


def _spec(**ctx: object) -> tuple[int, int, float, int, bool]:
    from workbench.core.data import Query

    model = get_model("decision-memory")
    s = query_spec(Query("q", "pooling", dict(ctx)), model.schema.resolve({}), 0.0, 10)
    return s.mode, s.project_only, s.min_score, s.limit, s.text != "pooling" or bool(s.note)


def test_flags_and_modes_written_as_words() -> None:
    assert _spec(for_injection="false")[0] == 0  # a non-empty string had read as true
    assert _spec(for_injection="TRUE")[0] == 1
    assert _spec(for_injection=0)[0] == 0 and _spec(for_injection=True)[0] == 1
    assert _spec(mode="Search")[0] == 0 and _spec(mode=" injection ")[0] == 1
    assert _spec(project_only="no")[1] == 0 and _spec(project_only="yes")[1] == 1
    assert _spec(for_injection="", mode="search")[0] == 0  # an empty CSV cell: not given
    assert _spec(min_score="8")[2] == 8.0 and _spec(limit=" 5 ")[3] == 5
    assert math.isnan(_spec(min_score="eight")[2]) and _spec(limit="all")[3] == -1


def test_unreadable_values_are_named() -> None:
    assert context_problems({"mode": "inject", "for_injection": None}) == [("mode", "inject")]
    assert context_problems({"for_injection": "maybe", "now": "last week", "cwd": 42,
                             "limit": "all", "project_only": "off"}) == [
        ("for_injection", "maybe"), ("limit", "all"), ("cwd", 42), ("now", "last week")]
    assert context_problems({"for_injection": "false", "mode": "Search", "min_score": "8",
                             "now": "2026-03-10T12:00:00Z", "cwd": "/repos/app"}) == []


def test_a_csv_query_file_can_ask_for_a_search(tmp_path: Path) -> None:
    (tmp_path / "decisions.jsonl").write_text(DECISIONS)
    (tmp_path / "q.csv").write_text(
        "id,text,cwd,now,for_injection,mode\n"
        "s1,connection pooling,/repos/app,2026-03-10T12:00:00.000Z,false,\n"
        "s2,connection pooling,/repos/app,2026-03-10T12:00:00.000Z,,inject\n")
    model = get_model("decision-memory")
    params = model.schema.resolve({})
    ds = load_dataset(tmp_path / "decisions.jsonl", queries=tmp_path / "q.csv")
    prep = model.prepare(ds, params)
    assert prep.q_mode.tolist() == [0, -1]  # s1 a manual search; s2's mode unread
    said = [w for w in model.data_warnings(ds, params) if "unreadable" in w]
    # with its place, as a key no model reads is said (rv2 7)
    assert said == [f"{tmp_path / 'q.csv'}:3: 1 query with an unreadable mode (injection or "
                    "search; read as not given: an injection, as the eval harness reads a "
                    "query without one): s2 'inject'"]
    # in a fixed mode the query's own mode is not read, so not warned of
    fixed = model.schema.resolve({"mode": "search"})
    assert not [w for w in model.data_warnings(ds, fixed) if "unreadable" in w]


def test_a_huge_limit_cuts_nothing() -> None:
    assert _spec(limit="1e20")[3] == 2**31 - 1  # no int64 overflow later


def test_a_word_list_that_reads_alike_is_no_change() -> None:
    model = get_model("decision-memory")
    p = model.schema.resolve({"operational_words": " READ,ran , executed, wrote, edited, "
                                                   "listed, searched, fetched, opened, read",
                              "durable_tags": "decision,preference,  workflow"})
    assert model.schema.changed(p) == {}
    assert model.schema.resolve({"durable_tags": "Decision"})["durable_tags"] == "Decision"
    imp = get_model("importance")
    q = imp.schema.resolve({"phrases_explicit": "SAVE this,store this, add to memory,"
                                                "remember that I, note that"})
    assert imp.schema.changed(q) == {}
