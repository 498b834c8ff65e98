"""The file cannot be read.

## What it does
Reports a fixture path that exists in a listing but cannot be opened (permissions, a dangling
symlink, a directory named `*.yaml`).

## Why is this bad?
Adapters discover fixtures by walking `spec/<capability>/conformance/` for `*.yaml`
(conformance-adapter §8.1); a file found but unreadable fails every implementation's run. This is
`fixture_schema_invalid` (§9).

## Example
Bad: `conformance/9xx-example.yaml -> ../drafts/9xx.yaml` (a symlink to a file not in the
repository).

Good: the fixture itself, committed in `conformance/`.
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "Y006"
NAME = "unreadable"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("io",)
