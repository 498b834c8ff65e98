"""The invariant-predicate vocabulary: names a fixture may use under ``invariants:`` and its siblings.

:func:`resolve` maps a predicate name (``inner_event_count``, ``<node>_node_events_count`` …) to the
rule that checks it. The rules arrive with the execute/assert passes; until a name resolves, a case
that uses it cannot pass (it is reported "not implemented"), and ``oa-lint`` reports it as a finding
of its own code so it can be selected or ignored.
"""

from __future__ import annotations

from typing import Any


def resolve(name: str, capability: str | None = None) -> Any | None:
    """The rule implementing predicate ``name`` for fixtures of ``capability``, or None."""
    return None
