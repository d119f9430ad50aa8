"""The ranked table widget: legend, summary and notes above the table, its columns fitted
to the room, its selection the session's."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from workbench.core.data import display_title
from workbench.core.session import TuningSession
from workbench.gui.bind import subscribe_many
from workbench.gui.contribution_bar import ContributionDelegate
from workbench.gui.elided import TEXT_MARGIN, ElidingLabel, MiddleElided, esc
from workbench.gui.nothing_ranked import nothing_ranked
from workbench.gui.palette import signal_hex
from workbench.gui.ranked_rows import gate_words, left_top_k
from workbench.gui.signal_names import idle_signals, signal_labels

from .legend import MUTED, Legend, LegendLabel
from .model import BAR_COLUMN, BAR_HEADINGS, COLUMNS, CUT_PEN, RankedTableModel
from .signal_sizes import _data_wide, _top_k_parts
from .view import GateElided, _RankedView
from .widths import Share, share_width

ID_CAP = 200  # px the id column takes beside a title at least, where its ids need it


class RankedTable(QWidget):
    """A legend and summary line above the table of the selected query's ranking."""

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        # fixed heights: a label that changed height on a slider tick would re-lay out the
        # whole window. The query on one line (cut at the right), the notes at its right
        # (`_update_notes`: a note that came with a tick had taken a signal's room in the
        # legend, or a line; dr3 2, 3); the signals' legend below, on the lines it needs at
        # the table's width, three at most (`LegendLabel`)
        self.summary = ElidingLabel(self)  # the query's id and text, elided at the right
        self.summary.setWordWrap(False)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.summary.setFixedHeight(self.summary.fontMetrics().lineSpacing() + 4)
        self.notes = ElidingLabel(self)  # the bundle's cut, what left the top k
        self.notes.setWordWrap(False)
        self.notes.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.notes.setFixedHeight(self.summary.height())
        self.notes.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.notes.hide()
        self.legend = LegendLabel(self)
        # per dataset, model and preparation (`_signal_sizes`): each signal's mean size over
        # every pair the first time it drew, whether a contribution was ever negative, and
        # the signals 0 at every pair, for the values that make a signal draw or not
        self._sizes_for: tuple[object, ...] | None = None
        self._sizes: dict[str, float] = {}
        self._negative = False
        self._zero: frozenset[str] = frozenset()
        self._zero_for: tuple[object, ...] | None = None
        self._zero_checks = 0
        self.model = RankedTableModel(session, self)
        self.view = _RankedView(self.model, self)
        self.view.setAccessibleName("Ranked results")
        self.view.setModel(self.model)
        self.view.setItemDelegateForColumn(BAR_COLUMN, ContributionDelegate(self.view))
        # ids (often paths) elided in the middle: their ends tell them apart
        self.view.setItemDelegateForColumn(COLUMNS.index("id"), MiddleElided(self.view))
        # a gate's words cut after a whole word ("single token…", else "…"), the code and the
        # reason in the tooltip
        self.view.setItemDelegateForColumn(COLUMNS.index("gate"), GateElided(self.view))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.setWordWrap(False)
        # fixed widths from the font, the id column measured once per dataset: ResizeToContents
        # would measure every row again on every slider tick
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # a heading too long for its column ends in "…": centred and clipped at both sides,
        # "contributions" beside decision-memory's gate column read "ntributio"
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self._title_hidden = False
        self._id_width = 120
        self._widest_id: int | None = None  # the widest id and its margins, px
        self._id_dragged = False  # the user set the id column's width: kept
        self.view.horizontalHeader().sectionResized.connect(self._on_section_resized)
        fm = self.view.fontMetrics()
        for col, sample in ((0, "rank"), (1, "▼100"), (4, "00.0000"), (5, "rel"),
                            (BAR_COLUMN, "x" * 22), (7, "missing word")):
            header.resizeSection(col, fm.horizontalAdvance(sample) + 16)
        self._bar_width = header.sectionSize(BAR_COLUMN)  # the bars' width where there is room
        self._gate_width = header.sectionSize(7)  # the widest gate's words (`_fit_gate`)
        self._gates: tuple[str, ...] = ()  # the gates `_gate_width` was measured for
        self._label_width = 0  # the widest gate's short label whole (`_fit_gate`)
        # what `_fit_score` measured for: (dataset, model), and the widest score text since
        self._score_for: tuple[int, str | None] | None = None
        self._score_text = 0
        self._score_rows: tuple[int, int] | None = None  # the rows' (longest text, decimals)
        # the dataset's widest title and id, px with margins (`_on_dataset_changed`), and
        # whether every title is the document's id (source files: the path twice)
        self._names_need = (0, 0)
        self._title_is_id = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        line = QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(12)
        line.addWidget(self.summary, 1)
        line.addWidget(self.notes)
        layout.addLayout(line)
        layout.addWidget(self.legend)
        layout.addWidget(self.view)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        subscribe_many(self, [
            (session.result_changed, self.refresh),
            (session.query_changed, self.refresh),
            (session.baseline_changed, self.refresh),
            (session.dataset_changed, self._on_dataset_changed),
            (session.docs_changed, self._on_docs_changed),
        ])
        self._on_dataset_changed()  # (a table made after the data opened: measured now)

    def _on_section_resized(self, index: int, _old: int, new: int) -> None:
        if index == BAR_COLUMN:
            self._fit_bar_heading(new)
        # a drag of the header's handle, not the code's own widths
        if index == 2 and not self._title_hidden and new != self._id_width \
                and QApplication.mouseButtons() & Qt.MouseButton.LeftButton:
            self._id_dragged = True

    def _on_dataset_changed(self, *_: object) -> None:
        """The names' needs, over the dataset's documents (its first 2,000), not the rows of
        one query: measured per query, the name's column and so the bars' changed between
        neighbouring queries (memories at 1,024 px: bars 95 px under "signals", then 126
        under "contributions"; dr3 6)."""
        ds = self.session.dataset
        if ds is not None and len(ds.corpus):
            fm = self.view.fontMetrics()
            docs = ds.corpus.documents[:2000]
            self._widest_id = max(fm.horizontalAdvance(d.id) for d in docs) + 16
            titles = [display_title(ds.corpus, d) for d in docs]
            self._title_is_id = all(not t or t == d.id for t, d in zip(titles, docs,
                                                                         strict=True))
            pad = 2 * TEXT_MARGIN + 2
            self._names_need = (max(fm.horizontalAdvance(t) for t in titles) + pad,
                                max(fm.horizontalAdvance(d.id) for d in docs) + pad)
            self._fit_id()
        self.refresh()

    def _fit_id(self) -> None:
        """The widths of the id, contributions and gate columns at the table's width; the
        title stretches into the rest (`share_width`). The title keeps about 14 characters
        before the bars or the gate's words grow (at 1,024 px decision-memory's titles read
        "Incre…" beside a gate column of 110 px), and grows with them up to what its rows
        need; the id its widest id, up to 200 px or a third of the table (at 1,920 px ids
        were elided at 200 px beside a title column with room to spare). A width the user
        dragged is not undone on a resize."""
        if self._widest_id is None:
            return
        fm = self.view.fontMetrics()
        title_min = fm.horizontalAdvance("x" * 14) + 2 * TEXT_MARGIN
        # the table's own width (the view fills it): its viewport is not resized yet here
        inner = self.width() - 2 * self.view.frameWidth() \
            - self.view.verticalScrollBar().sizeHint().width()
        fixed = sum(self.view.columnWidth(c) for c in range(self.model.columnCount())
                    if c not in (2, 3, BAR_COLUMN, 7) and not self.view.isColumnHidden(c))
        # the id whole up to ID_CAP before the bars grow: they kept 180 px at 1,280 while the
        # vault's paths read "roa….md"; at least eight characters
        id_want = min(self._widest_id, max(ID_CAP, self.width() // 3))
        id_least = min(self._widest_id, fm.horizontalAdvance("x" * 8) + 16)
        gated = not self.view.isColumnHidden(7)
        gate_want = self._gate_width if gated else 0
        gate_least = min(gate_want, fm.horizontalAdvance("x" * 7) + 2 * TEXT_MARGIN + 4)
        # at least the model's widest short label whole ("from turn"), the px it needs past
        # seven characters taken from the bars' least, not the title's: at 1,024 px they read
        # "one…" and "from…", which name no gate (rA 8)
        label = min(gate_want, self._label_width)
        bar_least = max(self._bar_width // 4,
                        self._bar_width // 3 - max(0, label - gate_least))
        gate_least = max(label, gate_least)
        # the name (the title, or the id in its place) no more than the dataset's widest
        # before the bars grow: code-repo's paths took 288 px at 1,280 where they needed 225,
        # and the bars had 148 (`_on_dataset_changed`)
        need_title, need_id = self._names_need
        if self._title_hidden:  # the id stretches in the title's place: it is the name
            least = max(title_min, min(self._widest_id, ID_CAP))
            names = Share(least, max(least, need_id))
            ids = Share(0, 0)
        else:
            names = Share(title_min, max(title_min, need_title))
            ids = Share(id_least, id_want)
        gate_floor = max(label, fm.horizontalAdvance("x" * 5) + 2 * TEXT_MARGIN + 4)
        bar_floor = self._bar_width // 4
        if gated and inner - fixed < (names.least + ids.least + bar_least + gate_least):
            # too narrow for every least: the gate keeps 9 characters (its gates' first
            # words, "single…", "source…", `elide_words`), the title 10 and the bars a sixth
            # of their width (at 1,024 px with a baseline pinned the gate had 50 px, "…" in
            # most of its cells: rv2 1)
            gate_least = gate_floor = max(label, min(
                gate_want, fm.horizontalAdvance("x" * 9) + 2 * TEXT_MARGIN + 4))
            bar_floor = self._bar_width // 6
            if not self._title_hidden:
                least = fm.horizontalAdvance("x" * 10) + 2 * TEXT_MARGIN
                names = Share(least, max(least, need_title))
        bar, gate = Share(bar_least, self._bar_width), Share(gate_least, gate_want)
        widths = share_width(inner - fixed, names, ids, bar, gate,
                             floors=(gate_floor, bar_floor))
        _, id_width, bar_width, gate_width = widths
        if bar_width != self.view.columnWidth(BAR_COLUMN):
            self.view.setColumnWidth(BAR_COLUMN, bar_width)
        if gated and gate_width != self.view.columnWidth(7):
            self.view.setColumnWidth(7, gate_width)
        width = self._widest_id if self._title_hidden else id_width
        if width != self._id_width:
            self._id_width = width
            if not self._title_hidden and not self._id_dragged:
                self.view.setColumnWidth(2, width)

    def _fit_bar_heading(self, width: int) -> None:
        """The contributions' heading as it fits its column, in the heading's semi-bold font
        within the style sheet's padding (6 px a side): "contributions", else cut at the right
        with "…" ("contribu…"), a function of the column's width alone. (The header elided in
        its own font: in 100 px it drew ":ontributions:". "sig." had read as significance in
        a window of p-values; dr3 6.) The header's tooltip says what the bars are."""
        font = QFont(self.view.horizontalHeader().font())
        font.setWeight(QFont.Weight.DemiBold)
        fm = QFontMetrics(font)
        text = next((t for t in (COLUMNS[BAR_COLUMN], *BAR_HEADINGS)
                     if fm.horizontalAdvance(t) <= width - 16), BAR_HEADINGS[-1])
        if text != self.model.bar_heading:
            self.model.bar_heading = text
            self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, BAR_COLUMN,
                                              BAR_COLUMN)

    def _fit_gate(self) -> None:
        """The gate column's most: the words of the model's widest gate, up to about 24
        characters; measured when the model's gates change, not per tick."""
        res = self.session.result
        gates = tuple(res.scores.gates) if res is not None else ()
        if gates == self._gates:
            return
        self._gates = gates
        fm = self.view.fontMetrics()
        widest = max((fm.horizontalAdvance(gate_words(g)) for g in gates), default=0)
        header = self.view.horizontalHeader().sectionSizeHint(7)
        self._gate_width = max(header, min(widest, fm.horizontalAdvance("x" * 24))
                               + 2 * TEXT_MARGIN + 4)
        model = self.session.model
        labels = [t for g in gates if (t := model.gate_labels.get(g, "")) and model] \
            if model is not None else []
        self._label_width = (max(fm.horizontalAdvance(t) for t in labels) + 2 * TEXT_MARGIN
                             + 4) if labels else 0
        delegate = self.view.itemDelegateForColumn(7)
        if isinstance(delegate, GateElided):
            delegate.widest = widest  # one form for the column: words or labels
        self._fit_id()

    def _fit_score(self) -> None:
        """The score column as wide as its header or its widest score (decision-memory's
        whole numbers took 70 px, room its titles lacked at 1,024 px): at the first result on
        a dataset and model, the widest any query's scores take (every query's largest, at
        the decimals its column would show); then wider only where a result's scores need
        it, never narrower, so that selecting another query moves no column (dr3 6)."""
        s, res = self.session, self.session.result
        if res is None:
            return
        key = (id(s.dataset), s.model.id if s.model is not None else None)
        fm = self.view.fontMetrics()
        texts = [t[4] for t in self.model._texts]
        # measured where the rows' longest text or decimals change, not on every tick
        rows = (max((len(t) for t in texts), default=0), self.model._decimals)
        if key != self._score_for:
            self._score_for, self._score_rows = key, None
            self._score_text = self._widest_score(res.scores.total, fm)
        if rows == self._score_rows:
            return
        self._score_rows = rows
        widest = max((fm.horizontalAdvance(t) for t in texts), default=0)
        self._score_text = max(self._score_text, widest)
        width = max(self.view.horizontalHeader().sectionSizeHint(4),
                    self._score_text + 2 * TEXT_MARGIN + 8)
        if width != self.view.columnWidth(4):
            self.view.setColumnWidth(4, width)
            self._fit_id()

    @staticmethod
    def _widest_score(total: np.ndarray, fm: QFontMetrics) -> int:
        """The widest score text a query's rows can show, over every pair's score: all whole,
        and one past 1, the largest whole number; else four significant digits, "0.0000"
        (`score_decimals`: a score clamped to 1 shows 1.0000), or the largest's whole part
        where that is longer; with a sign where any is negative."""
        finite = total[np.isfinite(total)]
        if not len(finite):
            return 0
        sign = "−" if (finite < 0).any() else ""
        whole = fm.horizontalAdvance(f"{sign}{int(np.abs(finite).max())}")
        if (finite == np.round(finite)).all() and np.abs(finite).max() > 1:
            return whole
        return max(whole, fm.horizontalAdvance(f"{sign}0.0000"))

    def resizeEvent(self, event: Any) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit_id()
        self._fit_notes()

    def refresh(self, *_: object) -> None:
        self.model.refresh()
        self._fit_score()
        self._fit_gate()
        # the Δ column only with a baseline to differ from: empty, it took 50 px of the
        # titles' room
        based = self.session.baseline is not None
        if based == self.view.isColumnHidden(1):
            self.view.setColumnHidden(1, not based)
            self._fit_id()
        # the gate column only where the model's gates zero a document of the data, at any
        # query (a column shown per query moved the bars and their heading between
        # neighbouring queries; dr3 6)
        res = self.session.result
        gated = any(r.gate for r in self.model.rows) or (
            res is not None and bool(res.scores.gates) and bool((res.scores.gate > 0).any()))
        if gated == self.view.isColumnHidden(7):  # its width given to the id, or taken back
            self.view.setColumnHidden(7, not gated)
            self._fit_id()
        # the relevance column only where something is judged (review gv 10: an empty "rel"
        # on decisions took the room the titles lacked at 1,024 px)
        ds = self.session.dataset
        judged = ds is not None and bool(ds.qrels)
        if judged == self.view.isColumnHidden(5):
            self.view.setColumnHidden(5, not judged)
            self._fit_id()
        self._show_title(not self._title_is_id)
        self._update_summary()
        # a blank grid said why (rows gated or cut still list, and say it in their gate cells)
        self.view.set_empty_note("" if self.model.rows else nothing_ranked(self.session))
        self._on_docs_changed(self.session.docs)

    def _show_title(self, show: bool) -> None:
        """The title column, or (hidden) the id column stretched into its room; switched
        only when it changes, not per tick."""
        if show != self._title_hidden:
            return
        self._title_hidden = not show
        header = self.view.horizontalHeader()
        self.view.setColumnHidden(3, not show)
        if show:
            header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
            self.view.setColumnWidth(2, self._id_width)
            header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        else:
            header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self._fit_id()  # the names' room differs with a title or without

    def _update_summary(self) -> None:
        s = self.session
        if s.dataset is None or s.result is None or not len(s.dataset.queries):
            text = "no ranking yet"
            if s.model is not None and s.dataset is not None and s.prepared is None \
                    and len(s.dataset.queries):
                # while it prepares, or after a Cancel: where to look, what to press
                text += (f": {s.model.id} is not prepared yet (progress in the Prepare "
                         "box; Ctrl+R runs it again)")
            self.summary.set_texts(f"<i>{esc(text)}</i>", text)
            self.notes.hide()
            self.legend.set_legend(Legend())
            return
        q = s.dataset.queries[s.query]
        clipped = _clip(q.text, 140)
        text = f"<b>{esc(q.id)}</b> {esc(clipped)}"
        # unchanged on most ticks: no relayout of the labels
        self.summary.set_texts(text, f"{q.id} {clipped}",
                               q.text if clipped != " ".join(q.text.split()) else "")
        self._update_notes()
        self.legend.set_legend(self._legend())

    def _update_notes(self) -> None:
        """The notes at the right of the query's line: the bundle's cut, the documents that
        left the baseline's top k. On the query's line they take no line of their own, and
        never a signal's room in the legend: a note that comes or goes with a tick moves
        nothing below it."""
        s = self.session
        rich, plain, tip = [], [], ""
        if self.model.cut is not None:
            skipped = len(self.model.skipped)
            said = (f"- - bundle: {self.model.cut - skipped} files"
                    + (f" ({skipped} skipped: over the budget)" if skipped else ""))
            rich.append(f"<span style='color:{CUT_PEN.name()}'>{esc(said)}</span>")
            plain.append(said)
            # what the mark is, where the line may be out of sight (rn 9: no tooltip, the
            # dashed line below the 8 rows shown)
            # dB 5: "the files above the line (under its first 12 rows)" read as the files
            # under those rows
            # dH 4: "the first 10 rows … go into the bundle" beside "bundle: 7 files (3
            # skipped)": the greyed ones above the line are not in it
            rows = (f"Of the first {self.model.cut} rows, above the orange dashed line in the "
                    f"table, the {self.model.cut - skipped} not greyed go into the bundle, the "
                    f"context the model hands over; the {skipped} greyed were skipped: over "
                    "the token budget" if skipped else
                    f"The first {self.model.cut} rows, above the orange dashed line in the "
                    "table, go into the bundle, the context the model hands over")
            tip = (rows + "; the shaded rows below the line are left out. Hover a shaded "
                   "row's rank for why the bundle stopped there.")
        left = left_top_k(s)
        if left:
            said = f"left the top {s.k}: {', '.join(left)}"
            rich.append(f"<span style='color:#c0392b'>{esc(said)}</span>")
            plain.append(said)
        ties = self._clamp_ties()
        if ties:
            said = ties.split(":", 1)[0]
            # "ⓘ" (more in the tooltip) where the font has it, as the parameter panel: a box
            info = " ⓘ" if self.notes.fontMetrics().inFontUcs4(0x24D8) else ""
            rich.append(f"<span style='color:#57606a'>{esc(said)}{info}</span>")
            plain.append(said)
            tip = "\n\n".join(t for t in (tip, ties) if t)
        self.notes.set_texts(" &nbsp; ".join(rich), " · ".join(plain), tip)
        self.notes.setVisible(bool(rich))
        self._fit_notes()

    def _clamp_ties(self) -> str:
        """Where results of the shown query tie at 1 (clamped) within the top k, what orders
        them, in rank's words ("3 results tied at 1 (clamped): shown by file path (the model's
        order), not by a score; the metrics read them by document id descending …"): the
        table shows vault's ties by path beside a per-query nDCG that reads them by id
        descending; "" otherwise, and for a model with no clamp tie order."""
        from workbench.core.clamp_ties import shown_order, tie_order, tied_at_one

        s, r = self.session, self.session.result
        if r is None or s.dataset is None or not tie_order(s.model) \
                or not 0 <= s.query < len(r.ranking.count):
            return ""
        k = min(s.k, int(r.ranking.count[s.query]))
        if not (np.asarray(r.ranking.scores[s.query, :k]) == 1.0).any():
            return ""
        at_one = tied_at_one(r.scores, s.query)
        if not len(at_one):
            return ""
        ids = s.dataset.corpus.ids
        judged = s.judgments is not None and bool(s.judgments.judged_mask[s.query])
        # trec_eval's first of them: the greatest id in code-point order, as rank names it
        first = max(ids[int(d)] for d in r.scores.docs[at_one]) if judged else None
        return f"{len(at_one)} results tied at 1 (clamped): {shown_order(s.model, first)}"

    def _fit_notes(self) -> None:
        """The notes as wide as they need, up to half the line: the query's text the rest."""
        if self.notes.isHidden():
            return
        most = max(120, self.width() // 2)
        width = min(math.ceil(self.notes.ideal_width()) + 4, most)
        if width != self.notes.width() or self.notes.minimumWidth() != width:
            self.notes.setFixedWidth(width)

    def _legend(self) -> Legend:
        """The signals' legend for the result: the signals that draw on this data, by their
        sliders' names, no space inside one (the label wraps between signals), each in its
        bars' colour; those left out (0 at every pair: codeledger's "named in the task" on
        code-repo, vault-search's proximity when shipped, a weight at 0) named in the
        tooltip."""
        s = self.session
        assert s.result is not None
        signals = s.result.scores.signals
        names = signal_labels(s.model, signals)
        sizes, zero, negative = self._signal_sizes()
        idle = idle_signals(s) | zero
        shown = [i for i, sid in enumerate(signals) if sid not in idle]
        entries = tuple(f"<span style='color:{signal_hex(i)}'>■</span>&nbsp;"
                        + esc(names[i]).replace(" ", "&nbsp;") for i in shown)
        # where they do not all fit, those drawing least over the data are left out first
        order = tuple(sorted(range(len(shown)), key=lambda j: -sizes.get(signals[shown[j]], 0)))
        # the bars draw a negative contribution hatched, left of the zero line
        tail = f" <span style='color:{MUTED}'>▨&nbsp;hatched:&nbsp;negative</span>"
        return Legend(entries, order, tail, negative,
                      ", ".join(esc(n) for n, sid in zip(names, signals, strict=True)
                                if sid in idle))

    def _signal_sizes(self) -> tuple[dict[str, float], frozenset[str], bool]:
        """(each signal's mean size over every pair of the data, as it was the first time
        it drew there, since the data, the model or its preparation changed: the legend's
        order, the same for every query and tick; the signals 0 at every pair; whether the
        model gave a negative contribution, over the data or a query's top k, since).
        Every pair is read where the values that can make a signal draw or not change (a
        weight to or from 0, an option, the model's idle signals), and at the result after,
        or where one said to be 0 everywhere draws in the query's top k (vault-search's
        clamp once the weights' sum passes 1), not on other ticks: the live path reads the
        top k alone."""
        s, res = self.session, self.session.result
        assert res is not None and s.model is not None
        data = (id(s.dataset), s.model.id, id(s.prepared))
        if data != self._sizes_for:
            self._sizes_for, self._sizes, self._negative = data, {}, False
            self._zero_for = None
        switches = (idle_signals(s), tuple(sorted(
            (n, v == 0 if isinstance(v, int | float) and not isinstance(v, bool) else repr(v))
            for n, v in s.params.items())))
        if switches != self._zero_for:
            self._zero_for, self._zero_checks = switches, 0
        drawn, negative = _top_k_parts(s)
        signals = res.scores.signals
        if any(d > 0 and sid in self._zero for d, sid in zip(drawn, signals, strict=True)):
            self._zero_checks = 0  # one said to be 0 everywhere draws here: read again
        # twice: the first result after a change may answer the values before it
        if self._zero_checks < 2:
            self._zero_checks += 1
            means, anywhere = _data_wide(res.scores)
            self._zero = frozenset(sid for sid, m in zip(signals, means, strict=True)
                                   if m == 0)
            for sid, m in zip(signals, means, strict=True):
                if m > 0:
                    self._sizes.setdefault(sid, float(m))
            self._negative |= anywhere
        self._negative |= negative
        return self._sizes, self._zero, self._negative

    def _on_selection(self, *_: object) -> None:
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        docs = [self.model.rows[r].doc for r in rows if r < len(self.model.rows)]
        self.session.select_docs(docs)

    def _on_docs_changed(self, docs: object) -> None:
        wanted = set(docs) if isinstance(docs, tuple) else set()
        sel = self.view.selectionModel()
        current = {self.model.rows[i.row()].doc for i in sel.selectedRows()
                   if i.row() < len(self.model.rows)}
        if current == wanted:
            return
        sel.blockSignals(True)
        self.view.clearSelection()
        for r, row in enumerate(self.model.rows):
            if row.doc in wanted:
                sel.select(self.model.index(r, 0),
                           QItemSelectionModel.SelectionFlag.Select
                           | QItemSelectionModel.SelectionFlag.Rows)
        sel.blockSignals(False)
        self.view.viewport().update()


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"
