"""The parameter panel, generated from the model's schema: one editor per live parameter with
a reset button, "Reset all", and the prepare-stage parameters grouped apart (`PrepareBox`).

Moving an editor sets the session's parameter; a change of the session's parameters (undo,
load, another panel) moves the editors, without echoing back.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from workbench.core.params import ParamError
from workbench.core.session import TuningSession

from .bind import subscribe_many
from .param_editors import ParamEditor, make_editor, reset_button, tooltip
from .prepare_box import PrepareBox
from .worker import LiveLoop


class ParamPanel(QScrollArea):
    def __init__(self, session: TuningSession, loop: LiveLoop | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.loop = loop
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(300)
        self.editors: dict[str, ParamEditor] = {}
        self._body: QWidget | None = None
        self.prepare_box: PrepareBox | None = None
        self.error_label = QLabel()
        subscribe_many(self, [
            (session.model_changed, self._rebuild),
            (session.params_changed, self._on_params_changed),
        ])
        self._rebuild()

    # -- building ----------------------------------------------------------------------------

    def _rebuild(self, *_: object) -> None:
        self.editors = {}
        body = QWidget()
        outer = QVBoxLayout(body)
        outer.setContentsMargins(6, 6, 6, 6)
        model = self.session.model
        if model is None:
            outer.addWidget(QLabel("Choose a model to see its parameters."))
            outer.addStretch(1)
            self._install(body)
            return
        live = QGroupBox("Live parameters", body)
        live.setToolTip(f"{model.label}: {model.description}")
        grid = QGridLayout(live)
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(8)
        row = 0
        for p in model.schema.stage("live"):
            label = QLabel(p.label, live)
            label.setToolTip(tooltip(p))
            label.setWordWrap(True)
            label.setMinimumWidth(90)
            label.setMaximumWidth(150)
            editor = make_editor(p, live)
            editor.edited.connect(self._on_edited)
            reset = reset_button(live, f"reset {p.label} to {p.default!r}")
            reset.clicked.connect(lambda *_, n=p.name: self._reset(n))
            grid.addWidget(label, row, 0)
            grid.addWidget(editor, row, 1)
            grid.addWidget(reset, row, 2)
            self.editors[p.name] = editor
            row += 1
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.reset_all = QPushButton("Reset all", live)
        self.reset_all.setToolTip("every live parameter back to its default")
        self.reset_all.clicked.connect(lambda: self._reset(None))
        buttons.addWidget(self.reset_all)
        grid.addLayout(buttons, row, 0, 1, 3)
        outer.addWidget(live)
        self.error_label = QLabel(body)
        self.error_label.setStyleSheet("color:#c0392b")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        outer.addWidget(self.error_label)
        self.prepare_box = PrepareBox(self.session, self.loop, body) \
            if model.schema.stage("prepare") else None
        if self.prepare_box is not None:
            outer.addWidget(self.prepare_box)
        outer.addStretch(1)
        self._install(body)
        self._on_params_changed(None)

    def _install(self, body: QWidget) -> None:
        old = self.takeWidget()
        self.setWidget(body)
        self._body = body
        if old is not None:
            old.deleteLater()

    # -- session ↔ editors -------------------------------------------------------------------

    def _on_params_changed(self, name: object) -> None:
        params = self.session.params
        for n, editor in self.editors.items():
            if (name is None or name == n) and n in params and editor.value() != params[n]:
                editor.set_value(params[n])

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
