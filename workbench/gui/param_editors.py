"""One editor per parameter kind, built from the `Param` record alone.

Every editor emits `edited(name, value, dragging)` when the USER changes it (never when
`set_value` moves it from the session), so session → widget → session loops cannot happen.
`dragging` is True for the intermediate values of a slider drag (one undo step per drag).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QToolButton,
    QWidget,
)

from workbench.core.embeddings import PROMPT_PRESETS
from workbench.core.params import Param, ParamValue

PROMPT_PARAMS = ("query_prompt", "document_prompt")
# what the ends of a slider mean where the value alone misleads: OpenVault's blend direction,
# as its own UI labels it, and its threshold 0 that scores as 0.5 (`threshold || 0.5`), said
# as what OpenVault does with a 0: "0 = OpenVault default 0.5" beside a box showing 0.50 had
# read as "0 is 0.50" (rn 8)
# no-break spaces: in a narrow column a label wraps after its first word, not after "0 ="
END_LABELS = {
    "alpha": ("0\u00a0=\u00a0keyword only", "1\u00a0=\u00a0vector only"),
    "vector_threshold": ("OpenVault reads 0\u00a0as\u00a00.5", ""),
}


def tooltip(p: Param) -> str:
    help_lines = p.help.replace("\n", "<br>")  # a line per choice (normalisation)
    slider = (f" (the slider to {p.slider_top:g}; type a larger value)"
              if p.slider_high is not None else "")
    return f"<b>{p.label}</b> ({p.name})<br>{help_lines}<br>range: {p.range_text()}" \
           f"{slider}; default: {p.default!r}"


class ParamEditor(QWidget):
    edited = Signal(str, object, bool)  # name, value, dragging

    def __init__(self, param: Param, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.param = param
        self.setToolTip(tooltip(param))

    def value(self) -> ParamValue:
        raise NotImplementedError

    def set_value(self, value: ParamValue) -> None:
        raise NotImplementedError


SLIDER_MIN = 56  # px: a slider is never shorter than this


class _WindowUndo(QObject):
    """Leaves Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y to the window's Undo and Redo while a spin box
    (or a text parameter's field) has the focus: the box's own text undo took the keys and
    did nothing, so Edit ▸ Undo (Ctrl+Z, as the menu says) could not be reached from the
    keyboard there."""

    KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and (any(event.matches(k) for k in self.KEYS)
                     or (event.key() == Qt.Key.Key_Y
                         and event.modifiers() == Qt.KeyboardModifier.ControlModifier)):
            event.ignore()  # not the box's: the shortcut goes to the window's action
            return True
        return False


WINDOW_UNDO = _WindowUndo()


def leave_undo_to_the_window(box: QAbstractSpinBox) -> None:
    """The box and its text field pass the undo keys on (`_WindowUndo`)."""
    box.installEventFilter(WINDOW_UNDO)
    if box.lineEdit() is not None:
        box.lineEdit().installEventFilter(WINDOW_UNDO)


class NumberEditor(ParamEditor):
    """A slider over [low, slider top] and a spin box over [low, high], in the parameter's
    steps (a value past the slider's end is typed; the slider then sits at its end)."""

    def __init__(self, param: Param, parent: QWidget | None = None) -> None:
        super().__init__(param, parent)
        assert param.low is not None and param.high is not None
        self.low, self.high = float(param.low), float(param.high)
        self.top = param.slider_top
        self.is_int = param.kind == "int"
        step = param.step or (1.0 if self.is_int else (self.top - self.low) / 100)
        self.steps = max(1, round((self.top - self.low) / step))
        self.step = (self.top - self.low) / self.steps
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setMinimumWidth(SLIDER_MIN)  # a 15 px stub read as a check box
        self.slider.setRange(0, self.steps)
        self.slider.setPageStep(max(1, self.steps // 10))
        self.spin: QSpinBox | QDoubleSpinBox
        if self.is_int:
            self.spin = QSpinBox(self)
            self.spin.setRange(int(self.low), int(self.high))
        else:
            self.spin = QDoubleSpinBox(self)
            self.spin.setDecimals(_decimals(self.step))
            self.spin.setRange(self.low, self.high)
            self.spin.setSingleStep(self.step)
        self.spin.setKeyboardTracking(False)
        leave_undo_to_the_window(self.spin)
        if param.zero and self.low == 0:
            self.spin.setSpecialValueText(param.zero)  # shown at 0: "all", "no limit"
        self.spin.setMinimumWidth(72)
        self.spin.setAlignment(Qt.AlignmentFlag.AlignRight)
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setHorizontalSpacing(6)
        layout.setVerticalSpacing(0)
        layout.addWidget(self.slider, 0, 0)
        layout.addWidget(self.spin, 0, 1)
        if param.name in END_LABELS:
            ends = QHBoxLayout()
            left, right = (QLabel(text, self) for text in END_LABELS[param.name])
            for lab in (left, right):
                lab.setStyleSheet("color:#57606a; font-size: 11px")
                lab.setWordWrap(True)  # one line each where there is room, else two:
                # side by side they held hybrid's whole panel 70 px wider than its column
            right.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            ends.addWidget(left)
            ends.addSpacing(10)  # the two ends never run into one another
            ends.addStretch(1)
            ends.addWidget(right)
            layout.addLayout(ends, 1, 0, 1, 2)
        self._dragging = False
        self.set_value(param.default)
        self.slider.valueChanged.connect(self._on_slider)
        self.slider.sliderPressed.connect(self._on_pressed)
        self.slider.sliderReleased.connect(self._on_released)
        self.spin.valueChanged.connect(self._on_spin)

    def value(self) -> ParamValue:
        v = self.spin.value()
        return int(v) if self.is_int else float(v)

    def set_value(self, value: ParamValue) -> None:
        v = float(value)
        for w in (self.slider, self.spin):
            w.blockSignals(True)
        self._set_spin(v)
        self.slider.setValue(self._position(v))
        for w in (self.slider, self.spin):
            w.blockSignals(False)

    def _set_spin(self, v: float) -> None:
        if isinstance(self.spin, QSpinBox):
            self.spin.setValue(round(v))
        else:
            # a value off the step's grid (6.5 from a params file, a step of 1) is shown, and
            # kept, with the decimals it needs rather than rounded to the grid's
            # … and back to the step's once the value is on it again (6.5, then 6: "6")
            decimals = max(_decimals(self.step), _decimals(v))
            if decimals != self.spin.decimals():
                self.spin.setDecimals(decimals)
            self.spin.setValue(v)

    def _position(self, v: float) -> int:
        return max(0, min(self.steps, round((v - self.low) / self.step)))

    def _from_position(self, i: int) -> float:
        v = self.low + i * self.step
        v = min(self.top, max(self.low, round(v, 10)))
        return float(round(v)) if self.is_int else v

    def _on_pressed(self) -> None:
        self._dragging = True
        self._first = True

    def _on_released(self) -> None:
        self._dragging = False
        self.edited.emit(self.param.name, self.value(), False)

    def _on_slider(self, i: int) -> None:
        v = self._from_position(i)
        self.spin.blockSignals(True)
        self._set_spin(v)
        self.spin.blockSignals(False)
        # the first value of a drag is recorded for undo, the rest of the drag is not
        dragging = self._dragging and not getattr(self, "_first", False)
        self._first = False
        self.edited.emit(self.param.name, self.value(), dragging)

    def _on_spin(self, v: float) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(self._position(float(v)))
        self.slider.blockSignals(False)
        self.edited.emit(self.param.name, self.value(), False)


class BoolEditor(ParamEditor):
    def __init__(self, param: Param, parent: QWidget | None = None) -> None:
        super().__init__(param, parent)
        self.box = QCheckBox(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.box)
        layout.addStretch(1)
        self.set_value(param.default)
        self.box.toggled.connect(lambda on: self.edited.emit(self.param.name, bool(on), False))

    def value(self) -> ParamValue:
        return self.box.isChecked()

    def set_value(self, value: ParamValue) -> None:
        self.box.blockSignals(True)
        self.box.setChecked(bool(value))
        self.box.blockSignals(False)


class ChoiceEditor(ParamEditor):
    def __init__(self, param: Param, parent: QWidget | None = None) -> None:
        super().__init__(param, parent)
        self.combo = QComboBox(self)
        _compact(self.combo)
        self.combo.addItems(list(param.choices))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo)
        self.set_value(param.default)
        self.combo.currentTextChanged.connect(
            lambda text: self.edited.emit(self.param.name, text, False))

    def value(self) -> ParamValue:
        return self.combo.currentText()

    def set_value(self, value: ParamValue) -> None:
        self.combo.blockSignals(True)
        self.combo.setCurrentText(str(value))
        self.combo.blockSignals(False)


class TextEditor(ParamEditor):
    """A line edit; prompts get an editable combo of the presets (custom text allowed)."""

    def __init__(self, param: Param, parent: QWidget | None = None) -> None:
        super().__init__(param, parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.combo: QComboBox | None = None
        if param.name in PROMPT_PARAMS:
            self.combo = QComboBox(self)
            self.combo.setEditable(True)
            _compact(self.combo)
            for name, text in PROMPT_PRESETS.items():
                self.combo.addItem(text, name)
                self.combo.setItemData(self.combo.count() - 1, f"preset: {name}",
                                       Qt.ItemDataRole.ToolTipRole)
            edit = self.combo.lineEdit()
            assert edit is not None
            self.line = edit
            layout.addWidget(self.combo, 1)  # the field takes the row, the mark its own
            self.combo.activated.connect(lambda *_: self._emit())
        else:
            self.line = QLineEdit(self)
            layout.addWidget(self.line, 1)
        # a space at the end is part of the text (a prompt's "query: ") and a line edit
        # draws none: this mark says it is there
        self.trailing = QLabel(self)
        self.trailing.setStyleSheet("color:#57606a")
        self.trailing.setAccessibleName("trailing spaces")
        layout.addWidget(self.trailing)
        # Ctrl+Z is Edit ▸ Undo here too, as in a spin box: the field's own undo had taken
        # back the text of a value applied, the session keeping it
        self.line.installEventFilter(WINDOW_UNDO)
        self.line.setPlaceholderText("(none)")
        self.line.textChanged.connect(self._mark_trailing)
        self.set_value(param.default)
        self.line.editingFinished.connect(self._emit)

    def _mark_trailing(self, text: str) -> None:
        n = len(text) - len(text.rstrip())
        tail = text[len(text) - n:]
        self.trailing.setText("" if not n else "␣" * n if n <= 3 else f"␣×{n}")
        what = "space" if tail == " " * n else "blank character"
        self.trailing.setToolTip(f"the text ends with {n} {what}{'s' if n > 1 else ''}, "
                                 "part of it as typed" if n else "")
        self.trailing.setVisible(bool(n))

    def _emit(self) -> None:
        self.edited.emit(self.param.name, self.value(), False)

    def value(self) -> ParamValue:
        return self.line.text()

    def set_value(self, value: ParamValue) -> None:
        self.line.blockSignals(True)
        self.line.setText(str(value))
        if not self.line.hasFocus():  # a long prompt shown from its start, not its end
            self.line.setCursorPosition(0)
        self.line.blockSignals(False)
        self._mark_trailing(self.line.text())


class ElidedLabel(QLabel):
    """A one-line label that elides its text at the right when narrower than it (the full
    text in its tooltip), so a long parameter label neither wraps nor clips."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("W…") + 4, self.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             rect.width())
        p.setPen(self.palette().color(self.foregroundRole()))
        p.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
        p.end()


def make_editor(param: Param, parent: QWidget | None = None) -> ParamEditor:
    kinds: dict[str, type[ParamEditor]] = {"float": NumberEditor, "int": NumberEditor,
                                           "bool": BoolEditor, "choice": ChoiceEditor,
                                           "text": TextEditor}
    return kinds[param.kind](param, parent)


def reset_button(parent: QWidget, tip: str) -> QToolButton:
    b = QToolButton(parent)
    b.setText("↺")
    b.setToolTip(tip)
    b.setAutoRaise(True)
    return b


def name_controls(editor: QWidget, label: QLabel, reset: QWidget, name: str,
                  param: Param) -> None:
    """What a screen reader says of a parameter's controls: its label as their name, its
    help as their description, the label their buddy (none had a name: a slider read "0"),
    and the reset button named for what it resets (it read "↺")."""
    controls = [w for w in editor.findChildren(QWidget)
                if w.focusPolicy() != Qt.FocusPolicy.NoFocus]
    for control in controls:
        control.setAccessibleName(name)
        control.setAccessibleDescription(param.help)
    if controls:
        label.setBuddy(controls[0])
    reset.setAccessibleName(f"Reset {name} to its default")


def _compact(combo: QComboBox) -> None:
    """A combo sized by a few characters, not by its longest item (long prompt presets
    would otherwise widen the whole panel)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(8)


def _decimals(step: float) -> int:
    """Decimals a value on a grid of `step` needs: none for a whole step (a token count of
    4000 read "4000.0", days "90.0")."""
    for d in range(0, 7):
        if abs(step * 10 ** d - round(step * 10 ** d)) < 1e-9:
            return d
    return 6
