"""Reports over the ragpulse tables: one query step (:func:`collect_report`) and two renderers."""

from ragpulse_dashboards.report.collect import collect_report
from ragpulse_dashboards.report.html import render_html
from ragpulse_dashboards.report.model import ReportData
from ragpulse_dashboards.report.terminal import render_terminal

__all__ = ["ReportData", "collect_report", "render_html", "render_terminal"]
