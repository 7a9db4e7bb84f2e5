"""Tiny inline-SVG charts for the HTML report: no scripts, no external files, every label escaped."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#2563eb", "#ea580c", "#16a34a", "#9333ea", "#db2777", "#0891b2", "#ca8a04", "#475569")
_WIDTH = 640
_HEIGHT = 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 16, 16, 40


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


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _frame(body: list[str], title: str, height: int = _HEIGHT) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height}" role="img"'
        f' aria-label="{escape(title)}" class="chart"><title>{escape(title)}</title>{"".join(body)}</svg>'
    )


def _y_axis(y_max: float, fmt: Callable[[float], str], height: int) -> list[str]:
    parts = []
    plot_height = height - _TOP - _BOTTOM
    for step in range(5):
        value = y_max * step / 4
        y = _TOP + plot_height * (1 - step / 4)
        parts.append(f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>')
        parts.append(
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
            f"{escape(fmt(value))}</text>"
        )
    return parts


def _legend(names: Sequence[str], height: int) -> list[str]:
    parts = []
    x = _LEFT
    for index, name in enumerate(names):
        parts.append(f'<rect x="{x}" y="{height - 14}" width="10" height="10" fill="{colour(index)}"/>')
        parts.append(f'<text x="{x + 14}" y="{height - 5}" class="tick">{escape(name)}</text>')
        x += 24 + 7 * len(name)
    return parts


def line_chart(
    series: dict[str, list[Point]],
    x_label: Callable[[float], str],
    y_format: Callable[[float], str],
    title: str,
    y_max: float | None = None,
) -> str:
    """Lines per series over a shared x axis, with a shaded band where points carry low/high."""
    points = [point for values in series.values() for point in values]
    if not points:
        return ""
    x_min = min(point.x for point in points)
    x_max = max(point.x for point in points)
    top = y_max if y_max is not None else max(max(point.high or point.y for point in points), 1e-9) * 1.1
    plot_width = _WIDTH - _LEFT - _RIGHT
    plot_height = _HEIGHT - _TOP - _BOTTOM - 14

    def sx(x: float) -> float:
        return _LEFT + (plot_width * (x - x_min) / (x_max - x_min) if x_max > x_min else plot_width / 2)

    def sy(y: float) -> float:
        return _TOP + plot_height * (1 - min(max(y / top, 0.0), 1.0))

    body = _y_axis(top, y_format, _HEIGHT - 14)
    for tick in range(5 if x_max > x_min else 1):
        x = x_min + (x_max - x_min) * tick / 4
        body.append(
            f'<text x="{sx(x):.1f}" y="{_HEIGHT - _BOTTOM + 2:.1f}" text-anchor="middle" class="tick">'
            f"{escape(x_label(x))}</text>"
        )
    for index, (name, values) in enumerate(series.items()):
        ordered = sorted(values, key=lambda point: point.x)
        banded = [point for point in ordered if point.low is not None and point.high is not None]
        if len(banded) > 1:
            upper = " ".join(f"{sx(p.x):.1f},{sy(p.high or 0):.1f}" for p in banded)
            lower = " ".join(f"{sx(p.x):.1f},{sy(p.low or 0):.1f}" for p in reversed(banded))
            body.append(f'<polygon points="{upper} {lower}" fill="{colour(index)}" fill-opacity="0.15"/>')
        path = " ".join(f"{sx(p.x):.1f},{sy(p.y):.1f}" for p in ordered)
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour(index)}" stroke-width="2"/>')
        for point in ordered:
            body.append(
                f'<circle cx="{sx(point.x):.1f}" cy="{sy(point.y):.1f}" r="2.5" fill="{colour(index)}">'
                f"<title>{escape(name)}: {escape(y_format(point.y))} at {escape(x_label(point.x))}</title>"
                "</circle>"
            )
    body += _legend(list(series), _HEIGHT)
    return _frame(body, title)


def bar_chart(
    bars: Sequence[Bar], y_format: Callable[[float], str], title: str, y_max: float | None = None
) -> str:
    """Grouped vertical bars (one colour per series) with optional error bars from low to high."""
    if not bars:
        return ""
    groups = list(dict.fromkeys(bar.group for bar in bars))
    names = list(dict.fromkeys(bar.series for bar in bars))
    top = y_max if y_max is not None else max(max(bar.high or bar.value for bar in bars), 1e-9) * 1.15
    plot_width = _WIDTH - _LEFT - _RIGHT
    plot_height = _HEIGHT - _TOP - _BOTTOM - 14
    group_width = plot_width / len(groups)
    bar_width = min(48.0, group_width * 0.8 / len(names))

    def sy(y: float) -> float:
        return _TOP + plot_height * (1 - min(max(y / top, 0.0), 1.0))

    body = _y_axis(top, y_format, _HEIGHT - 14)
    for group_index, group in enumerate(groups):
        centre = _LEFT + group_width * (group_index + 0.5)
        body.append(
            f'<text x="{centre:.1f}" y="{_HEIGHT - _BOTTOM + 2:.1f}" text-anchor="middle" class="tick">'
            f"{escape(group)}</text>"
        )
        members = [bar for bar in bars if bar.group == group]
        start = centre - bar_width * len(names) / 2
        for bar in members:
            series_index = names.index(bar.series)
            x = start + bar_width * series_index
            y = sy(bar.value)
            tooltip = escape(f"{bar.series} · {group}: {bar.label or y_format(bar.value)}")
            body.append(
                f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{bar_width - 4:.1f}" height="{sy(0) - y:.1f}"'
                f' fill="{colour(series_index)}"><title>{tooltip}</title></rect>'
            )
            if bar.low is not None and bar.high is not None:
                mid = x + bar_width / 2
                low, high = sy(bar.low), sy(bar.high)
                body.append(
                    f'<path d="M{mid:.1f},{low:.1f}V{high:.1f}'
                    f'M{mid - 5:.1f},{low:.1f}h10M{mid - 5:.1f},{high:.1f}h10"'
                    ' class="errorbar"/>'
                )
            if bar.label:
                body.append(
                    f'<text x="{x + bar_width / 2:.1f}" y="{min(y, sy(bar.high or bar.value)) - 4:.1f}"'
                    f' text-anchor="middle" class="value">{escape(bar.label)}</text>'
                )
    if len(names) > 1 or names != groups:
        body += _legend(names, _HEIGHT)
    return _frame(body, title)
