"""What a boolean query looked at: the operands of its comparisons, as text and value.

A catalogue ``Query`` whose JMESPath evaluates to a boolean (``length(runs[].id) == length(runs) &&
unique(runs[].id)``) fails as "expected true, got false" unless it says what it compared. This module
walks the parsed query through its boolean structure (``&&``, ``||``, ``!``, comparisons, functions
returning a boolean) down to the operands that read the trace, and names each by its JMESPath text
so the failure can show ``length(runs[].id) = 3, length(runs) = 4``.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator

_COMPARATORS = {"eq": "==", "ne": "!=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}
_BOOLEAN_STRUCTURE = frozenset(("and_expression", "or_expression", "not_expression"))


def operands(parsed: dict, value_of: Callable[[dict], Any], limit: int = 6) -> list[tuple[str, Any]]:
    """(text, value) of each trace-reading operand under ``parsed``'s boolean structure, first ``limit``,
    each text once. ``value_of`` evaluates one parsed node against the query's scope."""
    found: dict[str, Any] = {}
    for node in _leaves(parsed):
        text = unparse(node)
        if text not in found:
            found[text] = value_of(node)
        if len(found) == limit:
            break
    return list(found.items())


def _leaves(node: dict) -> Iterator[dict]:
    kind = node["type"]
    if kind in _BOOLEAN_STRUCTURE:
        for child in node["children"]:
            yield from _leaves(child)
    elif kind == "comparator":  # each side is an operand (a function call included: its value is compared)
        for child in node["children"]:
            yield from (_leaves(child) if child["type"] in _BOOLEAN_STRUCTURE else () if _constant(child) else (child,))
    elif kind == "function_expression":
        # A function computing the boolean itself (unique, contains, has …): show what it was given.
        yield from (child for child in node["children"] if not _constant(child))
    elif not _constant(node):
        yield node


def _constant(node: dict) -> bool:
    return node["type"] in ("literal", "raw_literal")


def unparse(node: dict) -> str:
    """A parsed JMESPath node back as (equivalent) text; ``…`` for forms the explanation never needs."""
    kind, children = node["type"], node.get("children", [])
    if kind == "field":
        return node["value"] if node["value"].isidentifier() else json.dumps(node["value"])
    if kind in ("literal", "raw_literal"):
        return "`" + json.dumps(node["value"]) + "`"
    if kind == "current":
        return "@"
    if kind == "identity":
        return ""
    if kind == "subexpression":
        return ".".join(unparse(child) for child in children)
    if kind == "index_expression":
        return "".join(unparse(child) for child in children)
    if kind == "index":
        return f"[{node['value']}]"
    if kind == "flatten":
        return unparse(children[0]) + "[]"
    if kind in ("projection", "value_projection", "filter_projection"):
        left, right = unparse(children[0]), unparse(children[1])  # a filter's condition is its third child
        if kind == "filter_projection":
            left += f"[?{unparse(children[2])}]"
        elif kind == "projection" and not left.endswith("[]"):
            left += "[*]"
        elif kind == "value_projection":
            left += ".*"
        return left + ("." + right if right and not right.startswith("[") else right)
    if kind == "function_expression":
        return f"{node['value']}(" + ", ".join(unparse(child) for child in children) + ")"
    if kind == "comparator":
        return f"{unparse(children[0])} {_COMPARATORS.get(node['value'], node['value'])} {unparse(children[1])}"
    if kind == "and_expression":
        return " && ".join(unparse(child) for child in children)
    if kind == "or_expression":
        return " || ".join(unparse(child) for child in children)
    if kind == "not_expression":
        return "!" + unparse(children[0])
    if kind == "pipe":
        return " | ".join(unparse(child) for child in children)
    if kind == "expref":
        return "&" + unparse(children[0])
    return "…"


__all__ = ["operands", "unparse"]
