"""An invariant predicate is not implemented by this adapter.

## What it does
Reports each predicate named in an `invariants:`-like block (`invariants`,
`observer_event_invariants`, `node_accumulator_snapshot_invariants` …) for which the adapter's
assertion layer has no catalogue row, looked up by (capability, name) — the capability's own
rows, then the §5.9 canonical ones (`oa_conformance.assertions.catalogue.resolve`); another
capability's rows never answer.

## Why is this bad?
conformance-adapter §5.9: predicate names are declarative, and the adapter MUST ship logic for
each. Until it does, a case using the name cannot pass here and is reported "not implemented"
rather than passed. For a spec author, a name reported here that is not documented in the fixture's
sidecar or in §5.9 is often a misspelling.

A warning with its own code so that it can be selected (`--select P001`, to list what is left to
implement) or ignored (`--ignore P`) on its own.

## Example
Bad (not documented anywhere, and a typo of `inner_event_count`):
```yaml
observer_event_invariants:
  inner_events_count: 6
```
Good:
```yaml
observer_event_invariants:
  inner_event_count: 6
```
"""

from __future__ import annotations

from typing import Iterator

from ....assertions import catalogue
from ....model.discovery import CAPABILITIES
from ..context import Finding, FixtureContext

CODE = "P001"
NAME = "predicate-not-implemented"
SEVERITY = "warning"
KIND = "fixture"


def check(ctx: FixtureContext) -> Iterator[Finding]:
    for predicate in ctx.predicates:
        if not _resolves(ctx.capability, predicate.name):
            yield Finding(predicate.span, f"invariant predicate {predicate.name!r} is not implemented by this adapter; it is not checked")


def _resolves(capability: str | None, name: str) -> bool:
    """Whether the catalogue has a row for ``name`` in ``capability`` (its own or a §5.9 general row).
    With no capability (standard input, a file outside a conformance folder) any capability's row
    answers, as any capability's vocabulary does for the schema check."""
    if capability is None:
        return any(catalogue.resolve(known, name) is not None for known in CAPABILITIES)
    return catalogue.resolve(capability, name) is not None
