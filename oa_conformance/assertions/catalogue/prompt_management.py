"""The prompt-management predicates: the fetch counts its calls name beside their expected result
(the §9 fallback walk), defined in the fixtures' comments and .md sidecars.

They read the ``prompts`` collection (docs/TRACE.md): ``fetches`` is every backend ``fetch()`` the
case made, in order; ``fetch_counts`` is each declared backend's total. A call's predicate is judged
over the whole case: the fixtures that name one make that single call.
"""

from __future__ import annotations

from .rows import Example, Query


def _fetches(*backends: str) -> dict:
    log = [{"backend": b, "name": "p", "label": "production", "outcome": "prompt_store_unavailable"} for b in backends]
    counts = {"primary": 0, "secondary": 0}
    for backend in backends:
        counts[backend] += 1
    return {"prompts": {"fetches": log, "fetch_counts": counts}}


ROWS = (
    # 008: "the secondary backend's fetch MUST NOT have been called. The primary's prompt_not_found
    # stops the chain"; the sidecar: "The secondary backend's fetch() is NEVER invoked."
    Query("<backend>_backend_call_count", "The named backend's fetch() was invoked exactly this many times (not-found stops the §9 chain before it).",
          "prompts.fetches[?backend == {backend}]", "count",
          holds=Example(_fetches("primary"), 0, invocation=None, name="secondary_backend_call_count"),
          fails=Example(_fetches("primary", "secondary"), 0, invocation=None, name="secondary_backend_call_count")),
    # 009: "Both backends MUST have been consulted before the manager raises (consult in order; raise
    # only after exhausting all)"; the sidecar: "Both backends' fetch() were invoked exactly once."
    Query("backend_call_counts", "Each declared backend's fetch() was invoked exactly the given number of times (all consulted before raising).",
          "prompts.fetch_counts", "equals",
          holds=Example(_fetches("primary", "secondary"), {"primary": 1, "secondary": 1}, invocation=None),
          fails=Example(_fetches("primary"), {"primary": 1, "secondary": 1}, invocation=None)),
)
