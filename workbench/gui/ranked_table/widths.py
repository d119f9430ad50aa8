"""How the ranked table's name, id, bar and gate columns share the room there is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Share:
    """A column's least and most width, px (most 0: it takes what is left, as the title)."""

    least: int
    most: int


def share_width(room: int, name: Share, ids: Share, bar: Share, gate: Share,
                floors: tuple[int, int] = (0, 0)) -> tuple[int, int, int, int]:
    """The widths (name, id, bars, gate) sharing `room` px. Each first gets its least; the id
    then grows to its most; what is left is shared in equal parts between the name, the gate
    and the bars, each up to its most (the name's most 0: no most), the name taking the
    rest. Where even the leasts do not fit, the gate and the bars give way alike down to
    their floors (`floors`: gate, bars), then the name."""
    widths = [name.least, ids.least, bar.least, gate.least]
    spare = room - sum(widths)
    if spare < 0:
        floor = {3: min(floors[0], widths[3]), 2: min(floors[1], widths[2])}
        while spare < 0 and any(widths[i] > f for i, f in floor.items()):
            active = [i for i, f in floor.items() if widths[i] > f]
            each = -(spare // len(active))  # a ceiling: -(-d // n)
            for i in active:
                give = min(each, widths[i] - floor[i], -spare)
                widths[i] -= give
                spare += give
        widths[0] = max(0, widths[0] + min(spare, 0))
        return widths[0], widths[1], widths[2], widths[3]
    grow = min(spare, max(0, ids.most - widths[1]))
    widths[1] += grow
    spare -= grow
    unbounded = 1 << 30
    want = {0: max(0, name.most - widths[0]) if name.most else unbounded,
            2: max(0, bar.most - widths[2]), 3: max(0, gate.most - widths[3])}
    while spare > 0:
        active = [i for i, w in want.items() if w > 0]
        each = spare // len(active) if active else 0
        if each == 0:
            break
        for i in active:
            g = min(each, want[i])
            widths[i] += g
            want[i] -= g
            spare -= g
    widths[0] += max(spare, 0)
    return widths[0], widths[1], widths[2], widths[3]
