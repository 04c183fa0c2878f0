"""Small charts drawn on the server as inline SVG: no outside service, no script. Every text that
goes into the markup is escaped here (labels may come from translations or user-typed names)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class ChartPoint:
    """One session on a player's chart: their place in the standings after it, and their score."""

    label: str
    place: int
    score: float


WIDTH = 340
HEIGHT = 196
LEFT = 46
RIGHT = 46
TOP = 30
BOTTOM = 42
LEGEND_Y = 12


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def progress_chart(
    points: Sequence[ChartPoint],
    *,
    players: int,
    title: str,
    place_label: str = "Place",
    score_label: str = "Score",
    session_axis: str = "Session",
    place_axis: str = "Place",
    score_axis: str = "Score",
    place_key: str = "place in the standings (1 at the top)",
    score_key: str = "total score",
) -> str:
    """An SVG of place (left axis, 1 at the top) and score (right axis) over the sessions; empty
    when there is nothing to draw. ``players`` sets the place axis (the field's size). The axes are
    named (``session_axis`` under the session numbers, ``place_axis`` and ``score_axis`` beside their
    numbers), a legend above the plot says which line is which (``place_key``, ``score_key``), and a
    ``desc`` reads every point aloud for screen readers."""
    if not points:
        return ""
    worst = max(players, *(p.place for p in points), 2)
    scores = [p.score for p in points]
    low, high = min(0.0, *scores), max(0.0, *scores)
    if high == low:
        high = low + 1
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(points) - 1, 1)

    def x(index: int) -> float:
        return LEFT + (index * step if len(points) > 1 else plot_w / 2)

    def y_place(place: int) -> float:
        return TOP + (place - 1) / (worst - 1) * plot_h

    def y_score(score: float) -> float:
        return TOP + (high - score) / (high - low) * plot_h

    place_xy = " ".join(f"{x(i):.1f},{y_place(p.place):.1f}" for i, p in enumerate(points))
    score_xy = " ".join(f"{x(i):.1f},{y_score(p.score):.1f}" for i, p in enumerate(points))
    middle = TOP + plot_h / 2
    spoken = "; ".join(
        f"{session_axis} {p.label}: {place_label} {p.place}, {score_label} {_number(p.score)}" for p in points
    )
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="chart-title" '
        'aria-describedby="chart-desc">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(spoken)}</desc>',
        # the legend: a short stroke of each line's style, then its name
        f'<g class="legend" aria-hidden="true">'
        f'<line class="place-line" x1="{LEFT}" y1="{LEGEND_Y - 3}" x2="{LEFT + 16}" y2="{LEGEND_Y - 3}"/>'
        f'<text class="legend-label" x="{LEFT + 20}" y="{LEGEND_Y}">{escape(place_key)}</text>'
        f'<line class="score-line" x1="{LEFT}" y1="{LEGEND_Y + 9}" x2="{LEFT + 16}" y2="{LEGEND_Y + 9}"/>'
        f'<text class="legend-label" x="{LEFT + 20}" y="{LEGEND_Y + 12}">{escape(score_key)}</text></g>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}"/>',
        f'<line class="zero" x1="{LEFT}" y1="{y_score(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y_score(0):.1f}"/>',
        f'<text class="place-label" x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end">1</text>',
        f'<text class="place-label" x="{LEFT - 4}" y="{TOP + plot_h + 4}" text-anchor="end">{worst}</text>',
        f'<text class="score-label" x="{WIDTH - RIGHT + 4}" y="{TOP + 4}">{_number(high)}</text>',
        f'<text class="score-label" x="{WIDTH - RIGHT + 4}" y="{TOP + plot_h + 4}">{_number(low)}</text>',
        f'<text class="axis-title place-axis" x="12" y="{middle:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {middle:.1f})">{escape(place_axis)}</text>',
        f'<text class="axis-title score-axis" x="{WIDTH - 8}" y="{middle:.1f}" text-anchor="middle" '
        f'transform="rotate(90 {WIDTH - 8} {middle:.1f})">{escape(score_axis)}</text>',
        f'<text class="axis-title session-axis" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" '
        f'text-anchor="middle">{escape(session_axis)}</text>',
    ]
    for index, point in enumerate(points):
        parts.append(
            f'<text class="session-label" x="{x(index):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">'
            f"{escape(point.label)}</text>"
        )
    parts.append(f'<polyline class="score-line" points="{score_xy}"/>')
    parts.append(f'<polyline class="place-line" points="{place_xy}"/>')
    for index, point in enumerate(points):
        parts.append(
            f'<circle class="place-dot" cx="{x(index):.1f}" cy="{y_place(point.place):.1f}" r="3">'
            f"<title>{escape(point.label)}: {escape(place_label)} {point.place}, "
            f"{escape(score_label)} {_number(point.score)}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
