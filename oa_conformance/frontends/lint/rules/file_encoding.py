"""The file is not UTF-8.

## What it does
Reports the first byte that cannot start or continue a UTF-8 character, at its line and column.

## Why is this bad?
YAML 1.2 streams are Unicode; fixtures are read by adapters in every language, and a Latin-1 byte
in a description or an expected string decodes differently (or not at all) from one to the next.
This is `fixture_schema_invalid` (conformance-adapter §9).

## Example
Bad: a file saved as Latin-1 containing `description: café` (byte `0xe9`).

Good: the same file saved as UTF-8.
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

CODE = "Y002"
NAME = "not-utf8"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("encoding",)
