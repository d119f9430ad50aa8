"""A chart export that cannot be written whole (a full disk: here a file-size limit, which
fails a write the way a full disk does, without needing one) raises, keeps the file that was
at the path and leaves no temporary file. Qt's own writers wrote in place: the export said it
had worked and left an empty or cut-off file where the old one was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests.conftest import REPO, SAMPLES

SCRIPT = textwrap.dedent("""
    import json, os, resource, signal, sys
    from pathlib import Path
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication
    from workbench.gui.charts import ContributionChart, MoversList
    from workbench.gui.charts._standalone import open_session

    out, sample = Path(sys.argv[1]), Path(sys.argv[2])
    app = QApplication([])
    session = open_session(sample, "bm25")
    session.pin_baseline()  # movers to list: an empty list is not exported (dr4 12)
    session.set_param("k1", 0.4)
    session.recompute()
    panels = {"contributions": ContributionChart(session), "movers": MoversList(session)}
    for panel in panels.values():
        panel.resize(900, 520)
        panel.show()
    app.processEvents()
    targets = [("contributions", ".png"), ("contributions", ".svg"), ("movers", ".svg"),
               ("movers", ".png")]
    for name, suffix in targets:
        (out / f"{name}{suffix}").write_bytes(b"the chart exported yesterday")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (2000, resource.RLIM_INFINITY))
    said = {}
    for name, suffix in targets:
        try:
            panels[name].export(out / f"{name}{suffix}")
            said[name + suffix] = "written"
        except OSError as exc:
            said[name + suffix] = "OSError"
    print(json.dumps(said))
""")


def test_an_export_that_cannot_be_written_whole_raises_and_keeps_the_old_file(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), str(SAMPLES / "tea-beir")],
                          cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert said == {"contributions.png": "OSError", "contributions.svg": "OSError",
                    "movers.svg": "OSError", "movers.png": "OSError"}
    for path in tmp_path.iterdir():
        assert path.read_bytes() == b"the chart exported yesterday", path.name
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "contributions.png", "contributions.svg", "movers.png", "movers.svg"]
