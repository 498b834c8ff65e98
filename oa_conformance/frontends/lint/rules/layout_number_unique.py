"""Two fixtures in one directory share a number.

## What it does
Checks that no other `*.yaml` fixture in the same `conformance/` directory starts with the same
number.

## Why is this bad?
conformance-adapter §3.1: numbers are assigned per directory when a fixture is created and are never
reused. Reports, sidecars and proposals cite fixtures by number ("fixture 007"); two fixtures with
one number make every such citation ambiguous — usually a rebase that brought in a fixture numbered
in parallel.

## Example
Bad:
```text
spec/graph-engine/conformance/9x1-example-a.yaml
spec/graph-engine/conformance/9x1-example-b.yaml
```
Good:
```text
spec/graph-engine/conformance/9x1-example-a.yaml
spec/graph-engine/conformance/9x2-example-b.yaml
```
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator

from ..context import FileContext, Finding

CODE = "L002"
NAME = "duplicate-number"
SEVERITY = "error"
KIND = "file"

NUMBER = re.compile(r"(\d+)-")


def check(file: FileContext) -> Iterator[Finding]:
    if not file.in_conformance_dir:
        return
    match = NUMBER.match(file.name)
    if match is None:
        return
    others = [name for name in _by_number(file.siblings).get(int(match.group(1)), ()) if name != file.name]
    if others:
        yield file.at_start(f"fixture number {match.group(1)} is also used by {', '.join(others)}")


@lru_cache(maxsize=64)
def _by_number(siblings: tuple[str, ...]) -> dict[int, list[str]]:
    """The fixtures of one directory listing, by number (computed once per directory)."""
    found: dict[int, list[str]] = {}
    for name in siblings:
        match = NUMBER.match(name)
        if match is not None and name.endswith(".yaml"):
            found.setdefault(int(match.group(1)), []).append(name)
    return found
