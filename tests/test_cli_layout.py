"""The CLI package's shape: no import circle among workbench/cli/*, no module importing another's
private names, and `python -m workbench.cli` handling errors as the `workbench` command does
(with the old circle a second copy of the module was imported, whose UsageError main did not
catch: a traceback and exit status 1 instead of one line and 2)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, SAMPLES

CLI = REPO / "workbench" / "cli"


def _imports(path: Path) -> list[tuple[str, str]]:
    """(module under workbench.cli, name) for each name `path` imports from the package."""
    out: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("workbench.cli."):
                out += [(node.module.split(".")[2], a.name) for a in node.names]
            elif node.module == "workbench.cli":
                out += [(a.name, "") for a in node.names]
    return out


def _sources(name: str) -> list[Path]:
    """A module's file, or every file of a package (one module split over files: its parts
    import each other's names freely)."""
    package = CLI / name
    return sorted(package.glob("*.py")) if package.is_dir() else [CLI / f"{name}.py"]


def test_no_cycles_and_no_private_names_across_modules() -> None:
    modules = ({p.stem for p in CLI.glob("*.py")}
               | {p.parent.name for p in CLI.glob("*/__init__.py")})
    graph: dict[str, set[str]] = {}
    for stem in modules - {"__init__", "__main__"}:
        found = [f for path in _sources(stem) for f in _imports(path) if f[0] != stem]
        assert all(m in modules for m, _ in found), (stem, found)  # nothing from __init__
        assert not [n for _, n in found if n.startswith("_")], (stem, found)
        graph[stem] = {m for m, _ in found} - {stem}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(d == goal or (d not in seen and reaches(d, goal, seen | {d}))
                   for d in graph.get(start, ()))

    assert [m for m in graph if reaches(m, m, set())] == []


def test_python_m_says_a_usage_error_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "workbench.cli", "eval",
                           str(SAMPLES / "tea-beir"), "-m", "no-such-model"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("workbench eval: error: argument --model/-m: unknown "
                                  "model 'no-such-model'")
    assert done.stderr.count("\n") == 1, done.stderr
