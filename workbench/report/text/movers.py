"""The documents that moved most between two configurations, judged ones first, each
with its query and explain diff."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.core.compare import Mover
from workbench.core.comparison import Comparison, explain_pair
from workbench.core.data import display_title
from workbench.report.text.compared import has_judgments
from workbench.report.text.markup import code_span, md


def movers_heading(comp: Comparison, k: int, i: int = 0) -> str:
    """What a list of movers holds: "moves into, out of or within the top 10; judged
    documents first" ("within" alone headed documents that entered from rank 36); between
    configuration 0 and i of different models, that their scores do not compare."""
    judged = "; judged documents first" if has_judgments(comp) else ""
    return f"moves into, out of or within the top {k}{judged}" + (
        f"; {CROSS_MODEL_NOTE}" if i and not comp.same_model(i) else "")


def movers_text(comp: Comparison, k: int, i: int) -> str:
    """`movers_heading` as a sentence, said under the Markdown report's short heading."""
    text = movers_heading(comp, k, i)
    return text[0].upper() + text[1:] + "."


# said once over the moves between two models' configurations
CROSS_MODEL_NOTE = ("two models: each scores on its own scale, so the places compare and the "
                    "scores do not")


# the key to a mover's settings' figures (`Undone.text`), said under a list that shows one
# (dr4 5, 6: "undone: at 89, score −0.335" had read as a cause, and nothing said what it was)
SETTINGS_KEY = ("only it set back: the document's place under the second configuration with "
                "only that setting set back to the first configuration's value, the other "
                "changes kept (not its place under the first), and what the change added to "
                "its score; each is measured on its own, so the effects overlap and need not "
                "add up; held back by: a change that moved it the other way; a setting without "
                "figures cannot be scored again on its own and is named because a signal it "
                "feeds moved")


def settings_key(sentences: Sequence[str]) -> list[str]:
    """`SETTINGS_KEY`, where one of `sentences` shows a setting's figures; [] otherwise."""
    shown = any("(only it set back: " in s or "; held back by " in s for s in sentences)
    return [SETTINGS_KEY] if shown else []


def mover_lines(comp: Comparison, i: int, k: int = 10, top: int = 5,
                markdown: bool = False) -> list[str]:
    """The documents that moved most between configuration 0 and i, each with its query and
    the one-sentence explain diff; with `markdown`, the ids as code, the rest escaped (`md`)."""
    def ident(text: str) -> str:
        return code_span(text) if markdown else text

    def plain(text: str) -> str:
        return md(text, block=False) if markdown else text

    ds = comp.dataset
    out = []
    pool = 2 * k * max(len(ds.queries), 1)  # every candidate: the union of the top ks
    for m in judged_first(comp, comp.movers(i, k=k, top=pool))[:top] if top else []:
        move = explain_pair(comp, i, m.query, m.doc)
        query, doc = ds.queries[m.query], ds.corpus[m.doc]
        rel = (ds.qrels or {}).get(query.id, {}).get(doc.id)
        judged = ("" if rel is None else f", judged relevant (grade {rel})" if rel > 0
                  else f", judged not relevant (grade {rel})")
        # a file's title is its path, its id too: said once
        title = display_title(ds.corpus, doc)  # an OpenVault memory: not "action" alone
        name = ident(doc.id) + (f" {plain(_quote(title))}" if title and title != doc.id
                                else "")
        out.append(f"{ident(query.id)} {plain(_quote(query.text))} · {name}{judged}: "
                   f"{plain(move.sentence())}")
    return out


def judged_first(comp: Comparison, moved: Sequence[Mover]) -> list[Mover]:
    """`moved` with the judged relevant documents first, then the judged not relevant (the
    moves that changed the metrics), then the unjudged; by the size of the move within each
    (the order `Comparison.movers` gives: a drop out of the list falls past its end, so the
    cut of a #1 comes before that of a #10), the higher grade first where two moved as far.
    The HTML report and the text and Markdown lists pick their documents so."""
    ds, qrels = comp.dataset, comp.dataset.qrels or {}

    def rank(m: Mover) -> tuple[int, int, bool, int]:
        grade = qrels.get(ds.queries[m.query].id, {}).get(ds.corpus[m.doc].id)
        group = 2 if grade is None else 0 if grade > 0 else 1
        return group, -abs(m.jump), not (m.entered or m.left), -(grade or 0)

    return sorted(moved, key=rank)


def _quote(text: str, width: int = 50) -> str:
    text = " ".join(text.split())
    if not text:
        return ""
    return f"“{text if len(text) <= width else text[:width - 1] + '…'}”"
