"""A state field's type string is malformed.

## What it does
Reports a `type:` that does not parse as a conformance-adapter §5.2 type string — pointing at the
character inside the string where it goes wrong — and one that parses but gives type arguments to a
type that takes none (`int<string>`, or a record type). `list` takes one element type and `dict` a
key and a value type (or none at all).

## Why is this bad?
§5.2: adapters MUST translate the type string into a typed-state field with equivalent semantics. An
unbalanced `list<int` or a `dict<string>` has no translation; each adapter would reject it
differently or guess.

## Example
Bad:
```yaml
fields:
  scores: {type: "dict<string>", default: {}}
```
Good:
```yaml
fields:
  scores: {type: "dict<string,int>", default: {}}
```
"""

from __future__ import annotations

from typing import Iterator

from ....ast.nodes import TypeRef
from ....model.vocabulary.tokens import CONTAINER_TYPES
from ..context import Finding, ScenarioContext

CODE = "S001"
NAME = "type-string"
SEVERITY = "error"
KIND = "scenario"
CLAIMS = ("type-string",)


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for name, decl in ctx.field_decls():
        declared = decl.type
        if isinstance(declared, TypeRef):
            yield from _arguments(name, declared)


def _arguments(field: str, ref: TypeRef) -> Iterator[Finding]:
    if ref.args and ref.name not in CONTAINER_TYPES:
        yield Finding(ref.span, f"field {field!r}: type {ref.spelling!r} gives type arguments to {ref.name!r}, which takes none")
    for arg in ref.args:
        yield from _arguments(field, arg)
