"""The documents that moved, each as a card: its query, the explain sentence, each
signal on both sides and the text it matched."""

from __future__ import annotations

from html import escape

from workbench.core.compare import Mover
from workbench.core.comparison import Comparison, CrossMove, MoveExplained, explain_pair
from workbench.core.data import display_title
from workbench.core.text import Analyzer
from workbench.report.html.cells import _g, _sign_class
from workbench.report.html.snippets import _marked, code_snippet_html, snippet_html
from workbench.report.text import CROSS_MODEL_NOTE, judged_first, settings_key


def _kinds(comp: Comparison, moved: list[Mover], top: int) -> list[tuple[str, list[Mover]]]:
    """Entered, left and moved within the top k; in each, the judged relevant documents
    first, then the judged not relevant (the moves that changed the metrics), then the
    unjudged, each by the size of the move."""
    moved = judged_first(comp, moved)
    entered = [m for m in moved if m.entered]
    left = [m for m in moved if m.left]
    jumps = [m for m in moved if not (m.entered or m.left)]
    return [("Entered the top {k}", entered[:top]), ("Left the top {k}", left[:top]),
            ("Biggest jumps within the top {k}", jumps[:top])]


def _movers(comp: Comparison, k: int, top: int) -> str:
    out = [f'<section id="movers"><h2>Documents that moved (top {k})</h2>'
           '<p class="note">Each document with its contribution per signal under both '
           "configurations, each signal named as the window's weight sliders name it (hover "
           "a name for its id). Marked: the words sharing a stem with a query word (the "
           "workbench's general English analyser, which may differ from the model's "
           "own).</p>"]
    analyzer = Analyzer()
    pool = 2 * k * max(len(comp.dataset.queries), 1)  # every candidate: the union of top ks
    for i in range(1, len(comp.configs)):
        out.append(f"<h3>{escape(comp.configs[0].name)} → {escape(comp.configs[i].name)}</h3>")
        if not comp.same_model(i):
            out.append(f'<p class="note">{escape(CROSS_MODEL_NOTE.capitalize())}.</p>')
        moved = comp.movers(i, k=k, top=pool) if top else []
        if not moved:
            out.append("<p>No document moved.</p>" if top else "<p>Not asked for.</p>")
            continue
        cards = []
        for title, group in _kinds(comp, moved, top):
            out.append(f"<h4>{escape(title.format(k=k))}</h4>")
            if not group:
                out.append('<p class="note">None.</p>')
            cards += [_mover(comp, i, m, analyzer) for m in group]
            out += cards[len(cards) - len(group):]
        out += [f'<p class="note">{escape(key[0].upper() + key[1:])}.</p>'
                for key in settings_key(cards)]
    out.append("</section>")
    return "".join(out)


def _judged(grade: int | None) -> str:
    if grade is None:
        return "not judged"
    kind = "relevant" if grade > 0 else "not relevant"
    return f"judged {kind} (grade {grade})"


def _total(total: float, scored: bool, gate: str | None = None) -> str:
    if not scored:
        return "not a candidate"
    return _g(total) + (f" ({escape(gate)} gate)" if gate else "")


def _id_title(move: MoveExplained, s: int) -> str:
    """A tooltip with signal `s`'s id where its shown name differs ("" otherwise)."""
    name = move.signals[s]
    return "" if move.label(s) == name else f' title="{escape(name)}"'


def _cross_signals(move: CrossMove, a: str, b: str) -> str:
    """Each side's own signals for a document under two models: one row per signal either
    scores with ("—" where that side's model has no such signal) and each side's total, no
    Δ (the two models' scores are on no common scale)."""
    labels: dict[str, list[str]] = {}
    for side, (signals, shown, parts) in enumerate((
            (move.signals_a, move.labels_a, move.contributions_a),
            (move.signals_b, move.labels_b, move.contributions_b))):
        for s, label in enumerate(shown[:len(signals)]):
            cells = labels.setdefault(label, ["—", "—"])
            cells[side] = _g(float(parts[s]))
    rows = "".join(f'<tr><td>{escape(label)}</td><td class="num">{ca}</td>'
                   f'<td class="num">{cb}</td></tr>'
                   for label, (ca, cb) in labels.items() if ca not in ("—", "0")
                   or cb not in ("—", "0"))
    rows += (f'<tr><th>total</th><td class="num">'
             f"{_total(move.total_a, move.scored_a, move.gate_a)}</td>"
             f'<td class="num">{_total(move.total_b, move.scored_b, move.gate_b)}</td></tr>')
    return (f'<div class="signals"><table><thead><tr><th>signal</th>'
            f'<th class="num">{escape(a)}</th><th class="num">{escape(b)}</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            "</div>")


def _mover(comp: Comparison, i: int, m: Mover, analyzer: Analyzer) -> str:
    move = explain_pair(comp, i, m.query, m.doc)
    a, b = comp.configs[0].name, comp.configs[i].name
    if isinstance(move, CrossMove):
        return _mover_card(comp, move, _cross_signals(move, a, b), analyzer)
    # each signal by its slider's name, as the window's explain table says it; the id, which
    # the CLI's tables and the parameters' names use, in a tooltip
    both = list(zip(range(len(move.signals)), move.contributions_a.tolist(),
                    move.contributions_b.tolist(), strict=True))
    shown = [(s, ca, cb) for s, ca, cb in both if ca != 0 or cb != 0]
    rows = "".join(
        f'<tr><td{_id_title(move, s)}>{escape(move.label(s))}</td>'
        f'<td class="num">{_g(ca)}</td><td class="num">{_g(cb)}</td>'
        f'<td class="num {_sign_class(cb - ca)}">{_g(cb - ca, sign=True)}</td></tr>'
        for s, ca, cb in shown)
    zeros = ""
    if len(shown) < len(both):  # a codeledger table was mostly "0 0 ±0"
        zero = [move.label(s) for s, ca, cb in both if ca == 0 and cb == 0]
        # under the table, not a row of it: a row as wide as the list pushed the card's
        # document column off the page
        zeros = f'<p class="note zeros">0 on both sides: {escape(", ".join(zero))}</p>'

    rows += (f'<tr><th>total</th><td class="num">'
             f"{_total(move.total_a, move.scored_a, move.gate_a)}</td>"
             f'<td class="num">{_total(move.total_b, move.scored_b, move.gate_b)}</td>'
             f'<td class="num {_sign_class(move.total_b - move.total_a)}">'
             f"{_g(move.total_b - move.total_a, sign=True)}</td></tr>")
    signals = (f'<div class="signals"><table><thead><tr><th>signal</th>'
               f'<th class="num">{escape(a)}</th>'
               f'<th class="num">{escape(b)}</th><th class="num">Δ</th></tr></thead>'
               f"<tbody>{rows}</tbody></table>{zeros}</div>")
    return _mover_card(comp, move, signals, analyzer)


def _mover_card(comp: Comparison, move: MoveExplained | CrossMove, signals: str,
                analyzer: Analyzer) -> str:
    """One mover: its query, the sentence, the signals table and the document."""
    query, doc = comp.dataset.queries[move.query], comp.dataset.corpus[move.doc]
    terms = set(analyzer.tokens(query.text))
    grade = (comp.dataset.qrels or {}).get(query.id, {}).get(doc.id)
    judged = "rel" if grade is not None and grade > 0 else "nonrel" if grade == 0 else "unj"
    title = display_title(comp.dataset.corpus, doc)  # an OpenVault memory: type and line
    return (f'<div class="mover"><p><code>{escape(query.id)}</code> '
            f"“{escape(' '.join(query.text.split()))}”</p>"
            f'<p class="why">{escape(move.sentence())}</p><div class="body">{signals}'
            f'<div class="doc"><p><code>{escape(doc.id)}</code> '
            + (f"<strong>{_marked(' '.join(title.split()), terms, analyzer)}</strong> "
               if title and title != doc.id else "")  # a file's title is its path: said once
            + "· "
            f'<span class="{judged}">{escape(_judged(grade))}</span></p>'
            + (f'<p class="text code">{code_snippet_html(doc.text, terms, analyzer)}</p>'
               if any(m.startswith("codeledger") for m in comp.model_ids) else
               f'<p class="text">{snippet_html(doc.text, terms, analyzer)}</p>')
            + "</div></div></div>")
