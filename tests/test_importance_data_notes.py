"""What the importance model says about its input: a query's unreadable `now` and count fields
that are not counts are named (reviewer C, F2 and F3), and explain names the clock ages are
counted to and where it comes from (F4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import prepare, resolve_params
from workbench.core.formats import load_dataset, read_documents
from workbench.core.models.importance import ImportanceModel

NOW = "2026-03-01T00:00:00Z"


def mem(i: str, text: str = "postgres notes", **meta: Any) -> Document:
    return Document(i, "", text, metadata={"tier": "short", "last_accessed": NOW, **meta})


def data(docs: list[Document], queries: list[Query] | None = None) -> Dataset:
    return Dataset("d", Corpus(docs), QuerySet(queries or [Query("q", "postgres", {"now": NOW})]))


def warnings(ds: Dataset, **params: Any) -> list[str]:
    m = ImportanceModel()
    return m.data_warnings(ds, resolve_params(m, params))


def explained(ds: Dataset, doc: str, query: int = 0, **params: Any) -> dict[str, Any]:
    m = ImportanceModel()
    p = resolve_params(m, {"limit": 0, **params})
    prep = prepare(m, ds, p, use_cache=False)
    out: dict[str, Any] = m.explain(prep, ds, query, ds.corpus.index[doc], p)
    return out


def test_a_query_whose_now_is_unreadable_is_named_with_the_clock_it_gets() -> None:
    # q2's clock is no date: it is scored at the newest timestamp (2026-03-01, memory 'a')
    ds = data([mem("a"), mem("b", last_accessed="2026-02-01T00:00:00Z")],
              [Query("q1", "postgres", {"now": "2026-03-05T00:00:00Z"}),
               Query("q2", "postgres", {"now": "not a date"}),
               Query("q3", "postgres")])
    said = [w for w in warnings(ds) if "now" in w]
    assert said == ["1 query with an unreadable now (an ISO 8601 date; read as none: scored "
                    "at 2026-03-01T00:00:00Z, the newest created_at/last_accessed in the "
                    "corpus, memory 'a'): q2 'not a date'"]
    # a number is no ISO date either; the now parameter is then the clock named
    ds2 = data([mem("a")], [Query("q9", "postgres", {"now": 1738609608000})])
    assert [w for w in warnings(ds2, now="2026-04-01") if "now" in w] == [
        "1 query with an unreadable now (an ISO 8601 date; read as none: scored at "
        "2026-04-01T00:00:00Z, the now parameter): q9 1738609608000"]
    assert not [w for w in warnings(data([mem("a")])) if "now" in w]  # readable: nothing


@pytest.mark.parametrize(("meta", "said", "mentions", "dismissals"), [
    # a numeric string is read as its number, and said
    ({"mentions": "5"}, 'a "5" read as 5', 5, 0),
    ({"dismissals": "3"}, 'a "3" read as 3', 1, 3),
    # a fraction: its whole part; a negative: 0
    ({"dismissals": 2.7}, "a 2.7 read as 2", 1, 2),
    ({"mentions": -4}, "a -4 read as 0", 0, 0),
    # a boolean or a word: ignored, the default kept
    ({"mentions": True}, "a true ignored: 1 mention", 1, 0),
    ({"dismissals": "often"}, 'a "often" ignored: 0 dismissals', 1, 0),
])
def test_counts_that_are_not_counts_are_named(meta: dict[str, Any], said: str, mentions: int,
                                              dismissals: int) -> None:
    ds = data([mem("a", **meta), mem("b", mentions=3, dismissals=1)])
    field = next(iter(meta))
    got = [w for w in warnings(ds) if w.startswith("1 memory whose")]
    assert got == [f"1 memory whose {field} is not stored as a plain count, a whole number "
                   "of at least 0 (a number, or one in a string, is read as its whole part, at "
                   f"least 0; anything else is ignored): {said}"]
    out = explained(ds, "a")
    assert out["mentions"] == mentions
    assert [d.get("dismissals") for d in out["decays"] if d["decay"] == "dismissal"] == (
        [dismissals] if dismissals else [])


def test_an_empty_count_is_absent_without_a_word() -> None:
    # as an empty tier or now: "" is no value, not a count to complain of
    ds = data([mem("a", mentions="", dismissals=""), mem("b", mentions=3)])
    assert not [w for w in warnings(ds) if "plain count" in w]
    out = explained(ds, "a")
    assert out["mentions"] == 1


def test_a_string_count_reaches_the_score() -> None:
    # short 0.5 + repetition min(0.3, 0.1·(5 − 2)) = 0.8; then 3 dismissals: 0.8 − 0.45 = 0.35,
    # capped at 0.3 (the document's 3-dismissal cap)
    ds = data([mem("a", mentions="5"), mem("b", mentions="5", dismissals="3")])
    assert explained(ds, "a")["importance"] == pytest.approx(0.8)
    assert explained(ds, "b")["importance"] == pytest.approx(0.3)


def test_access_count_is_named_only_where_it_is_read() -> None:
    ds = data([mem("a", access_count="7"), mem("b", mentions=2, access_count="x")])
    assert not [w for w in warnings(ds) if "access_count" in w]  # not read: no word
    got = [w for w in warnings(ds, mentions_from_access=True) if "access_count" in w]
    assert got and got[0].endswith(': a "7" read as 7')  # b has mentions: its own not read


def test_explain_names_the_clock_and_where_it_comes_from() -> None:
    ds = data([mem("a"), mem("b", last_accessed="2026-02-20T00:00:00Z")],
              [Query("own", "postgres", {"now": "2026-03-05T12:00:00Z"}),
               Query("typed", "postgres"),
               Query("bad", "postgres", {"now": "soon"})])
    own = explained(ds, "b", 0)
    assert (own["clock"], own["clock_from"]) == ("2026-03-05T12:00:00Z", "the query's own now")
    typed = explained(ds, "b", 1)
    assert typed["clock"] == "2026-03-01T00:00:00Z"
    assert typed["clock_from"] == ("the newest created_at/last_accessed in the corpus, "
                                   "memory 'a'; this query has no now of its own")
    bad = explained(ds, "b", 2, now="2026-03-02")
    assert bad["clock"] == "2026-03-02T00:00:00Z"
    assert bad["clock_from"] == ("the now parameter; this query's now 'soon' is not an "
                                 "ISO 8601 date")
    bare = data([Document("x", "", "postgres", metadata={"tier": "short"})],
                [Query("q", "postgres")])
    none = explained(bare, "x")
    assert none["clock"] is None and none["clock_from"].startswith(
        "no now parameter and no memory with a readable timestamp: no ages")


def beir(tmp_path: Path, metas: list[dict[str, Any]]) -> Path:
    """A BEIR folder of memories m1… with `metas`, one query at NOW."""
    folder = tmp_path / "mem"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": f"m{i}", "title": "", "text": "postgres notes", "metadata": meta})
        + "\n" for i, meta in enumerate(metas, 1)))
    (folder / "queries.jsonl").write_text(
        json.dumps({"_id": "q", "text": "postgres", "metadata": {"now": NOW}}) + "\n")
    return folder


def test_an_unreadable_last_accessed_is_said_as_it_is_read(tmp_path: Path) -> None:
    """rm 2: the warning said "read as none: no decay, counted as recently accessed" while
    staleness counted from created_at, as for a missing last_accessed (20 days: −1.3, gated
    out). One rule for missing and unreadable, said as it is applied."""
    created = "2026-02-09T00:00:00Z"  # 20 days before NOW
    folder = beir(tmp_path, [
        {"tier": "short", "created_at": created, "last_accessed": "2026-04-31T12:00:00Z"},
        {"tier": "short", "created_at": created},  # missing: the same rule
        {"tier": "short", "last_accessed": "someday"},  # nothing to fall back on
        {"tier": "short", "last_accessed": NOW}])
    ds = load_dataset(folder)
    said = [w for w in warnings(ds) if "last_accessed" in w]
    corpus = folder / "corpus.jsonl"
    assert said == [
        f"{corpus}:1: 1 memory with an unreadable last_accessed (an ISO 8601 date; read as "
        "missing, as a memory without one is: staleness counts from its created_at): m1 "
        "'2026-04-31T12:00:00Z'",
        f"{corpus}:3: 1 memory with an unreadable last_accessed (an ISO 8601 date; read as "
        "missing, as a memory without one is: with no readable created_at either, it is among "
        "the memories with no date): m3 'someday'",
        f"{corpus}:3: 1 memory with no readable created_at or last_accessed (missing or "
        "unreadable), so no date to count staleness from: each is read as 0 days inactive (the "
        "undated_days parameter), as if accessed at the query's clock: it does not go stale, "
        "and passes the pre-filter's accessed-within test: m3"]
    for doc, days in (("m1", 20.0), ("m2", 20.0), ("m3", 0.0)):
        stale = explained(ds, doc)
        assert [d["days_inactive"] for d in stale["decays"] if d["decay"] == "staleness"] == (
            [days] if days else [])
    assert explained(ds, "m3")["pre_filter"]["recently_accessed"] is True


def test_value_warnings_name_the_file_and_line(tmp_path: Path) -> None:
    """rm 8: a parse error names FILE:LINE, a value warning named the memory alone."""
    folder = beir(tmp_path, [{"tier": "short"}, {"tier": "huge"}, {"tier": "short"},
                             {"tier": "enormous", "dismissals": "often"}])
    corpus = folder / "corpus.jsonl"
    said = warnings(load_dataset(folder))
    assert f"{corpus}:2: 2 memories with an unreadable tier (one of ultra-short, short, "\
        "medium, long; read as the default tier short): m2 'huge', m4 'enormous' (line 4)" in said
    assert any(w.startswith(f"{corpus}:4: 1 memory whose dismissals") for w in said)
    (folder / "queries.jsonl").write_text(
        json.dumps({"_id": "q0", "text": "x", "metadata": {"now": NOW}}) + "\n"
        + json.dumps({"_id": "q", "text": "postgres", "metadata": {"now": "soon"}}) + "\n")
    said = warnings(load_dataset(folder))
    assert any(w.startswith(f"{folder / 'queries.jsonl'}:2: 1 query with an unreadable now")
               for w in said)


def test_links_to_memories_not_in_the_corpus_are_listed_once(tmp_path: Path) -> None:
    """rm 8: superseded_by and contradicts naming no memory of the corpus loaded without a
    word; they are still read as given (the document links old to new; the memory named may
    be kept elsewhere): the superseded decay and the correction boost apply all the same."""
    folder = beir(tmp_path, [{"tier": "short", "superseded_by": "m99"},
                             {"tier": "short", "contradicts": ["m1", "m98"]},
                             {"tier": "short", "superseded_by": "m1", "contradicts": "m2"}])
    ds = load_dataset(folder)
    said = [w for w in warnings(ds) if "superseded_by or contradicts" in w]
    assert said == [
        f"{folder / 'corpus.jsonl'}:1: 2 memories naming in superseded_by or contradicts a "
        "memory that is not in the corpus, read as set all the same (link_rule set; in-corpus "
        "reads it as not set unless the same value names a memory of the corpus too): "
        "superseded_by decays or archives the memory, contradicts fires its correction boost: "
        "m1 superseded_by \"m99\", m2 contradicts [\"m1\", \"m98\"] (line 2)"]
    assert [d["decay"] for d in explained(ds, "m1", superseded_archive=False)["decays"]] == [
        "superseded"]
    assert [b["category"] for b in explained(ds, "m2")["boosts"]] == ["correction"]


def test_link_warnings_say_what_scoring_does_for_every_value_shape(tmp_path: Path) -> None:
    """dr3 3: `superseded_by: 0` was warned as decaying but was not decayed (0 is false), and
    `superseded_by: " "` decayed the memory with no word. Each shape is now said as read."""
    folder = beir(tmp_path, [
        {"tier": "short", "superseded_by": 0},  # m1: not set
        {"tier": "short", "superseded_by": " "},  # m2: set, names nothing
        {"tier": "short", "superseded_by": ["m99"]},  # m3: set, not in the corpus
        {"tier": "short", "superseded_by": 5},  # m4: set, id '5' not in the corpus
        {"tier": "short", "superseded_by": True, "contradicts": {}},  # m5: set; not set
        {"tier": "short", "superseded_by": [" "]},  # m6: set, names nothing
        {"tier": "short", "superseded_by": "m1", "contradicts": False},  # m7: fine, quiet
        {"tier": "short", "superseded_by": "", "contradicts": []},  # m8: absent, quiet
        {"tier": "short", "contradicts": 0.0}])  # m9: not set
    ds = load_dataset(folder)
    corpus = folder / "corpus.jsonl"
    said = [w for w in warnings(ds) if "superseded_by or contradicts" in w]
    applies = ("superseded_by decays or archives the memory, contradicts fires its correction "
               "boost")
    assert said == [
        f"{corpus}:3: 2 memories naming in superseded_by or contradicts a memory that is not in "
        "the corpus, read as set all the same (link_rule set; in-corpus reads it as not set "
        f"unless the same value names a memory of the corpus too): {applies}: "
        'm3 superseded_by ["m99"], m4 superseded_by 5 (line 4)',
        f"{corpus}:2: 3 memories whose superseded_by or contradicts names no memory (a blank "
        "text, true, a fraction or an object is no id) yet is set, read as set all the "
        "same (link_rule set; named and in-corpus read it as not set): "
        f"{applies}: m2 superseded_by \" \", m5 superseded_by true (line 5), "
        'm6 superseded_by [" "] (line 6)',
        f"{corpus}:1: 3 memories whose superseded_by or contradicts is 0 or empty, read as not "
        "set, as false is, under every link_rule: superseded_by neither decays nor archives the "
        "memory, contradicts fires no boost (memory 0 is named as the text \"0\"): "
        "m1 superseded_by 0, "
        "m5 contradicts {} (line 5), m9 contradicts 0.0 (line 9)"]
    # and scoring reads them so: superseded (−0.5 from short's 0.5) where said to be set
    decayed = {f"m{i}": [d["decay"] for d in explained(ds, f"m{i}", superseded_archive=False,
                                                         exclude_archived=False,
                                                         prefilter=False)["decays"]]
               for i in range(1, 10)}
    assert decayed == {"m1": [], "m2": ["superseded"], "m3": ["superseded"],
                       "m4": ["superseded"], "m5": ["superseded"], "m6": ["superseded"],
                       "m7": ["superseded"], "m8": [], "m9": []}
    assert [b["category"] for b in explained(ds, "m9")["boosts"]] == []


def test_link_values_are_written_as_the_file_writes_them(tmp_path: Path) -> None:
    """rv 5: a link value was written two ways in one warning: an id as Python's 'm99' and
    '5' (the file's 5), a value naming none as JSON (true, [" "]). Now each as the file has it,
    JSON: "m99", 5, " "."""
    folder = beir(tmp_path, [{"tier": "short", "contradicts": [5, "m98"]},
                             {"tier": "short", "superseded_by": " "}])
    said = " ".join(w for w in warnings(load_dataset(folder))
                    if "superseded_by or contradicts" in w)
    assert 'm1 contradicts [5, "m98"]' in said, said  # the whole value (rv2 4)
    assert 'm2 superseded_by " "' in said, said
    assert "'" not in said, said


@pytest.mark.parametrize(("rule", "superseded"), [
    ("set", ["m2", "m3", "m4"]), ("named", ["m3", "m4"]), ("in-corpus", ["m4"])])
def test_link_rule_sets_which_links_count(tmp_path: Path, rule: str,
                                          superseded: list[str]) -> None:
    """rv 5 (REFERENCE §4: a decision where the document is silent is a parameter): which
    superseded_by values mark a memory superseded, the default "set" as before (any value
    read as true), "named" an id, "in-corpus" an id of the corpus; the warnings say so."""
    folder = beir(tmp_path, [
        {"tier": "short"},  # m1: the memory the others may name
        {"tier": "short", "superseded_by": True},  # m2: names none
        {"tier": "short", "superseded_by": "m99"},  # m3: names one not in the corpus
        {"tier": "short", "superseded_by": "m1"}])  # m4: names m1
    ds = load_dataset(folder)
    got = [f"m{i}" for i in range(1, 5)
           if explained(ds, f"m{i}", link_rule=rule, superseded_archive=False,
                        exclude_archived=False, prefilter=False)["decays"]]
    assert got == superseded
    said = " ".join(w for w in warnings(ds, link_rule=rule) if "superseded_by" in w)
    if rule == "set":
        # the rules that would read them otherwise named, so the option can be found (rv2 4)
        assert said.count("read as set all the same (link_rule set; ") == 2
    elif rule == "named":
        assert ("names no memory (a blank text, true, a fraction or an object is no id) yet is "
                "set, read as not set (link_rule named): superseded_by neither decays") in said
        assert "not in the corpus, read as set all the same (link_rule named; " in said
    else:
        assert ("not in the corpus, read as not set (link_rule in-corpus): superseded_by "
                "neither decays") in said


def test_a_memory_with_no_date_at_all_is_said_and_explained(tmp_path: Path) -> None:
    """dr3 2: a memory with no created_at and no last_accessed got no word and no decay, and
    explain said recently_accessed=true with no reason; one rule for missing and unreadable
    was promised. Now one warning lists both kinds, explain gives the days and where they come
    from, and `undated_days` (0: what was always done) sets the days."""
    old = "2026-01-30T00:00:00Z"  # 30 days before NOW
    folder = beir(tmp_path, [
        {"tier": "short", "last_accessed": NOW},
        {"tier": "short"},  # m2: no dates at all
        {"tier": "short", "created_at": "garbage", "last_accessed": ""},  # m3: unreadable
        {"tier": "short", "created_at": old}])  # m4: dated by created_at
    ds = load_dataset(folder)
    corpus = folder / "corpus.jsonl"
    said = [w for w in warnings(ds) if "no readable created_at or last_accessed" in w]
    assert said == [
        f"{corpus}:2: 2 memories with no readable created_at or last_accessed (missing or "
        "unreadable), so no date to count staleness from: each is read as 0 days inactive (the "
        "undated_days parameter), as if accessed at the query's clock: it does not go stale, "
        "and passes the pre-filter's accessed-within test: m2, m3 (line 3)"]
    for doc in ("m2", "m3"):
        out = explained(ds, doc)
        # at the default, the score is what it always was: short 0.5, no decay
        assert (out["importance"], out["decays"]) == (0.5, [])
        assert out["days_inactive"] == 0
        assert out["days_inactive_from"] == ("no readable created_at or last_accessed; the "
                                             "undated_days parameter")
        assert out["pre_filter"] == {
            "current_relevance": True, "recently_accessed": True, "important": False,
            "days_inactive": "0 (no readable created_at or last_accessed; the undated_days "
                             "parameter)"}
    dated = explained(ds, "m4")
    assert (dated["days_inactive"], dated["days_inactive_from"]) == (30.0, "created_at")
    assert "days_inactive" not in dated["pre_filter"]
    # undated_days = 10: short decays 0.1 a day after 7 days, 0.5 − 0.3 = 0.2; dated ones keep
    # their own days (m4: 30 days, 0.5 − 2.3, clamped to 0)
    ten = explained(ds, "m2", undated_days=10)
    assert ten["importance"] == pytest.approx(0.2)
    assert [(d["decay"], d["days_inactive"]) for d in ten["decays"]] == [("staleness", 10.0)]
    assert explained(ds, "m1", undated_days=10)["importance"] == 0.5
    # 40 days: past the pre-filter's 30 (and short's 0.5 − 3.3 clamps to 0): gated out
    forty = explained(ds, "m3", undated_days=40, prefilter=True, exclude_archived=False)
    assert forty["pre_filter"]["recently_accessed"] is False
    assert forty["gate"] == "pre-filter"
    assert next(w for w in warnings(ds, undated_days=40) if "no readable created_at" in w) \
        .endswith("each is read as 40 days inactive (the undated_days parameter), as if last "
                  "accessed 40 days before the query's clock: staleness and the pre-filter "
                  "count those days: m2, m3 (line 3)")


def test_undated_days_is_in_the_models_help_and_inert_where_all_have_dates(
        capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    assert main(["models", "importance"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("undated_days live 0 [0, 3650] Days inactive of a memory with no readable "
            "last_accessed or created_at (missing or unreadable alike). 0: as if accessed at "
            "the query's clock, so it never goes stale and passes the pre-filter's 'accessed "
            "within' test; more: staleness and the pre-filter count these days.") in text
    m = ImportanceModel()
    p = resolve_params(m, {})
    dated = data([mem("a"), mem("b")])
    assert "undated_days" in m.inert_params(prepare(m, dated, p, use_cache=False), p)
    undated = data([mem("a"), Document("b", "", "postgres", metadata={"tier": "short"})])
    got = m.inert_params(prepare(m, undated, p, use_cache=False), p)
    assert "undated_days" not in got and "stale_short" not in got


def test_the_plain_reader_names_the_physical_line_of_each_file(tmp_path: Path) -> None:
    """dr3 4: the plain reader's places were untested. A quoted CSV cell over two lines puts
    m3 on line 5; in a folder of shards each memory is named in its own file, past a blank
    line. (dr3 5: the places are kept as a file table and line numbers, read back the same.)"""
    table = tmp_path / "mem.csv"
    table.write_text("id,text,tier,last_accessed\n"
                     f"m1,postgres notes,short,{NOW}\n"
                     f'm2,"postgres\nover two lines",short,{NOW}\n'
                     f"m3,postgres,huge,{NOW}\n")
    query = QuerySet([Query("q", "postgres", {"now": NOW})])
    corpus = read_documents(table)
    assert dict(corpus.at) == {"m1": f"{table}:2", "m2": f"{table}:3", "m3": f"{table}:5"}
    assert f"{table}:5: 1 memory with an unreadable tier (one of ultra-short, short, medium, "\
        "long; read as the default tier short): m3 'huge'" in warnings(Dataset("d", corpus, query))
    shards = tmp_path / "shards"
    shards.mkdir()
    (shards / "a.jsonl").write_text(json.dumps(
        {"id": "m1", "contents": "postgres", "tier": "short", "last_accessed": NOW}) + "\n")
    (shards / "b.jsonl").write_text("\n" + json.dumps(
        {"id": "m2", "contents": "postgres", "tier": "vast", "last_accessed": NOW}) + "\n")
    corpus = read_documents(shards)
    assert (corpus.at.get("m1"), corpus.at.get("m2"), corpus.at.get("m9", "")) == (
        f"{shards / 'a.jsonl'}:1", f"{shards / 'b.jsonl'}:2", "")
    assert any(w.startswith(f"{shards / 'b.jsonl'}:2: 1 memory with an unreadable tier")
               for w in warnings(Dataset("d", corpus, query)))


def test_in_corpus_lists_a_link_naming_a_memory_of_the_corpus_too_as_set(
        tmp_path: Path) -> None:
    """rv2 4: under in-corpus, a superseded_by naming a missing memory beside one of the corpus
    was listed as read as not set, one item of the list written; the memory is superseded. It
    is now listed apart, as set, with its whole value; one naming only missing memories stays
    among those read as not set."""
    folder = beir(tmp_path, [
        {"tier": "short"},  # m1
        {"tier": "short", "superseded_by": ["m99", "m1"]},  # m2: set by m1
        {"tier": "short", "superseded_by": ["m98", "m99"]}])  # m3: not set
    ds = load_dataset(folder)
    corpus = folder / "corpus.jsonl"
    said = [w for w in warnings(ds, link_rule="in-corpus") if "superseded_by" in w]
    assert said == [
        f"{corpus}:3: 1 memory naming in superseded_by or contradicts a memory that is not in "
        "the corpus, read as not set (link_rule in-corpus): superseded_by neither decays nor "
        'archives the memory, contradicts fires no boost: m3 superseded_by ["m98", "m99"]',
        f"{corpus}:2: 1 memory naming in superseded_by or contradicts a memory that is not in "
        "the corpus beside one that is, read as set by the one that is (link_rule in-corpus): "
        "superseded_by decays or archives the memory, contradicts fires its correction boost: "
        'm2 superseded_by ["m99", "m1"]']
    decays = {m: [d["decay"] for d in explained(ds, m, link_rule="in-corpus",
                                                superseded_archive=False,
                                                exclude_archived=False,
                                                prefilter=False)["decays"]]
              for m in ("m2", "m3")}
    assert decays == {"m2": ["superseded"], "m3": []}
