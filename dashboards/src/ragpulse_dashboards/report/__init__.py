"""Reports over the ragpulse tables: one query step (:func:`collect_report`) and two renderers."""

from ragpulse_scorers.report.collect import collect_report
from ragpulse_scorers.report.html import render_html
from ragpulse_scorers.report.model import ReportData
from ragpulse_scorers.report.terminal import render_terminal

__all__ = ["ReportData", "collect_report", "render_html", "render_terminal"]
