"""Fixture has no `.md` sidecar.

## What it does
Checks that `NNN-name.yaml` has its prose companion `NNN-name.md` in the same directory.

## Why is this bad?
conformance-adapter §3.1: each fixture is a numbered pair — the YAML is the executable form, the
Markdown sidecar states the intent, the spec sections covered and the pass / fail conditions. When a
fixture fails in some implementation, the sidecar is what tells its author whether the fixture or
the implementation is wrong.

## Example
Bad:
```text
conformance/9x2-example-b.yaml
```
Good:
```text
conformance/9x2-example-b.yaml
conformance/9x2-example-b.md
```
"""

from __future__ import annotations

from typing import Iterator

from ..context import FileContext, Finding

CODE = "L003"
NAME = "missing-sidecar"
SEVERITY = "warning"
KIND = "file"


def check(file: FileContext) -> Iterator[Finding]:
    if not file.in_conformance_dir or not file.name.endswith(".yaml"):
        return
    sidecar = file.name[: -len(".yaml")] + ".md"
    if sidecar not in file.siblings:
        yield file.at_start(f"fixture has no prose sidecar {sidecar!r} (conformance-adapter §3.1: fixtures are .yaml/.md pairs)")
