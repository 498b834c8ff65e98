"""A state field names a reducer that does not exist.

## What it does
Checks each `reducer:` (and `alt_reducer:`) against graph-engine §2's canonical reducers: the
string form names one of `last_write_wins`, `append`, `merge`, `concat_flatten`, `merge_all`; the
single-key mapping form names a factory — `bounded_append`, `dedupe_append`, `merge_by_key`.

## Why is this bad?
conformance-adapter §5.2: the adapter translates each reducer name into the implementation's reducer.
An unknown name cannot be translated; a misspelt `apend` fails the fixture everywhere, and a
lenient adapter falling back to last-write-wins would pass a fixture that tests nothing about
appending.

## Example
Bad:
```yaml
fields:
  log: {type: list<string>, reducer: apend, default: []}
  recent: {type: list<string>, reducer: {bounded: {max_len: 3}}, default: []}
```
Good:
```yaml
fields:
  log: {type: list<string>, reducer: append, default: []}
  recent: {type: list<string>, reducer: {bounded_append: {max_len: 3}}, default: []}
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import Finding, ScenarioContext, did_you_mean
from ..spec_terms import FACTORY_REDUCERS, PLAIN_REDUCERS

CODE = "S003"
NAME = "reducer-unknown"
SEVERITY = "error"
KIND = "scenario"

KNOWN = PLAIN_REDUCERS + tuple(FACTORY_REDUCERS)


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for name, use in ctx.reducer_uses():
        if use.name not in KNOWN:
            yield Finding(use.span, f"field {name!r}: unknown reducer {use.name!r}{did_you_mean(use.name, KNOWN)}")
        for span in use.extra_keys:
            yield Finding(span, f"field {name!r}: a factory reducer is a single-key mapping {{<factory>: {{<arguments>}}}}")
