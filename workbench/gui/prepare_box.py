"""Prepare-stage parameters, grouped apart: tokenizer options, embedding model, prompts.

Editing them costs a new prepare stage (seconds to minutes of re-embedding), so edits are held
here until "Re-embed / Recompute" applies them ("Re-index" for a model with no embedding model:
it has nothing to embed); the work then runs on the loop's cancellable worker with a progress
bar and Cancel. Without a loop (the panel alone) it runs inline.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QWidget,
)

from workbench.core.engine import Model
from workbench.core.params import Param, ParamError, ParamValue
from workbench.core.session import TuningSession

from .bind import subscribe_many
from .param_editors import (
    NumberEditor,
    ParamEditor,
    TextEditor,
    make_editor,
    name_controls,
    reset_button,
    tooltip,
)
from .worker import LiveLoop

_NOTHING = object()


def embeds(model: Model | None) -> bool:
    """Whether the model's prepare stage embeds texts (it has an embedding model to choose)."""
    return model is not None and "embedding_model" in model.schema


class PrepareBox(QGroupBox):
    def __init__(self, session: TuningSession, loop: LiveLoop | None = None,
                 parent: QWidget | None = None) -> None:
        embedding = embeds(session.model)
        super().__init__("Prepare (re-embeds / re-indexes)" if embedding
                         else "Prepare (re-indexes)", parent)
        self.verb = "Re-embed / Recompute" if embedding else "Re-index"
        self.session = session
        self.loop = loop
        self.pending: dict[str, ParamValue] = {}
        # name → why the text in its field was refused: shown in red until corrected, and
        # Re-index refuses meanwhile (it had applied the edit held before the refused one)
        self.refused: dict[str, str] = {}
        self._shown: dict[str, ParamValue] = {}  # each session value the editors were given
        self._opened = session.opened  # the data the held edits are for
        self._warned: tuple[object, list[str]] = (None, [])  # (what they were for, warnings)
        self.editors: dict[str, ParamEditor] = {}
        self.labels: dict[str, QLabel] = {}
        self.resets: dict[str, QWidget] = {}
        grid = QGridLayout(self)
        grid.setColumnStretch(1, 1)
        model = session.model
        row = 0
        for p in model.schema.stage("prepare") if model is not None else ():
            label = QLabel(p.label, self)
            label.setToolTip(tooltip(p))
            label.setWordWrap(True)
            label.setMaximumWidth(150)
            editor = make_editor(p, self)
            editor.edited.connect(self._on_edited)
            reset = reset_button(self, f"reset {p.label} to {p.default!r}")
            reset.clicked.connect(lambda *_, p=p: self._stage(p.name, p.default, move=True))
            # named as the live ones are (a screen reader read "phrases_emphasis" and "↺")
            name_controls(editor, label, reset, p.label, p)
            grid.addWidget(label, row, 0)
            grid.addWidget(editor, row, 1)
            grid.addWidget(reset, row, 2)
            self.editors[p.name] = editor
            self.labels[p.name] = label
            self.resets[p.name] = reset
            row += 1
        self.button = QPushButton(self.verb, self)
        self.button.setToolTip("apply the prepare-stage parameters above and run the prepare "
                               "stage again (Ctrl+R)")
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setEnabled(False)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        self.status.setStyleSheet("color:#57606a")
        buttons = QHBoxLayout()
        buttons.addWidget(self.button, 1)
        buttons.addWidget(self.cancel)
        grid.addLayout(buttons, row, 0, 1, 3)
        grid.addWidget(self.progress, row + 1, 0, 1, 3)
        grid.addWidget(self.status, row + 2, 0, 1, 3)
        self.button.clicked.connect(self.apply)
        self.cancel.clicked.connect(self._on_cancel)
        if loop is not None:
            loop.prepare_started.connect(self._on_started)
            loop.prepare_progress.connect(self._on_progress)
            loop.prepare_finished.connect(self._on_finished)
            loop.prepare_cancelling.connect(self._on_cancelling)
            if loop.preparing:
                self._on_started("preparing")
        subscribe_many(self, [(session.params_changed, self._on_params_changed),
                              (session.dataset_changed, self._drop_held)])
        self._on_params_changed(None)

    def apply(self) -> None:
        """Apply the held edits and run the prepare stage (again, if nothing changed); not
        while a field's text is refused (the edit held before it had been applied). The
        text in a field not yet left is taken first (`commit`)."""
        self.commit()
        if self.refused:  # said with the edits held beside it (they had vanished from view)
            self._update_status(not_run=True)
            return
        pending, self.pending = self.pending, {}
        try:
            if pending:
                self.session.set_params(pending)  # → prepare_needed → the loop prepares
        except ParamError as exc:
            self.pending = pending  # still held: nothing was applied
            self._update_status()
            self.status.setText(f"<span style='color:#c0392b'>{html.escape(self.verb)} not "
                                f"run: {html.escape(str(exc))}</span><br>"
                                + self.status.text())
            return
        if self.loop is None:
            self.session.recompute()
            self.status.setText("prepared")
        elif not self.loop.preparing:
            self.loop.prepare()
        self._update_status()

    def commit(self) -> None:
        """The text in each field and the number typed in each spin box taken as Enter takes
        them: Ctrl+R with the cursor still in a field had prepared without the text typed
        there (a field's edit is held when it is left, or on Enter)."""
        for n, editor in self.editors.items():
            if isinstance(editor, NumberEditor):
                editor.spin.interpretText()  # → `edited` where the number typed differs
            elif isinstance(editor, TextEditor) \
                    and editor.value() != self.pending.get(n, self.session.params.get(n)):
                self._stage(n, editor.value(), move=False)

    def _drop_held(self, *_: object) -> None:
        """Another dataset (or a session file) opened: its values are what the box shows,
        an edit held for the last one no longer (the next Re-embed had applied it). A query
        typed into the same data keeps it."""
        if self.session.opened == self._opened:
            return
        self._opened = self.session.opened
        self.pending.clear()
        self.refused.clear()
        self._shown.clear()  # the values shown again, over what was held or typed
        self._on_params_changed(None)

    def hold(self, name: str, value: object) -> None:
        """Show `value` in `name`'s editor as an edit held for the next prepare."""
        self._stage(name, value, move=True)

    def _on_edited(self, name: str, value: object, _dragging: bool) -> None:
        self._stage(name, value, move=False)

    def _stage(self, name: str, value: object, *, move: bool) -> None:
        p = self.editors[name].param
        try:
            v = p.validate(value)
        except ParamError as exc:
            # the field shows the text refused, not the edit held before it: that goes (the
            # next Re-index had applied it, and the text typed vanished without a word)
            self.pending.pop(name, None)
            self.refused[name] = f"{p.label}: {_reason(p, exc)}"
            self._update_status()
            return
        self.refused.pop(name, None)
        if move or (isinstance(value, str) and any(c in value for c in "\r\n\t")):
            # a list pasted one per line, shown as the one line it reads as (a line edit
            # draws no line break: "broke failed" read as one phrase)
            self.editors[name].set_value(v)
        if v == self.session.params.get(name):
            self.pending.pop(name, None)
        else:
            self.pending[name] = v
        self._update_status()

    def _on_params_changed(self, _name: object) -> None:
        """The session's values shown: an edit held for a value the session now has (an
        undo back to it) is no longer held (the box had claimed a change that changed
        nothing); a field whose value did not change keeps the text typed in it."""
        for n, editor in self.editors.items():
            v = self.session.params.get(n)
            if v is None:
                continue
            if n in self.pending and self.pending[n] == v:
                del self.pending[n]
            if n not in self.pending and self._shown.get(n, _NOTHING) != v \
                    and editor.value() != v:
                editor.set_value(v)
                self.refused.pop(n, None)
            self._shown[n] = v
        self._update_status()

    def _grey_idle(self) -> None:
        """Grey a parameter while one it needs is off at the values shown, held edits
        included (hybrid's embedding model under stored embeddings): nothing to re-embed for
        it; its tooltip says why."""
        model = self.session.model
        if model is None:
            return
        values = {**self.session.params, **self.pending}
        for n, editor in self.editors.items():
            # a box of the model being replaced hears the new model's first change
            if not editor.param.needs or n not in model.schema.by_name:
                continue
            why = model.schema.idle_because(n, values)
            tip = tooltip(editor.param) + (f"<br><i>no effect while {why}</i>" if why else "")
            for widget in (editor, self.labels[n]):
                widget.setEnabled(not why)
                widget.setToolTip(tip)
            self.resets[n].setEnabled(not why)

    def _update_status(self, *, not_run: bool = False) -> None:
        """What the box holds and whether it is prepared; a refused text first, in red
        (`not_run`: as the reason Re-index just did not run), the edits held beside it named
        (they wait for it)."""
        self._grey_idle()
        if self.loop is not None and self.loop.preparing:
            return
        head = f"{self.verb} not run: " if not_run else ""
        refused = (f"<span style='color:#c0392b'>{html.escape(head)}{self._refusals()}"
                   "</span><br>" if self.refused else "")
        if self.pending and self.refused:
            n = len(self.pending)
            names = ", ".join(self.editors[k].param.label for k in self.pending)
            they = "they are" if len(self.refused) > 1 else "it is"
            self.status.setText(f"{n} change{'s' if n > 1 else ''} held, applied once {they} "
                                f"corrected ({names})")
        elif self.pending:
            n = len(self.pending)
            self.status.setText(f"{n} change{'s' if n > 1 else ''} held: press "
                                f"{self.verb} to apply")
        elif self.session.needs_prepare:
            self.status.setText(
                f"not prepared for these parameters: press {self.verb}"
                + ("; the results shown are the previous preparation's, with the live values"
                   if self.session.prepared is not None else ""))
        else:
            self.status.setText("prepared for these parameters"
                                if self.session.prepared is not None else "")
        if refused:
            self.status.setText(refused + html.escape(self.status.text()))
        warnings = self._data_warnings()
        if warnings:  # what the command line prints as "warning:" on these parameters
            self.status.setText(self.status.text() + "".join(
                f"<br><span style='color:#9a6700'>⚠ {html.escape(w)}</span>" for w in warnings))

    def _refusals(self) -> str:
        return "; ".join(html.escape(r) for r in self.refused.values()) + (
            " (not taken: correct it, or ↺ for the default)")

    def _data_warnings(self) -> list[str]:
        """The model's data warnings, worked out again only when the data, the model or a
        prepare-stage value changes (a scan of every document: 48 ms on a slider tick at
        500k documents)."""
        s = self.session
        if s.model is None or s.dataset is None:
            return []
        params = {**s.params, **self.pending}
        key = (id(s.dataset), s.model.id, tuple(sorted(
            (k, repr(v)) for k, v in s.model.schema.prepare_values(params).items())))
        if key != self._warned[0]:
            self._warned = (key, s.model.data_warnings(s.dataset, params))
        return self._warned[1]

    def _on_started(self, what: str) -> None:
        self.cancel.setEnabled(True)
        self.progress.setValue(0)
        self.status.setText(what + " …")

    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(fraction * 1000))
        if message:
            self.status.setText(message)

    def _on_finished(self, outcome: str) -> None:
        self.cancel.setEnabled(False)
        if outcome == "":
            # empty again: a full bar at rest read as work still running
            self.progress.setValue(0)
            self._update_status()
        elif outcome == "cancelled":
            self.progress.setValue(0)
            kept = ""  # what the cache kept of it, as the command line says
            note = self.loop.cancel_note if self.loop is not None else ""
            if note:
                note = note.replace("the same command goes on", "it goes on")
                kept = " " + html.escape(note[:1].upper() + note[1:]).rstrip(".") + "."
            # "finish" only where the cache kept work to go on from
            again = ("to go on" if note and "goes on" in note else "to start again")
            shown = ("results still show the previous preparation" if self.session.prepared
                     is not None else "nothing is prepared yet")
            self.status.setText(f"cancelled: {shown}; press {self.verb} {again}.{kept}")
        else:
            self.progress.setValue(0)
            self.status.setText(f"<span style='color:#c0392b'>prepare failed: {outcome}</span>")

    def _on_cancel(self) -> None:
        if self.loop is not None:
            self.loop.cancel_prepare()

    def _on_cancelling(self) -> None:
        # the worker stops at its next step (an encoder batch: seconds): said meanwhile
        self.cancel.setEnabled(False)
        self.status.setText("cancelling: stops after the step under way …")


def _reason(p: Param, exc: ParamError) -> str:
    """Why `p` refused a value, without its internal name or the value (the field shows it):
    "parameter phrases_failure: at most 4,000 characters, got '…'" → "at most 4,000
    characters"."""
    text = str(exc)
    for prefix in (f"parameter {p.name}: ", f"parameter {p.name} "):
        text = text.removeprefix(prefix)
    return text.split(", got ")[0]
