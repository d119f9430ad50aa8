"""The document preview: the selected (or top-ranked) document with the query's matched terms
highlighted, and its score broken down by signal.

Terms come from the model's `explain()` where it names them (BM25 stems, matched words), else
from the query's own words; a word of the document is highlighted when it starts with one of
them, case-insensitively (so a stem `roast` marks roasting and Roasted). A model that matches
no single words says where it matched instead (`highlight_spans`: vault-search's shipped
variant, the whole query as one phrase within a line): those spans are marked, and no word.

A source file (metadata `language` other than markdown/other) shows in a monospace font with
line numbers; where the model's explain names an `excerpt` (the line ranges it would send of a
large file), those lines carry a bar in the gutter and a light background.
"""

from __future__ import annotations

import html
import re
from collections.abc import Set
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from workbench.core.models.codeledger.files import file_lines
from workbench.core.session import TuningSession
from workbench.core.text import Analyzer
from workbench.textout import explain_lines

from .bind import subscribe_many
from .drag import SETTLE_MS, drag_state
from .nothing_ranked import empty_preview
from .palette import number, score_decimals, signal_hex
from .signal_names import idle_signals, signal_labels

_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset("the and for are was were with that this from what which when where who how "
                  "why does did has have had not but its into than then them they their there "
                  "can could would should about your you our".split())
MAX_CHARS = 20_000
PROSE_LANGUAGES = frozenset({"", "other", "markdown", "text"})
EXCERPT_BG = "#e6f0fb"
EXCERPT_BAR = "#2f6fba"


def is_source(metadata: Any) -> bool:
    """A document of a code dataset: its metadata names a programming language."""
    lang = metadata.get("language") if hasattr(metadata, "get") else None
    return isinstance(lang, str) and lang.lower() not in PROSE_LANGUAGES


def excerpt_ranges(details: dict[str, Any]) -> list[tuple[int, int]]:
    """The 1-based inclusive line ranges of explain's `excerpt.ranges` ([] without one)."""
    ex = details.get("excerpt")
    if not isinstance(ex, dict):
        return []
    out = []
    for item in ex.get("ranges") or []:
        try:
            a, b = int(item[0]), int(item[1])
        except (TypeError, ValueError, IndexError):
            continue
        out.append((a, b))
    return out


def code_html(text: str, terms: set[str], ranges: list[tuple[int, int]]) -> str:
    """`text` as numbered monospace lines, the lines within `ranges` marked."""
    lines = text.split("\n")
    marked = [False] * (len(lines) + 1)
    for a, b in ranges:
        for i in range(max(a, 1), min(b, len(lines)) + 1):
            marked[i] = True
    width = len(str(len(lines)))
    rows = []
    for i, line in enumerate(lines, 1):
        num = str(i).rjust(width)
        if marked[i]:
            rows.append(f"<span style='color:{EXCERPT_BAR}'>{num}▐</span>"
                        f"<span style='background:{EXCERPT_BG}'>"
                        f"{highlight(line, terms) or ' '}</span>")
        else:
            rows.append(f"<span style='color:#8c959f'>{num}&nbsp;</span>"
                        f"{highlight(line, terms)}")
    return ("<pre style='font-family:monospace; margin:0'>" + "\n".join(rows) + "</pre>")


def query_terms(text: str) -> set[str]:
    """Lower-cased words of three or more letters, common function words left out."""
    return {w for w in (m.group().lower() for m in _WORD.finditer(text))
            if len(w) >= 3 and w not in _STOP}


def explain_terms(details: dict[str, Any]) -> set[str]:
    """Matched terms named by a model's explain(): `matched_terms[].term`, `words[].word`,
    `matched.{path_or_symbol,content}[]` (codeledger)."""
    out: set[str] = set()
    matched = details.get("matched")
    if isinstance(matched, dict):
        for key in ("path_or_symbol", "content"):
            out.update(str(t).lower() for t in matched.get(key) or [] if t)
    for item in details.get("matched_terms") or []:
        if isinstance(item, dict) and item.get("term"):
            out.add(str(item["term"]).lower())
    for item in details.get("words") or []:
        if isinstance(item, dict) and item.get("word"):
            out.add(str(item["word"]).lower())
    return out


def shown_html(details: dict[str, Any]) -> str:
    """What the source system itself shows, where the model's explain gives it: the result's
    `snippet` and, for an injection, the `memory_block` the agent receives ("" otherwise)."""
    out = []
    if isinstance(details.get("snippet"), str):
        out.append(f"<p style='color:#57606a'>snippet: {html.escape(details['snippet'])}</p>")
    block = details.get("memory_block")
    if isinstance(block, str):
        body = html.escape(block) if block else "(nothing injected for this prompt)"
        out.append("<div style='color:#57606a'>what the agent receives:</div>"
                   f"<pre style='white-space:pre-wrap;background:#f6f8fa'>{body}</pre>")
    return "".join(out)


def details_html(details: dict[str, Any], idle: Set[str] = frozenset()) -> str:
    """The model's whole explain breakdown under the document, as `workbench explain` prints
    it (hybrid's vector similarity against its threshold, raw and normalised BM25, the
    entities read from the chat; a gate's reason; codeledger's reasons): the window had shown
    the signals' sum only. "" where the model gives none."""
    # less what the preview already shows: the document's id, the query, the snippet
    lines = explain_lines({k: v for k, v in details.items()
                           if k not in ("snippet", "doc", "query")}, idle)
    if not lines:
        return ""
    return ("<div style='color:#57606a;margin-top:8px'>the model's breakdown (as <code>"
            "workbench explain</code> prints it):</div><pre style='color:#57606a;"
            "white-space:pre-wrap;font-size:small'>" + html.escape("\n".join(lines))
            + "</pre>")


def highlight(text: str, terms: set[str]) -> str:
    """HTML of `text` with every word marked that starts with one of `terms` (a term may hold
    punctuation: vault-search's `pour-over`, `node.js`), or whose English Snowball stem is
    one: a model's matched terms are often stems, and a stem is not always a prefix of its
    word ("studi" of "study", "bodi" of "body")."""
    stems = {t for t in terms if len(t) >= 2}
    if not stems:
        return html.escape(text)
    pattern = re.compile(r"(?P<term>\b(?:" + "|".join(
        re.escape(t) for t in sorted(stems, key=len, reverse=True)) + r")\w*)|\w+",
        re.IGNORECASE | re.UNICODE)
    analyzer = _ANALYZER
    out, last = [], 0
    for m in pattern.finditer(text):
        if m.group("term") is None and analyzer.stem(m.group().lower()) not in stems:
            continue
        out.append(html.escape(text[last:m.start()]))
        out.append(f"<span style='background:#fff3a3;font-weight:600'>"
                   f"{html.escape(m.group())}</span>")
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


_ANALYZER = Analyzer(stop_words="none")  # stems only; memoised across documents


def mark_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """HTML of `text` with each (start, end) character span marked, as `highlight` marks a
    word; spans past the text's end (a preview cut at `MAX_CHARS`) are cut there."""
    out, last = [], 0
    for a, b in sorted(spans):
        a, b = max(a, last), min(b, len(text))
        if a >= b:
            continue
        out.append(html.escape(text[last:a]))
        out.append(f"<span style='background:#fff3a3;font-weight:600'>"
                   f"{html.escape(text[a:b])}</span>")
        last = b
    out.append(html.escape(text[last:]))
    return "".join(out)


def spans_note(query: str, spans: list[tuple[int, int]]) -> str:
    """The line above a document marked by spans: what is marked, and that single words are
    not (a reader took five marked words for five matches where tf counted one)."""
    n = len(spans)
    what = (f"marked: the whole query {query!r} where the model matched it, {n} "
            f"occurrence{'' if n == 1 else 's'}" if n else
            f"nothing marked: the model matched the whole query {query!r} on no line of it")
    return (f"<div style='color:#57606a'>{html.escape(what)} (it matches the query as one "
            "phrase, never its single words)</div>")


class DocumentPreview(QWidget):
    def __init__(self, session: TuningSession, parent: QWidget | None = None, *,
                 defer_ms: int = 0) -> None:
        """`defer_ms`: a new result (a slider tick) re-renders the preview that long after the
        last one, not on every tick; a new document or query shows at once. During a slider
        drag it waits for the slider to rest (`drag.SETTLE_MS`) or be released."""
        super().__init__(parent)
        self.session = session
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(defer_ms)
        self._timer.timeout.connect(self.refresh)
        self.defer_ms = defer_ms
        self.browser = QTextBrowser(self)
        self.browser.setAccessibleName("Document preview")
        self.browser.setOpenLinks(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser)
        self.terms: set[str] = set()
        # where the model says where it matched (`highlight_spans`): the marked spans of the
        # document's text, and no term marked; None where it marks terms
        self.spans: list[tuple[int, int]] | None = None
        self.doc: int | None = None
        self.code = False  # the document shows as source (monospace, numbered lines)
        self.excerpt: list[tuple[int, int]] = []  # its excerpt's line ranges, 1-based
        self._html = ""  # what the browser shows: an unchanged page is not set again
        self._drag = drag_state(session)
        self._drag.changed.connect(self._on_drag)
        subscribe_many(self, [
            (session.docs_changed, self.refresh),
            (session.query_changed, self.refresh),
            (session.result_changed, self._on_result),
            (session.dataset_changed, self.refresh),
        ])
        self.refresh()

    def _on_result(self, *_: object) -> None:
        if self.defer_ms and self._drag.dragging:
            # even a new top document waits: re-rendering it would delay this tick's repaint
            self._timer.start(max(SETTLE_MS, self.defer_ms))
        elif self.defer_ms and self.current_doc() == self.doc:
            self._timer.start(self.defer_ms)
        else:
            self.refresh()

    def _on_drag(self, dragging: bool) -> None:
        if not dragging and self._timer.isActive():  # released: catch up now
            self._timer.start(0)

    def current_doc(self) -> int | None:
        s = self.session
        if s.docs:
            return s.docs[-1]
        res = s.result
        if res is None or s.query >= len(res.ranking.count) or res.ranking.count[s.query] == 0:
            return None
        return int(res.ranking.docs[s.query, 0])

    def refresh(self, *_: object) -> None:
        self._timer.stop()
        s, ds = self.session, self.session.dataset
        doc = self.current_doc()
        self.doc = doc
        if ds is None or doc is None or doc >= len(ds.corpus) or not len(ds.queries):
            self.terms, self.spans = set(), None
            self.code, self.excerpt = False, []
            self._set_html(f"<i style='color:#57606a'>{empty_preview(s)}</i>")
            return
        d, q = ds.corpus[doc], ds.queries[s.query]
        details = self._explain(doc)
        self.spans = self._spans(doc)
        self.terms = set() if self.spans is not None else (
            explain_terms(details) or query_terms(q.text))
        self.excerpt = excerpt_ranges(details)
        self.code = is_source(d.metadata)
        if self.code:
            n_lines = file_lines(d)
            facts = [str(d.metadata.get("language")), f"{n_lines:,} lines"]
            ex = details.get("excerpt")
            if self.excerpt and isinstance(ex, dict):
                kept = sum(b - a + 1 for a, b in self.excerpt)
                facts.append(f"<span style='color:{EXCERPT_BAR}'>▐ excerpt: "
                             f"{int(ex.get('lines', kept)):,} of "
                             f"{int(ex.get('of_lines', n_lines)):,} lines</span>")
            if isinstance(details.get("why"), str):
                facts.append(html.escape(details["why"]))
            title = d.title if d.title and d.title != d.id else ""
            parts = [f"<h3 style='margin:0'>{html.escape(d.id)}</h3>",
                     "<div style='color:#57606a'>"
                     + (f"{html.escape(title)} · " if title else "")
                     + " · ".join(facts)
                     + (f" · tags: {html.escape(', '.join(d.tags))}" if d.tags else "")
                     + "</div>", self._breakdown(doc, details),
                     code_html(d.text[:MAX_CHARS], self.terms, self.excerpt)]
        else:
            spans, text = self.spans, d.text[:MAX_CHARS]
            body = ("<p style='white-space:pre-wrap'>" + highlight(text, self.terms) + "</p>"
                    if spans is None else spans_note(q.text, spans)
                    + "<p style='white-space:pre-wrap'>" + mark_spans(text, spans) + "</p>")
            parts = [f"<h3 style='margin:0'>"
                     f"{highlight(d.title, self.terms) if d.title else html.escape(d.id)}</h3>",
                     f"<div style='color:#57606a'>{html.escape(d.id)}"
                     + (f" · tags: {html.escape(', '.join(d.tags))}" if d.tags else "")
                     + "</div>", self._breakdown(doc, details), shown_html(details), body]
        parts.append(details_html(details, idle_signals(self.session)))
        self._set_html("".join(parts))

    def _set_html(self, page: str) -> None:
        if page != self._html:  # setHtml re-lays out the whole document
            self._html = page
            self.browser.setHtml(page)

    def _explain(self, doc: int) -> dict[str, Any]:
        s = self.session
        if s.model is None or s.prepared is None or s.dataset is None or s.needs_prepare:
            return {}
        try:
            return s.model.explain(s.prepared, s.dataset, s.query, doc, s.params)
        except Exception:  # the preview must show even when a model cannot explain a pair
            return {}

    def _spans(self, doc: int) -> list[tuple[int, int]] | None:
        """The model's `highlight_spans` for this pair, where it has them (None: mark
        terms)."""
        s = self.session
        spans_of = getattr(s.model, "highlight_spans", None)
        if (spans_of is None or s.prepared is None or s.dataset is None
                or s.needs_prepare):
            return None
        try:
            spans: list[tuple[int, int]] | None = spans_of(s.prepared, s.dataset, s.query,
                                                            doc, s.params)
        except Exception:  # the preview must show even when a model cannot say them
            return None
        return spans

    def _breakdown(self, doc: int, details: dict[str, Any] | None = None) -> str:
        """The score as the sum of its contributions; first, where the model has one, in its
        own form (importance: importance × relevance, the sum's "relevance −0.40" read as a
        penalty, and "relevance 0" for a fully relevant memory)."""
        res, q = self.session.result, self.session.query
        if res is None:
            return ""
        sc = res.scores
        row = sc.row(q)
        hits = (sc.docs[row] == doc).nonzero()[0]
        if not len(hits):
            return "<p style='color:#57606a'>not a candidate of this query</p>"
        pair = hits[:1] + row.start
        contrib = sc.contributions_of(pair)[:, 0]
        g = int(sc.gate[pair[0]])
        total = float(sc.total[pair[0]])
        # one count of decimals for the score and its terms, the ranked table's for it
        places = score_decimals([total], [*map(float, contrib)], sc.total)
        names = signal_labels(self.session.model, sc.signals)  # the sliders' names
        idle = idle_signals(self.session)  # 0 for every pair here: left out
        items = " + ".join(f"<span style='color:{signal_hex(i)}'>■</span> {html.escape(n)} "
                           f"{number(float(v), places)}"
                           for i, (n, v) in enumerate(zip(names, contrib, strict=False))
                           if sc.signals[i] not in idle)
        gate = (f" <b style='color:#c0392b'>gated: {html.escape(sc.gates[g - 1])}</b>"
                if g > 0 and g - 1 < len(sc.gates) else "")
        formula = (details or {}).get("formula")
        if isinstance(formula, str) and formula and not g:
            return (f"<p>score {number(total, places)} = {html.escape(formula)}<br>"
                    f"<span style='color:#57606a'>as contributions (the bars; they add up "
                    f"to it):</span> {items}</p>")
        return f"<p>score {number(total, places)} = {items}{gate}</p>"
