"""Sidecar citation names a section the prose lacks, or resolves to no normative statement.

## What it does
Reads the fixture's sidecar citations (the "**Spec sections exercised:**" block) and resolves each
against the spec's prose the way `oa-conformance coverage` does (docs/COVERAGE.md): by section,
then topic, then wording. It reports a citation whose section the prose does not have, whose
section (or topic) holds no RFC 2119 statement, or whose wording matches none of the section's
normative statements.

The prose is `--prose SPEC_CHECKOUT`, or the spec checkout the fixture is in when that has
`spec/<capability>/spec.md`. Without prose the rule checks nothing, and `oa-lint` says so once.
A warning on an upstream corpus; an error on this project's own bundled `spec/`, whose cases must
each trace to the statement they check.

## Why is this bad?
conformance-adapter §3.1: the sidecar states "spec-section coverage". A citation that points at
nothing tells a runtime author who fails the case nothing about which requirement they broke, and
the coverage map cannot count the case for any statement.

## Example
Bad (graph-engine has no §9; §2 *Edge* states no requirement):
```markdown
**Spec sections exercised:**
- §9 Reducers — append concatenates.
- §2 Edge — static edges.
```
Good:
```markdown
**Spec sections exercised:**
- §2 Node — "A node MUST NOT mutate the state object it received."
```
"""

from __future__ import annotations

from typing import Iterator

from ...coverage.citations import sidecar_citations
from ...coverage.resolve import problems
from ....model.diagnostics import Span
from ..context import Finding, SidecarContext

CODE = "L005"
NAME = "citation-unresolved"
SEVERITY = "warning"
KIND = "sidecar"

_NO_SECTION = "names no spec section (§N)"


def check(sidecar: SidecarContext) -> Iterator[Finding]:
    if sidecar.prose is None:
        return
    citations, _ = sidecar_citations(sidecar.fixture, sidecar.capability, sidecar.path, sidecar.text, [], sidecar.prose)
    severity = "error" if sidecar.own else None
    for citation in citations:
        for problem in problems(citation, sidecar.prose):
            if problem != _NO_SECTION:
                yield Finding(Span(sidecar.path, citation.line, 1), f"citation resolves to nothing: {problem}", severity)
