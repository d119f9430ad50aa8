"""An embedding run's progress over the whole set of texts, and about how long the rest
will take, reckoned in characters from the steps finished."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.core.engine import Progress
from workbench.core.sizes import duration_text


class _Pace:
    """How long the texts left will take, reckoned from the steps finished: in characters
    (the texts go longest first, so texts a second would overstate what is left), each
    text's counted up to what the model reads of it plus a fixed part (`text_cost`)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.cum = np.concatenate([[0], np.cumsum([text_cost(t) for t in texts])])
        self.cost = 0
        self.seconds = 0.0

    def finished(self, start: int, stop: int, seconds: float) -> None:
        """Texts [start, stop) of the order took `seconds`."""
        self.cost += int(self.cum[stop] - self.cum[start])
        self.seconds += seconds

    def left(self, done: int) -> str:
        """"about 3 min left" once a step has been timed, with `done` texts embedded; ""
        before, or when less than a second is left."""
        if self.cost <= 0 or self.seconds <= 0 or done >= len(self.cum) - 1:
            return ""
        rest = float(self.cum[-1] - self.cum[done]) * self.seconds / self.cost
        return f"about {duration_text(rest)} left" if rest >= 1 else ""


# an embedding costs more with its text up to what the model reads of it (all-MiniLM-L6-v2:
# 256 word pieces, some 1,200 characters of English), plus a part every text pays
READ_CHARS, TEXT_OVERHEAD = 1200, 100


def text_cost(text: str) -> int:
    """A text's share of an embedding run's time, in characters (`_Pace`)."""
    return min(len(text), READ_CHARS) + TEXT_OVERHEAD


def _whole_set(progress: Progress, done: int, size: int, total: int, cached: int,
               what: str = "texts", dropped: int = 0,
               pace: _Pace | None = None) -> Progress:
    """A chunk's progress said over the whole set: 'embedding 2,300/5,183 texts', never the
    position inside the chunk; with the texts the cache had, the damaged cache files
    whose texts are embedded again (why they wait), and, once a step is timed, about how
    long the rest will take."""
    outer = progress.on_progress
    said = [f"{cached:,} from the cache"] if cached else []
    if dropped:
        said.append(f"{dropped:,} damaged cache file{'s' if dropped != 1 else ''} left "
                    "unread")
    suffix = f" ({'; '.join(said)})" if said else ""

    def report(fraction: float, _message: str) -> None:
        if outer is not None:
            n = done + round(fraction * size)
            left = pace.left(n) if pace is not None else ""
            outer(n / total, f"embedding {n:,}/{total:,} {what}{suffix}"
                  + (f", {left}" if left else ""))

    return _StepProgress(on_progress=report if outer else None,
                         should_stop=progress.should_stop)


class _StepProgress(Progress):
    """A step's progress: a cancel is honoured at every call but the last (fraction 1, the
    step encoded), so that a step finished is kept, not dropped as it returns; the next
    step's first call stops the run."""

    def __call__(self, fraction: float, message: str = "") -> None:
        if fraction < 1.0:
            super().__call__(fraction, message)
        elif self.on_progress is not None:
            self.on_progress(1.0, message)
