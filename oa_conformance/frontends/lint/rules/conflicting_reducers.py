"""A state field declares two reducers.

## What it does
Reports a field that declares `alt_reducer:` besides its reducer — a second reducer declaration.

## Why is this bad?
graph-engine §2: each state field has exactly one reducer, and compilation MUST fail with
`conflicting_reducers` when a field declares more than one. Outside a compile-error case, the second
declaration is a leftover that some adapter may honour instead of the first.

A case that expects `expected_compile_error: conflicting_reducers` is correct, not a finding.

## Example
Bad:
```yaml
fields:
  v: {type: list<string>, reducer: append, alt_reducer: last_write_wins}
```
Good:
```yaml
fields:
  v: {type: list<string>, reducer: append}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, reducer_use
from ..spec_terms import CONFLICTING_REDUCERS, DEFAULT_REDUCER

CODE = "S005"
NAME = "conflicting-reducers"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = CONFLICTING_REDUCERS


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for name, decl in ctx.field_decls():
        second = reducer_use(decl.alt_reducer)
        if second is None:
            continue
        first = reducer_use(decl.reducer)
        first_name = repr(first.name) if first is not None else f"{DEFAULT_REDUCER!r} (the default)"
        yield Finding(second.span, f"field {name!r} declares a second reducer {second.name!r} besides {first_name}; a field has exactly one")
