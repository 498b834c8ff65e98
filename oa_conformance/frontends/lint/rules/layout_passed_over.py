"""A file looks like a fixture but is not run.

## What it does
Reports each file in a `conformance/` folder that looks like a fixture, or like a fixture's sidecar,
and that discovery passes over: a `.yml` or `.YAML` name, a `*.yaml` in a subfolder of
`conformance/`, or an `NNN-name.md` sidecar with no `NNN-name.yaml` beside it. `oa-conformance check`
and `run` print the same files as located warnings, and the pytest plugin as collection warnings.

## Why is this bad?
conformance-adapter §3.1 and §8.1: adapters find fixtures as `spec/<capability>/conformance/*.yaml`
and nothing else. A fixture saved under another name or in a subfolder is never run by any adapter,
so every implementation "passes" it without a word; a sidecar without its fixture usually means the
fixture was renamed or deleted and the prose was left behind.

## Example
Bad:
```text
spec/graph-engine/conformance/9x3-example.yml
spec/graph-engine/conformance/extra/9x4-example.yaml
```
Good:
```text
spec/graph-engine/conformance/9x3-example.yaml
spec/graph-engine/conformance/9x4-example.yaml
```
"""

from __future__ import annotations

CODE = "L004"
NAME = "passed-over"
SEVERITY = "warning"
KIND = "discovery"  # reported from what discovery found (discovery.find), not from a fixture's content
