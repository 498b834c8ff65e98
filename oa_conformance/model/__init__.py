"""The shared model every other room reads: the vocabulary of directives (``vocabulary/``), the
recorded trace (``trace/``), diagnostics and the errors that carry them, container kinds, the
adapter's versions, synthetic payloads, fixture discovery and the collector pause. It imports no
other part of the package."""
