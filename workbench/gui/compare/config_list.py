"""The session's named configurations as a checklist: which ones the compare view puts side by
side (the baseline first, marked), and the buttons that manage them — save the current
sliders as one, switch the sliders to one, use one as the baseline, rename, delete, import
and export params TOML.

The live sliders, where they are not saved as one of the model's configurations, are a row
of their own, "current (unsaved)", checked like the others: pinning a baseline (Ctrl+B) and
moving a slider is then a comparison at once, as the metric strip makes it (the view had said
"save the current sliders … and save again", what Ctrl+B had just done).

Every button has a method taking its answer directly (`save_current(name)`, `rename(old,
new)` …), so tests and the menus drive the same code the dialogs do.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QGridLayout,
    QInputDialog,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.configurations import (
    SavedConfiguration,
    check_name,
    read_configuration_toml,
    write_configuration_toml,
)
from workbench.core.params import ParamError
from workbench.core.pipeline import Result
from workbench.core.session import TuningSession
from workbench.gui.background import BackgroundTask
from workbench.gui.bind import subscribe_many

LIVE = "current (unsaved)"  # the live sliders' row, where they are not saved
MIN_ROWS = 6  # the configurations list's least height, in rows
LIVE_ROLE = Qt.ItemDataRole.UserRole + 1  # True on that row: no button manages it
OTHER_ROLE = Qt.ItemDataRole.UserRole + 2  # True on another model's configuration
# a configuration saved under the live row's name took that row's checked state, and pushed
# the live row to "current (unsaved) (2)" in every model's list
TAKEN_BY_LIVE = (f"{LIVE!r} is the name of the live sliders' row; save the configuration under "
                 "another name")


def is_live_name(name: str) -> bool:
    """Whether `name`, as the configurations keep it (spaces collapsed), is the live row's."""
    return " ".join(name.split()).casefold() == LIVE.casefold()


def suggest_name(session: TuningSession) -> str:
    """"defaults" for the model's defaults, else the first free "configuration N"."""
    if session.model is not None and session.params == session.model.schema.defaults():
        return session.configurations.unique_name("defaults")
    n = len(session.configurations) + 1
    while f"configuration {n}" in session.configurations:
        n += 1
    return f"configuration {n}"


class ConfigurationList(QWidget):
    """Checklist of the current model's configurations (checked = compared) and the buttons
    that manage every configuration."""

    selection_changed = Signal()
    live_changed = Signal()  # the live sliders' row came, went or moved while checked
    message = Signal(str)  # one line for the status bar (errors included)

    def __init__(self, session: TuningSession, parent: QWidget | None = None, *,
                 synchronous: bool = False) -> None:
        super().__init__(parent)
        self.session = session
        # the rows the user unchecked, and those checked, by name: a row neither names is
        # checked where it is the current model's or the baseline, unchecked where it is
        # another model's (compared only once asked for: each prepares its own model, a dense
        # one embeds the corpus)
        self._unchecked: set[str] = set()
        self._checked_others: set[str] = set()
        self._baseline_task = BackgroundTask(self, synchronous=synchronous)
        self._baseline_task.progress.connect(
            lambda f, m: self.message.emit(f"preparing the baseline … {f:.0%} {m}"))
        self._baseline_task.failed.connect(
            lambda m: self.message.emit(f"baseline not set: {m}" if m else "baseline cancelled"))
        self._baseline_task.finished.connect(self._on_baseline_computed)
        self._baseline_for: tuple[str, object] | None = None  # (name, dataset) computing
        self.list = QListWidget(self)
        self.list.setToolTip("The configurations of the current model, then those of other "
                             "models made on this dataset (check one to compare the models); "
                             "the checked ones are compared, the baseline (★) first. "
                             "Double-click: switch the sliders to it.")
        # a long name cut in its middle, whole in its tooltip (it scrolled sideways, its end,
        # where names differ — "run-2", "b=0.9" — out of sight)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemChanged.connect(self._on_item_changed)
        self.list.currentItemChanged.connect(lambda *_: self._enable())
        self.list.itemDoubleClicked.connect(self._on_double_click)
        # six rows at least, however short the window (squeezed to three, ticking and
        # renaming eight meant scrolling a box of three: rv2 dr2 1)
        self.list.setMinimumHeight(MIN_ROWS * (self.list.fontMetrics().height() + 2)
                                   + 2 * self.list.frameWidth())
        buttons = QGridLayout()
        buttons.setSpacing(2)
        self.buttons: dict[str, QPushButton] = {}
        for i, (key, text, tip, slot) in enumerate((
                ("save", "Save current…", "the live sliders as a new configuration",
                 self.ask_save),
                ("switch", "Switch to", "set the live sliders to the selected configuration",
                 lambda: self._on_selected(self.switch_to)),
                ("baseline", "Use as baseline", "compare everything against the selected "
                 "configuration", lambda: self._on_selected(self.use_as_baseline)),
                ("rename", "Rename…", "rename the selected configuration", self.ask_rename),
                ("delete", "Delete", "delete the selected configuration (Edit \u25b8 Undo "
                 "brings it back)",
                 lambda: self._on_selected(self.ask_delete)),
                ("import", "Import TOML…", "a params TOML file (what tune --out writes) as a "
                 "configuration of the current model", self.ask_import),
                ("export", "Export TOML…", "the selected configuration as a params TOML file "
                 "(for -p and compare --config)", self.ask_export))):
            b = QPushButton(text, self)
            b.setToolTip(tip)
            b.clicked.connect(lambda *_, f=slot: f())
            buttons.addWidget(b, i // 2, i % 2)
            self.buttons[key] = b
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        s = session
        # the configurations this list deleted: Edit ▸ Undo bringing one back is said (the
        # status line had gone on saying "deleted …" after the undo: r53 4)
        self._deleted: list[SavedConfiguration] = []
        # the names listed and the step Redo would take at the last change of the list: an
        # undo of a delete is a name new to the list with Redo now deleting it (rv2 3: any
        # twin of a deleted one's values, saved by hand, had been said as restored)
        self._names_seen = set(s.configurations.names)
        self._redo_seen = s.redo_name
        subscribe_many(self, [(s.configurations.changed, self.refresh),
                              (s.configurations.changed, self._say_restored),
                              (s.baseline_changed, self.refresh),
                              (s.model_changed, self._on_model_changed),
                              (s.params_changed, self._on_params_changed)])
        self._live_shown: tuple[str, object] | None = None  # (its name, its values) in the list
        self.refresh()

    # -- what is compared ---------------------------------------------------------------------

    def checked(self) -> list[str]:
        """The checked configurations' names, in the list's order (the baseline first)."""
        out = []
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(item.data(Qt.ItemDataRole.UserRole))
        return out

    def set_checked(self, name: str, on: bool) -> None:
        self._mark(name, on)
        self.refresh()
        self.selection_changed.emit()

    def _mark(self, name: str, on: bool) -> None:
        """`name` checked (on) or unchecked as the user asked, whatever its row's model."""
        (self._unchecked.discard if on else self._unchecked.add)(name)
        (self._checked_others.add if on else self._checked_others.discard)(name)

    def selected(self) -> str | None:
        """The selected saved configuration's name: None for the "other models" note and
        for the live sliders' row, which nothing can switch to, rename or delete."""
        item = self.list.currentItem()
        if item is None or item.data(LIVE_ROLE):
            return None
        name = item.data(Qt.ItemDataRole.UserRole)
        return None if name is None else str(name)

    def live_name(self) -> str | None:
        """The live sliders' row name, where their values are not saved as a configuration
        of the model (once saved, or just pinned, the saved row stands for them)."""
        s = self.session
        if s.model is None or s.configurations.find(s.model.id, s.params) is not None:
            return None
        return s.configurations.unique_name(LIVE)  # never a saved one's name

    def entry(self, name: str) -> SavedConfiguration:
        """A checked row as a configuration: a saved one, or the live sliders (with the
        queries they were tuned on, where they come from Apply best)."""
        s = self.session
        if s.model is not None and name == self.live_name():
            return SavedConfiguration(name, s.model.id, dict(s.params), s.tuned_on)
        return s.configurations.get(name)

    def _on_model_changed(self, *_: object) -> None:
        """Another model (Switch to on another model's row, the header's box): the rows
        ticked in sight stay ticked. A row neither ticked nor unticked by hand follows its
        role — the current model's checked, another's not — so the roles swapping had
        unticked the open model's rows, a comparison the user had made lost by a
        double-click. Out of sight, the roles decide (only what the user ticked is kept)."""
        if self.isVisible():  # what the user sees, ticked and unticked: a round trip to
            # another model and back gives back the comparison it left (unticked rows had
            # come back ticked)
            for row in range(self.list.count()):
                item = self.list.item(row)
                name = item.data(Qt.ItemDataRole.UserRole)
                if name is not None and not item.data(LIVE_ROLE):
                    self._mark(str(name), item.checkState() == Qt.CheckState.Checked)
        self.refresh()

    def forget_ticks(self) -> None:
        """A new set of configurations (a session opened): each row ticked by its role
        again, none by a name an earlier session's row had (a "defaults" of the last session
        had ticked the new one's)."""
        self._unchecked.clear()
        self._checked_others.clear()
        self.refresh()
        self.selection_changed.emit()

    def _on_params_changed(self, *_: object) -> None:
        """A slider moved: the live row comes, goes or holds new values; the view compares
        again where it is checked (or was)."""
        s = self.session
        live = self.live_name()
        now = (live, dict(s.params)) if live is not None else None
        if now == self._live_shown:
            return
        before = self._live_shown
        self.refresh()
        if (before is not None and before[0] not in self._unchecked) or (
                live is not None and live not in self._unchecked):
            self.live_changed.emit()

    def refresh(self, *_: object) -> None:
        s = self.session
        current = self.selected()
        base = s.baseline.name if s.baseline is not None else None
        live = self.live_name()
        self._live_shown = (live, dict(s.params)) if live is not None else None
        self.list.blockSignals(True)
        self.list.clear()
        listed = 0
        for config in s.comparable():
            other = (s.model is not None and config.model is not None
                     and config.model.id != s.model.id)
            if other and config.name != base and live is not None:
                # the live sliders are the current model's: after its rows, before the other
                # models' (listed last, its column had sat after bm25's)
                self._add_live(live)
                live = None
            star = ("" if config.name != base else " ★" if config.name.startswith("baseline")
                    else " ★ baseline")  # not "baseline ★ baseline"
            shown = config.name + star + (f"  ({config.model.id})" if other and config.model
                                          else "")
            item = QListWidgetItem(shown)
            item.setData(Qt.ItemDataRole.UserRole, config.name)
            item.setData(OTHER_ROLE, other)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            # the baseline checked whatever its model: everything is compared against it
            on = config.name in self._checked_others or (
                (not other or config.name == base) and config.name not in self._unchecked)
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            changed = ", ".join(f"{k}={v}" for k, v in
                                s.configurations.get(config.name).changed().items())
            what = changed or "the model's defaults"
            # the name whole, where it is cut
            item.setToolTip(f"{config.name}: {what}" + (
                f" — a configuration of {config.model.id}, compared with its own model (check "
                "it to set the models side by side)" if other and config.model else ""))
            self.list.addItem(item)
            listed += 1
            if config.name == current:
                self.list.setCurrentItem(item)
        if live is not None:
            self._add_live(live)
        others = len(s.configurations) - listed
        if others:  # not listed: of other models, made on other data
            note = QListWidgetItem(f"({others} of other models on other data)")
            note.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(note)
        self.list.blockSignals(False)
        self._enable()

    def _add_live(self, live: str) -> None:
        """The live sliders' row, named `live`: italic, checked unless the user unchecked it."""
        s = self.session
        if s.model is None:
            return
        item = QListWidgetItem(live)
        item.setData(Qt.ItemDataRole.UserRole, live)
        item.setData(LIVE_ROLE, True)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Unchecked if live in self._unchecked
                           else Qt.CheckState.Checked)
        changed = ", ".join(f"{k}={v}" for k, v in s.model.schema.changed(s.params).items())
        item.setToolTip(f"the live sliders, not saved ('Save current…' keeps them): "
                        f"{changed or 'the model defaults'}")
        font = item.font()
        font.setItalic(True)
        item.setFont(font)
        self.list.addItem(item)

    def _enable(self) -> None:
        s = self.session
        has = self.selected() is not None
        for key in ("switch", "baseline", "rename", "delete", "export"):
            self.buttons[key].setEnabled(has)
        self.buttons["save"].setEnabled(s.model is not None)
        self.buttons["import"].setEnabled(s.model is not None)

    def _on_double_click(self, item: QListWidgetItem) -> None:
        name = item.data(Qt.ItemDataRole.UserRole)
        if name is not None and not item.data(LIVE_ROLE):  # the live row is the sliders
            self.switch_to(str(name))

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        name = item.data(Qt.ItemDataRole.UserRole)
        if name is None:
            return
        self._mark(name, item.checkState() == Qt.CheckState.Checked)
        self.selection_changed.emit()

    # -- actions (each with its answer given) ------------------------------------------------

    def save_current(self, name: str, *, replace: bool = False) -> bool:
        if is_live_name(name):
            self.message.emit(TAKEN_BY_LIVE)
            return False
        try:
            saved = self.session.save_configuration(name, replace=replace)
        except ValueError as exc:
            self.message.emit(str(exc))
            return False
        self.select(saved.name)
        self.message.emit(f"saved the current values as {saved.name!r}")
        return True

    def switch_to(self, name: str) -> None:
        self.session.apply_configuration(name)
        self.message.emit(f"sliders set to {name!r}")

    def use_as_baseline(self, name: str) -> None:
        """Computed at once when it combines on the current prepared state; else prepared on
        a worker (progress in the status line), the window staying live."""
        s = self.session
        try:
            saved = s.configurations.get(name)
        except KeyError as exc:
            self.message.emit(str(exc.args[0]))
            return
        if s.dataset is None:
            self.message.emit("open a dataset first")
            return
        if s.prepares_alike(saved):
            self._mark(name, True)  # compared, as the first
            s.set_baseline_result(saved, s.result_of(saved))
            self.message.emit(f"{name!r} is the baseline")
            return
        self._baseline_for = (name, s.dataset)
        self._baseline_task.start(lambda progress: s.result_of(saved, progress))

    def _on_baseline_computed(self, result: object) -> None:
        s, pending = self.session, self._baseline_for
        self._baseline_for = None
        if pending is None or not isinstance(result, Result):
            return
        name, dataset = pending
        if s.dataset is dataset and name in s.configurations:  # nothing changed meanwhile
            self._mark(name, True)  # compared, as the first
            s.set_baseline_result(s.configurations.get(name), result)
            self.message.emit(f"{name!r} is the baseline")

    def rename(self, old: str, new: str) -> bool:
        if is_live_name(new):
            self.message.emit(TAKEN_BY_LIVE.replace("save the configuration under",
                                                    "choose"))
            return False
        # the row's ticks go with it before the session renames it: the rename refreshes
        # the list and compares again at once (moved after, a checked row of another model
        # had shown unchecked and dropped out, an unchecked one of this model come back)
        before = set(self._unchecked), set(self._checked_others)
        try:
            new = check_name(new)  # as the configurations keep it (spaces collapsed)
            for names in (self._unchecked, self._checked_others):
                if old in names:
                    names.discard(old)
                    names.add(new)
            self.session.rename_configuration(old, new)
        except (ValueError, KeyError) as exc:  # a name taken, empty or too long
            self._unchecked, self._checked_others = before
            self.message.emit(str(exc))
            return False
        self.select(new)
        self.selection_changed.emit()
        return True

    def delete(self, name: str) -> None:
        """Delete `name`, one undo step (`TuningSession.remove_configuration`); the status
        line says what it was (the pinned baseline, a tuning run's result) and that Edit ▸
        Undo brings it back."""
        s = self.session
        saved = s.configurations.get(name)
        what = [f"{s.configurations.described(name)}"]
        if s.baseline is not None and s.baseline.name == name:
            what.append("the pinned baseline, cleared")
        if saved.tuned_on is not None:
            what.append("a tuning run's result")
        s.remove_configuration(name)
        self._deleted.append(saved)
        # its tick kept by name: Edit ▸ Undo brings the row back as it was (a deleted name
        # is listed nowhere meanwhile)
        self.message.emit(f"deleted {name!r} ({'; '.join(what)}): Edit \u25b8 Undo (Ctrl+Z) "
                          "brings it back")

    def _say_restored(self, *_: object) -> None:
        """Said where Edit ▸ Undo took back a delete made in this list (again after each
        Redo), under the name it came back as (a free one, where one saved since took its
        own). Only the undo step itself: the name is new to the list and Redo has just become
        "delete" of it, where it was not "save" of it (that is a Redo of its save); a
        configuration saved by hand with a deleted one's values is no undo (rv2 3)."""
        s = self.session
        names, redo = set(s.configurations.names), s.redo_name
        new, was_redo = names - self._names_seen, self._redo_seen
        self._names_seen, self._redo_seen = names, redo
        if len(new) != 1 or redo == was_redo:
            return
        back = new.pop()
        if redo != _step_words("delete", back) or was_redo == _step_words("save", back):
            return
        came = s.configurations.get(back)
        if any(replace(came, name=saved.name) == saved for saved in self._deleted):
            self.message.emit(f"restored configuration {back!r}: Edit \u25b8 Undo "
                              "brought it back")

    def import_toml(self, path: str | Path) -> bool:
        s = self.session
        if s.model is None:
            return False
        try:
            said: list[str] = []
            saved = read_configuration_toml(path, s.model.id, said=said)
            # a file named "current (unsaved).toml" is not let take the live row's name
            name = s.configurations.unique_name("imported" if is_live_name(saved.name)
                                                else saved.name)
            s.configurations.save(name, saved.model_id, saved.params, tuned_on=saved.tuned_on)
        except (ParamError, ValueError) as exc:
            self.message.emit(str(exc))
            return False
        self.select(name)
        self.message.emit(f"imported {Path(path).name} as \u201c{name}\u201d"  # as typed, no repr
                          + "".join(f"; {why}" for why in said))
        return True

    def export_toml(self, name: str, path: str | Path) -> bool:
        try:
            write_configuration_toml(self.session.configurations.get(name), path)
        except OSError as exc:
            self.message.emit(f"could not write {path}: {exc}")
            return False
        self.message.emit(f"{name!r} written to {path}")
        return True

    # -- dialogs --------------------------------------------------------------------------

    def ask_save(self, owner: QWidget | None = None) -> None:
        """`owner`: the window the dialogs belong to (the Configurations menu's: the main
        window; parented to this list, they had belonged to the hidden compare window)."""
        owner = owner or self
        name, ok = QInputDialog.getText(owner, "Save configuration", "Name:",
                                        text=suggest_name(self.session))
        if not ok or not name.strip():
            return
        if is_live_name(name):  # said before asking whether to replace it
            self.message.emit(TAKEN_BY_LIVE)
            return
        replace = False
        name = " ".join(name.split())
        if name in self.session.configurations:
            answer = self._ask_replace(name, owner)
            if answer is None:
                return
            name, replace = answer
        self.save_current(name, replace=replace)

    def _ask_replace(self, name: str, owner: QWidget) -> tuple[str, bool] | None:
        """`name` is taken: (the name to save under, whether to replace), or None (Cancel).
        Names are one pool across the datasets (the compare view, a report and a session
        file tell configurations by name) while the menus list them by dataset, so the
        question says whose it is; another dataset's is kept by default, the new one saved
        as "NAME for DATASET" (a reused "mine" had replaced tea's without a word)."""
        configs = self.session.configurations
        taken = configs.get(name)
        other = not configs.on_dataset(taken)
        text = f"A configuration named {name!r} exists, {configs.described(name)}."
        if other:
            text += (f"\n\nReplacing it removes it from {taken.dataset}; Undo cannot bring "
                     "it back.")
        box = QMessageBox(QMessageBox.Icon.Question, "Save configuration", text, parent=owner)
        keep = None
        if other:
            alternative = configs.unique_name(name)
            keep = box.addButton(f"Save as {alternative!r}", QMessageBox.ButtonRole.AcceptRole)
        overwrite = box.addButton(f"Replace {taken.dataset}'s" if other else "Replace it",
                                  QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(keep or overwrite)
        box.exec()
        clicked = box.clickedButton()
        if keep is not None and clicked is keep:
            return alternative, False
        return (name, True) if clicked is overwrite else None

    def ask_delete(self, name: str, owner: QWidget | None = None) -> bool:
        """Delete `name` (the Delete button and Configurations ▸ Delete): no question, since
        Edit ▸ Undo brings it back, its tuning record and pin with it (review rv4 K; the
        question had said Undo could not). `owner`: the window the menu belongs to."""
        self.delete(name)
        return True

    def ask_rename(self) -> None:
        old = self.selected()
        if old is None:
            return
        new, ok = QInputDialog.getText(self, "Rename configuration", "New name:", text=old)
        if ok and new.strip():
            self.rename(old, new)

    def ask_import(self, owner: QWidget | None = None) -> None:
        path, _ = QFileDialog.getOpenFileName(owner or self, "Import parameters", "",
                                              "Params TOML (*.toml);;All files (*)")
        if path:
            self.import_toml(path)

    def ask_export(self, owner: QWidget | None = None) -> None:
        name = self.selected()
        if name is None:
            return
        path, _ = QFileDialog.getSaveFileName(owner or self, "Export parameters",
                                              f"{name.replace(' ', '-')}.toml",
                                              "Params TOML (*.toml)")
        if path:
            self.export_toml(name, path)

    def _on_selected(self, action: object) -> None:
        name = self.selected()
        if name is not None and callable(action):
            action(name)

    def select(self, name: str) -> None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == name:
                self.list.setCurrentItem(item)
                return


def _step_words(verb: str, name: str) -> str:
    """How the session names an undo step on `name` (`TuningSession.undo_name`, the words
    Edit ▸ Undo and Redo show): "delete “x”"."""
    return f"{verb} \u201c{name}\u201d"
