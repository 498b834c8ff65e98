"""The pytest front end, registered by entry point (``pytest11``: ``hooks``)."""
