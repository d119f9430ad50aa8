"""The import graph: import statements of Python, JS/TS and Go resolved to repository paths.

- Python: `import a.b`, `from a.b import c` (tried as module `a.b.c`, then `a.b`) and relative
  imports (`from . import x`, `from ..pkg import y`). An absolute module is looked up by its
  dotted suffix (`shorty.store` → `api/shorty/store.py` or `…/store/__init__.py`), since the
  source root is rarely the repository root, but a suffix never starts inside a package (a
  folder with `__init__.py`); when several files match, the one nearest the importer wins.
- JS/TS: relative `import … from './x'`, `import './x'`, `export … from './x'`, `require('./x')`
  and `import('./x')`, with extension and `index` resolution (`./x.js` may name `x.ts`).
- Go: import paths under the module path of a `go.mod` map to that module's folders; an edge goes
  to every non-test `.go` file of the imported package.
Anything else (standard library, third-party packages) is not an edge.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable

__all__ = ["ImportResolver", "go_module_path"]

_SP = r"[^\S\n]"  # whitespace within one line
_PY_NAME = rf"[\w.]+(?:{_SP}+as{_SP}+\w+)?"
_PY_IMPORT = re.compile(rf"^{_SP}*import{_SP}+({_PY_NAME}(?:{_SP}*,{_SP}*{_PY_NAME})*)", re.M)
_PY_FROM = re.compile(
    r"^[^\S\n]*from[^\S\n]+(\.*)([\w.]*)[^\S\n]+import[^\S\n]*(?:\(([^)]*)\)|([^\n#;]+))", re.M)
_JS_SPEC = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}/[^'"]*|\.{1,2})['"]""")
_GO_BLOCK = re.compile(r"^import\s*\(([^)]*)\)", re.M)
_GO_SINGLE = re.compile(r'^import\s+(?:[\w.]+\s+)?"([^"]+)"', re.M)
_GO_QUOTED = re.compile(r'"([^"]+)"')
_GO_MODULE = re.compile(r"^module\s+(\S+)", re.M)
_JS_EXTS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.ts")


def go_module_path(go_mod_text: str) -> str | None:
    m = _GO_MODULE.search(go_mod_text)
    return m.group(1).strip('"') if m else None


class ImportResolver:
    """Resolves the imports of one file to paths in `paths` (the indexed files)."""

    def __init__(self, paths: Iterable[str], go_modules: dict[str, str]) -> None:
        """`go_modules`: module path → folder of its go.mod ("" for the repository root)."""
        self.paths = set(paths)
        self.py_modules: dict[str, list[str]] = defaultdict(list)
        self.go_packages: dict[str, list[str]] = defaultdict(list)
        for p in sorted(self.paths):
            if p.endswith(".py"):
                parts = p[:-3].split("/")
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                for i in range(len(parts)):
                    # a module name starts at a source root, never inside a package: so
                    # `import json` is no edge to `pkg/json.py` when pkg/__init__.py exists
                    if i and "/".join(parts[:i]) + "/__init__.py" in self.paths:
                        continue
                    self.py_modules[".".join(parts[i:])].append(p)
            elif p.endswith(".go") and not p.endswith("_test.go"):
                self.go_packages[posixpath.dirname(p)].append(p)
        # longest module path first, so nested modules win
        self.go_modules = sorted(go_modules.items(), key=lambda kv: -len(kv[0]))

    def resolve(self, path: str, text: str, language: str) -> tuple[str, ...]:
        """The files `path` imports, in source order, each once."""
        return self.resolve_relative(path, text, language)[0]

    def resolve_relative(self, path: str, text: str, language: str
                         ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(the files `path` imports, those of them it imports relatively): Python's
        `from . import x` / `from ..a import b`, and every JS/TS import (only relative ones
        resolve); Go has none."""
        relative: list[str] = []
        if language == "python":
            found = self._python(path, text, relative)
        elif language in ("typescript", "javascript"):
            found = relative = self._js(path, text)
        elif language == "go":
            found = self._go(text)
        else:
            return (), ()
        return (tuple(dict.fromkeys(f for f in found if f != path)),
                tuple(dict.fromkeys(f for f in relative if f != path)))

    # -- Python ---------------------------------------------------------------------------

    def _python(self, path: str, text: str, relative: list[str]) -> list[str]:
        """The imports in source order; the relative ones are appended to `relative`."""
        found: list[tuple[int, str]] = []  # (offset of the statement, path): source order
        for m in _PY_IMPORT.finditer(text):
            for item in m.group(1).split(","):
                found.extend((m.start(), p) for p in self._py_absolute(path, item.split()[0]))
        for m in _PY_FROM.finditer(text):
            dots, module = m.group(1), m.group(2)
            listed = m.group(3) if m.group(3) is not None else m.group(4)
            listed = re.sub(r"#[^\n]*|\\", " ", listed)
            names = [n.split()[0] for n in listed.split(",") if n.split()]
            for name in names or ["*"]:
                if dots:
                    hits = self._py_relative(path, len(dots), module, name)
                    relative.extend(hits)
                else:
                    sub = self._py_absolute(path, f"{module}.{name}") if name != "*" else []
                    hits = sub or self._py_absolute(path, module)
                found.extend((m.start(), p) for p in hits)
        found.sort(key=lambda t: t[0])  # stable: names of one statement keep their order
        return [p for _, p in found]

    def _py_absolute(self, importer: str, module: str) -> list[str]:
        cands = self.py_modules.get(module)
        if not cands:
            return []
        if len(cands) == 1:
            return cands
        here = importer.split("/")
        return [max(cands, key=lambda c: _common_prefix(here, c.split("/")))]

    def _py_relative(self, importer: str, level: int, module: str, name: str) -> list[str]:
        base = posixpath.dirname(importer)
        for _ in range(level - 1):
            base = posixpath.dirname(base)
        stem = posixpath.join(base, *module.split(".")) if module else base
        if name != "*":
            hit = self._py_file(posixpath.join(stem, name))
            if hit:
                return [hit]
        hit = self._py_file(stem)
        return [hit] if hit else []

    def _py_file(self, stem: str) -> str | None:
        for cand in (f"{stem}.py", f"{stem}/__init__.py"):
            norm = posixpath.normpath(cand)
            if norm in self.paths:
                return norm
        return None

    # -- JavaScript / TypeScript ----------------------------------------------------------

    def _js(self, path: str, text: str) -> list[str]:
        out = []
        for m in _JS_SPEC.finditer(text):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), m.group(1)))
            hit = self._js_file(target)
            if hit:
                out.append(hit)
        return out

    def _js_file(self, target: str) -> str | None:
        stems = [target]
        root, ext = posixpath.splitext(target)
        if ext in (".js", ".jsx", ".mjs", ".cjs"):
            stems.append(root)  # TypeScript ESM writes './x.js' for x.ts
        for stem in stems:
            for cand in (stem, *(stem + e for e in _JS_EXTS),
                         *(f"{stem}/index{e}" for e in _JS_EXTS)):
                if cand in self.paths:
                    return cand
        return None

    # -- Go -------------------------------------------------------------------------------

    def _go(self, text: str) -> list[str]:
        specs = [q for b in _GO_BLOCK.findall(text) for q in _GO_QUOTED.findall(b)]
        specs += _GO_SINGLE.findall(text)
        out: list[str] = []
        for spec in specs:
            for module, folder in self.go_modules:
                if spec == module or spec.startswith(module + "/"):
                    rel = spec[len(module):].strip("/")
                    out.extend(self.go_packages.get(posixpath.join(folder, rel).strip("/"), []))
                    break
        return out


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
