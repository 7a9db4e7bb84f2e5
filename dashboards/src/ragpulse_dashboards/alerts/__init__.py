"""Built-in alerts for the embedded mode, where there is no Grafana: the same conditions as the provisioned
Grafana rules, evaluated by an APScheduler job, with state in ``ragpulse_alerts``, told to Slack, PagerDuty
and webhook destinations (``alerts.destinations``)."""

from ragpulse_dashboards.alerts.evaluator import Evaluation, evaluate_alerts
from ragpulse_dashboards.alerts.job import add_alert_job
from ragpulse_dashboards.alerts.rules import AlertKey
from ragpulse_dashboards.alerts.state import AlertRecord, load_alerts

__all__ = ["AlertKey", "AlertRecord", "Evaluation", "add_alert_job", "evaluate_alerts", "load_alerts"]
