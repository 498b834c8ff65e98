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

from ....ast.visitor import sections_under
from ....ast.nodes import Node, Section
from ....model.vocabulary import VOCABULARY
from ..context import Finding, FixtureContext

CODE = "V005"
NAME = "extension-used"
SEVERITY = "info"
KIND = "fixture"


def check(ctx: FixtureContext) -> Iterator[Finding]:
    seen: set[int] = set()
    for section in _sections(ctx.fixture, seen):
        for key, value in section.items():
            row = VOCABULARY.lookup(section.family, key, ctx.capability)
            if row is not None and row.extension is not None and row.extension.used_by(value):
                yield Finding(section.key_span(key), f"`{key}` uses an extension of this adapter, not upstream fixture language: {row.extension.doc}")


def _sections(node: Node, seen: set[int]) -> Iterator[Section]:
    """Every directive section under ``node``, each once (an alias can place one twice)."""
    for section in sections_under(node):
        if id(section) not in seen:
            seen.add(id(section))
            yield section
