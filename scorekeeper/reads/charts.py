"""Line charts as inline SVG, drawn on the server: no chart library in the browser; a long run of
values thinned to what a chart draws (a night's running balance, a match's totals).

Presentation attributes only (no style attributes), so the page's Content Security Policy holds.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# Colour-blind-safe palette (Okabe-Ito), readable on light and dark backgrounds.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#777777", "#F0E442")
WIDTH, HEIGHT = 360, 200
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 60, 10, 12, 26
FONT = 14  # viewBox units: about 14 px on a phone, where the chart fills the width
CHART_POINTS = 120  # a running total draws as well with 120 points as with 10,000


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[int]
    colour: str


def series(values: Mapping[str, Sequence[int]]) -> list[Series]:
    """Give each named run of values its colour, in a stable order."""
    return [
        Series(name, pts, PALETTE[i % len(PALETTE)]) for i, (name, pts) in enumerate(values.items())
    ]


def thinned(
    labels: Sequence[str], values: Mapping[str, Sequence[int]], *, most: int
) -> tuple[list[str], dict[str, list[int]]]:
    """Keep at most `most` points, evenly spread, the first and the last always among them."""
    n = len(labels)
    if n <= most:
        return list(labels), {name: list(pts) for name, pts in values.items()}
    kept = sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})
    return [labels[i] for i in kept], {name: [pts[i] for i in kept] for name, pts in values.items()}


def axis_number(value: int) -> str:
    """Write an axis value as the scoreboard does: thousands commas and a real minus (−2,300)."""
    return f"{value:,}".replace("-", "\u2212")


def line_chart(lines: Sequence[Series], *, labels: Sequence[str], title: str) -> SafeString:
    """Draw the series over `labels` (x) with a zero line; empty data draws an empty frame."""
    n = max((len(s.points) for s in lines), default=0)
    values = [v for s in lines for v in s.points] or [0]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    plot_w, plot_h = WIDTH - PAD_LEFT - PAD_RIGHT, HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: int) -> float:
        return PAD_TOP + plot_h * (high - v) / span

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
        'stroke="currentColor" stroke-opacity="0.4" stroke-dasharray="3 3"/>',
    ]
    for v in (high, 0, low) if low < 0 < high else (high, low):
        parts.append(
            f'<text x="{PAD_LEFT - 4}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="{FONT}" '
            f'fill="currentColor">{axis_number(v)}</text>'
        )
    if labels:
        # The first label starts at its point and the last ends at its own, so neither runs
        # past the frame ("27/11" centred on the right edge lost its last digit).
        ends = {0: "start", len(labels) - 1: "end"} if len(labels) > 1 else {0: "middle"}
        for i, anchor in ends.items():
            parts.append(
                f'<text x="{x(i):.1f}" y="{HEIGHT - 6}" text-anchor="{anchor}" font-size="{FONT}" '
                f'fill="currentColor">{escape(labels[i])}</text>'
            )
    for s in lines:
        if not s.points:
            continue
        if len(s.points) == 1:  # one night: a line needs two points, a dot shows the one
            parts.append(
                f'<circle cx="{x(0):.1f}" cy="{y(s.points[0]):.1f}" r="5" fill="{s.colour}"/>'
            )
            continue
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.points))
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{s.colour}" stroke-width="2.5" '
            'stroke-linejoin="round" stroke-linecap="round"/>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every name in it went through escape()
