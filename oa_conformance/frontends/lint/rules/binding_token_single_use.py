"""A first-occurrence binding token is used only once in its case.

## What it does
Counts each binding token (`<trace_id_X>`, `<corr_id_X>`, `<span_id_X>`, `<invocation_id_X>`) over
a case's expectations — its own and those it inherits from the top level, invariant values
included — and reports a token written exactly once.

## Why is this bad?
conformance-adapter §5.10: a binding token binds to the value at its first occurrence and every
later occurrence of the exact same token must equal it. Written once, it binds and is never compared:
it asserts only that some value is there. That is almost always a typo of a token used elsewhere
(`<trace_id_parnet>` for `<trace_id_parent>`), which silently drops the cross-reference the fixture
exists to check. Use `<any-string>` when any value will do.

## Example
Bad:
```yaml
span_tree:
  - {name: outer, trace_id: "<trace_id_parent>"}
  - {name: inner, trace_id: "<trace_id_parnet>"}
```
Good:
```yaml
span_tree:
  - {name: outer, trace_id: "<trace_id_parent>"}
  - {name: inner, trace_id: "<trace_id_parent>"}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, did_you_mean

CODE = "E005"
NAME = "binding-token-single-use"
SEVERITY = "warning"
KIND = "scenario"
# Token labels differ on purpose (`<trace_id_parent>` / `<trace_id_detached>`): hint only near-misses.


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    counts = ctx.binding_counts()
    used = [text for text, count in counts.items() if count > 1]
    for token in ctx.bindings:
        if counts[token.text] == 1:
            yield Finding(token.span, f"binding token {token.text!r} occurs once in this case, so it binds nothing{did_you_mean(token.text, used, cutoff=0.85)}")
