"""What people look at: the report (terminal, HTML, SVG), the live page of ``ragpulse serve``, the built-in
alerts, and their commands. The Grafana provisioning beside this package shows the same tables."""
