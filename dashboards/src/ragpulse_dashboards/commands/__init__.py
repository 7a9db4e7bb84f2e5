"""The dashboards' commands (``alerts``, ``report``, ``requests``, ``serve``): each module's ``run(args)``."""
