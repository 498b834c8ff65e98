"""A state field's default does not match its declared type.

## What it does
Checks each `default:` against the field's `type:` — `string`, `int`, `float` (an integer is a
float too), `bool`, `any`, `list` / `list<T>` (each item against `T`), `dict` / `dict<K,V>` (each key
and value), and a record type (a mapping, or `null` for "no record yet"). `null` is a valid default
only for `any` and record types.

## Why is this bad?
conformance-adapter §5.2: the default MUST match the declared type. Implementations validate state
at graph boundaries (graph-engine §2), so a mismatched default fails — or is coerced — differently in
each language, before the behaviour the fixture meant to test is reached.

## Example
Bad:
```yaml
fields:
  count: {type: int, default: "0"}
  trace: {type: list<string>, default: {}}
```
Good:
```yaml
fields:
  count: {type: int, default: 0}
  trace: {type: list<string>, default: []}
```
"""

from __future__ import annotations

from typing import Iterator

from ...ast.nodes import Mapping, Node, Scalar, Sequence, TypeRef
from ..context import Finding, ScenarioContext

CODE = "S002"
NAME = "default-type-mismatch"
SEVERITY = "error"
KIND = "scenario"

_SCALARS = {"string": (str,), "int": (int,), "float": (int, float), "bool": (bool,)}


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for name, decl in ctx.field_decls():
        declared, default = decl.get("type"), decl.get("default")
        if isinstance(declared, TypeRef) and default is not None:
            problem = mismatch(declared, default)
            if problem is not None:
                node, expected = problem
                yield Finding(node.span, f"field {name!r}: default {_show(node)} is not {expected} (declared type {declared.spelling!r})")


def mismatch(declared: TypeRef, value: Node) -> tuple[Node, str] | None:
    """The first part of ``value`` that does not fit ``declared``, and what was expected there."""
    name, kind = declared.name, type(value)
    if name == "any":
        return None
    if name in _SCALARS:
        ok = kind is Scalar and isinstance(value.value, _SCALARS[name]) and (name == "bool" or not isinstance(value.value, bool))
        return None if ok else (value, f"a {name}")
    if name == "list":
        if kind is not Sequence:
            return (value, "a list")
        element = declared.args[0] if declared.args else None
        return _first(mismatch(element, item) for item in value.items) if element is not None else None
    if name == "dict":
        if kind is not Mapping:
            return (value, "a mapping")
        if not declared.args:
            return None
        key_type, value_type = declared.args
        for key, key_span, item in zip(value.keys, value.key_spans, value.values):
            key_node = Scalar.make(value=key, span=key_span, quoted=False)
            found = mismatch(key_type, key_node) or mismatch(value_type, item)
            if found is not None:
                return found
        return None
    # Any other name is a record type: a mapping of its fields, or null for "no record yet".
    if kind is Mapping or (kind is Scalar and value.value is None):
        return None
    return (value, f"a {name} record (a mapping) or null")


def _first(problems) -> tuple[Node, str] | None:
    return next((p for p in problems if p is not None), None)


def _show(node: Node) -> str:
    if type(node) is not Scalar:
        return "a list" if type(node) is Sequence else "a mapping"
    if node.value is None or isinstance(node.value, bool):
        return str(node.value).lower().replace("none", "null")
    return repr(node.value)
