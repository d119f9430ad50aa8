"""codeledger candidate stages, auto-scope, plural tolerance and IDF, on the hand-built repo."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_codeledger_fixtures import IDF_FIX, IDF_RETRY, prepare, stages_of
from workbench.core.engine import top_k
from workbench.core.models.codeledger import signal_table
from workbench.core.models.codeledger.candidates import DEP, FANOUT, HOT, KEYWORD, TEST


def test_keyword_dependency_hot_and_test_stages() -> None:
    _, _, prep, _ = prepare({"q": "retry policy"})
    assert stages_of(prep, 0) == {
        "svc/retry.py": KEYWORD | HOT | TEST,  # path + symbol; churned; source of a test
        "svc/client.py": KEYWORD | HOT,  # content keyword "retry"; churned
        "tests/test_retry.py": KEYWORD | TEST,  # path; test of svc/retry.py
        "svc/util.py": DEP,  # imported by the keyword matches
        "hot/busy.py": HOT,  # the most-churned file
    }


def test_fan_out_brings_the_hub_and_its_dependents() -> None:
    _, _, prep, _ = prepare({"q": "store handler client"})
    assert stages_of(prep, 0) == {
        "svc/client.py": KEYWORD | HOT | FANOUT,
        "svc/handlers.py": KEYWORD | FANOUT,
        "svc/store.py": KEYWORD | FANOUT,
        "svc/util.py": DEP | FANOUT,  # imported by 3 keyword matches: a hub
        # its test joined through the test stage, so it brings no TEST bit back
        "svc/retry.py": HOT | DEP | FANOUT,
        "tests/test_retry.py": TEST,
        "hot/busy.py": HOT,
    }


def test_stage_parameters() -> None:
    _, _, prep, _ = prepare({"q": "store handler client"}, fanout_min=4, dep_depth=0,
                            hot_zone_files=0)
    assert stages_of(prep, 0) == {"svc/client.py": KEYWORD, "svc/handlers.py": KEYWORD,
                                  "svc/store.py": KEYWORD}


def ranked(model: object, prep: object, params: dict[str, object], q: int = 0) -> list[str]:
    scores = model.combine(prep, params)  # type: ignore[attr-defined]
    r = top_k(scores, 100)
    return [prep.files.paths[int(d)] for d in r.docs[q, : int(r.count[q])]]  # type: ignore


def test_auto_scope_compound_gates_outside_files() -> None:
    model, _, prep, params = prepare({"q": "Fix the api-gateway route"})
    assert prep.scopes == ("api-gateway",)
    assert sorted(ranked(model, prep, params)) == ["api-gateway/aliases.py",
                                                   "api-gateway/route.py"]
    scores = model.combine(prep, params)
    assert scores.gates == ("out_of_scope",) and (scores.total[scores.gate == 1] == 0).all()
    everything = ranked(model, prep, {**params, "auto_scope": False})
    assert "svc/util.py" in everything and len(everything) > 2


def test_auto_scope_plain_top_level_word_keeps_paired_tests() -> None:
    model, _, prep, params = prepare({"a": "tune the svc retry", "b": "svc and docs retry"})
    assert prep.scopes == ("svc", None)  # two top-level names: ambiguous, no scope
    inside = ranked(model, prep, params)
    assert "tests/test_retry.py" in inside and "hot/busy.py" not in inside
    strict = ranked(model, prep, {**params, "scope_keeps_tests": False})
    assert all(p.startswith("svc/") for p in strict)


@pytest.mark.parametrize("task", ["aliases", "alias", "resolve aliases"])
def test_plural_tolerance_matches_path_and_symbols(task: str) -> None:
    _, _, prep, _ = prepare({"q": task})
    assert stages_of(prep, 0).get("api-gateway/aliases.py", 0) & KEYWORD


def test_idf_makes_fix_weak() -> None:
    _, _, prep, params = prepare({"q": "fix retry"})
    kw = signal_table(prep, params)[0]
    by = {prep.files.paths[int(d)]: float(v) for d, v in zip(prep.docs, kw, strict=True)}
    mass = IDF_FIX + IDF_RETRY
    assert by["svc/retry.py"] == pytest.approx(IDF_RETRY / mass)  # 0.594
    assert by["svc/util.py"] == pytest.approx(0.3 * IDF_FIX / mass)  # content-only "fix"
    assert by["svc/client.py"] == pytest.approx(0.3 * IDF_RETRY / mass)
    assert by["svc/util.py"] < by["svc/client.py"] < by["svc/retry.py"]


def test_task_without_known_terms_has_only_hot_zone() -> None:
    _, _, prep, params = prepare({"q": "the and of"})
    assert set(stages_of(prep, 0).values()) <= {HOT, HOT | TEST, TEST}
    assert np.all(signal_table(prep, params)[0] == 0.0)


def test_dependency_and_test_caps_by_hand() -> None:
    """dep_max keeps the walk's files next to the most relevant first (then the most central,
    then corpus order); tests_max keeps a candidate's name-paired tests before those paired
    through imports; 0 keeps every one (the document's walk)."""
    from workbench.core.data import Document
    from workbench.core.models.codeledger import candidates as cg
    from workbench.core.models.codeledger.files import read_files

    meta = {
        "lib/seed.py": {"imports": ["lib/a.py", "lib/b.py", "lib/c.py", "lib/d.py"]},
        "lib/a.py": {"dependents": ["lib/seed.py"], "centrality": 0.9},
        "lib/b.py": {"dependents": ["lib/seed.py"]},
        "lib/c.py": {"dependents": ["lib/seed.py"], "centrality": 0.2},
        "lib/d.py": {"dependents": ["lib/seed.py"],
                     "tests": ["lib/tests/test_aa.py", "lib/tests/test_bb.py",
                               "lib/tests/test_d.py"]},
        "lib/tests/test_aa.py": {"is_test": True, "tests": ["lib/d.py"]},
        "lib/tests/test_bb.py": {"is_test": True, "tests": ["lib/d.py"]},
        "lib/tests/test_d.py": {"is_test": True, "tests": ["lib/d.py"]},
    }
    files = read_files([Document(p, text="", metadata=m) for p, m in meta.items()])
    idx = {p: i for i, p in enumerate(files.paths)}
    none = np.zeros(0, np.int64)
    priority = np.zeros(files.n)
    priority[idx["lib/b.py"]] = 0.9
    priority[idx["lib/d.py"]] = 0.5

    def walk(**caps: object) -> set[str]:
        mask = cg.generate(files, [idx["lib/seed.py"]], none, none, 1, 99, 30,
                           priority=priority, **caps)  # type: ignore[arg-type]
        return {files.paths[f] for f, m in mask.items() if m & DEP}

    assert walk() == {"lib/a.py", "lib/b.py", "lib/c.py", "lib/d.py"}
    assert walk(dep_max=2) == {"lib/b.py", "lib/d.py"}  # by priority
    assert walk(dep_max=3) == {"lib/b.py", "lib/d.py", "lib/a.py"}  # then centrality
    d = idx["lib/d.py"]
    assert [files.paths[t] for t in cg._first_tests(files, d, 1)] == ["lib/tests/test_d.py"]
    assert [files.paths[t] for t in cg._first_tests(files, d, 2)] == [
        "lib/tests/test_d.py", "lib/tests/test_aa.py"]
    assert cg._first_tests(files, d, 0) == files.tests[d]
    mask = cg.generate(files, [d], none, none, 0, 99, 30, tests_max=1)
    assert {files.paths[f] for f, m in mask.items() if m & TEST} == {"lib/tests/test_d.py"}


def test_fan_out_cap_zero_takes_every_dependent() -> None:
    # svc/util.py is imported by the three keyword matches and by svc/retry.py
    q = {"q": "store handler client"}
    _, _, every, _ = prepare(q, dep_depth=0, hot_zone_files=0, fanout_max=0)
    fan = {p for p, bits in stages_of(every, 0).items() if bits & FANOUT}
    assert fan == {"svc/util.py", "svc/client.py", "svc/handlers.py", "svc/store.py",
                   "svc/retry.py"}
    _, _, one, _ = prepare(q, dep_depth=0, hot_zone_files=0, fanout_max=1)
    fan = {p for p, bits in stages_of(one, 0).items() if bits & FANOUT}
    assert fan == {"svc/util.py", "svc/retry.py"}  # the hub and its first dependent in the index
