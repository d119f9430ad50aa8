"""`workbench screenshot OUTDIR`: the main window on each bundled sample corpus, offscreen at
a fixed size, computed synchronously, the sample's example query selected, a baseline pinned
at the sample's settings and then one slider moved (said in the status bar), saved as
OUTDIR/<sample>.png. Look at them: crowded, clipped or unreadable layouts are bugs."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import Any

from .app import SAMPLES

SIZE = (1600, 1000)


def sample_names(samples: Path = SAMPLES) -> list[str]:
    """The bundled samples the window can open (those with a workbench.toml)."""
    return sorted(p.name for p in samples.iterdir() if (p / "workbench.toml").exists())


def check_outdir(out: Path) -> None:
    """OUTDIR made (or found) and writable, before any window opens; OSError if not. Only
    OUTDIR itself is made: a folder above it that does not exist is a typo more often than
    a wish (as every other command's output path says)."""
    if not out.parent.exists():
        raise FileNotFoundError(errno.ENOENT, f"folder {out.parent} does not exist", str(out))
    if out.exists() and not out.is_dir():  # "File exists", said of a file, read as a riddle
        raise NotADirectoryError(errno.ENOTDIR, "is a file, not a folder", str(out))
    out.mkdir(exist_ok=True)
    if not os.access(out, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "folder is not writable", str(out))


def take_screenshots(outdir: str | Path, samples: Path = SAMPLES,
                     names: list[str] | None = None) -> list[Path]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from . import settings as st
    from .app import application

    with tempfile.TemporaryDirectory(prefix="workbench-shot-") as tmp:
        st.use_settings_folder(tmp)  # never the user's settings
        return _take(application(), Path(outdir), samples, names)


def _take(app: Any, out: Path, samples: Path, names: list[str] | None) -> list[Path]:
    from .main_window import MainWindow

    out.mkdir(parents=True, exist_ok=True)
    folders = sorted(p for p in samples.iterdir() if (p / "workbench.toml").exists())
    written: list[Path] = []
    for folder in folders:
        if names and folder.name not in names:
            continue
        window = MainWindow(synchronous=True, restore=False)
        window.resize(*SIZE)
        window.show()
        ds = window.session.dataset if window.open_path(folder) else None
        if ds is None or not len(ds.queries):
            print(f"skipped {folder.name}: no queries when opened as a folder "
                  "(its workbench.toml may name the file to open: data = \"...\")")
            window.close()
            continue
        app.processEvents()
        # a baseline at the sample's settings, then one live change, so that the deltas, the
        # rank changes and the movers show something
        window.session.pin_baseline()
        moved = _nudge(window)
        for _ in range(3):
            app.processEvents()
        if moved:  # the picture says its values are not the sample's
            window.statusBar().showMessage(f"screenshot: {moved}, against a baseline pinned "
                                           "at the sample's settings")
            app.processEvents()
        path = out / f"{folder.name}.png"
        if not window.grab().save(str(path)):
            window.close()
            raise OSError(errno.EIO, f"could not write {path.name}", str(path))
        written.append(path)
        window.close()
        window.deleteLater()
        app.processEvents()
    return written


def _nudge(window: object) -> str:
    """Move the first live float parameter a few steps, as a user would; what moved ("Title
    match 6 → 2"), or "" when nothing did."""
    from .main_window import MainWindow

    assert isinstance(window, MainWindow)
    s = window.session
    if s.model is None:
        return ""
    for p in s.model.schema.stage("live"):
        if p.kind == "float" and p.low is not None and p.high is not None:
            v = float(s.params[p.name])
            step = (p.step or (p.high - p.low) / 20) * 4
            target = round(v - step if v - step >= p.low else v + step, 10)
            s.set_param(p.name, target)
            return f"{p.label} {v:g} → {target:g}"
    return ""
