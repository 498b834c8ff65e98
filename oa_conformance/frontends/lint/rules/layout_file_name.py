"""Fixture file name is not `NNN-kebab-slug.yaml`.

## What it does
Checks that each fixture in a `conformance/` directory is named by a zero-padded three-digit number,
a hyphen and a kebab-case slug of lowercase words and digits.

## Why is this bad?
conformance-adapter §3.1 fixes the layout: fixtures are numbered pairs `NNN-name.yaml` /
`NNN-name.md`, numbered per directory. Adapters, reports and cross-references name fixtures by that
number and slug; a file named otherwise sorts wrongly, cannot be cited by number, and usually means
a copy that was never renamed.

## Example
Bad:
```text
spec/graph-engine/conformance/7-Compile_Errors.yaml
```
Good:
```text
spec/graph-engine/conformance/9xx-example.yaml
```
"""

from __future__ import annotations

import re
from typing import Iterator

from ..context import FileContext, Finding

CODE = "L001"
NAME = "file-name"
SEVERITY = "error"
KIND = "file"

PATTERN = re.compile(r"\d{3}-[a-z0-9]+(?:-[a-z0-9]+)*\.yaml\Z")


def check(file: FileContext) -> Iterator[Finding]:
    if file.in_conformance_dir and not PATTERN.match(file.name):
        yield file.at_start(f"fixture file name {file.name!r} is not NNN-kebab-slug.yaml (three digits, '-', lowercase words joined by '-')")
