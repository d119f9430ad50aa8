"""The ranked table for the selected query: rank, change against the baseline, id, title,
score, judged relevance, the stacked bar of signal contributions, and the gate that zeroed a
document; selecting rows selects the session's documents.

The title column hides while every row's title is its id (source files: the path twice), and
for a model that cuts a bundle (codeledger) a line marks the cut, rows below it shaded.

One file a concept: `model`, `view` (and the gate delegate), `legend`, `widths`, `signal_sizes`,
`table` (the widget).
"""

from .legend import Legend
from .model import BELOW_CUT, COLUMNS, RankedTableModel
from .table import RankedTable
from .widths import Share, share_width

__all__ = ["BELOW_CUT", "COLUMNS", "Legend", "RankedTable", "RankedTableModel", "Share",
           "share_width"]
