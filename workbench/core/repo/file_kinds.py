"""What kind of file a path is, for choosing a task's ground truth: source (tests included),
docs, config, lock, changelog or other.

A ranker for code should find the source a change needs; a lockfile, a changelog line or a CI
tweak that rides along with the change is not something a task's text predicts. "Source" is
decided by language (`lang.language_of`), not by extension: a language that is not a data or
markup format is source. The other kinds come from this one table of names.
"""

from __future__ import annotations

import posixpath
import re

from workbench.core.repo.lang import language_of

__all__ = ["FILE_KINDS", "OPTIONAL_KINDS", "SOURCE", "file_kind", "parse_kinds"]

SOURCE = "source"
# kind → what it holds, in the words the tasks-from-git summary and help use
FILE_KINDS: dict[str, str] = {
    SOURCE: "source and tests",
    "docs": "Markdown, reStructuredText, AsciiDoc, plain text, README",
    "config": "YAML, TOML, JSON, INI/cfg, .github/, dotfiles, Dockerfile, Makefile",
    "lock": "package-lock.json, yarn.lock, poetry.lock, uv.lock, Cargo.lock, go.sum, …",
    "changelog": "CHANGELOG*, HISTORY*, NEWS*, CHANGES*, release notes, news fragments",
    "other": "no language known: licences, images, data",
}
OPTIONAL_KINDS = tuple(k for k in FILE_KINDS if k != SOURCE)

# languages `language_of` knows that are data or prose, not source
NOT_SOURCE = {"markdown": "docs", "json": "config", "yaml": "config", "toml": "config",
              "go-mod": "config"}
LOCKFILES = frozenset({
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
    "bun.lockb", "deno.lock", "poetry.lock", "uv.lock", "pdm.lock", "Pipfile.lock",
    "Cargo.lock", "go.sum", "go.work.sum", "Gemfile.lock", "composer.lock", "mix.lock",
    "pubspec.lock", "Podfile.lock", "packages.lock.json", "flake.lock", "gradle.lockfile"})
LOCK_NAME = re.compile(r"\.lockb?$|[-.]lock\.(json|ya?ml)$", re.I)  # lockfiles not listed
# folders of changelog fragments (towncrier, changesets)
CHANGELOG_DIRS = frozenset({"changelog.d", "changes", "newsfragments", "news", ".changeset"})
# (kind, pattern on the file name), first match wins; after lockfiles and source
NAME_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("changelog", re.compile(r"^(change[-_.]?log|changes|history|news|release[-_.]?notes"
                             r"|releases)(\.[a-z]+)?$", re.I)),
    ("config", re.compile(r"^(requirements|constraints)[\w.-]*\.(txt|in)$", re.I)),
    ("docs", re.compile(r"\.(rst|txt|adoc|asciidoc|rdoc|org|tex)$"
                        r"|^(readme|contributing|code_of_conduct|security|support|authors"
                        r"|contributors|maintainers)$", re.I)),
    ("config", re.compile(r"\.(ini|cfg|conf|properties|env)$|^\.[^.]+$"
                          r"|^(dockerfile|makefile|procfile|justfile|vagrantfile|manifest\.in"
                          r"|codeowners)$|^dockerfile\.|\.dockerfile$", re.I)),
)


def file_kind(path: str) -> str:
    """The kind of a repository path (a key of FILE_KINDS)."""
    name = posixpath.basename(path)
    if name in LOCKFILES or LOCK_NAME.search(name):
        return "lock"
    language = language_of(path)
    if language != "other" and language not in NOT_SOURCE:
        return SOURCE
    if NAME_RULES[0][1].search(name) or \
            posixpath.basename(posixpath.dirname(path)) in CHANGELOG_DIRS:
        return "changelog"
    if path.startswith(".github/") or "/.github/" in path:
        return "config"
    if language in NOT_SOURCE:
        return NOT_SOURCE[language]
    return next((kind for kind, rule in NAME_RULES[1:] if rule.search(name)), "other")


def parse_kinds(names: str) -> tuple[str, ...]:
    """`"docs,config"` → the kinds kept besides source, in FILE_KINDS order; "all" for every
    kind. ValueError naming the unknown kind and the valid ones."""
    wanted = {n.strip() for n in names.split(",") if n.strip()} - {SOURCE}  # always kept
    if "all" in wanted:
        return OPTIONAL_KINDS
    unknown = sorted(wanted - set(OPTIONAL_KINDS))
    if unknown:
        raise ValueError(f"unknown file kind {unknown[0]!r}: expected one or more of "
                         f"{', '.join(OPTIONAL_KINDS)} (or all)")
    return tuple(k for k in OPTIONAL_KINDS if k in wanted)
