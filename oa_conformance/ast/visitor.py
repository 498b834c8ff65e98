"""The visitor every pass shares: dispatch on the node's class, walk children generically."""

from __future__ import annotations

from typing import Any, Iterator

from .nodes import Mapping, Node, Scalar, Section, Sequence


class Visitor:
    """Calls ``visit_<ClassName>(node, *args)`` when a pass defines it, else :meth:`generic_visit`.

    Children come from each class's declared ``_fields`` (see :meth:`Node.children`), so a pass only
    writes methods for the node classes it cares about.
    """

    # Per visitor class: node class -> the plain function that visits it. Plain functions, kept on
    # the class: bound methods cached on the instance would make each visitor a reference cycle
    # (visitor -> table -> bound method -> visitor), freed only by the cyclic collector.
    _dispatch: dict[type, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._dispatch = {}

    def visit(self, node: Node, *args: Any) -> Any:
        kind = type(node)
        try:
            function = self._dispatch[kind]
        except KeyError:
            cls = type(self)
            function = cls._dispatch[kind] = getattr(cls, "visit_" + kind.__name__, cls.generic_visit)
        return function(self, node, *args)

    def generic_visit(self, node: Node, *args: Any) -> None:
        for child in node.children():
            self.visit(child, *args)


def walk(node: Node):
    """Every distinct node below ``node`` (and itself), depth first, in document order.

    A subtree the loader shared (a YAML alias) is walked once, where it first occurs: the walk
    costs the fixture's distinct nodes, not its alias expansion (up to 200,000 nodes)."""
    stack = [node]
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        stack.extend(reversed(list(current.children())))


def sections_under(node: Node) -> Iterator[Section]:
    """Every directive section at or below ``node`` (depth first), not looking inside data regions
    — state values, expected values, wire bodies: most of a fixture's nodes, and never a section —
    only into the directives whose shape can hold a section (each view's ``holding``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind is Mapping:
            stack.extend(value for value in current.values if type(value) is not Scalar)
        elif kind is Sequence:
            stack.extend(item for item in current.items if type(item) is not Scalar)
        elif isinstance(current, Section):
            yield current
            holding, attrs = current.holding, current.directive_attrs
            stack.extend([getattr(current, attrs[name]) for name in current.order if name in holding])


def distinct_sections(node: Node) -> tuple[Section, ...]:
    """:func:`sections_under`, each section once (an alias can place one twice): the one walk of a
    fixture's directives that the state-value check and the linter's rules share."""
    seen: set[int] = set()
    found = []
    for section in sections_under(node):
        if id(section) not in seen:
            seen.add(id(section))
            found.append(section)
    return tuple(found)
