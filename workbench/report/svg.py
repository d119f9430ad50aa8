"""Small inline SVG charts for the HTML report: strings of `<svg>` markup, no script, no
external reference, styled by the page's CSS classes (`up`, `down`, `flat`, `rel`, `nonrel`,
`all`, `axis`, `grid`, `zero`, `hit`).

- `nice_ticks(lo, hi)`: round axis values (1, 2 or 5 × 10^k steps) covering [lo, hi].
- `bar_chart(values, titles)`: one bar per value from a zero line, in the order given (the
  report sorts them), each with a hover `<title>`.
- `histogram(series)`: each series' share of its values per bin, side by side in shared bins.

Every title and label is escaped here; callers pass plain text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

import numpy as np
from numpy.typing import NDArray

LEFT, RIGHT, TOP, BOTTOM = 56, 12, 12, 34  # plot margins, px


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About `n` round values from ≤ lo to ≥ hi."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(n - 1, 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(s * mag for s in (1, 2, 5, 10) if s * mag >= raw)
    first = math.floor(lo / step + 1e-9)
    last = math.ceil(hi / step - 1e-9)
    return [round(i * step, 12) for i in range(first, last + 1)]


def _num(x: float) -> str:
    return f"{x:.1f}"


def _tick_label(x: float) -> str:
    return "0" if x == 0 else f"{x:.4g}".replace("-", "−")


def _y_axis(ticks: Sequence[float], y: Sequence[float], width: int, label: str, *,
            percent: bool = False) -> list[str]:
    out = []
    for t, yy in zip(ticks, y, strict=True):
        text = f"{t:.0%}" if percent else _tick_label(t)
        out.append(f'<line class="grid" x1="{LEFT}" x2="{width - RIGHT}" y1="{_num(yy)}" '
                   f'y2="{_num(yy)}"/>')
        out.append(f'<text class="axis" x="{LEFT - 6}" y="{_num(yy + 4)}" '
                   f'text-anchor="end">{text}</text>')
    if label:
        out.append(f'<text class="axis" transform="translate(12,{TOP + 4}) rotate(-90)" '
                   f'text-anchor="end">{escape(label)}</text>')
    return out


def bar_chart(values: Sequence[float], titles: Sequence[str], *, width: int = 960,
              height: int = 240, y_label: str = "", x_label: str = "", better: int = 1) -> str:
    """One bar per value, drawn from zero (green better, red worse, a grey tick at zero),
    with `titles[i]` as bar i's hover text; a y axis with round ticks and the zero line.
    `better`: 1 where a value above zero is better, -1 where below, 0 neither (a cost: every
    bar grey)."""
    v = np.asarray(values, np.float64)
    lo, hi = (float(v.min()), float(v.max())) if v.size else (0.0, 0.0)
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 1e-12:
        lo, hi = -0.05, 0.05
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    plot_h = height - TOP - BOTTOM
    plot_w = width - LEFT - RIGHT

    def y_of(x: float) -> float:
        return TOP + (hi - x) / (hi - lo) * plot_h

    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img">']
    out += _y_axis(ticks, [y_of(t) for t in ticks], width, y_label)
    step = plot_w / max(len(v), 1)
    gap = 1.0 if step >= 4 else 0.0
    zero = y_of(0.0)
    for i, (x, title) in enumerate(zip(v.tolist(), titles, strict=True)):
        left = LEFT + i * step
        kind = ("flat" if x == 0 else "cost" if not better
                else "up" if x * better > 0 else "down")
        top, bottom = (y_of(x), zero) if x > 0 else (zero, y_of(x))
        if kind == "flat":
            top, bottom = zero - 1, zero + 1
        out.append(f'<g class="bar"><title>{escape(title)}</title>'
                   f'<rect class="hit" x="{_num(left)}" y="{TOP}" width="{_num(step)}" '
                   f'height="{plot_h}"/>'
                   f'<rect class="{kind}" x="{_num(left + gap / 2)}" y="{_num(top)}" '
                   f'width="{_num(max(step - gap, 0.5))}" height="{_num(max(bottom - top, 1))}"/>'
                   f'</g>')
    out.append(f'<line class="zero" x1="{LEFT}" x2="{width - RIGHT}" y1="{_num(zero)}" '
               f'y2="{_num(zero)}"/>')
    if x_label:
        out.append(f'<text class="axis" x="{LEFT + plot_w / 2:.1f}" y="{height - 10}" '
                   f'text-anchor="middle">{escape(x_label)}</text>')
    out.append("</svg>")
    return "".join(out)


def histogram(series: Sequence[tuple[str, str, NDArray[np.float64]]], *, bins: int = 20,
              width: int = 480, height: int = 220, x_label: str = "") -> str:
    """Each (label, css class, values) series as its share of its values per bin, the
    series side by side within bins shared by all of them (empty series are left out)."""
    series = [s for s in series if len(s[2])]
    every = np.concatenate([s[2] for s in series]) if series else np.zeros(0)
    lo, hi = (float(every.min()), float(every.max())) if every.size else (0.0, 1.0)
    if hi - lo < 1e-12:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, bins + 1)
    shares = [np.histogram(s[2], edges)[0] / len(s[2]) for s in series]
    top_share = max((float(s.max()) for s in shares), default=1.0) or 1.0
    ticks = nice_ticks(0.0, top_share, 4)
    top_share = max(top_share, ticks[-1])
    plot_h = height - TOP - BOTTOM
    plot_w = width - LEFT - RIGHT

    def y_of(share: float) -> float:
        return TOP + (1 - share / top_share) * plot_h

    def x_of(score: float) -> float:
        return LEFT + (score - lo) / (hi - lo) * plot_w

    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" role="img">']
    out += _y_axis(ticks, [y_of(t) for t in ticks], width, "share", percent=True)
    bin_w = plot_w / bins
    bar_w = (bin_w - 2) / max(len(series), 1)
    for b in range(bins):
        for j, ((label, css, values), share) in enumerate(zip(series, shares, strict=True)):
            s = float(share[b])
            if s <= 0:
                continue
            count = round(s * len(values))
            x = LEFT + b * bin_w + 1 + j * bar_w
            title = (f"{label}: {count} of {len(values)} ({s:.0%}) scored "
                     f"{edges[b]:.4g} to {edges[b + 1]:.4g}")
            out.append(f'<rect class="{css}" x="{_num(x)}" y="{_num(y_of(s))}" '
                       f'width="{_num(bar_w)}" height="{_num(plot_h + TOP - y_of(s))}">'
                       f'<title>{escape(title)}</title></rect>')
    base = TOP + plot_h
    out.append(f'<line class="zero" x1="{LEFT}" x2="{width - RIGHT}" y1="{base}" '
               f'y2="{base}"/>')
    for t in nice_ticks(lo, hi, 6):
        if lo - 1e-9 <= t <= hi + 1e-9:
            x = x_of(t)
            out.append(f'<line class="axis-tick" x1="{_num(x)}" x2="{_num(x)}" y1="{base}" '
                       f'y2="{base + 4}"/><text class="axis" x="{_num(x)}" y="{base + 15}" '
                       f'text-anchor="middle">{_tick_label(t)}</text>')
    if x_label:
        out.append(f'<text class="axis" x="{LEFT + plot_w / 2:.1f}" y="{height - 4}" '
                   f'text-anchor="middle">{escape(x_label)}</text>')
    out.append("</svg>")
    return "".join(out)
