"""Tiny inline-SVG charts for the HTML report: no scripts, no external files, every label escaped.

Axes use 1-2-5 ticks with their unit; a threshold is a dashed red line with its label; a series with one
point is still visible (a marker, and an error bar where a band needs two points), and series that share a
time bucket are nudged apart and drawn with different markers, so one never hides another.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragpulse_dashboards.report.format import html_text

PALETTE = ("#2563eb", "#ea580c", "#16a34a", "#9333ea", "#db2777", "#0891b2", "#ca8a04", "#475569")
THRESHOLD_COLOUR = "#dc2626"
_WIDTH = 640
_HEIGHT = 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 16, 16, 40
_LEGEND = 14
_NUDGE = 8.0  # px between series sharing an x


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Bar:
    group: str
    series: str
    value: float
    low: float | None = None
    high: float | None = None
    label: str = ""


@dataclass(frozen=True)
class Threshold:
    value: float
    label: str


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def nice_ticks(top: float, count: int = 5) -> list[float]:
    """0 up to the first multiple of a 1-2-5 step at or above ``top``, in about ``count`` steps."""
    if not top > 0 or math.isinf(top):
        return [0.0, 1.0]
    raw = top / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(factor * magnitude for factor in (1, 2, 5, 10) if factor * magnitude >= raw * (1 - 1e-9))
    steps = math.ceil(top / step - 1e-9)
    return [round(step * index, 12) for index in range(steps + 1)]


def _frame(body: list[str], title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img"'
        f' aria-label="{html_text(title)}" class="chart">'
        f"<title>{html_text(title)}</title>{''.join(body)}</svg>"
    )


class _Scale:
    """Maps values to the plot's y pixels over 1-2-5 ticks reaching past the data (and thresholds)."""

    def __init__(self, data_top: float, y_max: float | None) -> None:
        self.ticks = nice_ticks(y_max if y_max is not None else data_top)
        self.top = self.ticks[-1]
        self.plot_height = _HEIGHT - _TOP - _BOTTOM - _LEGEND

    def y(self, value: float) -> float:
        return _TOP + self.plot_height * (1 - min(max(value / self.top, 0.0), 1.0))

    def axis(self, fmt: Callable[[float], str]) -> list[str]:
        parts = []
        for value in self.ticks:
            y = self.y(value)
            parts.append(
                f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
            )
            parts.append(
                f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                f"{html_text(fmt(value))}</text>"
            )
        return parts

    def thresholds(self, thresholds: Sequence[Threshold]) -> list[str]:
        parts = []
        for threshold in thresholds:
            y = self.y(threshold.value)
            parts.append(
                f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}"'
                f' stroke="{THRESHOLD_COLOUR}" stroke-width="1.5" stroke-dasharray="6 4" class="threshold"/>'
            )
            parts.append(
                f'<text x="{_WIDTH - _RIGHT - 4}" y="{y - 4:.1f}" text-anchor="end" class="tick"'
                f' fill="{THRESHOLD_COLOUR}">{html_text(threshold.label)}</text>'
            )
        return parts


def _marker(index: int, x: float, y: float, tooltip: str) -> str:
    """Circle, square, diamond, triangle...: told apart without colour, and where one sits on another."""
    fill = colour(index)
    shape = index % 4
    if shape == 0:
        figure = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{fill}"'
    elif shape == 1:
        figure = f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{fill}"'
    elif shape == 2:
        figure = f'<path d="M{x:.1f},{y - 5:.1f}l5,5l-5,5l-5,-5z" fill="{fill}"'
    else:
        figure = f'<path d="M{x:.1f},{y - 5:.1f}l5,9h-10z" fill="{fill}"'
    return f'{figure} stroke="#fff" stroke-width="1" class="marker"><title>{html_text(tooltip)}</title>' + (
        "</circle>" if shape == 0 else "</rect>" if shape == 1 else "</path>"
    )


def _legend(names: Sequence[str], markers: bool) -> list[str]:
    parts = []
    x = float(_LEFT)
    for index, name in enumerate(names):
        if markers:
            parts.append(_marker(index, x + 5, _HEIGHT - 9, name))
        else:
            parts.append(f'<rect x="{x}" y="{_HEIGHT - 14}" width="10" height="10" fill="{colour(index)}"/>')
        parts.append(f'<text x="{x + 14}" y="{_HEIGHT - 5}" class="tick">{html_text(name)}</text>')
        x += 24 + 7 * len(name)
    return parts


def line_chart(
    series: dict[str, list[Point]],
    x_label: Callable[[float], str],
    y_format: Callable[[float], str],
    title: str,
    y_max: float | None = None,
    thresholds: Sequence[Threshold] = (),
) -> str:
    """Lines with a marker per point over a shared x axis; a shaded band (or a bar, for one point) from
    low to high where points carry them."""
    points = [point for values in series.values() for point in values]
    if not points:
        return ""
    x_min = min(point.x for point in points)
    x_max = max(point.x for point in points)
    data_top = max([point.high or point.y for point in points] + [t.value for t in thresholds] + [1e-9])
    scale = _Scale(data_top, y_max)
    plot_width = _WIDTH - _LEFT - _RIGHT - 2 * _NUDGE * len(series)
    offsets = {name: (index - (len(series) - 1) / 2) * _NUDGE for index, name in enumerate(series)}

    def sx(x: float, name: str = "") -> float:
        base = plot_width * (x - x_min) / (x_max - x_min) if x_max > x_min else plot_width / 2
        return _LEFT + _NUDGE * len(series) + base + offsets.get(name, 0.0)

    body = scale.axis(y_format)
    # Ticks sit on buckets the data has (at most five, evenly chosen), so every label names a real bucket.
    buckets = sorted({point.x for point in points})
    for x in (buckets[round(i * (len(buckets) - 1) / 4)] for i in range(5)) if len(buckets) > 5 else buckets:
        body.append(
            f'<text x="{sx(x):.1f}" y="{_HEIGHT - _BOTTOM + 2:.1f}" text-anchor="middle" class="tick">'
            f"{html_text(x_label(x))}</text>"
        )
    body += scale.thresholds(thresholds)
    for index, (name, values) in enumerate(series.items()):
        ordered = sorted(values, key=lambda point: point.x)
        banded = [point for point in ordered if point.low is not None and point.high is not None]
        if len(banded) > 1:
            upper = " ".join(f"{sx(p.x, name):.1f},{scale.y(p.high or 0):.1f}" for p in banded)
            lower = " ".join(f"{sx(p.x, name):.1f},{scale.y(p.low or 0):.1f}" for p in reversed(banded))
            body.append(f'<polygon points="{upper} {lower}" fill="{colour(index)}" fill-opacity="0.15"/>')
        else:
            for point in banded:
                body.append(_error_bar(sx(point.x, name), scale.y(point.low or 0), scale.y(point.high or 0),
                                       colour(index)))  # fmt: skip
        if len(ordered) > 1:
            path = " ".join(f"{sx(p.x, name):.1f},{scale.y(p.y):.1f}" for p in ordered)
            body.append(f'<polyline points="{path}" fill="none" stroke="{colour(index)}" stroke-width="2"/>')
        for point in ordered:
            tooltip = f"{name}: {y_format(point.y)} at {x_label(point.x)}"
            body.append(_marker(index, sx(point.x, name), scale.y(point.y), tooltip))
    body += _legend(list(series), markers=True)
    return _frame(body, title)


def _error_bar(x: float, low: float, high: float, stroke: str) -> str:
    return (
        f'<path d="M{x:.1f},{low:.1f}V{high:.1f}M{x - 5:.1f},{low:.1f}h10M{x - 5:.1f},{high:.1f}h10"'
        f' stroke="{stroke}" stroke-width="1.5" fill="none" class="errorbar"/>'
    )


def bar_chart(
    bars: Sequence[Bar],
    y_format: Callable[[float], str],
    title: str,
    y_max: float | None = None,
    thresholds: Sequence[Threshold] = (),
) -> str:
    """Grouped vertical bars (one colour per series) with optional error bars from low to high."""
    if not bars:
        return ""
    groups = list(dict.fromkeys(bar.group for bar in bars))
    names = list(dict.fromkeys(bar.series for bar in bars))
    data_top = max([bar.high or bar.value for bar in bars] + [t.value for t in thresholds] + [1e-9]) * 1.1
    scale = _Scale(data_top, y_max)
    plot_width = _WIDTH - _LEFT - _RIGHT
    group_width = plot_width / len(groups)
    bar_width = min(48.0, group_width * 0.8 / len(names))

    body = scale.axis(y_format)
    for group_index, group in enumerate(groups):
        centre = _LEFT + group_width * (group_index + 0.5)
        body.append(
            f'<text x="{centre:.1f}" y="{_HEIGHT - _BOTTOM + 2:.1f}" text-anchor="middle" class="tick">'
            f"{html_text(group)}</text>"
        )
        start = centre - bar_width * len(names) / 2
        for bar in (bar for bar in bars if bar.group == group):
            series_index = names.index(bar.series)
            x = start + bar_width * series_index
            y = scale.y(bar.value)
            tooltip = html_text(f"{bar.series} · {group}: {bar.label or y_format(bar.value)}")
            body.append(
                f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{bar_width - 4:.1f}" height="{scale.y(0) - y:.1f}"'
                f' fill="{colour(series_index)}"><title>{tooltip}</title></rect>'
            )
            if bar.low is not None and bar.high is not None:
                body.append(_error_bar(x + bar_width / 2, scale.y(bar.low), scale.y(bar.high), "#0f172a"))
            if bar.label:
                body.append(
                    f'<text x="{x + bar_width / 2:.1f}" y="{min(y, scale.y(bar.high or bar.value)) - 4:.1f}"'
                    f' text-anchor="middle" class="value">{html_text(bar.label)}</text>'
                )
    body += scale.thresholds(thresholds)
    if len(names) > 1 or names != groups:
        body += _legend(names, markers=False)
    return _frame(body, title)
