"""The demo's own logic: where its one alert evaluation looks, the truth the example service labels on its
spans against the judge's verdicts, and the story the demo's report leads with.

It needs the example service (``ragpulse-example``), which the demo command checks before importing this.
"""
