"""AST values → plain Python data for the runtime (inputs only; expected values are matchers)."""

from __future__ import annotations

from typing import Any

from ..ast.nodes import BindingToken, FormatToken, Mapping, Placeholder, PredicateBlock, Scalar, Section, Sequence, TypeRef


def literal(node: Any) -> Any:
    """The plain data a value node stands for (fresh lists and dicts on every call)."""
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, (Mapping, Section)):
        return {key: literal(value) for key, value in node.items()}
    if isinstance(node, Sequence):
        return [literal(item) for item in node.items]
    if isinstance(node, PredicateBlock):
        return {ref.name: literal(ref.value) for ref in node.predicates}
    if isinstance(node, TypeRef):
        return node.spelling
    if isinstance(node, (FormatToken, BindingToken, Placeholder)):
        return node.text
    return node
