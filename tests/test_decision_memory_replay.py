"""A logged turn replayed searches the store as it was when the turn ran: only the decisions
created by its `ts` (REFERENCE §1: the candidates are the decisions in the store). Replayed
over today's store, turn-39 injected qm-040, created 14 hours after it, with the "< 1 day"
bonus of a negative age — where the log says nothing was injected. The sample's log holds what
pi-lodestone's search returned over the decisions that existed at each `ts`."""

from __future__ import annotations

import pytest
from conftest import SAMPLES

from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


def _replayed(params: dict[str, object]) -> dict[str, tuple[list[str], list[float]]]:
    ds = load_dataset(SAMPLES / "decisions")
    result = Pipeline(get_model("decision-memory"), ds, params).run(metric_names=(), depth=20)
    out = {}
    for qi, q in enumerate(ds.queries):
        n = int(result.ranking.count[qi])
        out[q.id] = ([ds.corpus[int(d)].id for d in result.ranking.docs[qi, :n]],
                     [float(s) for s in result.ranking.scores[qi, :n]])
    return out


def test_every_logged_turn_replays_as_the_log_says() -> None:
    ds = load_dataset(SAMPLES / "decisions")
    logged = {q.id: (q.context["injected_ids"], q.context["injected_scores"])
              for q in ds.queries}
    assert len(logged) == 21
    assert _replayed({}) == logged
    # today's store instead: decisions created after a turn reach it (8 turns differ)
    today = _replayed({"replay_as_of_turn": False})
    differ = [q for q in logged if today[q][0] != logged[q][0]]
    assert "turn-39" in differ and today["turn-39"][0] == ["qm-040"]


def test_explain_says_a_decision_did_not_exist_yet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(SAMPLES / "decisions"), "-m", "decision-memory",
                 "--query-id", "turn-39", "--doc", "qm-040"]) == 0
    out = capsys.readouterr().out
    assert ("qm-040: not ranked — no candidate of this query (created 2026-11-15T11:56:26Z, "
            "after this logged turn ran (2026-11-14T21:44:14Z): not in the store it searched"
            ) in out


def test_explain_says_why_a_query_searches_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """A query of non-ASCII words explained itself as "no query term in it" (the tokenizer
    keeps ASCII only), a short prompt as every candidate scoring 0."""
    folder = str(SAMPLES / "decisions")
    assert main(["explain", folder, "-m", "decision-memory", "-q", "キャッシュ", "-p",
                 "mode=search"]) == 0
    assert "no result: the query keeps no token: pi-lodestone's tokenizer keeps runs of 3" \
        in capsys.readouterr().out
    assert main(["explain", folder, "-m", "decision-memory", "-q", "ok", "-p",
                 "mode=injection", "-p", "query_form=prompt"]) == 0
    assert "no result: prompt under 8 characters: pi-lodestone searches nothing for it" \
        in capsys.readouterr().out


def test_every_logged_snippet_length_is_the_replayed_snippets() -> None:
    # pi-lodestone logs a snippet's length with the "…" that marks a cut: a decision cut to
    # 180 characters logs 181 (the sample had 180 where the model gives 181)
    from workbench.core.formats import read_injections
    from workbench.core.models.decision_memory.excerpt import units

    ds = load_dataset(SAMPLES / "decisions")
    pipe = Pipeline(get_model("decision-memory"), ds)
    views = pipe.model.injections(pipe.prepared, ds, pipe.params)
    logged = {f"turn-{r.line}": [m.snippet_length for m in r.results]
              for r in read_injections(SAMPLES / "decisions" / "injections.jsonl").records}
    replayed = {q.id: [units(s) for s in view.snippets]
                for q, view in zip(ds.queries, views, strict=True)}
    assert replayed == {q: logged[q] for q in replayed}
    assert any(181 in lengths for lengths in replayed.values())  # a cut one among them
