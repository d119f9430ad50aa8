"""A decision-memory query file in pi-lodestone's own field names (forInjection, projectOnly,
minScore, topK: its search options and eval fixtures' names) is read as it means, and a key no
model reads is warned of with its file, line and the key it most likely meant (rv51 1: a copied
`"forInjection": false` had been dropped unsaid, the search scored as an injection)."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.core.formats import load_dataset
from workbench.core.models import get_model

DECISION = {"id": "a-1", "title": "Use PgBouncer for connection pooling",
            "text": "Transaction mode", "tags": ["decision"], "cwd": "/repos/app",
            "project": "app", "source": "manual", "important": False,
            "createdAt": "2026-03-01T00:00:00.000Z"}
NOW = "2026-03-10T12:00:00.000Z"


def _folder(tmp_path: Path, *queries: dict[str, object]) -> Path:
    (tmp_path / "decisions.jsonl").write_text(json.dumps(DECISION) + "\n")
    lines = [json.dumps({"id": f"q{i + 1}", "text": "connection pooling", "cwd": "/repos/app",
                         "now": NOW, **q}) for i, q in enumerate(queries)]
    (tmp_path / "q.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_original_names_are_read(tmp_path: Path) -> None:
    _folder(tmp_path, {"forInjection": False, "projectOnly": False, "minScore": 1, "topK": 2},
            {"forInjection": True, "projectOnly": True, "minScore": 9})
    model = get_model("decision-memory")
    params = model.schema.resolve({})
    ds = load_dataset(tmp_path / "decisions.jsonl", queries=tmp_path / "q.jsonl")
    prep = model.prepare(ds, params)
    assert prep.q_mode.tolist() == [0, 1]  # q1 a manual search
    assert prep.q_project_only.tolist() == [0, 1]
    assert prep.q_min_score.tolist() == [1.0, 9.0]
    assert prep.q_limit.tolist() == [2, -1]
    # by hand: title 6·w for both tokens (N=1, df=1: w = 0.75 + ln(2/2) = 0.75) = 9; cwd +6;
    # manual search: source manual +4; age 9.5 days +1 → 20. Injected: manual +2 → 18
    scores = model.combine(prep, params)
    assert sorted(scores.total.tolist()) == [18.0, 20.0]
    assert not [w for w in model.data_warnings(ds, params) if "reads no key" in w]


def test_a_key_no_model_reads_is_named_once_per_file(tmp_path: Path) -> None:
    _folder(tmp_path, {"mode": "search", "date": "2026-03-01"},
            {"minscore": 3, "for_injecton": True}, {"minscore": 4})
    model = get_model("decision-memory")
    params = model.schema.resolve({})
    ds = load_dataset(tmp_path / "decisions.jsonl", queries=tmp_path / "q.jsonl")
    said = [w for w in model.data_warnings(ds, params) if "reads no key" in w]
    where = tmp_path / "q.jsonl"
    # minscore once, though two queries give it; date (tune's time split) is read
    assert len(said) == 2, said
    assert said[0].startswith(f"{where}:2: field 'minscore': ")
    assert "(did you mean min_score?)" in said[0]
    assert said[1].startswith(f"{where}:2: field 'for_injecton': ")
    assert "(did you mean for_injection?)" in said[1]


def test_typed_context_takes_the_original_name(tmp_path: Path) -> None:
    from workbench.cli.common import typed_context

    _folder(tmp_path, {"mode": "search"})
    ds = load_dataset(tmp_path / "decisions.jsonl", queries=tmp_path / "q.jsonl")
    ctx = typed_context(ds, ["forInjection=false"], "decision-memory")
    assert ctx["forInjection"] == "false"
