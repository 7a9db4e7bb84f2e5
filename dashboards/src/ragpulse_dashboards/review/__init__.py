"""Reviewing requests on the live page: the request view, the label form, the figures beside the queue."""
