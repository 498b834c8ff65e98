"""The openarmature build under test: which one runs, and what it ships (``manifest``)."""
