"""Which commits make no task, and the task text of those that do.

A task is what a person asks for; a commit made by a bot, a release or a dependency bump, or a
one-word message ("wip", "fix", "typo") asks for nothing a ranker could act on. The rules are
one table: (reason, field, pattern), the first match wins. Fields: `author` ("name <email>"),
`subject` (the message's first line), `text` (the task text, which is the subject alone with
`subject_only`: a one-word subject with a body that explains it still makes a task).

Task text: the whole message, subject and body, without the trailers git and forges append
(Signed-off-by, Co-authored-by, …) and without the "(cherry picked from commit …)" line.
"""

from __future__ import annotations

import re

__all__ = ["COMMIT_RULES", "SKIP_REASONS", "skip_reason", "task_text"]

_I = re.I
# reason → what the summary says of the commits it skipped
SKIP_REASONS: dict[str, str] = {
    "bot": "made by a bot (dependabot, renovate, github-actions, pre-commit-ci, …[bot])",
    "release": "releases and version bumps (\"Release 0.5\", \"v1.2.3\", \"Bump version\")",
    "deps": "dependency bumps (\"Bump requests from 2.31 to 2.32\", \"chore(deps): …\")",
    "one_word": "one-word messages (\"wip\", \"fix\", \"typo\")",
}
_VERSION = r"v?\d+(\.\d+)+([-+.]?[0-9A-Za-z]+)*"
COMMIT_RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("bot", "author", re.compile(
        r"\[bot\]|\b(dependabot|renovate|github-actions|pre-commit-ci|greenkeeper|mergify"
        r"|imgbot|allcontributors|snyk-bot|depfu|semantic-release-bot)\b", _I)),
    ("release", "subject", re.compile(
        rf"^\W*{_VERSION}(\s+\(#\d+\))?$"  # "1.2.3", "v1.2.3 (#42)"
        rf"|^(release|version|releasing|tag|tagging)\b[\s:]*{_VERSION}"  # "Version 1.2.3 …"
        r"|^bump(ed|ing|s)?\s+(the\s+)?(package\s+)?version\b"  # not "Update version parsing"
        rf"|^(update[sd]?|set)\s+(the\s+)?version\s+(number\s+)?to\s+{_VERSION}"
        r"|^version\s+bump\b|^(prepare|preparing|cut)\s+(for\s+)?(the\s+)?(\S+\s+)?release\b"
        r"|^(chore|build|ci)(\([^)]*\))?!?:\s*release\b|^chore\(release\)", _I)),
    ("deps", "subject", re.compile(
        r"^(build|chore|fix|ci)\(deps(-dev)?\)"
        # versions required: "Upgrade tests from unittest to pytest" is a task
        r"|^(bump|update|upgrade)\s+\S+(\s+requirement)?\s+from\s+v?\d\S*\s+to\s+v?\d"
        r"|^(update|pin)\s+dependency\s+\S+\s+to\s+|^bump\s+the\s+\S+\s+group\b", _I)),
    ("one_word", "text", re.compile(r"^\S+$")),
)
TRAILER_KEYS = ("signed-off-by", "co-authored-by", "reviewed-by", "acked-by", "tested-by",
                "reported-by", "suggested-by", "helped-by", "approved-by", "reviewed-on",
                "change-id", "cc")
_TRAILER = re.compile(rf"^\s*({'|'.join(TRAILER_KEYS)})\s*:|^\(cherry picked from commit \w+\)",
                      _I)


def task_text(subject: str, body: str, *, subject_only: bool = False) -> str:
    """The subject, then (unless `subject_only`) a blank line and the body without trailers."""
    subject = subject.strip()
    if subject_only:
        return subject
    lines = [ln.rstrip() for ln in body.splitlines() if not _TRAILER.match(ln)]
    kept = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return f"{subject}\n\n{kept}" if kept else subject


def skip_reason(*, author: str, subject: str, text: str) -> str | None:
    """The reason (a key of SKIP_REASONS) of the first rule the commit meets, or None."""
    fields = {"author": author, "subject": subject.strip(), "text": text.strip()}
    return next((reason for reason, field, rule in COMMIT_RULES
                 if rule.search(fields[field])), None)
