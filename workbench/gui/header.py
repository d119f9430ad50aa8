"""The header line: dataset name and counts, the model picker, the baseline's status and
"Pin as baseline"."""

from __future__ import annotations

import math

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from workbench.core.checks import left_out_text
from workbench.core.formats import dataset_splits
from workbench.core.models import get_model, model_ids
from workbench.core.session import TuningSession

from .bind import subscribe_many
from .elided import ElidingLabel, elide_words, esc, rich_width

DATASET_MIN = 160  # px: the dataset line's least width, whatever it says
SHORT_VALUES = 24  # characters: a baseline's changed values longer than this are counted
# a `dataset_nouns` noun for documents: one, many ("docs": the header line is short of room)
DOC_WORDS = {"documents": ("doc", "docs"), "memories": ("memory", "memories")}


def counted(n: int, one: str, many: str) -> str:
    """"1 task", "12 tasks", "1,234 docs"."""
    return f"{n:,} {one if n == 1 else many}"


def doc_words(plural: str) -> tuple[str, str]:
    """The data's noun for its documents, one and many: ("file", "files"), ("doc", "docs")."""
    return DOC_WORDS.get(plural, (plural.removesuffix("s"), plural))


class CountsLabel(ElidingLabel):
    """The dataset line: the first of its forms (longest first) that fits its width, else the
    last elided; where it is not the first, the whole in the tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.forms: list[tuple[str, str]] = []  # (rich, plain), the whole first

    def set_forms(self, forms: list[tuple[str, str]], tip: str = "") -> None:
        self.forms = forms
        self.set_texts(*forms[0], tip)

    def _fit(self) -> None:
        room = self.width() - 2
        whole = "\n".join(t for t in (self._plain, self._tip) if t)
        forms = self.forms or [(self._rich, self._plain)]
        for i, (rich, _plain) in enumerate(forms):
            if rich_width(self.font(), rich) <= room:
                text, tip = rich, (self._tip if i == 0 else whole)
                break
        else:
            text = esc(elide_words(forms[-1][1], self.fontMetrics(), room))  # not "26 c…"
            tip = whole
        if text != self.text():
            self.setText(text)
        self.setToolTip(tip)


class Header(QWidget):
    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.dataset_label = CountsLabel(self)
        self.model_combo = QComboBox(self)
        for mid in model_ids():
            label = get_model(mid).label
            self.model_combo.addItem(f"{mid} — {label}", mid)
        self.model_combo.setAccessibleName("Scoring model")  # a screen reader's name for it
        self.model_combo.setToolTip("scoring model: at its defaults the first time, then at "
                                    "the values you left it with on this dataset (undo "
                                    "steps too)")
        # as wide as the model shown (`_fit_combo`), not its longest entry ("codeledger —
        # Context selection for code (CodeLedger)", 540 px that elided the dataset line
        # beside it); the list drops down in full. Down to about 30 characters in a narrow
        # window, so the header does not set the window's narrowest width
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.model_combo.setMinimumWidth(self.fontMetrics().horizontalAdvance("x" * 30) + 40)
        fm = self.model_combo.fontMetrics()
        self.model_combo.view().setMinimumWidth(max(
            (fm.horizontalAdvance(self.model_combo.itemText(i))
             for i in range(self.model_combo.count())), default=0) + 40)
        self.dataset_label.setSizePolicy(QSizePolicy.Policy.Ignored,
                                         QSizePolicy.Policy.Preferred)
        self.dataset_label.setMinimumWidth(DATASET_MIN)  # its counts kept where room (`_keep`)
        self._dataset_need = 0  # px: its name and counts whole, in rich text
        # its whole text where the row has room; elided (the whole in its tooltip) where it
        # has not, so it never sets the window's narrowest width
        self.baseline_label = ElidingLabel(self, hint_whole=True)
        self.baseline_label.setMinimumWidth(self.fontMetrics().horizontalAdvance(
            "baseline: pinned (…") + 8)
        self.pin_button = QPushButton("Pin as baseline", self)
        self.pin_button.setToolTip("compare every later change against the current result "
                                   "(Ctrl+B)")
        self.clear_button = QPushButton("Clear", self)
        self.clear_button.setToolTip("forget the pinned baseline")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.dataset_label, 1)
        layout.addWidget(QLabel("model:", self))
        layout.addWidget(self.model_combo)
        layout.addSpacing(12)
        layout.addWidget(self.baseline_label)
        layout.addWidget(self.pin_button)
        layout.addWidget(self.clear_button)
        self.model_combo.activated.connect(self._on_model_picked)
        self.pin_button.clicked.connect(session.pin_baseline)
        self.clear_button.clicked.connect(session.clear_baseline)
        subscribe_many(self, [
            (session.dataset_changed, self._on_dataset_changed),
            (session.model_changed, self._on_model_changed),
            (session.baseline_changed, self._on_baseline_changed),
            (session.result_changed, self._on_baseline_changed),
        ])
        self._on_dataset_changed()
        self._on_model_changed()
        self._fit_combo()  # no model yet: the one the box shows
        self._on_baseline_changed()

    def _on_dataset_changed(self, *_: object) -> None:
        ds = self.session.dataset
        if ds is None:
            text = "no dataset — File ▸ Open, or drop a folder here"
            self.dataset_label.set_forms([(f"<i>{text}</i>", text)])
            return
        # in the data's own words, as the panels say them (rn 6: "12 queries" here, "all 12
        # tasks" in the Bundle panel): 29 files, 12 tasks; 155 memories, 26 chat moments
        from workbench.core.tuning.data import dataset_nouns, one_of  # not optuna at start-up

        docs, many = dataset_nouns(ds)
        docs_text = counted(len(ds.corpus), *doc_words(docs))
        n = len(ds.queries)
        s = self.session
        # a query typed in the box is a query, not one of the data's tasks or cases: counted
        # apart (dA 1: "31 cases, 30 judged" beside the card's "20 / 30" cases passing)
        typed_ids = {q.id for q in s.typed}
        typed = sum(1 for q in ds.queries if q.id in typed_ids) if many != "queries" else 0
        read = n - typed
        items = [counted(read, one_of(many), many),
                 counted(typed, "typed query", "typed queries") if typed else ""]
        judged_n = len(ds.qrels) if ds.qrels else 0
        judged = f"{judged_n:,} judged" if ds.qrels else "not judged"
        # the split read, where the folder has others (File ▸ Split)
        several = bool(s.source and s.queries_file is None and s.qrels_file is None
                       and len(dataset_splits(s.source)) > 1)
        split = f" · {s.split}" if several else ""
        # the query file's queries its judgments leave out (CISI: 36 of 112), said
        left_out = left_out_text(ds, s.split if several else "")
        tail = f"; {left_out}" if left_out else ""
        if left_out and not several and ds.qrels and judged_n == n:
            # every query kept is judged: said once ("24 queries, 24 judged; 1 without
            # judgments left o…" was cut at 1,280 px), the whole sentence in the tooltip
            items = [f"{n:,} judged {one_of(many) if n == 1 else many}"]
            judged = ""
            tail = f"; {ds.unjudged_left_out:,} unjudged left out"
        judged_rich = (judged if ds.qrels else f"<span style='color:#c0392b'>{judged}</span>")

        def form(prefix: bool, all_judged: bool, with_docs: bool,
                 with_tail: bool = False) -> tuple[str, str]:
            """One way to say it: "dataset: " or not, "26 judged" or not (where every one
            read is), the docs' count or not, the left-out clause or not."""
            # short of room, "26 chat moments + 1 typed" ("26 chat moments, 1 typed qu…")
            shown = [docs_text if with_docs else "",
                     *(items if prefix or not typed else [f"{items[0]} + {typed:,} typed"])]
            rich = ", ".join([*(esc(t) for t in shown if t), *([judged_rich] if all_judged
                                                               and judged else [])])
            plain = ", ".join(t for t in (*shown, judged if all_judged else "") if t)
            end = tail if with_tail else ""
            head = "dataset: " if prefix else ""
            return (f"{head}<b>{esc(ds.name)}</b>{esc(split)} ({rich}{esc(end)})",
                    f"{head}{ds.name}{split} ({plain}{end})")

        # the whole, then shorter where the header is short of room (dA 4: "dataset: story
        # (155 memories, 26 c…" at 1,024 px): the judged count where every one read is
        # judged, "dataset: ", the docs' count; the whole in the tooltip
        drop_judged = bool(ds.qrels) and judged_n == read and bool(judged)
        forms = [form(True, True, True, with_tail=True)]
        if drop_judged:
            forms.append(form(True, False, True))
        forms += [form(False, not drop_judged, True), form(False, not drop_judged, False)]
        self.dataset_label.set_forms(forms, "\n".join(
            t for t in (s.source or "", left_out and f"left out: {left_out} — queries of "
                        "the query file that no judgment names") if t))
        # its name and counts whole; the left-out clause may give way
        self._dataset_need = math.ceil(rich_width(self.dataset_label.font(),
                                                  form(True, True, True)[0])) + 4
        self._keep()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._keep()

    def _keep(self) -> None:
        """The dataset line keeps the width of its name and counts ("not judged" included)
        where the header has it: the baseline's label beside it gives way first, held to
        what is left. It had taken its whole width ("pinned (now=2026-11-20T12:00:00.000Z)")
        and cut the line to "21 q…", the red "not judged" that says why every metric reads
        "–" gone. Only a most width is set: the window's least width stays as it was."""
        layout = self.layout()
        if layout is None:
            return
        base = self.baseline_label
        m = layout.contentsMargins()
        others = m.left() + m.right() + layout.spacing() * (layout.count() - 1)
        for i in range(layout.count()):
            item = layout.itemAt(i)
            if item is not None and item.widget() not in (base, self.dataset_label):
                w = item.widget()
                others += (item.sizeHint().width() if w is None or w.isVisibleTo(self)
                           else 0)
        most = max(base.minimumWidth(), self.width() - others - self._dataset_need)
        if most != base.maximumWidth():
            base.setMaximumWidth(most)

    def _on_model_changed(self, *_: object) -> None:
        m = self.session.model
        if m is None:
            return
        i = self.model_combo.findData(m.id)
        if i >= 0 and i != self.model_combo.currentIndex():
            self.model_combo.blockSignals(True)
            self.model_combo.setCurrentIndex(i)
            self.model_combo.blockSignals(False)
        self._fit_combo()

    def _fit_combo(self) -> None:
        """The model box as wide as the model it shows (its arrow and frame beside)."""
        combo = self.model_combo
        text = combo.fontMetrics().horizontalAdvance(combo.currentText())
        combo.setMaximumWidth(max(combo.minimumWidth(), text + 48))

    def _on_model_picked(self, index: int) -> None:
        mid = self.model_combo.itemData(index)
        if self.session.model is None or mid != self.session.model.id:
            self.session.switch_model(str(mid))  # one undo step

    def _on_baseline_changed(self, *_: object) -> None:
        b = self.session.baseline
        self.pin_button.setEnabled(self.session.result is not None)
        self.clear_button.setEnabled(b is not None)
        if b is None:
            self.baseline_label.set_texts("baseline: <span style='color:#8c959f'>none</span>",
                                          "baseline: none")
            return
        # by the baseline's own model's defaults: one pinned on another model is not "defaults"
        try:
            changed = get_model(b.model_id).schema.changed(b.params)
        except KeyError:  # a model this workbench does not have (a newer session)
            changed = dict(b.params)
        what = ", ".join(f"{k}={v}" for k, v in changed.items()) or "defaults"
        tip = f"the configuration {b.name!r}: {b.model_id}, {what}"
        # its name and the model; long values (a clock, many weights) counted, whole in the
        # tooltip, so the dataset line beside it keeps its room (a sample's own clock, "now=
        # 2026-11-20T12:00:00.000Z", took 350 px)
        n = len(changed)
        short = what if len(what) <= SHORT_VALUES else \
            f"{n} change{'' if n == 1 else 's'}"
        named = "" if b.name.startswith("baseline") else f" {esc(repr(b.name))}"
        # the model only when it is not the one in the box beside it
        model = "" if self.session.model is not None and b.model_id == self.session.model.id \
            else f"{esc(b.model_id)}, "
        named_plain = "" if not named else f" {b.name!r}"
        model_plain = "" if not model else f"{b.model_id}, "
        self.baseline_label.set_texts(f"baseline: <b>pinned</b>{named} ({model}{esc(short)})",
                                      f"baseline: pinned{named_plain} ({model_plain}{short})",
                                      tip)

