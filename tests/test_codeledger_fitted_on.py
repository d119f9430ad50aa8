"""`models codeledger` names the histories its defaults were fitted on, by head commit, and
`rank`/`explain` say where the repository is one of them (rv2 4: on ky, 23 of 103 tasks were
in the fit, and nothing on the command line said the defaults had seen ky)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.repo import build_sample_repo

# as docs/codeledger.md records them: the shared bundles' one head each, the sample's build
HEADS = {"ky": "3419113b48", "httpx": "ae1b9f6623", "code-repo sample": "95ec20ac97"}
NOTE = "the history codeledger's defaults were fitted on (code-repo sample up to 95ec20ac97"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_repo(tmp_path_factory.mktemp("fitted") / "shorty")


def _git(repo: Path, *argv: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *argv], check=True, capture_output=True,
                          text=True).stdout.strip()


def test_models_names_each_history_by_its_head(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "codeledger"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "defaults fitted on the older half of the tasks of each of these histories" in out
    for name, head in HEADS.items():
        assert f"{name} up to {head}" in out
    # its head was not recorded, and 511beb2's skip_limit fit read only httpx and ky (dr2 2)
    assert ("scoring workbench as of 2026-11-24 about 01:00 (the exact head was not "
            "recorded; 72aca785b1 at the latest)") in out
    assert "511beb28fb" not in out
    assert main(["models", "codeledger-document"]) == 0  # the document's values: none
    assert "fitted on the older half" not in capsys.readouterr().out


def test_the_sample_s_head_is_the_one_recorded(repo: Path) -> None:
    assert _git(repo, "rev-parse", "HEAD").startswith(HEADS["code-repo sample"])


@pytest.mark.parametrize("command", ["rank", "explain"])
def test_a_typed_task_has_no_note(repo: Path, capsys: pytest.CaptureFixture[str],
                                  command: str) -> None:
    """A typed task names no commit: no history to place it in (dr2 3)."""
    argv = [command, "--repo", str(repo), "--task", "rate limit", "--top", "2"]
    assert main([*argv, "--model", "codeledger"]) == 0
    assert "defaults were fitted on" not in capsys.readouterr().err


@pytest.fixture(scope="module")
def later(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sample's repository with one commit after its fitted head, and a task file of the
    sample's 12 tasks and one task from that commit ("c_later")."""
    from tests.conftest import SAMPLES

    root = build_sample_repo(tmp_path_factory.mktemp("later") / "shorty")
    app = root / "api" / "shorty" / "app.py"
    app.write_text(app.read_text() + "\n\ndef health():\n    return 'ok'\n")
    _git(root, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qam",
         "Add a health endpoint")
    lines = (SAMPLES / "code-repo" / "tasks.jsonl").read_text().splitlines()
    record = json.loads(lines[0])
    record.update(id="c_later", task="Add a health endpoint", commit=_git(root, "rev-parse",
                                                                          "HEAD"))
    tasks = root.parent / "tasks.jsonl"
    tasks.write_text("\n".join([*lines, json.dumps(record)]) + "\n")
    return root, tasks


@pytest.mark.parametrize("command", ["rank", "explain"])
def test_rank_and_explain_place_the_task(later: tuple[Path, Path],
                                         capsys: pytest.CaptureFixture[str],
                                         command: str) -> None:
    """A task from the fitted history gets the note; one from a commit after it gets none
    (dr2 3: every task of a matching repository got it)."""
    root, tasks = later
    argv = [command, str(root), "--queries", str(tasks), "--top", "2", "--model"]
    assert main([*argv, "codeledger", "--query-id", "c45484912fc"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"note: this task is from {NOTE}" in err
    assert main([*argv, "codeledger", "--query-id", "c_later"]) == 0
    assert "defaults were fitted on" not in capsys.readouterr().err
    assert main([*argv, "codeledger-document", "--query-id", "c45484912fc"]) == 0
    assert "defaults were fitted on" not in capsys.readouterr().err


def test_eval_counts_the_tasks_in_the_fit(later: tuple[Path, Path],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    root, tasks = later
    assert main(["eval", str(root), "--queries", str(tasks), "-m", "codeledger",
                 "--metrics", "r@10"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"note: 12 of 13 tasks are from {NOTE}" in err
    # the 12 are every task of the history, not those trained on: said as what may be a
    # training score, never as one (dr6 2: a held-out set had been told "partly training")
    assert ("the fit trained on the older half of the tasks mined from it and held out the "
            "newer half: any of these that fall in that older half score at the defaults as "
            "training tasks, not unseen ones") in err, err
    assert "partly training scores" not in err


def test_another_repository_has_no_note(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "app.py").write_text("def rate_limit():\n    return 1\n")
    for argv in (["init", "-q"], ["add", "."],
                 ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "first"]):
        _git(other, *argv)
    assert main(["rank", "--repo", str(other), "--task", "rate limit", "--model",
                 "codeledger"]) == 0
    assert "defaults were fitted on" not in capsys.readouterr().err


def test_eval_says_a_fitted_history(capsys: pytest.CaptureFixture[str]) -> None:
    """eval on a history the defaults were fitted on said nothing, so its figure over tasks
    of that history read as an unseen test (rv2 4, eval part)."""
    from tests.conftest import SAMPLES

    folder = SAMPLES / "code-repo"  # built into the sample's repository, head 95ec20ac97
    assert main(["eval", str(folder), "-m", "codeledger", "--metrics", "r@10"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"note: 12 of 12 tasks are from {NOTE}" in err
    assert main(["eval", str(folder), "-m", "codeledger-document", "--metrics", "r@10"]) == 0
    assert NOTE not in " ".join(capsys.readouterr().err.split())


def test_this_repository_s_bound_predates_the_weights_refit() -> None:
    """The bound recorded for this repository is a commit before fc80575 (the refit that
    wrote the weights), not 511beb2 (skip_limit, fitted on httpx and ky only; dr2 2)."""
    from workbench.core.models.codeledger.fitted_on import FITTED_ON

    root = Path(__file__).resolve().parents[1]
    bound = FITTED_ON[0].bound
    try:
        _git(root, "cat-file", "-e", "fc805759f9371f65acbab33cc0b831131c11cefb^{commit}")
    except subprocess.CalledProcessError:
        pytest.skip("this checkout lacks the 2026-11-24 history")
    assert _git(root, "log", "-1", "--format=%cI", bound).startswith("2026-11-24T01:09")
    assert subprocess.run(["git", "-C", str(root), "merge-base", "--is-ancestor", bound,
                           "fc805759f9371f65acbab33cc0b831131c11cefb"]).returncode == 0


def test_compare_says_a_fitted_history_once_a_model(capsys: pytest.CaptureFixture[str]) -> None:
    """compare on a history codeledger's defaults were fitted on said nothing, while eval,
    rank and explain did: said once for codeledger however many of its configurations are
    compared, and not for bm25 beside it."""
    from tests.conftest import SAMPLES

    folder = str(SAMPLES / "code-repo")  # built into the sample's repository, 95ec20ac97
    assert main(["compare", folder, "-m", "codeledger", "--defaults", "-p", "w_keyword=2",
                 "-m", "bm25", "--defaults", "--metrics", "r@10", "--movers", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # among compare's notes (dr8 5)
    assert out.count(f"note: 12 of the 12 tasks compared are from {NOTE}") == 1, out
    assert out.count(NOTE) == 1, out  # none for bm25
    assert main(["compare", folder, "-m", "codeledger-document", "--defaults", "-p",
                 "w_keyword=2", "--metrics", "r@10", "--movers", "0"]) == 0
    assert NOTE not in " ".join(capsys.readouterr().out.split())


def test_compare_and_report_count_the_tasks_compared(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr8 5: compare said "103 of 103 tasks" beside a table of the 51 held out, and the
    report's file said nothing: the note counts the tasks the table counts, in both."""
    from tests.conftest import SAMPLES

    folder = str(SAMPLES / "code-repo")
    trained = ["c45484912fc", "c9ade776950", "c8085784bc7", "c163f511319", "c4af9d632ec"]
    tuned = tmp_path / "tuned.toml"
    tuned.write_text('[params]\nw_keyword = 2.0\n\n[tuned]\ndataset = "code-repo"\n'
                     'validation = "earlier"\nmodel = "codeledger"\ntrained_on = ['
                     + ", ".join(f'"{q}"' for q in trained) + "]\n", encoding="utf-8")
    argv = [folder, "-m", "codeledger", "--defaults", "-c", str(tuned), "--metrics", "r@10",
            "--movers", "0"]
    assert main(["compare", *argv]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "7 judged and counted, 5 tuned on set aside" in out, out  # 12 tasks, 5 tuned on
    assert f"note: 7 of the 7 tasks compared are from {NOTE}" in out, out
    assert "of 12 tasks" not in out
    for suffix in ("md", "html"):
        page = tmp_path / f"r.{suffix}"
        assert main(["report", *argv, "-o", str(page)]) == 0
        err = " ".join(capsys.readouterr().err.split())
        assert f"note: 7 of the 7 tasks compared are from {NOTE}" in err, err  # said there too
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert "7 of the 7 tasks compared are from the history codeledger" in text


def test_sweep_and_tune_count_the_tasks_in_the_fit(later: tuple[Path, Path], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """sweep's and tune's figures over tasks of a fitted history were said nothing of (dr4
    5): each now counts them as eval does, 12 of the 13 (c_later comes after the head)."""
    root, tasks = later
    assert main(["sweep", str(root), "--queries", str(tasks), "-m", "codeledger", "-s",
                 "max_files", "--values", "5,20", "--metrics", "r@10"]) == 0
    assert f"note: 12 of 13 tasks are from {NOTE}" in " ".join(capsys.readouterr().err.split())
    assert main(["tune", str(root), "--queries", str(tasks), "-m", "codeledger", "--tune",
                 "w_keyword", "--trials", "1", "--folds", "0", "--seed", "1", "--storage",
                 str(tmp_path / "s.db")]) == 0
    assert f"note: 12 of 13 tasks are from {NOTE}" in " ".join(capsys.readouterr().err.split())
