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


WIDTH = 320
HEIGHT = 150
LEFT = 34
RIGHT = 34
TOP = 14
BOTTOM = 26


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def progress_chart(
    points: Sequence[ChartPoint],
    *,
    players: int,
    title: str,
    place_label: str = "Place",
    score_label: str = "Score",
) -> str:
    """An SVG of place (left axis, 1 at the top) and score (right axis) over the sessions; empty
    when there is nothing to draw. ``players`` sets the place axis (the field's size)."""
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
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="chart-title">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}"/>',
        f'<line class="zero" x1="{LEFT}" y1="{y_score(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y_score(0):.1f}"/>',
        f'<text class="place-label" x="2" y="{TOP + 4}">1</text>',
        f'<text class="place-label" x="2" y="{TOP + plot_h + 4}">{worst}</text>',
        f'<text class="score-label" x="{WIDTH - 2}" y="{TOP + 4}" text-anchor="end">{_number(high)}</text>',
        f'<text class="score-label" x="{WIDTH - 2}" y="{TOP + plot_h + 4}" text-anchor="end">'
        f"{_number(low)}</text>",
    ]
    for index, point in enumerate(points):
        parts.append(
            f'<text class="session-label" x="{x(index):.1f}" y="{HEIGHT - 8}" text-anchor="middle">'
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
