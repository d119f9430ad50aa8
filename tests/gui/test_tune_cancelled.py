"""After Cancel the Tune tab says no held-out value comes and names the best trial so far as
unvalidated (review r49 rt 9: 'Cancelled.' over an empty table, and the chart still read
'(held out: when it ends)')."""

from __future__ import annotations

import math
from types import SimpleNamespace

from pytestqt.qtbot import QtBot


def test_a_cancelled_run_says_so_in_the_chart_and_keeps_the_best_so_far(qtbot: QtBot) -> None:
    from workbench.gui.tune_results import TuneView

    view = TuneView()
    qtbot.addWidget(view)
    for number, train in enumerate([0.6131, 0.6200, 0.6353, 0.6010]):
        view.add_trial(SimpleNamespace(study="tea/fold 2 of 3", number=number, train=(train,),
                                       held_out=(math.nan,)), maximize=True)
    assert "(held out: when it ends)" in " ".join(view.curve._pieces)
    view.cancelled()
    caption = " ".join(view.curve._pieces)
    assert "(held out: not scored, cancelled)" in caption and "when it ends" not in caption
    text = view.results.summary.text()
    assert "Cancelled: no held-out score, nothing to apply." in text
    assert "best on training so far in fold 2 of 3: trial 2 (0.6353), not validated" in text
