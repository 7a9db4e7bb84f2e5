"""The scoring pipeline: select unscored requests, sample, limit, judge, write scores and log rows.

``pipeline.tick.run_tick`` runs one tick; ``pipeline.scheduler.build_scheduler`` runs ticks on a schedule.
"""
