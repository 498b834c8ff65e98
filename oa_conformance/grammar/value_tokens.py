"""§5.10 value tokens inside a value: where they stand, and the value with them parsed.

An expected value (and a predicate's value) may hold strings meant as value tokens (``<uuid>``,
``<trace_id_A>``). The schema check parses them at :func:`token_sites`, the builder and the
predicate catalogue replace them with :func:`with_tokens`; both go through the grammar's own
``parse_token`` at the string's :func:`content_span`.
"""

from __future__ import annotations

from ..ast.nodes import Mapping, Node, Scalar, Sequence
from . import looks_like_token, parse_token


def token_sites(node: Node) -> list[tuple[tuple[int, ...], Scalar]]:
    """Where an expected value holds strings meant as §5.10 tokens: (child indices, scalar) pairs.

    Shared by the schema check (which parses them) and the builder (which replaces them); both then
    touch only these paths instead of walking the whole value again. Scalars, the bulk of any
    value, are tested inline without a call.
    """
    found: list[tuple[tuple[int, ...], Scalar]] = []
    if type(node) is Scalar:
        return [((), node)] if _token_candidate(node) else []
    if type(node) is Mapping or type(node) is Sequence:
        _walk_sites(node, (), found)
    return found


def _token_candidate(scalar: Scalar) -> bool:
    value = scalar.value
    return type(value) is str and value[:1] == "<" and looks_like_token(value)


def _walk_sites(current: Node, path: tuple[int, ...], found: list) -> None:
    # Module-level, not a closure: a recursive closure refers to itself through its cell, a
    # reference cycle left to the cyclic collector.
    children = current.values if type(current) is Mapping else current.items
    for index, child in enumerate(children):
        kind = type(child)
        if kind is Scalar:
            if _token_candidate(child):
                found.append((path + (index,), child))
        elif kind is Mapping or kind is Sequence:
            _walk_sites(child, path + (index,), found)


def content_span(node: Scalar):
    """Where a string scalar's text starts (after its opening quote, if any)."""
    return node.span.shifted(1) if node.quoted else node.span


def with_tokens(node: Node) -> Node:
    """``node`` with every value-token string replaced by its token node.

    Only the paths to the tokens are rebuilt; every other subtree is shared with the value tree.
    """
    for path, scalar in token_sites(node):
        node = _replace(node, path, parse_token(scalar.value, content_span(scalar)))
    return node


def _replace(node: Node, path: tuple[int, ...], new: Node) -> Node:
    if not path:
        return new
    index, rest = path[0], path[1:]
    if type(node) is Mapping:
        values = node.values.set(index, _replace(node.values[index], rest, new))
        return Mapping.make(keys=node.keys, values=values, key_spans=node.key_spans, span=node.span)
    items = node.items.set(index, _replace(node.items[index], rest, new))
    return Sequence.make(items=items, span=node.span)
