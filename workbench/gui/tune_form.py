"""The Tune panel's left column: Start / Cancel / Apply best, a progress bar and a status
line, the run's settings (metric, budget, validation, storage, sampler, seed; `choices()`
gives the keyword arguments of `job_from_session`), then the parameters to search
(`ParamChecklist`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from PySide6.QtCore import QEvent, QObject, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QHelpEvent, QPainter, QPaintEvent, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStyle,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from workbench.core.cases import has_cases
from workbench.core.formats import dataset_splits, split_overlap
from workbench.core.session import TuningSession
from workbench.report.text.meanings import metric_meaning

from .elided import elide_words
from .metric_names import combo_metric, fill_metric_combo, metric_label
from .tune_params import MUTED, ParamChecklist

APPLY_TIP = "move the sliders to the tuned values (Edit ▸ Undo restores them)"
RANKING_METRICS = ("ndcg@10", "mrr@10", "r@100", "map@100")
ERROR = "color:#c0392b"
FORM_WIDTH = 440  # px: the column's fields, the scroll bar beside them
# px of the parameters' column kept however long the status line grows: its two rows whole,
# Sampler and Keep (48 had cut Keep's 3 px, dD 1); the tab scrolls where the form is higher
COLUMN_LEAST = 52
PARAM_ROW = 20  # px of a parameter's row seen for it to count as in sight (`params_out_of_sight`)
VALIDATIONS = (("auto", "auto"), ("k-fold", "kfold"), ("time split", "time"), ("none", "none"))


def metric_choices(session: TuningSession) -> list[str]:
    """The objectives this dataset and model can be tuned on, the most fitting first."""
    ds, model = session.dataset, session.model
    k = session.k  # the cut-off the window shows (the k box)
    ranking = [f"ndcg@{k}", f"mrr@{k}", *RANKING_METRICS[2:]]
    out = list(ranking) if ds is not None and ds.qrels else []
    if ds is not None and has_cases(ds):
        out.insert(0, "cases")  # pi-lodestone's own measure of success
    if model is not None and model.id.startswith("codeledger"):
        out.insert(0, "bundle_recall")  # what its bundle is for; `tune`'s default too
    return out or ranking


# each sampler's line, the combo's tooltip and its item's (rn 4)
SAMPLER_TIPS = {
    "tpe": "tpe: Optuna's Tree-structured Parzen Estimator: it models which values scored "
           "well in the trials so far and tries more like them (the default)",
    "cmaes": "cmaes: CMA-ES (covariance matrix adaptation evolution strategy): moves a "
             "cloud of numeric values towards the better ones; choices and switches are "
             "drawn at random",
    "random": "random: each trial's values drawn at random within the ranges: the yardstick "
              "for the others",
    "grid": "grid: every point of a grid over the ticked parameters' ranges, whatever the "
            "budget",
}
BUDGET_TIP = ("trials per study (each trial scores one set of values on the training "
              "queries), or seconds in all")
FOLDS_TIP = ("k: how many folds the queries are split into. Each fold's queries are held out "
             "in turn: a study tunes on the other folds' queries and the fold scores its "
             "values; a last study tunes on all the queries for the values Apply best offers")
# the model's own objective where it is not the first metric card's: why, beside the combo
OBJECTIVE_WHY = {"bundle_recall": "what CodeLedger selects its bundle for"}


def headline_metric(session: TuningSession) -> str:
    """The first metric card's metric: eval cases passing where the data has cases, else
    nDCG at the window's k (`MetricStrip`)."""
    if session.dataset is not None and has_cases(session.dataset):
        return "cases"
    return f"ndcg@{session.k}"


BUDGET_CHROME = 30  # px a spin box takes beside its text: the arrows' column and the frame
COMBO_CHROME = 36  # px a combo box takes beside its text: the arrow, padding and frame
KIND_TIP = "per study (each fold has its own), or seconds in all"
BUDGET_NOTE_TIP = ("A study continues from the trials its storage holds: Start adds only "
                   "what the budget lacks. The storage is opened at Start, not before: until "
                   "a run in this window, the line says \"up to\".")


class PlanLine(QLabel):
    """The line under Start: one line, elided at the right, the whole said in its tooltip
    before what a study is; wrapped where it says why Start cannot run (a reason is read in
    full). Its `text()` is the whole line. Two lines had cost the parameters' column 16 px
    of a chart tab's height, leaving it only the Sampler and Keep rows (dD 4)."""

    def minimumSizeHint(self) -> QSize:  # Qt override
        hint = super().minimumSizeHint()
        if not self.wordWrap():  # its width is the form's, whatever the text's
            hint.setWidth(0)
        return hint

    def sizeHint(self) -> QSize:  # Qt override
        hint = super().sizeHint()
        if not self.wordWrap():
            hint.setWidth(0)
        return hint

    def elided(self) -> bool:
        """Whether the line shows less than its text."""
        return (not self.wordWrap()
                and self.fontMetrics().horizontalAdvance(self.text()) > self.width())

    def shown_text(self) -> str:
        """The text as it reads on screen (elided or whole)."""
        if not self.elided():
            return self.text()
        return elide_words(self.text(), self.fontMetrics(), self.width())

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        if not self.elided():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(),
                                  int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                                  self.palette(), self.isEnabled(), self.shown_text(),
                                  QPalette.ColorRole.WindowText)

    def event(self, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.ToolTip and self.elided():
            assert isinstance(event, QHelpEvent)
            QToolTip.showText(event.globalPos(), f"{self.text()}\n\n{self.toolTip()}", self)
            return True
        return super().event(event)


class TrainingSplit(NamedTuple):
    """Another judged split of the open folder, as Validation offers it: `why_not` says why
    it cannot be tuned on ("" when it can), `note` what tuning on it leaves aside."""

    name: str
    why_not: str = ""
    note: str = ""


def training_splits(session: TuningSession) -> list[TrainingSplit]:
    """The open folder's other judged splits, each one Validation can tune on while the open
    split is held out (none when the queries or judgments were given apart from the folder).
    A split whose every query the open split judges too (Cranfield's test.binary beside
    test) is listed but not offered: tuning on it would be tuning on the held-out queries."""
    if session.source is None or session.queries_file or session.qrels_file:
        return []
    out = []
    held = session.split
    for name in dataset_splits(session.source):
        if name == held:
            continue
        shared, judged = split_overlap(session.source, name, held)
        if judged and shared == judged:
            out.append(TrainingSplit(name, why_not=(
                f"split {name} judges no query of its own: all {judged:,} it judges are "
                f"split {held}'s too, so tuning on it would be tuning on the held-out "
                "queries")))
        elif shared:
            out.append(TrainingSplit(name, note=(
                f"{shared:,} of the {judged:,} queries split {name} judges "
                f"{'is' if shared == 1 else 'are'} judged in split {held} too: held out, not "
                "tuned on")))
        else:
            out.append(TrainingSplit(name))
    return out


def cannot_tune(session: TuningSession) -> str:
    """Why Start cannot run on the session's data ("" when it can): every objective counts
    judged queries (or a fixture's cases)."""
    ds, j = session.dataset, session.judgments
    if ds is None or session.model is None:
        return "open a dataset and choose a model first"
    if has_cases(ds) or (j is not None and j.judged_mask.any()):
        return ""
    return (f"nothing to tune against: {ds.name} has no relevance judgments "
            "(File ▸ Open judgments… adds them)")


def no_judgments_help(session: TuningSession) -> str:
    """What a person can do on data without judgments, and what judgments are (rich text)."""
    from workbench.core.selection_figures import selects

    lines = []
    if selects(session.model):
        lines.append("Without judgments the metric cards show what the selection returns "
                     "(results per query, queries returning nothing, tokens injected), and "
                     "<b>Metric vs parameter</b> draws them over a min score or limit: the "
                     "cost side of the trade-off, with no best to pick.")
    lines.append("Judgments say which documents are relevant to which query: a qrels file, "
                 "TREC's <code>query 0 document grade</code> lines or BEIR's "
                 "<code>query-id corpus-id score</code> TSV. With them, Tune searches the "
                 "parameters for the best score on held-out queries, and the cards show "
                 "nDCG, MRR, precision and recall.")
    return "<br><br>".join(lines)


class TuneSettings(QWidget):
    """Metric, budget, validation and storage; and in `more`, a widget of its own that the
    form puts with the parameters, sampler, seed, the trial kept and "pin the baseline
    first"."""

    objective_changed = Signal(str)  # picked, or set by `set_choices`
    plan_changed = Signal()  # a setting that makes another study (what the storage holds)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.more = QWidget(self)
        self.grids = (QGridLayout(self), QGridLayout(self.more))
        for grid in self.grids:
            grid.setContentsMargins(0, 0, 0, 0)
            grid.setVerticalSpacing(3)
        self.objective = QComboBox(self)
        self.budget = QSpinBox(self)
        self.budget.setRange(1, 1_000_000)
        self.budget.setValue(100)
        # 100,000 read "10000" in a box cut to its width at 1,280 px (rt 6): thousands
        # separated, and the box as wide as its largest value (`showEvent`)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setToolTip(BUDGET_TIP)
        self.budget_kind = QComboBox(self)
        self.budget_kind.addItems(["trials", "seconds"])
        self.budget_kind.setToolTip(KIND_TIP)
        self.validation = QComboBox(self)
        for text, key in VALIDATIONS:
            self.validation.addItem(text, key)
        self.validation.setToolTip(
            "auto: a time split for repository tasks, else 5-fold over queries; "
            "'train → test' (a folder judged in several splits) tunes on that split's "
            "queries and holds out every query of the split open here")
        self.folds = QSpinBox(self)
        self.folds.setRange(2, 20)
        self.folds.setValue(5)
        self.folds.setPrefix("k = ")
        self.folds.setToolTip(FOLDS_TIP)
        self.sampler = QComboBox(self)  # filled by `set_choices`
        self.sampler.setToolTip("how each trial's values are chosen:\n"
                                + "\n".join(SAMPLER_TIPS.values()))
        self.pick = QComboBox(self)
        # short enough for the box at 1,280 px ("the best on trainin": rt 7)
        self.pick.addItem("surest gain", "bound")
        self.pick.addItem("best on training", "best")
        self.pick.setToolTip("which trial a study keeps. The surest gain: the trial whose gain "
                             "over the starting values on the training queries is largest at "
                             "its mean less 2 standard errors (more for few queries: "
                             "4.5 for 3, 2.6 for 6) among the 20 best, and the "
                             "starting values when no trial's is above 0. The best on "
                             "training: the highest training mean, which often fits the "
                             "training queries' quirks and does worse on new ones")
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setPrefix("seed ")
        self.seed.setToolTip("the sampler's random seed: the same seed, settings and data "
                             "draw the same trials")
        self.storage = QLineEdit(self)
        self.storage.setPlaceholderText("studies.db in the cache folder")
        self.storage.setToolTip("an SQLite file, a journal file (.log: cheaper per trial when "
                                "many parameters are tuned) or a postgresql:// URL; starting "
                                "the same run again continues its stored trials")
        self.pin_first = QCheckBox("Pin current as baseline first", self)
        self.pin_first.setChecked(True)
        self.pin_first.setToolTip("before Apply best moves the sliders, pin the current "
                                  "settings, so the movers and metrics show what tuning changed")
        # what the budget comes to where k-fold runs a study per fold and one on all queries
        # (the form shows it beside Start)
        self.budget_note = PlanLine(self)
        self.budget_note.setStyleSheet(MUTED)
        # "up to" said in full here: a second line under Start had cost the parameters
        # 16 px at 1,024 × 768
        self.budget_note.setToolTip(BUDGET_NOTE_TIP)  # with what a study is (`set_task_set`)
        # where the metric tuned is not the first card's (codeledger's bundle recall beside
        # nDCG@10), which and why, under the combo (rn 5: Apply best could lower the card
        # watched while the run raised another metric)
        self.objective_note = QLabel(self)
        self.objective_note.setStyleSheet(MUTED)
        self.objective_note.setWordWrap(True)
        self.objective_note.hide()
        self.headline = ""  # the first metric card's metric (`set_choices`)
        self.task_set = False  # repository tasks: auto is a time split (one study)
        self.nouns = "queries"  # the data's word for its queries (`dataset_nouns`, dr3 7)
        # what the note counts beyond the budget (`set_plan`): the trials stored in each
        # study (None: not read), the grid's points, the queries that count
        self.stored: list[int | None] | None = None
        self.grid: int | None = None
        self.counted: int | None = None
        self.running = False
        self.cannot_start = ""  # why Start cannot run with these settings ("" when it can)
        # two fields a row, what the run will do first: under Start, in a 1,280 × 800
        # window (a Tune tab 340 px high) they had sat below the parameter list, out of sight
        # (rv2 1); those the form keeps in sight, then those it scrolls with the parameters
        rows: list[list[list[tuple[str, list[QWidget]]]]] = [[
            [("Metric", [self.objective]), ("Budget", [self.budget, self.budget_kind])],
            [("Validation", [self.validation, self.folds])],
            [("Storage", [self.storage])]], [
            [("Sampler", [self.sampler, self.seed])],
            [("Keep", [self.pick]), ("", [self.pin_first])]]]
        # a field alone on its row takes the width of both; two to a row fit the column
        # where the widest ranges do not set the boxes' width (a seed up to 2³¹ asked 160 px)
        self.budget.setMinimumWidth(64)
        for box in (self.objective, self.budget_kind, self.pick):
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(6)
        self.labels: list[QLabel] = []
        for grid, part in zip(self.grids, rows, strict=True):
            owner = grid.parentWidget()
            for row, pairs in enumerate(part):
                # the objective's note under the Metric row
                i = row + 1 if grid is self.grids[0] and row > 0 else row
                for j, (label, widgets) in enumerate(pairs):
                    line = QHBoxLayout()
                    for w in widgets:
                        line.addWidget(w, 1)
                    if label:
                        self.labels.append(QLabel(label, owner))
                        grid.addWidget(self.labels[-1], i, 2 * j)
                        grid.addLayout(line, i, 2 * j + 1, 1, 3 if len(pairs) == 1 else 1)
                    else:  # a box in the second pair's place, its label's column included
                        grid.addLayout(line, i, 2, 1, 2)
            grid.setColumnStretch(1, 3)
            grid.setColumnStretch(3, 2)
        self.grids[0].addWidget(self.objective_note, 1, 1, 1, 3)
        tips = {"Budget": BUDGET_TIP, "Sampler": self.sampler.toolTip(),
                "Validation": self.validation.toolTip(), "Keep": self.pick.toolTip(),
                "Storage": self.storage.toolTip()}
        for field_label in self.labels:  # each label's tooltip its field's
            field_label.setToolTip(tips.get(field_label.text(), ""))
        self.validation.currentIndexChanged.connect(self._on_validation)
        self.objective.currentIndexChanged.connect(
            lambda *_: self.objective_changed.emit(combo_metric(self.objective)))
        self.objective_changed.connect(self._note_objective)
        for signal in (self.budget.valueChanged, self.budget_kind.currentIndexChanged,
                       self.folds.valueChanged, self.sampler.currentIndexChanged):
            signal.connect(self._note_budget)
        # the budget is not part of a study's name (a larger one goes on from the stored
        # trials): these are
        for signal in (self.objective_changed, self.validation.currentIndexChanged,
                       self.folds.valueChanged, self.sampler.currentIndexChanged,
                       self.seed.valueChanged, self.storage.textChanged):
            signal.connect(self.plan_changed)
        self._on_validation()

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        """The two grids' columns line up: each label column as wide as the widest label of
        either, in the font the style sheet gives them (known once shown)."""
        super().showEvent(event)
        widest = max(w.sizeHint().width() for w in self.labels)
        budget = next(w for w in self.labels if w.text() == "Budget").sizeHint().width()
        for grid in self.grids:
            grid.setColumnMinimumWidth(0, widest)
            grid.setColumnMinimumWidth(2, budget)  # the second field's label's column
        # its largest value whole ("1,000,000"), beside its buttons and frame
        self.budget.setMinimumWidth(self.budget.fontMetrics().horizontalAdvance("1,000,000")
                                    + BUDGET_CHROME)
        # and the Keep box its longest choice (rt 7)
        self.pick.setMinimumWidth(max(self.pick.fontMetrics().horizontalAdvance(
            self.pick.itemText(i)) for i in range(self.pick.count())) + COMBO_CHROME)

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.EnabledChange:  # `more` sits elsewhere: with it
            self.more.setEnabled(self.isEnabled())

    def _on_validation(self, *_: object) -> None:
        self.folds.setEnabled(self.validation.currentData() == "kfold")
        self._note_budget()

    def set_task_set(self, task_set: bool, nouns: str = "queries") -> None:
        self.task_set, self.nouns = task_set, nouns
        # the data's own word kept (OpenVault's chat moments), said to be its queries
        own = "" if nouns == "queries" else f" ({nouns}: this data's queries)"
        self.folds.setToolTip(FOLDS_TIP.replace("queries", nouns) + own)
        self.budget_note.setToolTip(
            f"A study: one search of the parameters, its trials stored together. k-fold "
            f"splits the {nouns} into k folds: for each fold a study tunes on the other "
            f"folds' {nouns} and the fold held out scores its tuned values (the held-out "
            f"verdict); then a last study tunes on all the {nouns}, for the values Apply "
            f"best offers.{own}\n\n" + BUDGET_NOTE_TIP)
        self._note_budget()

    def _note_objective(self, objective: str) -> None:
        """Say which metric the run tunes where it is not the first metric card's."""
        head = self.headline
        differs = bool(objective) and bool(head) and objective != head
        text = tip = ""
        if differs:
            # one line at the column's width, the why in the tooltip: two had clipped the note
            # and cut the Keep row once k-fold's plan line showed too (dD 2)
            why = OBJECTIVE_WHY.get(objective, "")
            text = f"tunes {metric_label(objective)}, not the first card's {metric_label(head)}"
            meaning = metric_meaning(objective)
            tip = ((f"{metric_label(objective)}: {why}. " if why else "")
                   + f"The run scores each trial on {metric_label(objective)}"
                   + (f" ({meaning.removesuffix(' (higher is better)')})" if meaning else "")
                   + f", not on {metric_label(head)}, the first metric card's metric and the "
                   "one the comparison with a baseline is judged on: Apply best may lower "
                   f"that card. Pick {metric_label(head)} here to tune what it shows.")
        self.objective_note.setText(text)
        self.objective_note.setToolTip(tip)
        self.objective_note.setVisible(differs)
        self.objective.setToolTip(tip or "the metric each trial is scored on: the mean over "
                                  "the judged queries a study tunes on")
        for field_label in self.labels:
            if field_label.text() == "Metric":
                field_label.setToolTip(self.objective.toolTip())

    def set_timed(self, timed: bool) -> None:
        """Offer the time split only where the queries have a time (repository tasks, dated
        queries): on others it failed at Start, with the command line's advice."""
        row = self.validation.findData("time")
        item = self.validation.model().item(row)  # type: ignore[attr-defined]
        item.setEnabled(timed)
        item.setToolTip("" if timed else "the queries have no time to order them by: no "
                        "repository tasks, no 'date'")
        if not timed and self.validation.currentData() == "time":
            self.validation.setCurrentIndex(self.validation.findData("auto"))

    def studies(self) -> int:
        """How many studies Start runs: k folds and one on all queries for k-fold (auto's
        5-fold on queries that are not repository tasks), else one."""
        kind = self.validation.currentData()
        if kind == "kfold":
            return self.folds.value() + 1
        return 6 if kind == "auto" and not self.task_set else 1

    def set_plan(self, stored: list[int | None] | None, grid: int | None,
                 counted: int | None) -> None:
        """What the note counts beyond the budget: the trials this window's last run of the
        same studies left in each (None: not known; the storage is not read before Start),
        the grid's points per study (None: not the grid sampler), the queries that count
        (None: unknown)."""
        self.stored, self.grid, self.counted = stored, grid, counted
        self._note_budget()

    def set_running(self, running: bool) -> None:
        """The note said of the run going on ("This run adds …"), not of Start."""
        self.running = running
        self._note_budget()

    def _note_budget(self, *_: object) -> None:
        # said as what Start does, read beside it (rv2 2: "× 6 studies" under the budget,
        # out of sight at 1,280 px, left "done: 72 trials" for a budget of 12 unexplained),
        # less what this window's last run left stored (dr1 2: "Start runs 24 trials" stood
        # over a run that added none)
        from .tune_plan import budget_line, too_few_queries, too_large

        stored = self.stored
        if stored is not None and len(stored) != self.studies():
            stored = None  # another run's studies
        # where Start would fail at once, why, in its place (dr1 3: "Start runs 48 trials"
        # over 15 folds of 12 judged queries)
        why = ((too_few_queries(str(self.validation.currentData()), self.folds.value(),
                                self.task_set, self.counted, self.nouns)
                if self.counted is not None else "")
               or too_large(self.grid))
        self.cannot_start = why
        # a grid runs every point whatever the budget (its plan line says so): the field
        # greyed, not reading "20 trials" over a run of thousands (rt 10)
        grid = self.sampler.currentText() == "grid"
        for box, tip in ((self.budget, BUDGET_TIP), (self.budget_kind, KIND_TIP)):
            box.setEnabled(not grid)
            box.setToolTip("the grid sampler runs every point of the grid: the budget does "
                           "not apply" if grid else tip)
        text = why or budget_line(self.studies(), self.budget.value(),
                                  seconds=self.budget_kind.currentText() == "seconds",
                                  stored=stored, grid=self.grid, running=self.running,
                                  nouns=self.nouns)
        self.budget_note.setStyleSheet(ERROR if why else MUTED)
        self.budget_note.setWordWrap(bool(why))  # a reason read whole; else one line
        self.budget_note.setText(text)
        self.budget_note.setVisible(bool(text))

    def set_splits(self, others: list[TrainingSplit], held: str) -> None:
        """Validation offers 'X → held' (tune on split X) for each of `others`, `held` held out;
        one that cannot be tuned on is listed greyed, its reason in its text's tail and its
        tooltip. The choice kept where it is still offered."""
        current = self.validation.currentData()
        while self.validation.count() > len(VALIDATIONS):
            self.validation.removeItem(self.validation.count() - 1)
        for split in others:
            name = split.name
            if split.why_not:
                self.validation.addItem(f"{name} → {held} (no queries of its own)", f"split:{name}")
                tip = f"not offered: {split.why_not}"
            else:
                self.validation.addItem(f"{name} → {held}", f"split:{name}")
                tip = f"tune on split {name}, hold out split {held}" + (
                    f"; {split.note}" if split.note else "")
            row = self.validation.count() - 1
            self.validation.setItemData(row, tip, Qt.ItemDataRole.ToolTipRole)
            if split.why_not:
                self.validation.model().item(row).setEnabled(False)  # type: ignore[attr-defined]
        i = self.validation.findData(current)
        model = self.validation.model()
        usable = i >= 0 and model.item(i).isEnabled()  # type: ignore[attr-defined]
        self.validation.setCurrentIndex(i if usable else 0)

    def set_choices(self, metrics: list[str], samplers: tuple[str, ...],
                    headline: str = "") -> None:
        """The metrics and samplers offered; `headline`: the first metric card's metric
        (a note says so where the metric tuned is another)."""
        self.headline = headline
        if self.sampler.count() == 0:
            self.sampler.addItems(list(samplers))
            for i, name in enumerate(samplers):
                self.sampler.setItemData(i, SAMPLER_TIPS.get(name, ""),
                                         Qt.ItemDataRole.ToolTipRole)
        fill_metric_combo(self.objective, metrics, combo_metric(self.objective) or None)
        self.objective_changed.emit(combo_metric(self.objective))  # its signals were held

    def choices(self) -> dict[str, Any]:
        seconds = self.budget_kind.currentText() == "seconds"
        return {"objective": combo_metric(self.objective),
                "trials": None if seconds else self.budget.value(),
                "timeout": float(self.budget.value()) if seconds else None,
                **_validation(str(self.validation.currentData())),
                "folds": self.folds.value(), "sampler": self.sampler.currentText(),
                "seed": self.seed.value(), "pick": str(self.pick.currentData()),
                "storage": self.storage.text().strip()}


def _validation(key: str) -> dict[str, str]:
    """The job's validation arguments for a Validation entry ("split:train": tune on train)."""
    kind, _, split = key.partition(":")
    return {"validation": kind, "train_split": split} if split else {"validation": kind}


class TuneForm(QWidget):
    """The buttons, what the run will do under them, the progress bar and the status line,
    the run's settings — all kept in sight — then, in a column of its own that scrolls
    where the tab is low, the sampler's and the pick's settings and the parameters (dr1 11:
    with the whole form in one column, reaching the parameters took Start out of sight). Its
    wrapped labels ask for no height-for-width (the panel's scroll area would otherwise size
    the whole panel by the plots' preferred height, not the view's)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # codeledger's "Weight: keyword match" and the like in full, beside the scroll bar
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        self.setFixedWidth(FORM_WIDTH + bar)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(4)
        # Start, and what the run will do right under it (rv2 1: in a 1,280 × 800 window the
        # metric, budget and validation had sat under the parameter list, out of sight, and
        # Start above them); their right edge where the column's fields end, by its bar
        top = QVBoxLayout()
        top.setContentsMargins(0, 0, bar, 0)
        top.setSpacing(3)  # with the column's least, code-repo's k-fold form in a chart tab (dD 2)
        outer.addLayout(top)
        buttons = QHBoxLayout()
        self.start_button = QPushButton("Start", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.apply_button = QPushButton("Apply best", self)
        self.apply_button.setToolTip(APPLY_TIP)
        for b in (self.start_button, self.cancel_button, self.apply_button):
            buttons.addWidget(b)
        top.addLayout(buttons)
        self.settings = TuneSettings(self)
        # what a budget comes to under k-fold, under Start: always in sight where the run
        # does more trials than the budget says
        top.addWidget(self.settings.budget_note)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        top.addWidget(self.progress)
        # shown from a run's first step: empty, its 14 px had made the tab scroll on code-repo
        # with k-fold's plan line and the metric's note (dD 2)
        self.progress.hide()
        self.progress.valueChanged.connect(lambda *_: self.progress.show())
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        self.status.setStyleSheet(MUTED)
        top.addWidget(self.status)
        self.status.hide()  # until it has something to say (`TunePanel._say`)
        top.addWidget(self.settings)
        self.column = QScrollArea(self)
        self.column.setWidgetResizable(True)
        self.column.setFrameShape(QScrollArea.Shape.NoFrame)
        self.column.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.column.setMinimumHeight(COLUMN_LEAST)
        outer.addWidget(self.column, 1)
        body = QWidget()
        self.column.setWidget(body)
        col = QVBoxLayout(body)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)  # the title whole under Keep in a chart tab's height (dD 4)
        col.addWidget(self.settings.more)
        # where the column shows no parameter row (a chart tab's height after a click on the
        # tab), its title says how many are ticked below and where more room is (dD 4)
        self.title = QLabel(body)
        self.title.setStyleSheet("font-weight: 600;")
        col.addWidget(self.title)
        # what the target system cannot take as a setting: a gain tuned from it does not ship
        ship = QHBoxLayout()
        self.ship_note = QLabel("", body)
        self.ship_note.setWordWrap(True)
        self.ship_note.setStyleSheet(MUTED)
        self.ship_only = QPushButton("Untick those", body)
        self.ship_only.setToolTip("tune only what the target system can take as a setting")
        ship.addWidget(self.ship_note, 1)
        ship.addWidget(self.ship_only, 0, Qt.AlignmentFlag.AlignTop)
        col.addLayout(ship)
        self.ship_note.hide()
        self.ship_only.hide()
        self.checklist = ParamChecklist(body)
        self.ship_only.clicked.connect(
            lambda: self.checklist.untick(set(self.unshipped)))
        self.unshipped: dict[str, str] = {}
        self.target = ""
        col.addWidget(self.checklist, 1)
        self.settings.objective_changed.connect(self._on_objective)
        self.checklist.changed.connect(self._say_title)
        self.column.verticalScrollBar().valueChanged.connect(self._say_title)
        self.column.viewport().installEventFilter(self)
        self._say_title()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.column.viewport() and event.type() == QEvent.Type.Resize:
            self._say_title()
        return super().eventFilter(watched, event)

    def params_out_of_sight(self) -> bool:
        """Whether the column shows none of the parameters' rows (only its settings)."""
        checklist, viewport = self.checklist, self.column.viewport()
        top = checklist.mapTo(viewport, QPoint(0, 0)).y()
        return bool(checklist.rows) and top + PARAM_ROW > viewport.height()

    def _say_title(self, *_: object) -> None:
        muted = "<span style='font-weight:400; color:#57606a'>"
        if self.params_out_of_sight():
            n, ticked = len(self.checklist.rows), len(self.checklist.names())
            self.title.setText(f"Parameters to tune {muted}{ticked} of {n} ticked, below ▾ · "
                               "Ctrl+T: more room</span>")
            self.title.setToolTip("The parameters are listed under this line: scroll the "
                                  "column, or Tools ▸ Tune… (Ctrl+T) gives the tab more of "
                                  "the window's height.")
        else:
            self.title.setText(f"Parameters to tune {muted}(range: low, high)</span>")
            self.title.setToolTip("")

    def _on_objective(self, objective: str) -> None:
        self.checklist.set_objective(objective)
        self._say_unshipped()

    def set_unshipped(self, target: str, unshipped: dict[str, str]) -> None:
        """Say which parameters `target` cannot take as a setting (⊘ in the list), with a
        button that unticks them; nothing where it can take them all."""
        self.target, self.unshipped = target, dict(unshipped)
        self._say_unshipped()

    def _say_unshipped(self) -> None:
        """The ⊘ note. Where what the target can set of the parameters ticked at first are
        only cut-offs the metric can only lose with (obsidian-mcp's min score on nDCG@10),
        no run of its settings can gain: that is said, and no button offers such a run."""
        n, target, checklist = len(self.unshipped), self.target, self.checklist
        text = (f"⊘ {n} parameter{'s' if n != 1 else ''} {target} cannot take as a setting: a "
                "gain from them does not ship as it is" if n else "")
        settable = [name for name in checklist.rows if name in checklist.starting_ticks()
                    and name not in self.unshipped]
        cuts = [name for name in settable if name in checklist.cut]
        useless = bool(n) and bool(cuts) and len(cuts) == len(settable)
        if useless:
            labels = ", ".join(checklist.rows[name].param.label for name in cuts)
            metric = metric_label(checklist.objective)
            text += (f". What it can set, {labels}, only cuts each ranking's end, which cannot "
                     f"raise {metric}: a gain here ships only as a change to its code")
        self.ship_note.setText(text)
        self.ship_note.setToolTip(
            f"{target} has no setting for the parameters marked ⊘ (each row's tooltip says "
            f"why): a value tuned for one shows what a change to {target}'s code would gain, "
            "not a value its settings can take. Untick those: tune only what it can take, "
            "the others kept at their current values" if n else "")
        self.ship_note.setVisible(bool(n))
        self.ship_only.setVisible(bool(n) and not useless)

    def hasHeightForWidth(self) -> bool:  # Qt override
        return False

    def minimumSizeHint(self) -> QSize:  # Qt override
        """As high as its rows take at its fixed width, wrapped lines counted: a status line
        wrapped to three lines had squeezed the Metric, Budget and Storage rows to 11 px, text
        cut in half, where the tab scrolls instead (dD 1, 2)."""
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is not None:
            hint.setHeight(max(hint.height(), layout.minimumHeightForWidth(self.width())))
        return hint
