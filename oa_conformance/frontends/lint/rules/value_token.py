"""A value token in an expected value is malformed.

## What it does
Reports a string in an expected value that is meant as a conformance-adapter §5.10 inline token —
`<` and a word — but is not one: an unknown word (`<uuuid>`), a missing `>`, a binding token without
its suffix (`<trace_id>`); and a disambiguating suffix on a format other than `<uuid-hex>`
(`<uuid-2>`), the only one §5.10 gives a suffix. The location is the character inside the string.

## Why is this bad?
§5.10: adapters match the runtime value against the token instead of comparing literally. A
malformed token is compared as a literal string and never matches — or, in a lenient adapter,
matches anything. Either way the expectation no longer checks what its author meant.

## Example
Bad:
```yaml
expected:
  final_state: {request_id: "<uuid", trace: "<trace_id>"}
```
Good:
```yaml
expected:
  final_state: {request_id: "<uuid>", trace: "<trace_id_root>"}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, FixtureContext
from ..spec_terms import LABELLED_FORMAT

CODE = "E004"
NAME = "value-token"
SEVERITY = "error"
KIND = "fixture"
CLAIMS = ("value-token",)


def check(ctx: FixtureContext) -> Iterator[Finding]:
    for token in ctx.formats:
        if token.label is not None and token.kind != LABELLED_FORMAT:
            yield Finding(token.span, f"value token {token.text!r}: only <{LABELLED_FORMAT}> takes a disambiguating suffix; "
                                      f"<{token.kind}> is written without one")
