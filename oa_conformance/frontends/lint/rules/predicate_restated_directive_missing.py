"""A predicate that restates another expectation is used in a case that does not assert it.

## What it does
Some catalogue rows (`Restates`, `oa_conformance/assertions/catalogue/`) say no more than another
expectation of the same case — the row names that expectation by its directive path
(`expected.final_state.vectors`). Such a predicate is verified exactly when that expectation is
present and verified. This rule reports each use of a restating predicate in a case (or
invocation / resume block) that does not carry the restated directive.

## Why is this bad?
Without the restated expectation the predicate has nothing to stand on: the adapter reports it
`unverified` and the case cannot pass. Either the fixture lacks an expectation its prose relies
on, or the row is wrong for this use and must become a query.

## Example
Bad (the row restates `expected.final_state.vectors`):
```yaml
expected:
  invariants:
    vectors_returned_in_input_order: true
```
Good:
```yaml
expected:
  final_state: {vectors: [[0.1], [0.2]]}
  invariants:
    vectors_returned_in_input_order: true
```
"""

from __future__ import annotations

from typing import Any, Iterator

from ..context import Finding, ScenarioContext
from ....ast.nodes import Section
from ....model.vocabulary import PREDICATE_BLOCKS, VOCABULARY

CODE = "P002"
NAME = "predicate-restated-directive-missing"
SEVERITY = "warning"
KIND = "scenario"

# The `expected:` predicate blocks (PREDICATE_BLOCKS) as the vocabulary rows the blocks are read by.
PREDICATE_ROWS = tuple(VOCABULARY.lookup("expected", name) for name in PREDICATE_BLOCKS)


def blocks(owner: Any) -> Iterator[Any]:
    """The predicate blocks an owner (the case, an invocation, a resume block) holds."""
    expected = owner.get("expected")  # owner: the scenario (inheritance) or a section
    if isinstance(expected, Section):
        for row in PREDICATE_ROWS:
            if expected.given(row) is not None:
                yield expected.given(row)
    if owner.get("invariants") is not None:
        yield owner.get("invariants")


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    from ....assertions.catalogue import directive_node, resolve
    from ....assertions.catalogue.rows import Restates

    owners = [ctx.scenario] + list(ctx.invocations())
    resume = ctx.view.resume
    if resume is not None and hasattr(resume, "get"):
        owners.append(resume)
    for owner in owners:
        for block in blocks(owner):
            for predicate in getattr(block, "predicates", ()):
                found = resolve(ctx.capability, predicate.name)
                if found is None or not isinstance(found.row, Restates):
                    continue
                if directive_node(owner, found.row.directive) is None:
                    yield Finding(predicate.span, f"invariant predicate {predicate.name!r} restates {found.row.directive}, "
                                  "which this case does not assert; it cannot be verified")
