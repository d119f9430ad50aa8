"""The window's Configurations menu: save the sliders as a named configuration, switch the
sliders to one, use one as the baseline, delete one (Edit ▸ Undo brings it back),
import/export params TOML, and open the compare view (where they are also renamed)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from workbench.core.configurations import SavedConfiguration
from workbench.core.session import TuningSession
from workbench.gui.bind import subscribe_many
from workbench.gui.compare.config_list import ConfigurationList


class ConfigurationsMenu:
    def __init__(self, window: QMainWindow, session: TuningSession,
                 show_compare: Callable[[], object],
                 manager: Callable[[], ConfigurationList]) -> None:
        """`manager()`: the list whose dialogs and actions the menu items use (the compare
        view's, made when first asked for); `show_compare` opens the compare view."""
        self.session, self._manager = session, manager
        # the dialogs' owner: the window the menu is in, not the compare view whose list
        # does the work (hidden, it had owned Save current as…'s dialog: review rv4 P)
        self._window = window
        self.menu = window.menuBar().addMenu("&Configurations")
        self.save = self._add("&Save current as…", lambda: manager().ask_save(window),
                              "Ctrl+Shift+S")
        self.switch_menu = self.menu.addMenu("S&witch sliders to")
        self.baseline_menu = self.menu.addMenu("Use as &baseline")
        # any model's, not only the compare view's list of the current model's (Undo brings it back)
        self.delete_menu = self.menu.addMenu("&Delete")
        self.menu.addSeparator()
        self.import_toml = self._add("&Import params TOML…", lambda: manager().ask_import(window))
        self.export_toml = self._add("&Export current as params TOML…", self._export_current)
        self.menu.addSeparator()
        self.compare = self._add("&Compare configurations…", show_compare, "Ctrl+K")
        self.menu.aboutToShow.connect(self.refresh)
        # the shortcuts (Ctrl+K, Ctrl+Shift+S) follow the data and model too, menu shown or not
        subscribe_many(self.menu, [(session.dataset_changed, self._refresh_enabled),
                                   (session.model_changed, self._refresh_enabled)])
        self.refresh()

    def _add(self, text: str, slot: Callable[[], object],
             shortcut: str | None = None) -> QAction:
        act = QAction(text, self.menu)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(lambda *_: slot())
        self.menu.addAction(act)
        return act

    def refresh(self) -> None:
        """Each list: the dataset's own configurations, then those made on other datasets
        under a line that says so, each named with its dataset (values tuned on one are no
        start for another; they had stood side by side, unlabelled)."""
        s = self.session
        base = s.baseline.name if s.baseline is not None else None
        here = s.configurations.dataset
        mine = [c for c in s.configurations if s.configurations.on_dataset(c)]
        others = [c for c in s.configurations if not s.configurations.on_dataset(c)]
        for menu, action in ((self.switch_menu, self.switch_to),
                             (self.baseline_menu, self.use_as_baseline),
                             (self.delete_menu, self.delete)):
            menu.clear()
            menu.setToolTipsVisible(True)
            for config in mine:
                self._item(menu, action, config, base)
            if others:
                if mine:
                    menu.addSeparator()
                heading = menu.addAction(f"made on other datasets than {here}:")
                heading.setEnabled(False)
                for config in others:
                    self._item(menu, action, config, base)
            menu.setEnabled(len(s.configurations) > 0)
        self._refresh_enabled()

    def _item(self, menu: QMenu, action: Callable[[str], None], config: SavedConfiguration,
              base: str | None) -> None:
        s = self.session
        where = [] if s.configurations.on_dataset(config) else [f"on {config.dataset}"]
        model = [] if s.model is not None and config.model_id == s.model.id \
            else [config.model_id]
        extra = ", ".join(model + where)
        act = menu.addAction(config.name + (f"  ({extra})" if extra else ""))
        act.triggered.connect(lambda *_, n=config.name, f=action: f(n))
        if where:
            act.setToolTip(f"made on {config.dataset}: values that suit it may not suit "
                           f"{s.configurations.dataset}")
        if menu is self.baseline_menu:
            act.setCheckable(True)
            act.setChecked(config.name == base)

    def _refresh_enabled(self, *_: object) -> None:
        s = self.session
        self.save.setEnabled(s.model is not None)
        self.compare.setEnabled(s.dataset is not None)  # nothing to compare before data
        self.import_toml.setEnabled(s.model is not None)
        self.export_toml.setEnabled(s.model is not None)

    def switch_to(self, name: str) -> None:
        self._manager().switch_to(name)

    def use_as_baseline(self, name: str) -> None:
        self._manager().use_as_baseline(name)

    def delete(self, name: str) -> None:
        self._manager().ask_delete(name, self._window)

    def _export_current(self) -> None:
        """The live sliders as a params TOML file (saved as a configuration first when they
        are not one yet)."""
        s = self.session
        if s.model is None:
            return
        saved = s.configurations.find(s.model.id, s.params)
        if saved is None:
            from workbench.gui.compare.config_list import suggest_name

            saved = s.save_configuration(suggest_name(s))
        manager = self._manager()
        manager.select(saved.name)
        manager.ask_export(self._window)
