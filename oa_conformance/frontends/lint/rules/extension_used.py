"""A fixture uses an extension of this adapter's fixture language (information, not a problem).

## What it does
Reports each use of a directive (or of one value of it) that the vocabulary marks as an EXTENSION
of this adapter (`Directive.extension`): something the upstream fixture language does not define,
such as `retry_after_seconds: null`. The finding says what the extension adds.

## Why is this bad?
It is not: this adapter runs the case. But another conformance adapter need not understand the
extension, so a fixture meant for the upstream corpus shows here where it depends on one. Severity
`info`: it never changes the exit status (`--select V005` lists them all; `--ignore V005` hides them).

## Example
Bad, for a fixture meant for upstream (it depends on an extension: the upstream language has no null hint):
```yaml
expected:
  raises:
    category: provider_rate_limit
    retry_after_seconds: null
```
Good (upstream language only):
```yaml
expected:
  raises:
    category: provider_rate_limit
```
"""

from __future__ import annotations

from typing import Iterator

from ....model.vocabulary import VOCABULARY
from ..context import Finding, FixtureContext

CODE = "V005"
NAME = "extension-used"
SEVERITY = "info"
KIND = "fixture"


def check(ctx: FixtureContext) -> Iterator[Finding]:
    for section in ctx.sections:  # each once (an alias can place one twice)
        extended = VOCABULARY.extended_in(section.family)
        if extended.isdisjoint(section.order):
            continue  # most sections: no key of theirs is ever an extension
        for key, value in section.items():
            row = VOCABULARY.lookup(section.family, key, ctx.capability) if key in extended else None
            if row is not None and row.extension is not None and row.extension.used_by(value):
                yield Finding(section.key_span(key), f"`{key}` uses an extension of this adapter, not upstream fixture language: {row.extension.doc}")
