"""The visitor every pass shares: dispatch on the node's class, walk children generically."""

from __future__ import annotations

from typing import Any

from .nodes import Node


class Visitor:
    """Calls ``visit_<ClassName>(node, *args)`` when a pass defines it, else :meth:`generic_visit`.

    Children come from each class's declared ``_fields`` (see :meth:`Node.children`), so a pass only
    writes methods for the node classes it cares about.
    """

    def visit(self, node: Node, *args: Any) -> Any:
        kind = type(node)
        try:
            method = self._methods[kind]
        except KeyError:
            method = self._methods[kind] = getattr(self, "visit_" + kind.__name__, self.generic_visit)
        except AttributeError:  # the first visit of this visitor: make its dispatch table
            self._methods = {}
            return self.visit(node, *args)
        return method(node, *args)

    def generic_visit(self, node: Node, *args: Any) -> None:
        for child in node.children():
            self.visit(child, *args)


def walk(node: Node):
    """Every node below ``node`` (and itself), depth first, in document order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(current.children())))
