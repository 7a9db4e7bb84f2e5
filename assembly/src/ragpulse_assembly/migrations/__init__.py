"""The assembly's tables: the log of traces assembled into requests (``ragpulse_assembly_log``)."""
