"""The metric strip: several metrics at once (nDCG@k, MRR@k, P@k, R@k, R@100) with their
baseline values and signed deltas, k chosen by a spin box, the number of queries improved and
worsened and the paired test's p-value against the baseline; and the model's own metrics
where it reports them (codeledger's bundle recall and precision). On data with eval cases
(pi-lodestone's eval.jsonl) the first card is the count of cases passing, the figure that
data is for (each case returns at most its own topK, so P@10 cannot pass 0.5 there).

Where the live values (or the baseline's) were tuned on some of the judged queries, every
figure counts only the others, and a note under the cards says so (`TuningSession.held_out`):
on the queries they were tuned on, tuned values show training scores.

While the figures are those of an earlier preparation (a Re-embed cancelled or failed, or still
running, for prepare-stage values already set), a second note says so and names the values
they are for: the status bar's "prepare cancelled" goes after 5 s and the Prepare box's note
sits at the end of a scrolled panel, and 0.868 read as the new prompt's figure."""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from workbench.core.cases import CaseReport, check_cases, has_cases
from workbench.core.diagnostics import LeftOut, counted_queries
from workbench.core.metrics import PairedTest, paired_test
from workbench.core.params import Params, value_text
from workbench.core.pipeline import Result
from workbench.core.selection_figures import FIGURES, of_result, selects, snippet_chars
from workbench.core.session import Baseline, TuningSession
from workbench.report.text import metric_meaning

from .bind import subscribe_many
from .drag import SETTLE_MS, drag_state
from .elided import ElidingLabel, esc
from .metric_cap import baseline_caps, bound, metric_caps, strip_note
from .metric_names import metric_label
from .palette import BETTER, WORSE, delta_color, signed_html
from .param_editors import leave_undo_to_the_window
from .tuned_said import tuned_line

# a model's own per-query metrics (`Model.extra_metrics`) shown as cards when the result has
# them; counts such as bundle_files are not quality metrics and stay off the strip
EXTRA_METRICS = ("bundle_recall", "bundle_precision")
_METHOD = {"randomization": "randomisation"}  # the test's id, spelt as every other view does
# without judgments, the cards show what the selection returns (`selection_figures`) where the
# model has a min score or limit: short names on the cards, the full ones in their tooltips
FIGURE_CARDS = {"results": ("results / query", "{:.2f}"), "empty": ("empty queries", "{:.1f} %"),
                "injected_tokens": ("tokens / query", "{:.0f}")}
FIGURES_TIP = ("No judgments: what the selection (min score, limit) returns, over every query "
               "(with injections and manual searches, over the injections; a disabled project's "
               "turns left out, as the Injection tab counts), not how good it is — neither "
               "way is better, so the change against the baseline is not coloured. "
               "File ▸ Open judgments… adds relevance judgments.")
CASES_NAME = "cases passing"
CASES_TIP = ("pi-lodestone's eval cases that pass at the current values: every expected id in "
             "the case's own top K, no forbidden one there — the figure its eval harness "
             "reports (the Eval cases tab lists them, with recall and precision pooled over "
             "the expected ids, not the per-query means R@k and P@k show)")


def metric_tip(name: str) -> str:
    """A metric card's tooltip: the metric's meaning in a line, the report's."""
    meaning = metric_meaning(name)
    return f"{metric_label(name)}: {meaning}" if meaning else ""


def extra_tip(name: str, over: str) -> str:
    """A model's own metric card's tooltip: its meaning, who reports it and what it is the
    mean over (`MetricStrip.mean_of`)."""
    return f"{metric_tip(name) or metric_label(name)} — reported by the model, {over}"


HELD_TIP = ("Tuned values score the queries they were tuned on with training scores: the "
            "cards, their deltas and the paired test count only the judged queries neither "
            "the live values nor the baseline was tuned on. The compare view does the same; "
            "the ranked table still shows every query.")

class _Relay(QObject):
    done = Signal(int, object)  # (generation, PairedTest or None)


class _TestJob(QRunnable):
    """The paired test off the GUI thread: 10,000 sign flips over 300 queries cost 25–150 ms
    of matrix products, a frozen window if run where the paint happens."""

    def __init__(self, relay: _Relay, generation: int,
                 fn: Callable[[], PairedTest | None]) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._relay, self._generation, self._fn = relay, generation, fn

    def run(self) -> None:
        try:
            out: PairedTest | None = self._fn()
        except Exception:  # a failed test shows as "no comparison", never a dead worker
            out = None
        self._relay.done.emit(self._generation, out)


class MetricCard(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("metricCard")
        self.name = QLabel(self)
        self.name.setStyleSheet("color:#57606a")
        self.value = QLabel("–", self)
        self.value.setStyleSheet("font-size: 17px; font-weight: 600")
        self.detail = QLabel("", self)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 2, 8, 2)
        layout.setSpacing(0)
        for w in (self.name, self.value, self.detail):
            layout.addWidget(w)
        # a fixed size, both ways: a label's new text asks its parent for a new layout, and
        # a card whose height may change passes that on up to the window's splitter, which
        # then lays out (and repaints) the whole bottom row on every slider tick
        # ... as wide as the widest detail, a change below the shown precision
        self.setFixedWidth(self.fontMetrics().horizontalAdvance("−<0.001 vs 0.000") + 28)
        self.name.setText("nDCG@10")
        self.value.setText("0.000")
        self.detail.setText("<span>+0.000</span> <span>vs 0.000</span>")
        self.setFixedHeight(self.sizeHint().height())

    def _missing(self, what: str) -> None:
        self.detail.setText(f"<span style='color:#8c959f'>{what}</span>")

    def show_count(self, name: str, count: int, total: int, base: int | None,
                   training: bool = False) -> None:
        """A count out of a total ("20 / 30"), its signed difference from the baseline's."""
        self.name.setText(name)
        self.value.setText(f"{count} / {total}")
        if base is None:
            self._missing("no baseline")
            return
        d = count - base
        color = "#8c959f" if training else delta_color(d).name()
        self.detail.setText(f"<span style='color:{color}'>{signed_html(d, 0)}</span>"
                            f" <span style='color:#8c959f'>vs {base}</span>")

    def show_figure(self, name: str, value: float, base: float | None,
                    unlike: str = "") -> None:
        """A selection figure (`FIGURE_CARDS`): its value and its difference from the
        baseline's, uncoloured (a cost, neither way better); `unlike`: why the two are not
        compared (one counts searches, the other injections), said instead."""
        label, fmt = FIGURE_CARDS[name]
        self.name.setText(label)
        self.value.setText("–" if math.isnan(value) else fmt.format(value))
        if unlike and base is not None:
            self._missing(unlike)
            return
        if base is None or math.isnan(base) or math.isnan(value):
            self._missing("no baseline" if base is None else "baseline –")
            return
        d = value - base
        diff = fmt.format(abs(d)).replace(" %", "")
        sign = "±" if fmt.format(abs(d)) == fmt.format(0.0) else ("+" if d > 0 else "−")
        self.detail.setText(_muted(f"{sign}{diff} vs {fmt.format(base)}"))

    def show_metric(self, name: str, value: float | None, base: float | None,
                    missing: str = "no judgments", training: bool = False) -> None:
        """`missing`: why there is no value (no judgments; before any data, no dataset);
        `training`: training scores, whose difference is no evidence (not coloured)."""
        self.name.setText(metric_label(name))
        self.value.setText("–" if value is None or math.isnan(value) else f"{value:.3f}")
        if value is None or math.isnan(value):
            self._missing(missing)
            return
        if base is None or math.isnan(base):
            self._missing("no baseline" if base is None else "baseline –")
            return
        d = value - base
        color = "#8c959f" if training else delta_color(d).name()
        self.detail.setText(f"<span style='color:{color}'>{signed_html(d)}</span>"
                            f" <span style='color:#8c959f'>vs {base:.3f}</span>")


COMPARISON_TIP = (
    "Against the pinned baseline, on the first metric card's metric (not the eval cases' "
    "count, where there is one) over the judged queries: ▲ "
    "queries the current values score higher, ▼ lower. p: how often a gap in the mean this "
    "large would arise by chance were the two equally good (a paired randomisation test); "
    "below 0.05 it is usually taken as real.")


class _Comparison(QLabel):
    """The paired test's line, right of the cards: all the room they leave (it never sets
    the window's narrowest width) and a fixed height of two lines (the cards' are three), so
    a new p-value does not re-lay out the window; where the room is short of the long text
    (▲ ▼ queries, p, the test's method) it shows the short one (▲ ▼, p; a hint on two
    lines)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__("", parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        fm = self.fontMetrics()
        self.wide = fm.horizontalAdvance("▲300 ▼300 queries   p = 0.000 (randomisation) ") + 24
        self.setMinimumWidth(fm.horizontalAdvance("▲300 ▼300   p = 0.000 ") + 16)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(2 * fm.height() + 8)
        self.texts = ("", "")  # (long, short)
        self.steady = True

    def say(self, wide: str, short: str, steady: bool = True) -> None:
        """`steady`: a test's line, whose figures change on every tick: the long text only
        where the widest such line fits, so that it does not flip between the two; else
        (a hint) wherever the long text itself fits."""
        self.texts, self.steady = (wide, short), steady
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        # the long text's own width where it is longer than a test's line (the training
        # scores' line, which names who tuned, had run past the window's edge)
        plain = re.sub(r"<[^>]+>", "", self.texts[0]).replace("&nbsp;", " ")
        short = self.width() < max(self.wide if self.steady else 0,
                                   self.fontMetrics().horizontalAdvance(plain) + 8)
        text = self.texts[short]
        if text != self.text():
            self.setText(text)
        self.setToolTip((f"{self.texts[0]}<br><br>" if short else "") + COMPARISON_TIP)


STALE_TIP = ("The metric cards, the ranked table and the charts show the last preparation's "
             "prepare-stage values; the live values are applied on it. Recompute (Ctrl+R, or the "
             "Prepare box's button) prepares the values set.")
STALE_VALUE_CHARS = 32  # a long prompt in the note: its start, whole in the tooltip


def stale_line(session: TuningSession) -> tuple[str, str]:
    """(note, tooltip) while the result shows an earlier preparation than the prepare-stage
    values set (a cancelled Re-embed): what each changed value is for the figures shown and
    what it is set to; ("", "") otherwise."""
    s = session
    if s.model is None or s.prepared_params is None or s.result is None or not s.needs_prepare:
        return "", ""
    schema = s.model.schema
    was, now = schema.prepare_values(s.prepared_params), schema.prepare_values(s.params)
    names = [n for n in now if now[n] != was.get(n)]

    def shown(name: str, value: object, cut: int = STALE_VALUE_CHARS) -> str:
        """A text parameter's value quoted ('' is no prompt), cut to its start; any other
        as a reader writes it."""
        text = (value_text(value) if isinstance(value, (bool, int, float, str))
                else str(value))
        text = text if len(text) <= cut else text[:cut - 1] + "…"
        return repr(text) if schema[name].kind == "text" else text

    whole = "<br>".join(html.escape(f"{n}: {shown(n, was.get(n), 10**6)} shown, "
                                    f"{shown(n, now[n], 10**6)} set", quote=False)
                        for n in names)
    if len(names) == 1:
        n = names[0]
        note = (f"⚠ Figures for the last preparation, {n} {shown(n, was.get(n))}: the "
                f"{shown(n, now[n])} set is not prepared yet — Recompute (Ctrl+R) prepares it")
    else:
        note = (f"⚠ Figures for the last preparation: the {', '.join(names)} set are not "
                "prepared yet — Recompute (Ctrl+R) prepares them")
    return note, f"{html.escape(note, quote=False)}<br><br>{whole}<br><br>{STALE_TIP}"


def cut_line(session: TuningSession) -> tuple[str, str]:
    """(note, tooltip) where the result's `vector_candidates` (its preparation's) cuts the
    rankings the cards read: the cards first (the whole line, `dense.cut_warning`, is cut
    off at 1,280 px before it names them), the full line in the tooltip. R@100 fell from
    0.9250 to 0.8920 at 50 on SciFact with no word; ("", "") otherwise."""
    s = session
    if s.model is None or s.dataset is None or s.result is None \
            or "vector_candidates" not in s.model.schema:
        return "", ""
    from workbench.core.models.dense import cut_metrics, cut_warning

    params = s.prepared_params if s.prepared_params is not None else s.params
    kept, n_docs = int(params["vector_candidates"]), len(s.dataset.corpus)
    cut = cut_metrics(s.metric_names, kept, n_docs)
    if not cut:
        return "", ""
    cards = ", ".join(metric_label(name) for name in cut)
    what = ("may not be OpenVault's figure (0 keeps every pair)" if s.model.id == "hybrid"
            else "not exact (what is cut counts as not found; 0 keeps every pair)")
    return (f"⚠ {cards} read{'s' if len(cut) == 1 else ''} deeper than vector_candidates = "
            f"{kept:,} ranks by cosine: {what}",
            cut_warning(s.model.id, kept, n_docs, s.metric_names))


def counted(note: str) -> str:
    """How many results a query a cap note says the metric counts ("… counts only those 5":
    "5"; "… counts only that one": "1"); "" for a note that bounds the figure instead."""
    if note.endswith("counts only that one"):
        return "1"
    return note.rsplit("counts only those ", 1)[-1] if "counts only those " in note else ""


def _muted(text: str) -> str:
    return f"<span style='color:#8c959f'>{text}</span>"


class _NoteLabel(ElidingLabel):
    """The note under the cards: elided at its last whole clause; its tooltip the whole note
    as `eval` says it (not the short one shown above it, said twice)."""

    def _fit(self) -> None:
        super()._fit()
        if self._tip:
            self.setToolTip(self._tip)


class MetricStrip(QWidget):
    def __init__(self, session: TuningSession, parent: QWidget | None = None, *,
                 defer_ms: int = 150) -> None:
        """`defer_ms`: the paired test (a randomization test, ~25 ms on 300 queries) runs
        that long after the last result of a slider storm, not on every tick (during a slider
        drag: once the slider rests `drag.SETTLE_MS`, or at its release); 0 = at once."""
        super().__init__(parent)
        self.session = session
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(defer_ms)
        self._timer.timeout.connect(self.refresh_comparison)
        self.defer_ms = defer_ms
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_test)
        self._test_generation = 0
        self._drag = drag_state(session)
        self._drag.changed.connect(self._on_drag)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        layout = QHBoxLayout()
        outer.addLayout(layout)
        layout.setContentsMargins(4, 2, 4, 2)
        self.k_spin = QSpinBox(self)
        self.k_spin.setAccessibleName("Metric cut-off k")
        self.k_spin.setRange(1, 1000)
        self.k_spin.setPrefix("k = ")
        self.k_spin.setValue(session.k)
        self.k_spin.setToolTip("the cut-off k of the metrics and of the rank-change marks")
        self.k_spin.setKeyboardTracking(False)
        leave_undo_to_the_window(self.k_spin)  # Ctrl+Z is the window's Undo there too
        # under the k box, what the cards are: a mean over the judged queries, in the data's
        # own noun ("mean of 26 chat moments"), beside a ranked table of one query's values
        # (rn 2: the card's 0.591 read as the selected query's 0.388)
        self.mean_label = QLabel("", self)
        self.mean_label.setStyleSheet("color:#57606a; font-size: 11px")
        self.mean_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.mean_label.hide()
        self._mean_said = ("", "", "")  # (text, tip, count card) last said (`_show_mean_of`)
        k_column = QVBoxLayout()
        k_column.setContentsMargins(0, 0, 0, 0)
        k_column.setSpacing(1)
        k_column.addStretch(1)
        k_column.addWidget(self.k_spin)
        k_column.addWidget(self.mean_label)
        k_column.addStretch(1)
        layout.addLayout(k_column)
        # eval cases passing (pi-lodestone's own figure): first, where the data has cases
        self.cases_card = MetricCard(self)
        self.cases_card.setToolTip(CASES_TIP)
        self.cases_card.hide()
        layout.addWidget(self.cases_card)
        self._cases_data: object = None  # the dataset `_data_has_cases` was asked of
        self._data_has_cases = False
        self._has_cases = False  # the cases card is among the cards to show
        self._baseline_cases: tuple[object, CaseReport | None] = (None, None)
        self.cards: list[MetricCard] = []
        for _ in session.metric_names:
            card = MetricCard(self)
            self.cards.append(card)
            layout.addWidget(card)
        # the model's own metrics: hidden until a result reports them
        self.extra_cards: dict[str, MetricCard] = {}
        for name in EXTRA_METRICS:
            card = MetricCard(self)
            card.setToolTip(extra_tip(name, "mean over the judged queries"))
            card.setFixedWidth(max(card.width(), card.fontMetrics().horizontalAdvance(
                metric_label(name)) + 28))
            card.hide()
            self.extra_cards[name] = card
            layout.addWidget(card)
        self._reported: set[str] = set()  # the extra cards a result reports
        self._nouns: tuple[object, str] = (None, "queries")  # (dataset, its queries' noun)
        # no judgments: "figures" (the first cards show the selection figures) where the model
        # selects, "none" (no cards) where it does not; "" with judgments
        self._unjudged = ""
        self._chars: tuple[object, NDArray[np.float64] | None] = (None, None)
        # the cards that find no room in a narrow window: counted here, named in its tooltip
        self.overflow = QLabel("", self)
        self.overflow.setStyleSheet("color:#57606a; padding: 0 4px")
        self.overflow.hide()
        layout.addWidget(self.overflow)
        self.comparison = _Comparison(self)
        self.comparison.setTextFormat(Qt.TextFormat.RichText)
        self.comparison.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.comparison, 1)
        self._layout = layout
        # the k box, three cards and the test's short line at the least: the cards after
        # them give way in a narrow window (seven cards held it at 1,243 px)
        self.setMinimumWidth(self._fixed_width() + 3 * (self.cards[0].width()
                                                        + layout.spacing()) + 40)
        # shown only while some judged queries are set aside (or all were tuned on): its text
        # changes with the tuned record, never on a slider tick
        self.held_note = QLabel("", self)
        self.held_note.setStyleSheet("color:#9a6700; padding-left:6px")
        self.held_note.setToolTip(HELD_TIP)
        # its text can grow by the tuned record's figures (`tuned_line`): no wider window
        self.held_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.held_note.hide()
        outer.addWidget(self.held_note)
        # shown while the figures are an earlier preparation's (`stale_line`): its text
        # changes with the prepare-stage values, never on a live slider tick
        self.stale_note = QLabel("", self)
        self.stale_note.setStyleSheet("color:#9a6700; padding-left:6px")
        self.stale_note.setTextFormat(Qt.TextFormat.PlainText)
        # never the window's least width: in a narrow one its end is cut, whole in the tooltip
        self.stale_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.stale_note.hide()
        outer.addWidget(self.stale_note)
        # shown while vector_candidates cuts the rankings a card reads (R@100 at 50): the
        # Prepare box says it too, but out of sight under the parameters (`cut_line`)
        self.cut_note = QLabel("", self)
        self.cut_note.setStyleSheet("color:#9a6700; padding-left:6px")
        self.cut_note.setTextFormat(Qt.TextFormat.PlainText)
        self.cut_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.cut_note.hide()
        outer.addWidget(self.cut_note)
        # where the lists are shorter than the cards' cut-offs, said once for every card, as
        # eval says it: "·top 5" on five cards had left the reason to their tooltips, and
        # R@10 and R@100 at the same 0.604 unexplained (rA 11)
        # elided at its last whole clause, "…", the whole in its tooltip (dF 3: cut mid-word
        # with nothing to tell there was more)
        self.cap_note = _NoteLabel(self, at_clauses=True)
        self.cap_note.setStyleSheet("color:#57606a; padding-left:6px")
        self.cap_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.cap_note.hide()
        outer.addWidget(self.cap_note)
        # without judgments, the queries the selection figures leave out (a manual search, a
        # disabled project's turn: `diagnostics.counted_queries`), as eval and the Injection
        # tab say them (rv51 3, 6)
        self.counted_note = QLabel("", self)
        self.counted_note.setStyleSheet("color:#57606a; padding-left:6px")
        self.counted_note.setTextFormat(Qt.TextFormat.PlainText)
        self.counted_note.setSizePolicy(QSizePolicy.Policy.Ignored,
                                        QSizePolicy.Policy.Preferred)
        self.counted_note.hide()
        outer.addWidget(self.counted_note)
        self.k_spin.valueChanged.connect(session.set_k)
        subscribe_many(self, [
            (session.result_changed, self.refresh),
            (session.baseline_changed, self.refresh),
            (session.dataset_changed, self.refresh),
            (session.k_changed, self._on_k_changed),
            (session.params_changed, self._refresh_stale),
            (session.model_changed, self._refresh_stale),
        ])
        self.refresh()

    def mean_of(self) -> tuple[str, str]:
        """(the note under the k box, the cards' tooltip line): what the metric cards are the
        mean over, in the data's own noun (`dataset_nouns`: "mean of 26 chat moments",
        "mean over the 12 judged tasks"); ("", "") without judgments, where the cards are
        no mean over judged queries. Where some were tuned on, the cards count the others
        (`held_out`): that many, and how many of the judged were tuned on."""
        s = self.session
        if s.dataset is None or s.judgments is None:
            return "", ""
        many = self._many()
        judged = int(np.asarray(s.judgments.judged_mask).sum())
        mask = s.held_out().mask
        n = judged if mask is None else int(np.asarray(mask).sum())
        which = f"{n:,} {self._noun(n)}"
        if n == judged:
            return f"mean of {which}", f"mean over the {n:,} judged {self._noun(n)}"
        # review dB 3: "mean over 16 of the 26 judged chat moments: those no values shown
        # were tuned on" did not parse
        return (f"mean of {which}",
                f"mean over the {n:,} judged {self._noun(n)} not tuned on "
                f"({judged - n:,} of the {judged:,} {many} were)")

    def _many(self) -> str:
        """The data's own noun for its queries, plural ("chat moments", "cases")."""
        # imported here: workbench.core.tuning imports optuna (1.3 s), as tune_panel does
        from workbench.core.tuning.data import dataset_nouns

        s = self.session
        if s.dataset is None:
            return "queries"
        if self._nouns[0] is not s.dataset:  # asked once per data, not per tick
            self._nouns = (s.dataset, dataset_nouns(s.dataset)[1])
        return self._nouns[1]

    def _noun(self, count: int) -> str:
        """The data's noun for `count` of its queries: "1 chat moment", "2 chat moments"."""
        from workbench.core.tuning.data import one_of

        return one_of(self._many()) if count == 1 else self._many()

    def _show_mean_of(self, text: str, tip: str, count_card: str = "") -> None:
        """The note under the k box, on one line if it fits the box's width, else broken
        after the count ("mean of 26" over "chat moments"); its height is two lines whatever
        the text, so that a new count moves nothing. `count_card`: the count card beside it
        ("cases passing", 20 / 30, no mean), where it shows: the note then names the first
        card that is a mean, on a line of its own (review dB 2: "mean of 30 cases" beside
        "cases passing 20 / 30")."""
        self._mean_said = (text, tip, count_card)  # said again once the fonts are polished
        label = self.mean_label
        fm = label.fontMetrics()
        width = self.k_spin.sizeHint().width()
        first = metric_label(self.session.metric_names[0])
        if text and count_card:  # the longest of these whose lines fit the box's width
            count = text.split(" ")[2]
            # "nDCG@10 on:", never "from nDCG@10:", read as derived from it (dH 7)
            text = next((t for t in (f"{first} on:\n{text}", f"{first} on:\nmean of {count}")
                         if max(map(fm.horizontalAdvance, t.split("\n"))) <= width),
                        f"{first} on:\nmean of {count}")
        elif fm.horizontalAdvance(text) > width and text.count(" ") >= 3:
            head, _, tail = text.partition(" ")
            second, _, rest = tail.partition(" ")
            text = f"{head} {second} {rest.split(' ', 1)[0]}\n{rest.split(' ', 1)[1]}"
        if label.width() != width or label.height() != 2 * fm.lineSpacing():
            label.setFixedSize(width, 2 * fm.lineSpacing())
        one = self._noun(1)
        said = (f"The metric cards are not the selected {one}'s own value (the query list "
                "and the ranked table show that): " + (
                    f"{count_card} counts the {self._many()} that pass; the cards from "
                    f"{first} on are each a {tip}." if count_card else f"each is a {tip}.")
                if tip else "")
        if text != label.text() or said != label.toolTip():
            label.setText(text)
            label.setToolTip(said)
        if label.isHidden() == bool(text):
            label.setVisible(bool(text))

    def _fixed_width(self) -> int:
        """What the row needs besides the cards: margins, the k box, the "+n" count and the
        paired test's short line."""
        m = self._layout.contentsMargins()
        return (m.left() + m.right() + self.k_spin.sizeHint().width()
                + self._overflow_reserve()
                + self.comparison.minimumWidth() + 3 * self._layout.spacing())

    def _overflow_reserve(self) -> int:
        """The width kept for the hidden cards' count ("+9") whatever the room."""
        return self.overflow.fontMetrics().horizontalAdvance("+9") + 12

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        # the note's wording is measured: before the strip is first shown its font is not
        # yet the style sheet's 11 px one
        self._show_mean_of(*self._mean_said)
        self._fit_cards()

    def _fit_cards(self) -> None:
        """As many cards as the width holds, the others hidden and counted. They give way
        from the end of the general metrics: the first, then the model's own figures (a
        result reports them: codeledger's bundle recall and precision, which had been the
        first to go), then the others in their order."""
        shown = {"figures": len(FIGURES), "none": 0}.get(self._unjudged, len(self.cards))
        general = [(c, None) for c in self.cards[:shown]]
        for card in self.cards[shown:]:
            if not card.isHidden():
                card.hide()
        wanted = [*([(self.cases_card, None)] if self._has_cases else []), *general[:1],
                  *((c, n) for n, c in self.extra_cards.items() if n in self._reported),
                  *general[1:]]
        room = self.width() - self._fixed_width()
        hidden: list[str] = []
        for card, name in wanted:
            need = card.width() + self._layout.spacing()
            fits = room >= need and not hidden
            if fits:
                room -= need
            else:
                hidden.append(card.name.text() or metric_label(name or ""))
            if card.isHidden() == fits:
                card.setVisible(fits)
        for name, card in self.extra_cards.items():
            if name not in self._reported and not card.isHidden():
                card.hide()
        if not self._has_cases and not self.cases_card.isHidden():
            self.cases_card.hide()
        # the hidden cards named where the room left holds them ("+1 more (R@100)"), else
        # on two lines, else "+1 more", else "+1"; the tooltip names them whatever shows (rn 9:
        # "+1" alone was explained only on hover). Never out of the paired test's room for its
        # long line where it has that room (`_Comparison.wide`), else down to its short one's
        gap = self.comparison.wide - self.comparison.minimumWidth()
        spare = room - (gap if room >= gap else 0) + self._overflow_reserve()
        fm = self.overflow.fontMetrics()
        more, names = f"+{len(hidden)} more", f"({', '.join(hidden)})"
        said = next((t for t in (f"{more} {names}", f"{more}\n{names}", more)
                     if max(map(fm.horizontalAdvance, t.split("\n"))) + 8 <= spare),
                    f"+{len(hidden)}")
        self.overflow.setText(said if hidden else "")
        self.overflow.setToolTip("Not shown for lack of room (widen the window): "
                                 + ", ".join(hidden) if hidden else "")
        self.overflow.setVisible(bool(hidden))

    def _on_k_changed(self, k: object) -> None:
        if isinstance(k, int) and self.k_spin.value() != k:
            self.k_spin.blockSignals(True)
            self.k_spin.setValue(k)
            self.k_spin.blockSignals(False)
        self.refresh()

    def _refresh_stale(self, *_: object) -> None:
        note, tip = stale_line(self.session)
        if note != self.stale_note.text():
            self.stale_note.setText(note)
            self.stale_note.setVisible(bool(note))
        if tip != self.stale_note.toolTip():
            self.stale_note.setToolTip(tip)

    def _refresh_cut(self) -> None:
        note, tip = cut_line(self.session)
        if note != self.cut_note.text():
            self.cut_note.setText(note)
            self.cut_note.setToolTip(tip)
            self.cut_note.setVisible(bool(note))

    def refresh(self, *_: object) -> None:
        s = self.session
        self._refresh_stale()
        self._refresh_cut()
        res, base = s.result, s.baseline
        held = s.held_out()
        # every judged query tuned on, against a baseline: the comparison on the right says
        # so ("training scores: no test (… tuned on by …)"); the note below had said it again
        # and pushed the charts down a line
        note = "" if held.training and base is not None and res is not None else held.note
        if note and s.dataset is not None and s.judgments is not None:
            # in the data's own noun, as the note under the k box says it (review dB 3:
            # "the 16 of 26 judged queries" under "mean of 16 chat moments")
            note = note.replace(" judged queries ", f" judged {self._many()} ").replace(
                "every judged query ", f"every judged {self._noun(1)} ")
        # the run's held-out figures and verdict, while its values are live (rt 4)
        tuned, tuned_tip = tuned_line(s)
        note = "; ".join(n for n in (note, tuned) if n)
        tip = HELD_TIP + (f"\n\n{tuned_tip}" if tuned_tip else "")
        if note != self.held_note.text():
            self.held_note.setText(note)
            self.held_note.setVisible(bool(note))
        if tip != self.held_note.toolTip():
            self.held_note.setToolTip(tip)

        def mean(r: Result | None, name: str) -> float | None:
            if r is None or held.mask is None or name not in r.per_query:
                return r.means.get(name) if r is not None else None
            return float(np.mean(r.per_query[name][held.mask]))

        unjudged = ("" if s.dataset is None or s.judgments is not None
                    else "figures" if selects(s.model) else "none")
        mean_text, over = self.mean_of()
        if unjudged == "figures":
            self._show_figures(res, base)
            if self.cap_note.plain_text():  # judged figures' note: none without judgments
                self.cap_note.set_texts("", "")
                self.cap_note.hide()
        else:
            self._say_counted([])
            missing = ("no dataset" if s.dataset is None else "no judgments"
                       if s.judgments is None else "no result yet")
            # the CLI's eval note where the model returns fewer results than P@k's k: the
            # figure's bound on the card, the note in its tooltip
            caps = metric_caps(s, s.metric_names)
            base_caps = baseline_caps(s, s.metric_names) if caps else {}
            same = self._same_as(caps, res)
            short, whole = strip_note(s, s.metric_names, caps, same)
            self.cap_note.set_texts(esc(short), short, whole)
            self.cap_note.setVisible(bool(short))
            for card, name in zip(self.cards, s.metric_names, strict=True):
                card.show_metric(name, mean(res, name),
                                 mean(base.result if base else None, name), missing,
                                 held.training)
                # the metric's meaning (k changes it), and what it is the mean over (rn 2)
                tip = "\n\n".join(t for t in (metric_tip(name), over) if t)
                if name in caps:
                    # the current values' bound, not the metric's: a baseline at another
                    # limit sits above it on the same card (review r49, dr4 9); a metric
                    # that counts only the results returned has its note, no bound (rv2 dr2 7)
                    # the note under the cards says why (rv2 dr5 6: R@100 = 0.60 with no
                    # cue that 5 counted); the card its consequence in words (rA 11)
                    if bound(caps[name]):
                        card.name.setText(f"{metric_label(name)}  at most "
                                          f"{bound(caps[name])}")
                    elif name in same:
                        card.name.setText(f"{metric_label(name)}  = {metric_label(same[name])}")
                    tip += f"\n\nnote, now: {caps[name]}"
                    if base is not None:
                        tip += ("\nthe baseline: " + base_caps[name] if name in base_caps
                                else "\nthe baseline is not bounded this way: its longest "
                                "list reaches the cut-off" if bound(caps[name])
                                else "\nthe baseline is not cut this way: its lists reach "
                                "the cut-off or hold all the model found")
                if card.toolTip() != tip:
                    card.setToolTip(tip)
        reported = set()
        for name, card in self.extra_cards.items():
            value = mean(res, name)
            if value is None:
                continue
            reported.add(name)
            card.show_metric(name, value, mean(base.result if base else None, name),
                             training=held.training)
            tip = extra_tip(name, over or "mean over the judged queries")
            if card.toolTip() != tip:
                card.setToolTip(tip)
        cases = self._show_cases(held.mask, held.training)
        self._show_mean_of(mean_text, over, CASES_NAME if cases else "")
        if (reported != self._reported or cases != self._has_cases
                or unjudged != self._unjudged):
            # shown or hidden on a change of model or data, not per tick
            self._reported, self._has_cases, self._unjudged = reported, cases, unjudged
            if unjudged == "figures":  # the metrics' cards have their meaning (above)
                for card in self.cards:
                    card.setToolTip(FIGURES_TIP)
            self._fit_cards()
        if self.defer_ms and res is not None and base is not None:
            # restarts: one test after the storm settles. Mid-drag it would compete with the
            # combine worker for the two cores on every pause of the slider
            self._timer.start(max(SETTLE_MS, self.defer_ms) if self._drag.dragging
                              else self.defer_ms)
            return
        self.refresh_comparison()

    def _same_as(self, caps: dict[str, str], res: Result | None) -> dict[str, str]:
        """Metric → the one of the same measure at a smaller cut-off that it equals here,
        both counting only what was returned ("counts only those 5"): R@100 → R@10 where
        importance returns 5 a query (rA 11: the two cards read 0.604 and 0.604)."""
        from workbench.core.metrics.measures import parse_metric

        if res is None:
            return {}
        kept = [n for n in caps if not bound(caps[n]) and n in res.means]
        out: dict[str, str] = {}
        for name in kept:
            measure, k = parse_metric(name)
            for other in kept:
                m2, k2 = parse_metric(other)
                if (m2 == measure and k is not None and k2 is not None and k2 < k
                        and abs(res.means[name] - res.means[other]) <= 1e-12):
                    out[name] = other
                    break
        return out

    def _show_figures(self, res: Result | None, base: Baseline | None) -> None:
        """The selection figures on the first cards, no judgments: the mean over the queries
        the Injection tab counts as turns (`counted_queries`; every query for a model without
        query modes), the baseline's over its own."""
        s = self.session
        if self._chars[0] is not s.dataset:  # the snippet lengths, once per data
            self._chars = (s.dataset, None)
        now = self._counted(s.params) if res is not None else None
        before = None
        if base is not None and s.model is not None and base.model_id == s.model.id:
            # its own modes and disabled list, on the prepared queries where they are the
            # baseline's preparation too (as the Injection tab counts its turns)
            schema = s.model.schema
            if (s.prepared_params is not None and schema.prepare_values(base.params)
                    == schema.prepare_values(s.prepared_params)):
                before = self._counted(base.params)
        self._say_counted(now[1].lines() if now is not None else [],
                          int(now[0].sum()) if now is not None else 0,
                          self._baseline_over(now, before))
        # one side's turns all searches, the other's injections: a difference would set what
        # a search returns against what is injected (dr5 9: "+90 vs 36" above "none is
        # injected"), so none is shown
        unlike = ("" if now is None or before is None
                  or now[1].searches_only == before[1].searches_only else
                  "baseline: injections" if now[1].searches_only else "baseline: searches")
        for card, name in zip(self.cards, FIGURES, strict=False):
            if res is None:
                card.name.setText(FIGURE_CARDS[name][0])
                card.value.setText("–")
                card._missing("no result yet")
                continue
            card.show_figure(name, self._figure(name, res, now),
                             None if base is None else
                             self._figure(name, base.result, before), unlike)

    def _counted(self, params: Params) -> tuple[NDArray[np.bool_], LeftOut] | None:
        """`counted_queries` on the prepared data: the queries that are turns, what is left
        out; None where every query counts."""
        s = self.session
        if s.model is None or s.prepared is None:
            return None
        found = counted_queries(s.model, s.prepared, params)
        return None if found is None else (np.asarray(found[0], np.bool_), found[1])

    def _baseline_over(self, now: tuple[NDArray[np.bool_], LeftOut] | None,
                       before: tuple[NDArray[np.bool_], LeftOut] | None) -> str:
        """Where the baseline's figures count other queries than the current ones: "the
        baseline's over 10 of 12" (dr5 10: "−0.02 vs 1.10" was mostly a change of
        denominator, unsaid); "" where they count the same."""
        if now is None or before is None or np.array_equal(now[0], before[0]):
            return ""
        n, was = len(before[0]), int(before[0].sum())
        same_count = was == int(now[0].sum())
        return (f"the baseline's over {was:,} of {n:,}" + (", other ones" if same_count else "")
                + ": part of each change is which queries count")

    def _say_counted(self, lines: list[str], counted: int = 0, baseline: str = "") -> None:
        """The note under the cards of the queries the figures leave out, said once, and
        where the baseline's figures count other queries, that (`_baseline_over`)."""
        n = len(self.session.dataset.queries) if self.session.dataset is not None else 0
        note = (f"Figures over {counted if lines else n:,} of {n:,} queries"
                + (": " + "; ".join(lines) if lines else "")
                + (f". The {baseline.removeprefix('the ')}" if baseline else "")
                if lines or baseline else "")
        if note != self.counted_note.text():
            self.counted_note.setText(note)
            self.counted_note.setToolTip(note)
            self.counted_note.setVisible(bool(note))

    def _figure(self, name: str, result: Result,
                counted: tuple[NDArray[np.bool_], LeftOut] | None = None) -> float:
        chars = self._chars[1]
        if name == "injected_tokens" and chars is None and self.session.dataset is not None:
            chars = snippet_chars(self.session.dataset)
            self._chars = (self.session.dataset, chars)
        values = of_result(name, result, chars)
        if counted is not None and len(counted[0]) == len(values):
            values = values[counted[0]]
        return float(values.mean()) if values.size else math.nan

    def _show_cases(self, mask: NDArray[np.bool_] | None, training: bool) -> bool:
        """The cases card's count (over the held-out cases where some were tuned on), and
        whether the data has eval cases at all."""
        s = self.session
        if s.dataset is not self._cases_data:  # asked once per data, not per tick
            self._cases_data = s.dataset
            self._data_has_cases = s.dataset is not None and has_cases(s.dataset)
        if s.dataset is None or not self._data_has_cases:
            return False
        if s.result is None:
            self.cases_card.name.setText(CASES_NAME)
            self.cases_card.value.setText("–")
            self.cases_card._missing("no result yet")
            return True
        index = s.dataset.queries.index

        def passed(report: CaseReport) -> tuple[int, int]:
            kept = [c for c in report.cases if mask is None or mask[index[c.query]]]
            return sum(c.passed for c in kept), len(kept)

        now, total = passed(check_cases(s.dataset, s.result.ranking))
        base = s.baseline
        if base is None:
            was = None
        else:
            key, report = self._baseline_cases
            if key is not base or report is None:  # once per baseline pinned
                report = check_cases(s.dataset, base.result.ranking)
                self._baseline_cases = (base, report)
            was = passed(report)[0]
        self.cases_card.show_count(CASES_NAME, now, total, was, training)
        return True

    def _on_drag(self, dragging: bool) -> None:
        if not dragging and self._timer.isActive():  # released: test the newest result now
            self._timer.start(0)

    def refresh_comparison(self) -> None:
        s = self.session
        res = s.result
        self._test_generation += 1  # a test still running for older values is now stale
        if res is not None and not res.means:
            self.comparison.say(_muted("no judgments to measure against"),
                                _muted("no judgments"), steady=False)
            return
        held = s.held_out()
        if s.baseline is not None and s.result is not None and held.training:
            # as compare and report: no test against training scores (the README says so);
            # by whom the queries were tuned on comes from the note this line stands for
            who = held.note.partition(" tuned on by ")[2]
            self.comparison.say(_muted("training scores: no test (every judged query was "
                                       f"tuned on{' by ' + who if who else ''})"),
                                _muted("training scores: no test"), steady=False)
            return
        work = self._test_inputs()
        if work is None:
            self._show_test(None)
            return
        if not self.defer_ms:  # synchronous (tests): at once, on this thread
            self._show_test(work())
            return
        self._pool.start(_TestJob(self._relay, self._test_generation, work))

    def _test_inputs(self) -> Callable[[], PairedTest | None] | None:
        """What `session.comparison()` tests, captured here so the worker never reads the
        session: baseline and current per-query values over the judged queries."""
        s = self.session
        if s.baseline is None or s.result is None or s.judgments is None:
            return None
        name = s.metric_names[0]
        a = s.baseline.result.per_query.get(name)
        b = s.result.per_query.get(name)
        if a is None or b is None:
            return None
        held = s.held_out().mask
        mask = s.judgments.judged_mask if held is None else held
        x, y = a[mask], b[mask]
        return lambda: paired_test(x, y)

    def _on_test(self, generation: int, test: object) -> None:
        if generation == self._test_generation:
            self._show_test(test if isinstance(test, PairedTest) else None)

    def _show_test(self, test: PairedTest | None) -> None:
        if test is None and self.session.result is None:  # nothing to pin yet: no hint
            self.comparison.say("", "")
            return
        if test is None:
            # where the line does not fit, on two: "to compare" says why (it was cut off)
            self.comparison.say(_muted("pin a baseline (Ctrl+B) to compare"),
                                _muted("pin a baseline (Ctrl+B)<br>to compare"), steady=False)
            return
        p = test.p_value
        ptext = "–" if math.isnan(p) else (f"{p:.3f}" if p >= 0.001 else f"{p:.1e}")
        moved = (f"<span style='color:{BETTER.name()}'>▲{test.improved}</span> "
                 f"<span style='color:{WORSE.name()}'>▼{test.worsened}</span>")
        self.comparison.say(f"{moved} queries &nbsp; p = <b>{ptext}</b> "
                            + _muted(f"({_METHOD.get(test.method, test.method)})"),
                            f"{moved} &nbsp; p = <b>{ptext}</b>")

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Wait for a running test (the pool is also waited for when the strip is deleted)."""
        self._test_generation += 1
        self._pool.waitForDone(timeout_ms)
