"""Short names for the handlers the vocabulary rows name (``Directive.handled_by``; the kinds and
what each means are :data:`.registry.HANDLER_KINDS`)."""

from __future__ import annotations

from .registry import Handler

STATIC = Handler("static")
GRAPH_BUILD = Handler("graph")
EXECUTE = Handler("run")
NODE_MODIFIER = Handler("node_modifier")
COMPOSITION = Handler("composition")
PROJECTION = Handler("projection")
PART = Handler("part")
NOT_EXECUTED = Handler("not_executed")


def node(key: str) -> Handler:
    """A node-body step: the entry ``key`` of the interpreter's node behaviour table."""
    return Handler("node", key)


def expectation(key: str) -> Handler:
    """Judged by the assert pass with the rule builder ``key`` (``assertions/rule_builders.py``)."""
    return Handler("expectation", key)


# The rule builders the rows name most: a shape from the shape table, a block of catalogue predicates.
SHAPE = expectation("shape")
PREDICATES = expectation("predicates")


def node_middleware(key: str) -> Handler:
    """A middleware around the node: the entry ``key`` of the node middleware table."""
    return Handler("node_middleware", key)


def capture(name: str) -> Handler:
    """Read by the capture ``name`` a capability harness enters around the graph run."""
    return Handler("capture", name)


def direct(capability: str) -> Handler:
    """Read by ``capability``'s own harness run (its direct cases and their expectations)."""
    return Handler("direct", capability)


def case_expectation(capability: str) -> Handler:
    """Judged beside ``expected:`` by ``capability``'s shapes."""
    return Handler("case_expectation", capability)
