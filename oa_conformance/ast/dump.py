"""Dumping the AST: a quiet text tree, JSON that reads back to an equal AST, and fixture YAML.

All three are generic over the classes' declared ``_fields``: no per-class code.

* :func:`dump_text` — one node per line, data values inline when short (``oa-ast`` default);
* :func:`to_data` / :func:`from_data` — a JSON-able form with ``_type`` tags; ``from_data(to_data(n)) == n``;
* :func:`unparse` — back to plain fixture data (YAML-able); re-reading it gives an equal AST.
"""

from __future__ import annotations

from ..model.kinds import is_sequence

import json
from typing import Any

from pyrsistent import pvector

from .views import BY_FAMILY
from .nodes import BindingToken, FormatToken, Mapping, Node, Placeholder, PredicateBlock, PredicateRef, Scalar, Section, Sequence, TypeRef

_CLASSES: dict[str, type[Node]] = {
    cls.__name__: cls
    for cls in (Scalar, Mapping, Sequence, TypeRef, FormatToken, BindingToken, Placeholder, PredicateRef, PredicateBlock)
}
_CLASSES.update((cls.__name__, cls) for cls in BY_FAMILY.values())
_TUPLE_FIELDS = frozenset(("keys", "order"))  # stored as tuples; every other list field is a pvector


# ---------------------------------------------------------------------------------------------
# JSON-able data


def to_data(node: Any, spans: bool = False) -> Any:
    """``node`` as JSON-able data: ``{"_type": "NodeDecl", <field>: …}``; sections omit absent directives."""
    if isinstance(node, Node):
        out: dict[str, Any] = {"_type": type(node).__name__}
        if spans and node.span is not None:
            out["_span"] = [node.span.line, node.span.column]
        for name in node._fields:
            value = getattr(node, name)
            if value is None and isinstance(node, Section):
                continue
            out[name] = to_data(value, spans)
        return out
    if is_sequence(node):
        return [to_data(item, spans) for item in node]
    return node


def from_data(data: Any) -> Any:
    """The inverse of :func:`to_data` (spans are not restored: they are not part of equality)."""
    if isinstance(data, dict) and "_type" in data:
        cls = _CLASSES[data["_type"]]
        values = {}
        for name in cls._fields:
            if name not in data:
                continue
            value = data[name]
            if isinstance(value, list):
                items = [from_data(item) for item in value]
                value = tuple(items) if name in _TUPLE_FIELDS else pvector(items)
            else:
                value = from_data(value)
            values[name] = value
        return cls.make(**values)
    return data


def dump_json(node: Node, spans: bool = False) -> str:
    return json.dumps(to_data(node, spans), indent=2, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# Fixture data (YAML-able)


def unparse(node: Any, memo: dict[int, Any] | None = None) -> Any:
    """The plain data a fixture author would write for ``node``: fresh dicts and lists on every
    call, but within one call a subtree the loader shared (a YAML alias) becomes one shared dict or
    list — what the alias means — so an alias DAG costs its distinct nodes, not its expansion."""
    if isinstance(node, Scalar):
        return node.value
    if memo is None:
        memo = {}
    if isinstance(node, (Mapping, Sequence)):
        found = memo.get(id(node))
        if found is None:
            if isinstance(node, Mapping):
                found = {key: unparse(value, memo) for key, value in node.items()}
            else:
                found = [unparse(item, memo) for item in node.items]
            memo[id(node)] = found  # the AST node outlives the call: its identity is not reused
        return found
    if isinstance(node, Section):
        return {key: unparse(value, memo) for key, value in node.items()}
    if isinstance(node, PredicateBlock):
        return {ref.name: unparse(ref.value, memo) for ref in node.predicates}
    if isinstance(node, TypeRef):
        return node.spelling
    if isinstance(node, (FormatToken, BindingToken, Placeholder)):
        return node.text
    return node


# ---------------------------------------------------------------------------------------------
# Text tree

_INLINE_WIDTH = 88


def dump_text(node: Node, spans: bool = False) -> str:
    """A quiet indented tree: section classes named, data values inline when they fit."""
    lines: list[str] = []
    _text(node, 0, None, lines, spans)
    return "\n".join(lines) + "\n"


def _label(node: Node) -> str:
    if isinstance(node, TypeRef):
        return f"TypeRef {node.spelling}"
    if isinstance(node, FormatToken):
        return f"FormatToken {node.text}"
    if isinstance(node, BindingToken):
        return f"BindingToken {node.text}"
    if isinstance(node, Placeholder):
        return f"Placeholder {node.text}"
    return type(node).__name__


def _suffix(node: Any, spans: bool) -> str:
    if spans and isinstance(node, Node) and node.span is not None:
        return f"  @{node.span.position}"
    return ""


def _inline(node: Any) -> str | None:
    """A one-line rendering of a data value, or None when it does not fit."""
    if isinstance(node, (Scalar, Mapping, Sequence)) and not _has_rich(node):
        text = json.dumps(unparse(node), ensure_ascii=False, default=str)
        return text if len(text) <= _INLINE_WIDTH else None
    if isinstance(node, (TypeRef, FormatToken, BindingToken, Placeholder)):
        return _label(node)
    return None


def _has_rich(node: Any) -> bool:
    if isinstance(node, Mapping):
        return any(_has_rich(v) for v in node.values)
    if isinstance(node, Sequence):
        return any(_has_rich(v) for v in node.items)
    return not isinstance(node, Scalar)


def _text(node: Any, depth: int, key: str | None, lines: list[str], spans: bool) -> None:
    pad = "  " * depth
    head = pad if key is None else f"{pad}- " if key == "-" else f"{pad}{key}: "
    inline = _inline(node)
    if inline is not None:
        lines.append(f"{head}{inline}{_suffix(node, spans)}")
        return
    if isinstance(node, (Section, Mapping)):
        title = _label(node) if isinstance(node, Section) else ""
        lines.append(f"{head}{title}".rstrip() + _suffix(node, spans))
        for name, value in node.items():
            _text(value, depth + 1, str(name), lines, spans)
    elif isinstance(node, Sequence):
        lines.append(f"{head.rstrip()}{_suffix(node, spans)}")
        for item in node.items:
            _text(item, depth + 1, "-", lines, spans)
    elif isinstance(node, PredicateBlock):
        lines.append(f"{head}PredicateBlock{_suffix(node, spans)}")
        for ref in node.predicates:
            _text(ref.value, depth + 1, f"{ref.name} (predicate)", lines, spans)
    else:  # pragma: no cover - every node class is handled above
        lines.append(f"{head}{node!r}")


__all__ = ["dump_json", "dump_text", "from_data", "to_data", "unparse"]
