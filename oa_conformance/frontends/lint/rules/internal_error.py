"""The linter failed on this file (a bug in oa-lint, not in the fixture).

## What it does
Reports, at the first line of the file, a rule or pass that raised an exception instead of returning
findings. The other rules and the other files are still checked; `oa-lint` exits with status 2.

## Why is this bad?
It is not a fixture problem: the file could not be fully checked, so a clean result would be a
false one. Please report it with the file that triggered it.

## Example
```text
spec/x/conformance/001-a.yaml:1:1: X001 internal error in G003 (node-unreachable): KeyError: 'b'
```
"""

CODE = "X001"
NAME = "internal-error"
SEVERITY = "error"
KIND = "internal"
