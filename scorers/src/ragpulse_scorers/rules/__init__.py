"""Rules (``[[rules]]``): which requests each judge scores, at what rate, on whose budget."""
