"""A git repository opened as a dataset: files at the snapshot, tasks as queries, the files
each task needed as judgments, the ledger's weights; checked against git itself."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset
from workbench.core.formats.code_repo import FILE_KEYS, read_code_repo, read_ledger
from workbench.core.repo import build_sample_repo

SNAPSHOT = "4af9d63"  # "Expire links after a time to live", 2026-04-25
DAY = 86400


def git_out(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_repo(tmp_path_factory.mktemp("code") / "shorty")


def write_tasks(path: Path, snapshot: str, rows: list[tuple[str, str, list[str]]]) -> Path:
    path.write_text("".join(json.dumps({"id": i, "task": t, "files": f, "snapshot": snapshot})
                            + "\n" for i, t, f in rows), encoding="utf-8")
    return path


def test_files_at_the_snapshot_with_their_facts(repo: Path, tmp_path: Path) -> None:
    full = git_out(repo, "rev-parse", SNAPSHOT).strip()
    tasks = write_tasks(tmp_path / "tasks.jsonl", full, [
        ("t1", "Add resolveLink to the client", ["client/src/client.ts", "client/src/index.ts"]),
        ("t2", "Document rate limits", ["docs/API.md"]),
    ])
    ds = read_code_repo(repo, tasks=tasks)
    at_snapshot = sorted(git_out(repo, "ls-tree", "-r", "--name-only", full).split())
    assert ds.corpus.ids == at_snapshot  # nothing skipped in this tree
    assert ds.source.endswith("@" + full)
    doc = ds.corpus.get("api/shorty/app.py")
    assert doc is not None
    assert doc.text == git_out(repo, "show", f"{full}:api/shorty/app.py")
    assert set(FILE_KEYS) <= set(doc.metadata) and "ledger" in doc.metadata
    assert ds.queries.ids == ["t1", "t2"]
    assert ds.queries[0].context["snapshot"] == full
    assert ds.qrels == {"t1": {"client/src/client.ts": 1, "client/src/index.ts": 1},
                        "t2": {"docs/API.md": 1}}
    # a needed file the index leaves out (here: excluded) stays judged, so recall counts it
    # as missed; one the snapshot never held is an error in the task set
    narrow = read_code_repo(repo, tasks=tasks, exclude=["docs/**"])
    assert "docs/API.md" not in narrow.corpus.index
    assert narrow.qrels is not None and narrow.qrels["t2"] == {"docs/API.md": 1}
    bad = write_tasks(tmp_path / "bad.jsonl", full, [("t3", "x", ["docs/never-existed.md"])])
    with pytest.raises(FormatError, match=r"bad.jsonl:1: field 'files\[0\]': task 't3' "
                                          r"needs 'docs/never-existed.md'"):
        read_code_repo(repo, tasks=bad)
    # every such task at once: the first alone made a fix-and-rerun loop
    worse = write_tasks(tmp_path / "worse.jsonl", full, [
        ("t3", "x", ["docs/never-existed.md"]), ("t4", "y", ["docs/API.md"]),
        ("t5", "z", ["gone.py"]), ("t6", "w", ["also-gone.py"])])
    with pytest.raises(FormatError, match=r"worse.jsonl:1: .*; so do 2 more task\(s\), on "
                                          r"line\(s\) 3, 4 \(a file renamed"):
        read_code_repo(repo, tasks=worse)


@pytest.mark.parametrize("path", ["api/shorty/alias.py", "client/src/retry.ts",
                                  "cli/main.go"])
def test_commit_days_follow_renames_as_git_does(repo: Path, path: str) -> None:
    ds = read_code_repo(repo)  # HEAD
    now = int(git_out(repo, "log", "-1", "--format=%ct", "HEAD"))
    times = [int(t) for t in git_out(repo, "log", "--follow", "--format=%ct", "--",
                                     path).split()]
    days = ds.corpus.get(path).metadata["commit_days"]  # type: ignore[union-attr]
    assert days == pytest.approx([(now - t) / DAY for t in times], abs=1e-3)


def test_rev_wins_and_bad_revs_and_folders_are_clear_errors(repo: Path,
                                                            tmp_path: Path) -> None:
    ds = read_code_repo(repo, rev=SNAPSHOT)
    assert "api/shorty/ratelimit.py" in ds.corpus.index  # added on 26 March
    assert ds.qrels is None and len(ds.queries) == 0
    with pytest.raises(FormatError, match=r"field 'rev'.*nope"):
        read_code_repo(repo, rev="nope")
    with pytest.raises(FormatError, match="not a git repository"):
        read_code_repo(tmp_path)
    # a task set whose snapshot the repository lacks: the task file and its field are named
    # (it said "REPO: field 'rev': REPO: unknown revision …", a field no one wrote)
    import json

    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps({"id": "t1", "task": "fix it", "files": ["README.md"],
                                 "snapshot": "0" * 40}) + "\n")
    with pytest.raises(FormatError) as caught:
        read_code_repo(repo, tasks=tasks)
    assert caught.value.path == str(tasks) and caught.value.field == "snapshot"
    assert f"snapshot '{'0' * 40}' is not a commit of {repo}" in str(caught.value)


def test_a_snapshot_a_shallow_clone_lacks_says_it_is_shallow(repo: Path,
                                                            tmp_path: Path) -> None:
    """Tasks mined from the full history, read on a shallow clone: the error blamed another
    repository or rewritten history."""
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", repo.as_uri(), str(shallow)],
                   check=True, capture_output=True)
    old = git_out(repo, "rev-list", "--max-parents=0", "HEAD").split()[0]  # the first commit
    tasks = write_tasks(tmp_path / "tasks.jsonl", old, [("t1", "fix it", ["README.md"])])
    with pytest.raises(FormatError) as caught:
        read_code_repo(shallow, tasks=tasks)
    assert f"snapshot '{old}' is not a commit of {shallow} (a shallow clone" in str(caught.value)
    assert "git fetch --unshallow" in str(caught.value)


def test_a_task_the_snapshot_cannot_answer_is_named_by_its_line(repo: Path,
                                                                 tmp_path: Path) -> None:
    # the repository check named the task file and field, not the line to open
    tasks = tmp_path / "tasks.jsonl"
    rows = [{"id": "t1", "task": "fix it", "files": ["README.md"], "snapshot": SNAPSHOT},
            {"id": "t2", "task": "fix more", "files": ["README.md", "no/such.py"],
             "snapshot": SNAPSHOT}]
    tasks.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(FormatError) as caught:
        read_code_repo(repo, tasks=tasks)
    assert (caught.value.line, caught.value.field) == (2, "files[1]")
    assert str(caught.value).startswith(f"{tasks}:2: field 'files[1]': task 't2' needs "
                                        "'no/such.py'")
    rows[1]["files"], rows[1]["snapshot"] = ["README.md"], "abcd1234"
    tasks.write_text("\n\n".join(json.dumps(r) for r in rows) + "\n")
    with pytest.raises(FormatError) as caught:
        read_code_repo(repo, tasks=tasks)
    assert (caught.value.line, caught.value.field) == (3, "snapshot")


def test_ledger_weights_decay_by_half_every_30_days(tmp_path: Path) -> None:
    now = 1_780_000_000
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("\n".join(json.dumps(r) for r in [
        {"files": ["a.py", "b.py"], "outcome": "success", "at": now},
        {"files": ["a.py"], "outcome": "failure", "at": now - 30 * DAY},
        {"files": ["a.py"], "outcome": "failure", "at": "2026-05-28T20:26:40Z"},  # = now
        {"files": ["a.py"], "outcome": "success", "at": now + DAY},  # after now: ignored
    ]) + "\n", encoding="utf-8")
    w = read_ledger(ledger, now)
    # failures: 0.5 (30 days old) + 1 (the ISO time is `now`)
    assert w["a.py"] == {"success": 1.0, "fail": pytest.approx(1.5), "entries": 3,
                         "success_ages": [0.0], "fail_ages": [30.0, 0.0]}
    assert w["b.py"] == {"success": 1.0, "fail": 0.0, "entries": 1, "success_ages": [0.0],
                         "fail_ages": []}
    assert read_ledger(tmp_path / "absent.jsonl", now) == {}


@pytest.mark.parametrize(("line", "field"), [
    ('{"files": "a.py", "outcome": "success", "at": 1}', "files"),
    ('{"files": ["a.py"], "outcome": "win", "at": 1}', "outcome"),
    ('{"files": ["a.py"], "outcome": "success", "at": "yesterday"}', "at"),
    ('{"files": ["a.py"], ', "json"),
])
def test_bad_ledger_lines_name_line_and_field(tmp_path: Path, line: str, field: str) -> None:
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text('{"files": ["a.py"], "outcome": "success", "at": 1}\n' + line + "\n",
                      encoding="utf-8")
    named = "invalid JSON" if field == "json" else f"field '{field}'"
    with pytest.raises(FormatError, match=rf"ledger.jsonl:2: {named}"):
        read_ledger(ledger, 10)


def test_ledger_in_the_working_tree_reaches_the_documents(repo: Path, tmp_path: Path) -> None:
    copy = tmp_path / "shorty"
    shutil.copytree(repo, copy)
    (copy / ".codeledger").mkdir()
    now = int(git_out(copy, "log", "-1", "--format=%ct", "HEAD"))
    (copy / ".codeledger" / "ledger.jsonl").write_text(json.dumps(
        {"files": ["api/shorty/store.py"], "outcome": "failure", "at": now - 60 * DAY}) + "\n",
        encoding="utf-8")
    ds = read_code_repo(copy)
    store = ds.corpus.get("api/shorty/store.py")
    assert store is not None
    assert store.metadata["ledger"] == {"success": 0.0, "fail": 0.25, "entries": 1,
                                        "success_ages": [], "fail_ages": [60.0]}
    assert ds.corpus.get("api/shorty/app.py").metadata["ledger"]["entries"] == 0  # type: ignore[union-attr]
    # codeledger decays the entries by its own half-life: 60 days old, 60-day half-life → 0.5
    from workbench.core.models.codeledger import CodeLedgerModel

    model = CodeLedgerModel()
    for half_life, fail in ((30.0, 0.25), (60.0, 0.5), (3650.0, 0.5 ** (60 / 3650))):
        prep = model.prepare(ds, model.schema.resolve({"ledger_half_life_days": half_life}))
        at = prep.files.paths.index("api/shorty/store.py")
        assert prep.files.fail[at] == pytest.approx(fail)
        assert prep.files.success[at] == 0.0


def test_sample_folder_is_built_once_and_opened_with_its_tasks() -> None:
    folder = SAMPLES / "code-repo"
    ds = load_dataset(folder)
    again = load_dataset(folder)
    assert ds.source == again.source  # the same built repository, not a second build
    assert ds.name == "code-repo"
    assert len(ds.queries) > 0 and ds.qrels
    for q in ds.queries:
        assert q.context["snapshot"] == ds.source.rsplit("@", 1)[1]


def test_codeledger_config_globs_apply(repo: Path, tmp_path: Path) -> None:
    copy = tmp_path / "shorty"
    shutil.copytree(repo, copy)
    (copy / ".codeledger").mkdir()
    (copy / ".codeledger" / "config.json").write_text(json.dumps(
        {"repo": {"include": ["api/**"], "exclude": ["api/tests/**"]}}), encoding="utf-8")
    ds = read_code_repo(copy)
    assert ds.corpus.ids and all(p.startswith("api/") for p in ds.corpus.ids)
    assert not any(p.startswith("api/tests/") for p in ds.corpus.ids)
    assert "api/shorty/app.py" in ds.corpus.index
    # the caller's globs win over the config's
    assert "client/src/client.ts" in read_code_repo(copy, include=[], exclude=[]).corpus.index
    (copy / ".codeledger" / "config.json").write_text('{"repo": {"exclude": "x"}}',
                                                     encoding="utf-8")
    with pytest.raises(FormatError, match=r"config.json: field 'repo.exclude'"):
        read_code_repo(copy)


@pytest.mark.parametrize(("text", "words"), [
    ('{"repo": ' + "[" * 100_000 + "]" * 100_000 + "}", "invalid JSON: nested too deeply"),
    ('{"repo": {"include": [' + "9" * 5000 + "]}}", "invalid JSON: Exceeds the limit"),
    ('{"repo": {"include": [}', "config.json:1: invalid JSON at column 23: Expecting value"),
])
def test_a_config_json_nested_too_deeply_or_with_a_huge_number_is_one_error(
        tmp_path: Path, text: str, words: str) -> None:
    # a RecursionError and a ValueError (a number past Python's digit limit) were tracebacks
    from workbench.core.formats.code_repo import read_repo_globs

    config = tmp_path / "config.json"
    config.write_text(text)
    with pytest.raises(FormatError) as info:
        read_repo_globs(config)
    assert words in str(info.value)


def test_codeledger_config_weights_are_said_when_not_measured(repo: Path,
                                                              tmp_path: Path) -> None:
    """A repository's own .codeledger/config.json weights are not what eval, sweep, tune or
    the window measure (the model's defaults and -p/--params are): the codeledger models say
    so once, with the -p that measures them (review G, 3: they were silently ignored)."""
    from workbench.core.models import get_model

    copy = tmp_path / "configured"
    shutil.copytree(repo, copy)
    (copy / ".codeledger").mkdir()
    (copy / ".codeledger" / "config.json").write_text(json.dumps(
        {"selector": {"weights": {"keyword": 0.5, "churn": 0.15, "fail_prior": "x"},
                      "default_budget": {"tokens": 6000, "max_files": 25},
                      "sufficiency_threshold": 0.95}}), encoding="utf-8")
    ds = read_code_repo(copy)
    model = get_model("codeledger")
    params = model.schema.resolve({})  # keyword 0.8, churn 0.02, 8000 tokens, 25 files, 0.95
    warned = [w for w in model.data_warnings(ds, params) if "config.json" in w]
    assert warned == [
        "this repository's .codeledger/config.json (CodeLedger's own settings) is not what "
        "is measured here: it sets selector.weights.keyword 0.5, selector.weights.churn 0.15, "
        "selector.default_budget.tokens 6000, where this run has w_keyword 0.8, w_churn 0.02, "
        "token_budget 8000 (the model's defaults, -p and --params); to measure it as "
        "configured: -p w_keyword=0.5 -p w_churn=0.15 -p token_budget=6000"]
    # measured at the config's values: nothing to say; a preset that overrides the budget
    # is named in the -p
    same = model.schema.resolve({"w_keyword": 0.5, "w_churn": 0.15, "token_budget": 6000})
    assert not [w for w in model.data_warnings(ds, same) if "config.json" in w]
    preset = model.schema.resolve({"w_keyword": 0.5, "w_churn": 0.15,
                                   "budget_preset": "generous"})
    [said] = [w for w in model.data_warnings(ds, preset) if "config.json" in w]
    assert said.endswith("to measure it as configured: -p budget_preset=custom "
                         "-p token_budget=6000 -p max_files=25")
    # BM25 does not read CodeLedger's settings: nothing said
    assert not get_model("bm25").data_warnings(ds, get_model("bm25").schema.resolve({}))
    # values said as typed back (not 0.123457 or 1e+06), and one the model cannot take named
    (copy / ".codeledger" / "config.json").write_text(json.dumps(
        {"selector": {"weights": {"keyword": 0.123456789},
                      "default_budget": {"tokens": 2000000, "max_files": 30}}}),
        encoding="utf-8")
    [said] = [w for w in model.data_warnings(read_code_repo(copy), params)
              if "config.json" in w]
    assert "-p w_keyword=0.123456789 -p max_files=30" in said
    assert said.endswith("it also sets selector.default_budget.tokens 2000000 (this model's "
                         "token_budget takes [100, 1000000]), which cannot be measured here")
