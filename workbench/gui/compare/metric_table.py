"""The comparison's metric table, read-only: one row per metric; the first configuration's mean,
then for each other configuration its mean, the difference Δ, the p-value of the paired
randomisation test against the first and the queries improved ▲ / worsened ▼.

The cells are `workbench.report.text.metric_table`'s, the text `workbench compare` prints, so
the window and the report never disagree; Δ is green / red (`palette.delta_color`) and its p
bold only beyond chance by the report's rule (`report.text.evidence`: p below 0.05, and below
0.05 / their number among many p-values shown; never for training scores, judged@ or a
bundle's size), as the report's colours and its Markdown ★ have it."""

from __future__ import annotations

import math
from decimal import Decimal

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QFont, QFontInfo, QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from workbench.core.comparison import Comparison, higher_is_better
from workbench.core.metrics import BUNDLE_METRICS
from workbench.core.metrics.significance import paired_test
from workbench.gui.charts._base import elide_middle
from workbench.gui.compare.rank_rows import points
from workbench.gui.metric_names import metric_label
from workbench.gui.palette import delta_color, signed
from workbench.report.text import (
    AGREEMENT_NOTE,
    BEYOND,
    WEAK,
    agreement_table,
    case_change,
    case_lines,
    cases_passed,
    evidence,
    is_count,
    metric_table,
    nouns,
    p_text,
    row_digits,
    trained_pair,
    weak_p,
)

SIGNIFICANT = 0.05
PER_OTHER = 4  # columns per configuration after the first: mean, Δ, p, ▲/▼
# a configuration's name in a column header, at most, a line (the column is as wide as its
# header: a 40-character name pushed Δ, p and ▲/▼ out of sight at 1,280 px; two lines of it
# fit); the live sliders' row, "current (unsaved)" (17), reads whole on one
NAME_CHARS = 18


FOLDED, SHORT, TIGHT = 1, 2, 3  # `MetricTable.set_compact`'s levels

# the column heads' padding, 3 px a side (the window's 6 px, over fourteen columns of four
# configurations, had pushed the last one's p and ▲/▼ behind a scroll bar at 1,280 px); 1 px
# at TIGHT
HEADER = "QHeaderView::section {{ padding: 3px {}px; }}"
# TIGHT's type, of the table's own size: 12 px for the window's 13 (five configurations of
# 16-character names at 1,280 × 800 and eight at 1,920 × 1,080 had scrolled sideways beside
# the controls' column: rv2 dr2 3)
TIGHT_SCALE = 12 / 13
CASES = "cases passing"  # the first row's name, where the data has fixture cases
TRAINING = " (training scores)"  # `shown_name`'s mark of a configuration's column


def fold_name(name: str, chars: int = NAME_CHARS, fold: bool = False) -> str:
    """A configuration's name for a column head: whole where it fits `chars`, else on two
    lines broken at the space that balances them best ("w_mention=3" over
    "w_centrality=0.2"; it had been cut to "w_mention…lity=0.2" above a column with room),
    each line elided in the middle only past `chars` (a name of one word: past 1.5 × `chars`).
    `fold`: a name with a space on two lines however short ("current" over "(unsaved)")."""
    if len(name) <= chars and not (fold and " " in name):
        return name
    words = name.split(" ")
    if len(words) == 1:  # one line, a little longer ("inject_min_score=30" whole)
        return elide_middle(name, chars * 3 // 2)
    j = min(range(1, len(words)), key=lambda j: (max(len(" ".join(words[:j])),
                                                     len(" ".join(words[j:]))), j))
    return (elide_middle(" ".join(words[:j]), chars) + "\n"
            + elide_middle(" ".join(words[j:]), chars))


def _name_head(text: str, fold: bool = False) -> str:
    """A configuration's column head: its name on up to two lines (whole in the tooltip);
    its training-scores mark on a line of its own, whole ("tuned on … scores)" had cut the
    name and the mark together). `fold`: as `fold_name`'s."""
    if text.endswith(TRAINING):
        return fold_name(text[: -len(TRAINING)], fold=fold) + "\n" + TRAINING.strip()
    return fold_name(text, fold=fold)


class WholeFigures(QStyledItemDelegate):
    """A cell the table's visible width cuts shows "…" rather than part of its figure: the
    viewport's edge through a p of 0.53 had read "0.5" (rv2 dr5 4). Its value stays in the
    tooltip; scrolled into sight, it shows whole."""

    painting = False  # only a drawn cell changes: its size, as the columns measure it, not

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,  # Qt override
              index: QModelIndex | QPersistentModelIndex) -> None:
        self.painting = True
        try:
            super().paint(painter, option, index)
        finally:
            self.painting = False

    def initStyleOption(self, option: QStyleOptionViewItem,  # Qt override
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        view = self.parent()
        if (self.painting and isinstance(view, MetricTable)
                and index.column() in view.cut_columns()):
            option.text = "…" if option.text else ""
            option.displayAlignment = (Qt.AlignmentFlag.AlignLeft
                                       | Qt.AlignmentFlag.AlignVCenter)


class MetricTable(QTableWidget):
    """Means, differences and paired-test p-values of every metric, against the first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 0, parent)
        self.comparison: Comparison | None = None
        self.font_scale = 1.0
        # how tightly it is drawn to fit a narrow window (`fit_width`): 0 as the report has
        # it, FOLDED, SHORT; and the width each level needs, measured once for what is shown
        self.compact = 0
        self._widths: dict[int, int] = {}
        self._heads: dict[int, str] = {}  # a configuration's column: its name
        self._figures: list[tuple[QTableWidgetItem, str, str]] = []  # (cell, 4 dec., 3 dec.)
        self._base_pt = points(self.font())
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStyleSheet(HEADER.format(3))
        # scrolled, whole columns at a time (the left edge never mid-figure) and a column the
        # right edge cuts drawn as "…" (`WholeFigures`)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerItem)
        self.setItemDelegate(WholeFigures(self))

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # Qt override
        super().scrollContentsBy(dx, dy)
        if dx:
            self.viewport().update()  # the cut column's "…" drawn afresh, not scrolled along

    def cut_columns(self) -> list[int]:
        """The columns the table's visible width shows only in part."""
        header, room = self.horizontalHeader(), self.viewport().width()
        cut = []
        for c in range(self.columnCount()):
            left = header.sectionViewportPosition(c)
            if left < room and (left < 0 or left + header.sectionSize(c) > room):
                cut.append(c)
        return cut

    def set_b(self, index: int) -> None:
        """Configuration `index`'s columns (mean, Δ, p, ▲/▼) drawn next to the first's mean,
        the others after them in their order, the table scrolled to its left edge: the pair
        on screen in sight in the table. With eight configurations B's columns had been
        scrolled out of sight, the Δ in sight another's under a line naming B (r52 dr5 1)."""
        header = self.horizontalHeader()
        count = self.columnCount()
        order = list(range(count))
        comp = self.comparison
        if comp is not None and comp.rows and 1 <= index < len(comp.configs):
            base = 2 + (index - 1) * PER_OTHER
            group = list(range(base, min(base + PER_OTHER, count)))
            order = [0, 1, *group, *(c for c in range(2, count) if c not in group)]
        for visual, logical in enumerate(order):
            if header.visualIndex(logical) != visual:
                header.moveSection(header.visualIndex(logical), visual)
        self.horizontalScrollBar().setValue(0)

    def set_comparison(self, comp: Comparison | None, k: int = 10) -> None:
        """`k`: the top k whose agreement shows where nothing is judged (no metric)."""
        self.comparison = comp
        self.set_b(0)  # the columns in their own order, then filled
        self.clear()
        self.compact, self._widths, self._heads, self._figures = 0, {}, {}, []
        if comp is None:
            self.setRowCount(0)
            self.setColumnCount(0)
            return
        if not comp.rows:
            self._agreement(comp, k)
            return
        header, rows = metric_table(comp, agree=True)  # Δ: the difference of the means shown
        first = comp.configs[0].name
        self.setColumnCount(len(header))
        self.setRowCount(len(rows))
        for col, text in enumerate(header):
            if col == 1 or (col >= 2 and (col - 2) % PER_OTHER == 0):  # a configuration
                self._heads[col] = text
                text = _name_head(text)
            item = QTableWidgetItem(text)
            item.setToolTip(self._header_tip(comp, col))
            self.setHorizontalHeaderItem(col, item)
        for r, (cells, row) in enumerate(zip(rows, comp.rows, strict=True)):
            cells = [metric_label(cells[0]), *cells[1:]]  # the window's name for it
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col > 0:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.setItem(r, col, item)
            count = is_count(row.metric)
            # each Δ the difference of the means as shown, by compare's rule (`row_digits`:
            # 0.0731 / 0.0635 had read −0.0097 here and −0.0096 there, dr5 2); in the
            # narrow view the difference of the means shown there (3 decimals; a count 1)
            digits, shown = row_digits(row.means, row.deltas, count=count)
            short = _short_deltas(row.means, row.deltas, 1 if count else 3)
            for i, col in enumerate([1, *(2 + j * PER_OTHER for j in range(len(comp.configs)
                                                                             - 1))]):
                mean, item = row.means[i], self._item(r, col)
                # "–" said why: bm25's bundle recall beside codeledger's (dr1 10)
                item.setToolTip(f"mean {metric_label(row.metric)} of {comp.configs[i].name}: "
                                + (f"none ({_why_none(comp, i, row.metric)})"
                                   if math.isnan(mean) else item.text()))
                if not math.isnan(mean) and (not count or digits > 1):
                    self._figures.append((item, item.text(), f"{mean:,.1f}" if count
                                          else f"{mean:.3f}"))
            for i in range(1, len(comp.configs)):
                base = 2 + (i - 1) * PER_OTHER
                name = comp.configs[i].name
                delta, p = row.deltas[i], row.p_values[i]
                d_item, p_item, n_item = (self._item(r, base + j) for j in (1, 2, 3))
                fitted = trained_pair(comp, i)  # training scores: no colour, no test
                # coloured by the report's rule (its footnote, the Markdown's ★): only a
                # difference beyond chance (p < 0.05) is a gain or a loss to the eye
                # (+0.0045 at p 1.000 had shown green beside a report that left it plain)
                # and by the report's rule among many p-values (`evidence`): a p below 0.05
                # that is weak evidence among 13 is neither coloured nor bold (review rv3, F4)
                mark = evidence(comp, row, i)
                neutral = mark != BEYOND
                if not math.isnan(delta):  # the window's signs: ±0 for none, a real minus
                    d_item.setText(_count_delta(shown[i], digits) if count
                                   else signed(shown[i], digits))
                    if not count or digits > 1:
                        self._figures.append((d_item, d_item.text(),
                                              _count_delta(short[i]) if count
                                              else signed(short[i], 3)))
                if not math.isnan(delta) and not neutral:
                    better = delta if higher_is_better(row.metric) else -delta
                    d_item.setForeground(QBrush(delta_color(better)))
                # what is missing where there is no difference: the configuration without
                # the metric, first or this one (bm25 first, codeledger second: "none:
                # defaults has no bundle files" had stood beside defaults' 16.6)
                lacking = _lacking(comp, row.means, i, row.metric)
                d_item.setToolTip(f"mean {metric_label(row.metric)} of {name} − mean of {first}"
                                  + (f": none ({lacking})" if math.isnan(delta)
                                     else f": {d_item.text()}"))
                if mark == BEYOND:
                    font = QFont(p_item.font())
                    font.setBold(True)
                    p_item.setFont(font)
                weak = f"p below 0.05, but {weak_p(comp, 0.0, always=True)}"
                if mark == WEAK:
                    d_item.setToolTip(f"{d_item.toolTip()} — {weak}: not coloured")
                if not fitted and p is not None and p >= 0.1:  # "0.25" for 0.250, in SHORT
                    self._figures.append((p_item, p_item.text(), f"{p:.2f}"))
                test = (f"paired randomisation test of {name} against {first} on "
                        f"{metric_label(row.metric)}")
                # the verdict on this p, after its value ("p 1.000: … (beyond chance: bold)"
                # had read as one on every p not weak: dr1 5)
                p_item.setToolTip(
                    f"{test}: none against training scores (fitted to these queries, a "
                    "difference there is no evidence)" if fitted else
                    f"{test}: none ({lacking})" if p is None else
                    f"p {p_text(p)}: {test}: the chance of a difference at least this large "
                    "if the two were interchangeable ("
                    + ("beyond chance: bold" if mark == BEYOND else
                       f"{weak}: not bold" if mark == WEAK else
                       "a bundle's size, a cost: never bold" if count else
                       "judged@, coverage: never bold" if row.metric.startswith("judged@")
                       else "not beyond chance") + ")")
                n_item.setToolTip(
                    "none against training scores: fitted to these queries, a difference "
                    "there is no evidence" if fitted else
                    f"none: {lacking}" if math.isnan(delta) else
                    _count_tip(comp, row.metric, row.improved[i], row.worsened[i], name)
                    if count else
                    f"{_counted(row.improved[i], nouns(comp)[1])} "
                    f"score{'s' if row.improved[i] == 1 else ''} higher under {name} than "
                    f"under {first} (▲), {row.worsened[i]} lower (▼)")
        self._cases(comp)
        self._fit()

    def needed_width(self) -> int:
        """The width that shows every column whole, with room for a vertical scroll bar."""
        return (sum(self.columnWidth(c) for c in range(self.columnCount()))
                + (self.verticalHeader().width() if self.verticalHeader().isVisible() else 0)
                + 2 * self.frameWidth() + self.verticalScrollBar().sizeHint().width())

    def fit_width(self, room: int) -> int:
        """Draw the table as loosely as fits `room` px (`set_compact`: the configurations'
        names folded onto two lines, then the figures shorter, whole in their tooltips); the
        width it then needs. Four configurations of two models at 1,280 px ("current
        (unsaved)" and "bm25 defaults" each twice as wide as its figures) had pushed the last
        one's p and ▲/▼ behind a scroll bar (review r48, compare 1)."""
        for level in range(TIGHT + 1):
            if level not in self._widths:
                self.set_compact(level)
                self._widths[level] = self.needed_width()
            if self._widths[level] <= room or level == TIGHT:
                self.set_compact(level)
                need = self.needed_width()
                # measured in another state (a level's heads fold by the figures beside
                # them), a level can need more than it did: the next is tried then (five
                # configurations at 1,280 px had scrolled at SHORT, 1,070 px, for a
                # measured 981)
                if need <= room or level == TIGHT:
                    return need
                self._widths[level] = need
        return self.needed_width()  # not reached: the loop ends at TIGHT

    def set_compact(self, level: int) -> None:
        """0: as the report has it; FOLDED: a configuration's name with a space on two lines
        where, on one, it is wider than its figures (`fold_name`'s `fold`); SHORT: that, and
        means and differences to 3 decimals (a count to one), a p-value of 0.1 or more
        to 2 ("0.25"; "0.062" and "<0.001" as they were); each whole in its tooltip; TIGHT:
        that in 12 px type for 13 (`TIGHT_SCALE`), the heads' padding 1 px a side."""
        if level == self.compact:
            return
        retype = (level >= TIGHT) != (self.compact >= TIGHT)
        self.compact = level
        if retype:
            self._apply_font()
        for cell, full, short in self._figures:
            cell.setText(short if level >= SHORT else full)
        # the Δ heads say how far the shown Δ and the shown means' difference can part at
        # this level (`_header_tip`)
        comp = self.comparison
        for col in self._heads:
            head = self.horizontalHeaderItem(col + 1) if col >= 2 else None
            if head is not None and comp is not None:
                head.setToolTip(self._header_tip(comp, col + 1, level))
        bold = QFont(self.horizontalHeader().font())
        bold.setBold(True)  # as the window's style sheet draws the heads
        fm = QFontMetrics(bold)
        for col, text in self._heads.items():
            head = self.horizontalHeaderItem(col)
            if head is None:
                continue
            wide = max(fm.horizontalAdvance(line) for line in _name_head(text).split("\n"))
            # folded only where the name, not its figures, sets the column's width (HEADER's
            # padding, both sides)
            pad = 2 if level >= TIGHT else 6
            head.setText(_name_head(text, fold=level >= FOLDED
                                    and wide + pad > self.sizeHintForColumn(col)))
        self._fit()

    def _cases(self, comp: Comparison) -> None:
        """Where the data has fixture cases (decisions-eval), their own test on the first row,
        as the report leads with it (`report.text.case_change`): each configuration's cases
        passing ("14/30"), the difference, the paired test's p and the cases now passing /
        now failing; coloured only where the report calls it beyond chance. The table had
        shown nDCG@10 green while 20/30 fell to 14/30, said only under the buttons."""
        passed = cases_passed(comp)
        if not passed or not passed[0]:
            return
        n, first = len(passed[0]), comp.configs[0].name
        self.insertRow(0)
        label = QTableWidgetItem(CASES)
        bold = QFont(label.font())
        bold.setBold(True)
        label.setFont(bold)
        label.setToolTip("the data's own test, what tune optimises here by default: a case "
                         "passes where its expected decisions are in its top K and none it "
                         "must not include is\n\n" + "\n".join(case_lines(comp)))
        self.setItem(0, 0, label)
        self._cell(0, 1, f"{sum(passed[0].values())}/{n}", f"cases {first} passes")
        for i in range(1, len(comp.configs)):
            base, name = 2 + (i - 1) * PER_OTHER, comp.configs[i].name
            before, after = sum(passed[0].values()), sum(passed[i].values())
            now = sum(1 for q in passed[0] if passed[i][q] and not passed[0][q])
            lost = sum(1 for q in passed[0] if passed[0][q] and not passed[i][q])
            said = case_change(comp, i)
            fitted = trained_pair(comp, i)
            self._cell(0, base, f"{after}/{n}", f"cases {name} passes")
            delta = self._cell(0, base + 1, _count_change(after - before),
                               f"{name} against {first}: {said}"
                               + (" (training scores)" if fitted else ""))
            test = None if fitted or not (now or lost) else paired_test(
                [float(passed[0][q]) for q in passed[0]],
                [float(passed[i][q]) for q in passed[0]])
            p = self._cell(0, base + 2, "" if test is None else p_text(test.p_value),
                           f"paired randomisation test of {name} against {first} on the "
                           "cases passing")
            # the verbs agree with their counts ("1 case passes … that fail": dr3 10)
            self._cell(0, base + 3, f"{now}/{lost}",
                       f"{_counted(now, 'cases')} pass{'es' if now == 1 else ''} under {name} "
                       f"that fail{'s' if now == 1 else ''} under {first} (▲), {lost} "
                       f"fail{'s' if lost == 1 else ''} that passed (▼)")
            if not fitted and said.endswith("beyond chance"):  # the report's verdict
                delta.setForeground(QBrush(delta_color(float(after - before))))
                font = QFont(p.font())
                font.setBold(True)
                p.setFont(font)

    def _cell(self, r: int, c: int, text: str, tip: str) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        item.setToolTip(tip)
        self.setItem(r, c, item)
        return item

    def _agreement(self, comp: Comparison, k: int) -> None:
        """No judgments, so no metric: how alike each configuration's top k is to the
        first's instead (`report.text.agreement_table`, as `compare` prints it)."""
        header, rows = agreement_table(comp, k)
        self.setColumnCount(len(header))
        self.setRowCount(len(rows))
        tip = AGREEMENT_NOTE.format(k=k, docs=nouns(comp)[0], queries=nouns(comp)[1])
        for col, text in enumerate(header):
            item = QTableWidgetItem(text if col == 0 else fold_name(text))
            item.setToolTip(tip if col == 0 else text)
            self.setHorizontalHeaderItem(col, item)
        for r, cells in enumerate(rows):
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if col > 0:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.setItem(r, col, item)
        self._fit()

    def _item(self, r: int, c: int) -> QTableWidgetItem:
        item = self.item(r, c)
        assert item is not None  # every cell was just filled
        return item

    @staticmethod
    def _header_tip(comp: Comparison, col: int, level: int = 0) -> str:
        """A column head's tooltip, the table drawn at compact `level`."""
        first = comp.configs[0].name
        if col == 0:
            return f"metric (mean over the judged {nouns(comp)[1]})"  # the data's (dr7 3)
        if col == 1:
            return f"mean of {first}, the configuration the others are compared with"
        i = 1 + (col - 2) // PER_OTHER
        name = comp.configs[i].name
        queries = nouns(comp)[1]
        # only the rows on which this configuration has a difference to count (bm25 against
        # codeledger has none: the clause had described empty cells)
        counts = [metric_label(r.metric) for r in comp.rows
                  if is_count(r.metric) and not math.isnan(r.deltas[i])]
        # a bundle's files and tokens are a size: their ↓/↑ are fewer / more, not better /
        # worse (review r48, compare 3: the head said ▲/▼ above "↓0/↑4", unexplained)
        sizes = (f"; on the {' and '.join(counts)} row{'s' if len(counts) > 1 else ''}, "
                 f"↓/↑: {queries} with fewer / more under {name} than under {first}, a size, "
                 "not better or worse" if counts else "")
        # what a reader who subtracts the means shown finds (0.649 − 0.648 beside +0.002:
        # dr1 7; 1,141.2 − 1,127.2 beside +14.1: dr3 8): Δ is the difference of the means
        # as shown, by compare's rule (`row_digits`, dr5 2), at every level; it can part
        # from the unrounded means' difference by one unit of its last digit
        rounded = (f"Δ: {name} − {first}, the difference of the means as shown (at most one "
                   "unit of its last digit from that of the unrounded means"
                   + ("; each figure to 4 decimals in its tooltip)" if level >= SHORT
                      else ")"))
        return (f"mean of {name}",
                rounded,
                f"p: paired randomisation test of {name} against {first}",
                f"▲/▼: {queries} improved / worsened under {name} against {first}{sizes}",
                )[(col - 2) % PER_OTHER]

    def cell_texts(self) -> list[list[str]]:
        """What the table shows, row by row."""
        return [[self._item(r, c).text() for c in range(self.columnCount())]
                for r in range(self.rowCount())]

    def set_font_scale(self, f: float) -> None:
        """Larger text and rows for presenting (1.0: the application font)."""
        self.font_scale = max(0.5, float(f))
        self.set_compact(0)  # and measured again in the new type (`fit_width`)
        self._widths = {}
        self._apply_font()

    def _apply_font(self) -> None:
        """The type of `font_scale`, TIGHT's smaller at that level, on the cells and heads."""
        tight = self.compact >= TIGHT
        scale = self.font_scale * (TIGHT_SCALE if tight else 1.0)
        font = QFont(self.font())
        font.setPointSizeF(self._base_pt * scale)
        self.setFont(font)
        self.horizontalHeader().setFont(font)
        # the application's style sheet (QWidget { font-size }) overrides setFont on the
        # header: it grows by a style sheet of its own, or stayed small beside large cells
        header = HEADER.format(1 if tight else 3)
        self.horizontalHeader().setStyleSheet(
            header if scale == 1.0 else
            header + f" QHeaderView {{ font-size: {round(QFontInfo(font).pixelSize())}px; }}")
        for r in range(self.rowCount()):
            for c in range(self.columnCount()):
                item = self.item(r, c)
                if item is not None:
                    f2 = QFont(font)
                    f2.setBold(item.font().bold())
                    item.setFont(f2)
        self._fit()

    def full_height(self) -> int:
        """The height that shows every row whole, its head and a horizontal scroll bar
        where one shows."""
        bar = self.horizontalScrollBar()
        return (self.horizontalHeader().height()
                + sum(self.rowHeight(r) for r in range(self.rowCount()))
                + 2 * self.frameWidth() + (bar.height() if bar.isVisible() else 0))

    def content_width(self) -> int:
        """The width that shows every column whole (no horizontal scroll bar)."""
        scroll = self.verticalScrollBar()
        return (sum(self.columnWidth(c) for c in range(self.columnCount()))
                + (self.verticalHeader().width() if self.verticalHeader().isVisible() else 0)
                + 2 * self.frameWidth() + (scroll.sizeHint().width() if scroll.isVisible()
                                           else 0) + 2)

    def _fit(self) -> None:
        self.verticalHeader().setDefaultSectionSize(
            int(QFontMetrics(self.font()).height() * 1.5))
        self.resizeColumnsToContents()


def _count_tip(comp: Comparison, metric: str, fewer: int, more: int, name: str) -> str:
    """What a bundle size's ↓/↑ cell counts: queries whose bundle is smaller / larger, no
    better or worse ("↓0/↑4" had stood under a head of ▲/▼ with "0 queries get fewer")."""
    queries, first = nouns(comp)[1], comp.configs[0].name
    what = BUNDLE_METRICS[metric].help  # "files in the bundle"
    return (f"↓/↑ on this row count {queries} by the size of their bundle, not better or "
            f"worse: {_counted(fewer, queries)} with fewer {what} under {name} than under "
            f"{first} (↓), "
            f"{more} with more (↑). Fewer is a saving only where recall holds.")


def _lacking(comp: Comparison, means: list[float], i: int, metric: str) -> str:
    """Why configuration i has no difference from the first on `metric`: which of the two
    has no mean of it ("bm25 defaults has no bundle files"), or, both having one, that no
    query is judged."""
    label = metric_label(metric)
    names = [comp.configs[j].name for j in (0, i) if math.isnan(means[j])]
    if len(names) == 2:
        return f"neither {names[0]} nor {names[1]} has {label}"
    if names:
        return f"{names[0]} has no {label}"
    return "no judged query"


def _why_none(comp: Comparison, i: int, metric: str) -> str:
    """Why configuration i has no mean of `metric`: its model selects no bundle (bm25 beside
    codeledger, as `compare` says it), or no query it counts is judged."""
    model = comp.model_of(i)
    if metric in BUNDLE_METRICS and not hasattr(model, "bundles"):
        return f"{model.id} selects no bundle"
    return "no judged query"


def _counted(n: int, noun: str) -> str:
    """`n` and `noun` (a plural from `nouns`), singular for one: "1 task", "1 query"."""
    if n != 1:
        return f"{n} {noun}"
    return f"1 {noun[:-3] + 'y' if noun.endswith('ies') else noun[:-1]}"


def _count_change(change: int) -> str:
    """A change of a count in the window's signs: +2, −6, ±0."""
    return "±0" if change == 0 else f"{change:+d}".replace("-", "−")


def _short_deltas(means: list[float], deltas: list[float], places: int) -> list[float]:
    """Each Δ as the narrow view shows it beside means to `places` decimals: `row_digits`'s,
    or, where that would add a decimal (a count's 1,127.17), the difference of the means
    to `places` (the added decimal had widened the table past 1,280 px)."""
    digits, shown = row_digits(means, deltas, base=places)
    if digits == places:
        return shown
    first = Decimal(f"{means[0]:.{places}f}") if not math.isnan(means[0]) else None
    return [d if first is None or math.isnan(m) or math.isnan(d)
            else float(Decimal(f"{m:.{places}f}") - first) for m, d in zip(means, deltas,
                                                                              strict=False)]


def _count_delta(delta: float, digits: int = 1) -> str:
    """A count's difference as its means are shown (+2,345.0), in the window's signs."""
    text = signed(delta, digits)
    return text if text == "±0" or "<" in text else text[0] + f"{abs(delta):,.{digits}f}"
