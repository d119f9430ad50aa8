"""The parameter panel, generated from the model's schema: the model's headline parameters
first, in a box of their own, then one editor per other live parameter, each with a reset
button, "Reset all", and the prepare-stage parameters grouped apart (`PrepareBox`).

Moving an editor sets the session's parameter; a change of the session's parameters (undo,
load, another panel) moves the editors, without echoing back.

Labels wrap at word boundaries (`param_layout`), their help in the tooltip. A model with many
live parameters gets the rest grouped by name prefix into sections that fold.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.params import ParamError, ParamValue
from workbench.core.session import TuningSession

from .bind import subscribe_many
from .drag import drag_state
from .param_editors import (
    NumberEditor,
    ParamEditor,
    make_editor,
    name_controls,
    reset_button,
    tooltip,
)
from .param_layout import (
    Section,
    WrapLabel,
    headline_section,
    label_width,
    model_groups,
    rest_of,
    sections,
    short_label,
)
from .prepare_box import PrepareBox
from .worker import LiveLoop

__all__ = ["FOLD_ABOVE", "ParamPanel", "Section", "sections", "short_label"]

FOLD_ABOVE = 30  # live parameters beyond which groups after the first start folded
NOTE_GREY = "#6e7781"  # a note under a label: muted, yet darker than a greyed label
INFO = 0x24D8  # ⓘ: more in the tooltip
MIN_WIDTH, MAX_MIN_WIDTH = 300, 420  # px: the column's least width, and the most it asks


class ParamPanel(QScrollArea):
    def __init__(self, session: TuningSession, loop: LiveLoop | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.loop = loop
        self.setWidgetResizable(True)
        # a column narrower than its controls scrolls rather than cutting them off (the
        # minimum width below follows the controls, so it is a last resort)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setMinimumWidth(MIN_WIDTH)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # its controls take Tab, not the frame
        app = QApplication.instance()
        if isinstance(app, QApplication):  # Shift+Tab from outside: the control in sight
            app.focusChanged.connect(self._follow_focus)
        self.editors: dict[str, ParamEditor] = {}
        # the label of each parameter that acts only while others are on (Param.needs)
        self.needing: dict[str, QLabel] = {}
        self.labels: dict[str, QLabel] = {}  # every live parameter's label
        # under the label of an inert parameter: "no effect here ⓘ", the reason in its
        # tooltip (a greyed label beside a live slider had read as a control switched off)
        self.notes: dict[str, QLabel] = {}
        # parameters no score moves with on the data prepared (Model.inert_params, as tune
        # leaves them out): name → why; their labels greyed, the reason in the tooltip
        self.inert: dict[str, str] = {}
        self.groups: dict[str, QToolButton] = {}  # name prefix → its fold button
        self._folded: dict[tuple[str, str], bool] = {}  # (model, prefix) → folded, kept
        self._body: QWidget | None = None
        self.prepare_box: PrepareBox | None = None
        # model id → its prepare-stage edits held unapplied when the user left it: back in
        # its box on return, as the session keeps each model's values (forgotten, as those
        # are, when another dataset opens)
        self._held: dict[str, dict[str, ParamValue]] = {}
        self._held_opened = session.opened  # the data they are held for
        self._built_for: str | None = None
        self.error_label = QLabel()
        subscribe_many(self, [
            (session.model_changed, self._rebuild),
            (session.dataset_changed, self._forget_held),
            (session.params_changed, self._on_params_changed),
            (session.result_changed, self._on_result),
        ])
        drag_state(session).changed.connect(self._on_drag)
        self._rebuild()

    def _forget_held(self, *_: object) -> None:
        """Other data opened: the edits held for each model's last data go (a query typed
        into the same data keeps them)."""
        if self.session.opened != self._held_opened:
            self._held_opened = self.session.opened
            self._held.clear()

    # -- building ----------------------------------------------------------------------------

    def _rebuild(self, *_: object) -> None:
        self.editors, self.needing, self.labels, self.inert = {}, {}, {}, {}
        self.notes = {}
        drag_state(self.session).set_dragging(False)  # a slider held down is going away
        if self.prepare_box is not None and self._built_for is not None \
                and self.prepare_box.pending:
            self._held[self._built_for] = dict(self.prepare_box.pending)
        self._built_for = self.session.model.id if self.session.model is not None else None
        body = QWidget()
        outer = QVBoxLayout(body)
        outer.setContentsMargins(6, 6, 6, 6)
        model = self.session.model
        if model is None:  # the model box names one already: what is missing is data
            note = QLabel("Open a dataset (File ▸ Open, or drop a folder on the window): the "
                          "model's parameters show here." if self.session.dataset is None
                          else "Choose a model to see its parameters.")
            note.setWordWrap(True)
            outer.addWidget(note)
            outer.addStretch(1)
            self._install(body)
            return
        self.groups = {}
        head = headline_section(model)
        rest = rest_of(model)
        secs = sections(rest, model_groups(model))
        texts = [short_label(p, s) for s in [head, *secs] for p in s.params]
        body.ensurePolished()  # measured in the style sheet's font, as the labels are drawn
        label_w = label_width(body.fontMetrics(), texts)  # one column, so editors line up
        self.headline = QGroupBox(head.title, body)
        self.headline.setToolTip(f"{model.label}: the parameters its users come for")
        self.headline_rows = self._grid(head, label_w, self.headline)
        QVBoxLayout(self.headline).addWidget(self.headline_rows)
        self.headline.setVisible(bool(head.params))
        outer.addWidget(self.headline)
        live = self.more = QGroupBox("More live parameters", body)
        live.setToolTip(f"{model.label}: {model.description}")
        live.setVisible(bool(rest))
        column = QVBoxLayout(live)
        column.setSpacing(4)
        first_group = True
        for sec in secs:
            if sec.key is None:
                column.addWidget(self._grid(sec, label_w, live))
                continue
            folded = self._folded.get((model.id, sec.key),
                                      len(rest) > FOLD_ABOVE and not first_group)
            first_group = False
            # the title made before its rows: Tab (which follows the order made, `_install`)
            # reaches it above them, where it is drawn (it came after every group's rows)
            button = self._fold_button(sec, live)
            holder = self._grid(sec, label_w, live)
            self._fold(button, model.id, sec.key, holder, folded)
            column.addWidget(button)
            column.addWidget(holder)
        outer.addWidget(live)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.reset_all = QPushButton("Reset all", body)
        self.reset_all.setToolTip("every live parameter back to its default")
        self.reset_all.clicked.connect(lambda: self._reset(None))
        buttons.addWidget(self.reset_all)
        outer.addLayout(buttons)
        self.error_label = QLabel(body)
        self.error_label.setStyleSheet("color:#c0392b")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        outer.addWidget(self.error_label)
        self.prepare_box = PrepareBox(self.session, self.loop, body) \
            if model.schema.stage("prepare") else None
        if self.prepare_box is not None:
            outer.addWidget(self.prepare_box)
            for name, value in self._held.pop(model.id, {}).items():
                if name in self.prepare_box.editors:
                    self.prepare_box.hold(name, value)
        outer.addStretch(1)
        # one spin box width for the panel, so every slider is as long as the others (a wide
        # range's spin box, 1.75 beside 10000, made its slider shorter)
        # (the Prepare box's too: its sliders had been shorter than their neighbours')
        every = [*self.editors.values(),
                 *(self.prepare_box.editors.values() if self.prepare_box else ())]
        spins = [e.spin for e in every if isinstance(e, NumberEditor)]
        if spins:
            width = max(sp.sizeHint().width() for sp in spins)
            for sp in spins:
                sp.setFixedWidth(width)
        self._install(body)
        self._on_params_changed(None)
        self._on_result()

    def _grid(self, sec: Section, label_w: int, parent: QWidget) -> QWidget:
        """A grid with a row per parameter of `sec`: label, editor, reset button."""
        holder = QWidget(parent)
        grid = QGridLayout(holder)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(6)
        for row, p in enumerate(sec.params):
            label = WrapLabel(short_label(p, sec), label_w, holder)
            label.setToolTip(tooltip(p))
            editor = make_editor(p, holder)
            editor.edited.connect(self._on_edited)
            slider = getattr(editor, "slider", None)
            if isinstance(slider, QSlider):  # a drag: throttled panels wait for its end
                drag = drag_state(self.session)
                slider.sliderPressed.connect(lambda d=drag: d.set_dragging(True))
                slider.sliderReleased.connect(lambda d=drag: d.set_dragging(False))
            reset = reset_button(holder, f"reset {p.label} to {p.default!r}")
            reset.clicked.connect(lambda *_, n=p.name: self._reset(n))
            name_controls(editor, label, reset, short_label(p, sec), p)
            grid.addWidget(self._label_cell(p.name, label, label_w, holder), row, 0)
            grid.addWidget(editor, row, 1)
            grid.addWidget(reset, row, 2)
            self.editors[p.name] = editor
            self.labels[p.name] = label
            if p.needs:
                self.needing[p.name] = label
        return holder

    def _label_cell(self, name: str, label: QLabel, width: int, parent: QWidget) -> QWidget:
        """The label, and under it the note said while the parameter has no effect on this
        data (hidden until then: `_grey_idle`)."""
        cell = QWidget(parent)
        column = QVBoxLayout(cell)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(label)
        note = QLabel(cell)
        note.setWordWrap(True)
        note.setFixedWidth(width)
        note.setStyleSheet(f"color:{NOTE_GREY}; font-size: 11px")
        note.hide()
        column.addWidget(note)
        self.notes[name] = note
        return cell

    def _fold_button(self, sec: Section, parent: QWidget) -> QToolButton:
        """A section's title, which folds and unfolds it (`_fold`)."""
        b = QToolButton(parent)
        b.setText(f"{sec.title} ({len(sec.params)})")
        b.setToolTip("parameters " + ", ".join(p.name for p in sec.params))
        b.setCheckable(True)
        b.setAutoRaise(True)
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        b.setStyleSheet("QToolButton { font-weight: 600; }")
        return b

    def _fold(self, b: QToolButton, model_id: str, key: str, holder: QWidget,
              folded: bool) -> None:
        """`b` folds and unfolds `holder`, the section `key`'s rows."""
        b.setChecked(not folded)

        def show(open_: bool) -> None:
            b.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)
            holder.setVisible(open_)
            self._folded[(model_id, key)] = not open_
            if open_:  # once its rows are laid out
                QTimer.singleShot(0, self, lambda: self._fit_width(grow=True))

        show(not folded)
        b.toggled.connect(show)
        self.groups[key] = b

    def _install(self, body: QWidget) -> None:
        old = self.takeWidget()
        self.setWidget(body)
        self._body = body
        if old is not None:
            old.deleteLater()
        # Tab reaches the controls right after the panel's place in the window (after the
        # preview): made after the charts, they came last, past every chart
        # (after the stop before the panel: Qt moves nothing after a widget that takes no
        # focus, and puts what follows a scroll area after its last child; a spin box's text
        # field and a combo box's list, a window of its own, are no stops of their own)
        prev: QWidget | None = self.previousInFocusChain()
        while prev is not None and prev is not self \
                and prev.focusPolicy() == Qt.FocusPolicy.NoFocus:
            prev = prev.previousInFocusChain()
        window = self.window()
        for w in body.findChildren(QWidget):
            if prev is not None and w.focusPolicy() & Qt.FocusPolicy.TabFocus \
                    and w.window() is window \
                    and not isinstance(w.parentWidget(), QAbstractSpinBox):
                QWidget.setTabOrder(prev, w)
                prev = w
        self._fit_width()

    def _fit_width(self, grow: bool = False) -> None:
        """Never narrower than the controls need (hybrid's were cut off on the right at
        1,280 px: spin boxes, reset buttons, the prepare box's Cancel), within reason; measured
        again when a group unfolds (its rows, once shown, had cut the column off by 2 px)."""
        body = self.widget()
        if body is None:
            return
        need = (body.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
                + 2 * self.frameWidth())
        width = max(MIN_WIDTH, min(need, MAX_MIN_WIDTH))
        self.setMinimumWidth(max(width, self.minimumWidth()) if grow else width)

    def _follow_focus(self, _old: object, new: object) -> None:
        body = self._body
        if isinstance(new, QWidget) and body is not None and body.isAncestorOf(new):
            self.ensureWidgetVisible(new)

    # -- session ↔ editors -------------------------------------------------------------------

    def _on_params_changed(self, name: object) -> None:
        params = self.session.params
        for n, editor in self.editors.items():
            if (name is None or name == n) and n in params and editor.value() != params[n]:
                editor.set_value(params[n])
        self._grey_idle()

    def _on_drag(self, dragging: bool) -> None:
        if not dragging:
            self._on_result()

    def _on_result(self, *_: object) -> None:
        """A result on the data prepared: which parameters no score moves with there (an eval
        case's own topK leaves Inject limit nothing to do: `inert_params`, as tune asks);
        asked again when a drag ends, not at each of its ticks; while a prepare-stage change
        waits, the marks stay as they were."""
        s, model = self.session, self.session.model
        if model is None or drag_state(s).dragging:
            return
        if s.prepared is None:
            inert: dict[str, str] = {}
        elif s.needs_prepare:
            return
        else:
            inert = model.inert_params(s.prepared, s.params)
        if inert != self.inert:
            self.inert = inert
            self._grey_idle(force=True)

    def _grey_idle(self, force: bool = False) -> None:
        """Grey a parameter while one it needs is off (offset while Limit is 0, the early
        stop's threshold while Early stop is off); its tooltip says which. Grey the label of
        one that has no effect on this data (`inert`), its editor left to use (its value
        still goes into an export), the reason in both tooltips."""
        model = self.session.model
        if model is None:
            return
        names = self.labels if force else self.needing
        for n in names:
            if n not in self.editors:
                continue
            why = model.schema.idle_because(n, self.session.params) if n in self.needing \
                else ""
            editor, label = self.editors[n], self.labels[n]
            inert = self.inert.get(n, "")
            if not force and editor.isEnabled() == (not why):
                continue
            editor.setEnabled(not why)
            label.setEnabled(not why and not inert)
            tip = tooltip(model.schema[n])
            note = (f"<br><i>no effect while {why}</i>" if why else "") + (
                f"<br><i>no effect on this data: {inert}</i>" if inert else "")
            editor.setToolTip(f"{tip}{note}")
            label.setToolTip(f"{tip}{note}")
            # said for an inert one: its editor stays enabled (one waiting on another is
            # disabled, as it looks, and several wait on one switch: a note each was noise)
            self._note(n, "no effect here" if inert and not why else "", f"{tip}{note}")

    def _note(self, name: str, text: str, tip: str) -> None:
        """The note under `name`'s label: `text` and "ⓘ" (where the font has it: else a box),
        the reason in its tooltip; hidden where `text` is empty. Every line shows: its height
        follows its wrapped lines."""
        note = self.notes.get(name)
        if note is None:
            return
        if text and note.fontMetrics().inFontUcs4(INFO):
            text += " " + chr(INFO)
        note.setText(text)
        note.setToolTip(tip if text else "")
        if text:
            note.ensurePolished()  # its own smaller font
            note.setMinimumHeight(note.heightForWidth(note.width()))
        note.setVisible(bool(text))

    def _on_edited(self, name: str, value: object, dragging: bool) -> None:
        try:
            self.session.set_params({name: value}, record=not dragging)
        except ParamError as exc:
            self.error_label.setText(str(exc))
            self.error_label.show()
            self.editors[name].set_value(self.session.params[name])
            return
        self.error_label.hide()

    def _reset(self, name: str | None) -> None:
        model = self.session.model
        if model is None:
            return
        if name is None:
            defaults = {p.name: p.default for p in model.schema.stage("live")}
            self.session.set_params(defaults)
        else:
            self.session.reset_param(name)
