"""File ▸ Export: the ranked table as CSV, and the settings as the target system reads them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from workbench.gui.actions.state import ActionsState
from workbench.gui.errors import os_error_text
from workbench.gui.export_csv import write_ranked_csv
from workbench.gui.export_target import export_to


class ExportMixin(ActionsState):
    """The export items."""

    def ask_export_target(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self.window, "Export settings into a folder (the project, or a new one)")
        if folder:
            self.export_target_to(folder)

    def export_target_to(self, folder: str) -> bool:
        """Write the settings into `folder`; what was written in the status line, and what
        to know about it in a box."""
        try:
            done = export_to(self.w.session, folder)
        except ValueError as exc:
            self.w.show_error(f"Could not export the settings:\n{exc}")
            return False
        except OSError as exc:
            self.w.show_error(f"Could not export the settings (nothing was written):\n"
                              f"{os_error_text(exc)}")
            return False
        names = ", ".join(str(p.relative_to(folder)) for p in done.written)
        self.window.statusBar().showMessage(f"wrote {names} in {folder}", 15000)
        if done.notes:
            box = QMessageBox(QMessageBox.Icon.Information, "Settings exported",
                              f"Wrote {names} in {folder}.\n\n" + "\n\n".join(done.notes),
                              QMessageBox.StandardButton.Ok, self.window)
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.open()
            self.export_box = box
        return True

    def ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, "Export ranked table", "ranking.csv",
                                              "CSV (*.csv)")
        if path:
            try:
                n = write_ranked_csv(self.w.session, Path(path))
            except OSError as exc:
                self.w.show_error(f"Could not write {path}:\n{os_error_text(exc)}")
                return
            except ValueError as exc:  # nothing to export (no query): said, nothing written
                self.w.show_error(f"Nothing written to {path}: {exc}")
                return
            self.window.statusBar().showMessage(f"{n} rows written to {path}", 5000)
