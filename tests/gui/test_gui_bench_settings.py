"""`bench --gui` keeps the window's settings in a temporary folder and removes it when it ends
(every launch measured used to leave a `workbench-bench-*` folder in the temp directory)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "sample_corpora"


def test_launch_leaves_no_settings_folder(tmp_path: Path) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), QT_QPA_PLATFORM="offscreen",
               WORKBENCH_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "workbench.bench.gui_bench", "--launch",
                           str(SAMPLES / "vault"), "vault-search", "{}"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert '"ranked_s"' in done.stdout
    assert not list(temp.iterdir())
