"""``ragpulse demo``: the whole product driven by the example service, and the demo's own logic: where its
one alert evaluation looks, the truth the example service labels on its spans against the judge's verdicts,
and the story the demo's report leads with.

It drives every other part (collector, scorers, dashboards), so it lives beside the example service and needs
the ``demo`` extra of ``ragpulse-example`` (``pip install './examples[demo]'``).
"""
