"""A runtime error as trace data (:class:`ErrorRecord`).

Its own module, below both the executor and the capability harnesses that record errors of direct
calls: ``execute`` imports the harness registry, so a harness importing ``execute`` would close an
import cycle.
"""

from __future__ import annotations

from ...host import graph as oa
from ...host.detect import RuntimeLacks

from ...model.trace import ErrorRecord, plain


def error_record(error: BaseException) -> ErrorRecord:
    """A runtime error as data: category, message, originating node, cause chain, exposed fields."""
    node = None
    for attribute in ("node_name", "source_node", "producing_node"):
        node = node or getattr(error, attribute, None)
    chain = []
    current: BaseException | None = error
    seen: set[int] = set()
    while current is not None and id(current) not in seen:  # a cyclic chain is recorded up to its repeat
        seen.add(id(current))
        chain.append(plain({
            "category": getattr(current, "category", None),
            "message": str(current),
            "type": type(current).__name__,
            "carrier": isinstance(current, oa.NodeException),
        }))
        current = current.__cause__
    attributes = {}
    for name in ("source", "target", "recoverable_state", "branch_name", "fan_out_category", "field_name", "reducer_name", "returned",
                 "fields", "from_version", "to_version", "registered_migrations_count"):
        if hasattr(error, name):
            attributes[name] = getattr(error, name)
    try:  # the runtime's own reading of the chain: the originating, non-carrier message
        classified = oa.classify_cause_chain(error)
        derived = classified.message or str(error)
        attributes["derived_category"] = classified.category
    except RuntimeLacks:  # the build lacks the primitive itself: the case meets that, never a silent fallback
        raise
    except Exception:  # a non-graph error (e.g. state validation before invoke) has no chain to read
        derived = str(error)
    attributes["raw_message"] = str(error)
    if isinstance(error, Exception):  # the runtime's own default retry classification (§6.1)
        attributes["transient"] = bool(oa.default_classifier(error, None))
    return ErrorRecord(
        category=getattr(error, "category", None),
        message=derived,
        type_name=type(error).__name__,
        node=node,
        chain=tuple(chain),
        attributes=plain(attributes),
    )


__all__ = ["error_record"]
