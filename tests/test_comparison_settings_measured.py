"""A mover's "— settings" names the changed values whose change alone moved the document the way
it moved, with what the change did ("alone: 3 → 2, score +19"), the one that held it back apart,
and not those that cannot move it (rv51 2; dr4 5, 6: the figures had said what undoing does,
so a setting that held the document back read as a cause). A 2-word decision-memory
query had named absent_weight, long_query_tokens and damping_tokens (none can touch a short
query whose words all occur) and left out w_title and bonus_cwd, because parameters were tied
to a signal by 5-letter prefixes of the words in its help."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations, explain_move
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


def _place(values: dict[str, Any], model_id: str, sample: str, query: str,
           doc: str) -> tuple[int | None, float | None]:
    """(place, score) of `doc` for `query` by a plain eval run at `values`."""
    pipe = Pipeline(get_model(model_id), load_dataset(SAMPLES / sample), values)
    res = pipe.run(["ndcg@10"])
    q, d = pipe.dataset.queries.ids.index(query), pipe.dataset.corpus.index[doc]
    row = res.ranking.docs[q, :int(res.ranking.count[q])].tolist()
    if d not in row:
        return None, None
    return row.index(d) + 1, float(res.ranking.scores[q, row.index(d)])


def _named(sentence: str) -> list[str]:
    """The settings a sentence names after its " — "."""
    return re.findall(r"(?:^|, )(\w+) [^ ,]+ → [^ ,]+", sentence.split(" — ", 1)[1])


def _sentence(model_id: str, sample: str, values: dict[str, Any], query: str,
              doc: str) -> str:
    model = get_model(model_id)
    ds = load_dataset(SAMPLES / sample)
    comp = compare_configurations(model, ds, [
        Configuration("defaults", model.schema.resolve({})),
        Configuration("tuned", model.schema.resolve(values))], ["ndcg@10"], n_resamples=100)
    return explain_move(comp, 1, ds.queries.ids.index(query), ds.corpus.index[doc]).sentence()


def test_decision_memory_names_the_weights_that_moved_a_short_query_not_its_long_query_ones(
        ) -> None:
    tuned = {"absent_weight": 2.25, "long_query_tokens": 34, "damping_tokens": 25,
             "w_title": 17.0, "w_body": 10.0, "bonus_cwd": 17.0}
    query, doc = "search-release-checklist", "qm-057"  # "release checklist": two words
    where = ("decision-memory", "decisions-eval", query, doc)
    assert _place({}, *where)[0] == 3
    rank_b, score_b = _place(tuned, *where)
    assert rank_b == 2 and score_b is not None
    # undone alone, each measured by a plain eval run
    undone = {n: _place({**tuned, n: get_model("decision-memory").schema[n].default}, *where)
              for n in tuned}
    for n in ("absent_weight", "long_query_tokens", "damping_tokens"):
        assert undone[n] == (rank_b, score_b), n  # nothing of it reaches this query
    assert undone["w_title"][0] == 3  # back where it was
    rank_cwd, score_cwd = undone["bonus_cwd"]
    assert rank_cwd == 2 and score_cwd is not None
    assert round(score_cwd - score_b) == -11  # its locality: 17 − 6

    text = _sentence("decision-memory", "decisions-eval", tuned, query, doc)
    assert text.startswith("moved from 3 to 2: lexical +"), text
    assert _named(text) == ["w_title", "bonus_cwd"], text
    # from the change's side: its place and score with the setting set back, then changed
    gain = score_b - undone["w_title"][1]
    assert round(gain, 6) == 19  # lexical: 17 − 6 at both places
    assert "w_title 6 → 17 (only it set back: at 3; score +19 from it), bonus_cwd 6 → 17 " \
        "(only it set back: score +11 from it)" \
        in text, text
    assert "held back" not in text, text
    # "and N more" counts only those a plain run moves it with, not the three that move
    # nothing here (dr7 7: it had counted them, "and 4 more")
    others = [n for n in tuned if n not in ("w_title", "bonus_cwd")
              and undone[n] != (rank_b, score_b)]
    assert text.endswith(f" and {len(others)} more" if others else "from it)"), text
    assert " and 4 more" not in text, text


def test_codeledger_names_the_weight_that_moved_a_file_and_not_the_ones_that_did_not() -> None:
    tuned = {"w_recent_touch": 0.3, "w_keyword": 2.0, "confidence_min_terms": 3,
             "maturity_min": 5, "max_files": 10, "sufficiency": 0.8, "maturity_full": 20}
    query, doc = "c885591bbb0", "cli/internal/httpx/client.go"
    where = ("codeledger", "code-repo", query, doc)
    assert _place({}, *where)[0] == 11
    rank_b, score_b = _place(tuned, *where)
    assert rank_b == 8
    defaults = get_model("codeledger").schema
    undone = {n: _place({**tuned, n: defaults[n].default}, *where) for n in tuned}
    moving = {n for n, v in undone.items() if v != (rank_b, score_b)}
    assert moving == {"w_recent_touch"}  # the premise, by plain eval runs
    assert undone["w_recent_touch"][0] == 11
    gain = score_b - undone["w_recent_touch"][1]
    assert f"{gain:.2g}" == "0.28"

    text = _sentence("codeledger", "code-repo", tuned, query, doc)
    assert _named(text) == ["w_recent_touch"], text
    # the six others move nothing here (the premise above): not counted as "6 more" (dr7 7)
    assert text.endswith("— w_recent_touch 0.02 → 0.3 (only it set back: at 11; score +0.28 "
                         "from it)"), text


def test_a_prepare_stage_value_is_measured_where_the_first_configuration_prepared_it() -> None:
    """bm25 on tea-beir, stemmer off alone: undoing it is the first configuration's prepared
    state, scored with the second's live values; with stop_words changed too, neither can be
    scored again alone, and the model's declaration ties both to the bm25 signal."""
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")

    def move(values: dict[str, Any]) -> Any:
        comp = compare_configurations(model, ds, [
            Configuration("a", model.schema.resolve({})),
            Configuration("b", model.schema.resolve(values))], ["ndcg@10"], n_resamples=50)
        m = comp.movers(1, 10, 1)[0]
        return explain_move(comp, 1, m.query, m.doc)

    one = move({"stemmer": "none", "k1": 2.0})
    assert set(one.undone) == {"stemmer", "k1"}
    two = move({"stemmer": "none", "stop_words": "none", "k1": 2.0})
    assert set(two.undone) == {"k1"}
    assert set(two.related["bm25"]) == {"stemmer", "stop_words"}
    # they come before k1, whose undoing moves its score by under a quarter of its change
    k1 = two.undone["k1"]
    assert abs(k1.total_delta) < abs(two.total_b - two.total_a) / 4 and k1.places == 0
    assert set(_named(two.sentence())[:2]) == {"stemmer", "stop_words"}, two.sentence()


def test_every_declared_prepare_stage_value_is_one_of_its_models_and_feeds_a_signal() -> None:
    from workbench.core.models import model_ids

    for mid in model_ids():
        model = get_model(mid)
        signals = {s.name for s in model.signals}
        prepare = {p.name for p in model.schema.stage("prepare")}
        for signal, names in model.prepare_signals.items():
            assert signal in signals, (mid, signal)
            assert set(names) <= prepare, (mid, set(names) - prepare)


def test_a_setting_that_held_the_document_back_is_said_apart_from_those_that_moved_it(
        ) -> None:
    """bm25 on tea-beir, k1 2 and b 0.3: d015 rose 10 → 5 for q07. b alone raised it (11 → 5),
    k1 alone pulled it down (4 → 5): k1 is no cause of the rise. Each figure is from the
    change's side, checked by plain eval runs with the one setting set back."""
    tuned = {"k1": 2.0, "b": 0.3}
    where = ("bm25", "tea-beir", "q07", "d015")
    assert _place({}, *where)[0] == 10
    rank_b, score_b = _place(tuned, *where)
    assert rank_b == 5 and score_b is not None
    rank_b_back, score_b_back = _place({"k1": 2.0}, *where)  # b set back
    rank_k1_back, score_k1_back = _place({"b": 0.3}, *where)  # k1 set back
    assert (rank_b_back, rank_k1_back) == (11, 4)
    assert score_b_back is not None and score_k1_back is not None
    assert f"{score_b - score_b_back:+.3g}" == "+0.139"
    assert f"{score_b - score_k1_back:+.3g}" == "-0.467"

    text = _sentence("bm25", "tea-beir", tuned, "q07", "d015")
    assert text.startswith("moved from 10 to 5: "), text
    # its place with only it set back (11), not its place under A (10): said as B's (dr7 2)
    assert text.endswith(" — b 0.75 → 0.3 (only it set back: at 11; score +0.139 from it); "
                         "held back by k1 1.2 → 2 (only it set back: at 4; score −0.467 from "
                         "it)"), text
    assert _named(text.split("; held back by ")[0]) == ["b"], text


def test_the_key_to_the_figures_is_printed_only_under_a_list_that_shows_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """compare, and the Markdown and HTML reports, say once what "only it set back:" and "held
    back by" are (dr4 6), where a mover shows them; one setting changed shows none (the move
    itself)."""
    from workbench.cli import main

    tea = str(SAMPLES / "tea-beir")
    key = "only it set back: the document's place under the second configuration with only"
    assert main(["compare", tea, "-m", "bm25", "--defaults", "-p", "k1=2", "-p", "b=0.3"]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    assert "(only it set back: " in flat and f"({key}" in flat
    assert flat.index("moved most, ") < flat.index(f"({key}")  # under the list
    assert main(["compare", tea, "-m", "bm25", "--defaults", "-p", "k1=2"]) == 0
    out = capsys.readouterr().out
    assert "moved most, " in out and "(only it set back: " not in out
    assert "only it set back: the" not in out
    for fmt in ("md", "html"):
        for values, shown in ((["-p", "k1=2", "-p", "b=0.3"], True), (["-p", "k1=2"], False)):
            path = tmp_path / f"r{len(values)}.{fmt}"
            assert main(["report", tea, "-m", "bm25", "--defaults", *values, "-o",
                         str(path)]) == 0
            text = " ".join(path.read_text().split()).replace("&#x27;", "'")
            assert ("Only it set back: the document's place under the second configuration "
                    "with only that setting" in text) == shown, (fmt, values)
            assert ("(only it set back: " in text) == shown, (fmt, values)
    capsys.readouterr()
