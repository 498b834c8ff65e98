"""`conformance_version` is newer than this adapter targets.

## What it does
Reports a fixture whose `conformance_version:` is greater than the conformance-adapter version this
adapter targets (declared in `pyproject.toml`, `[tool.openarmature] spec_version`).

## Why is this bad?
conformance-adapter §4.4 and §8.5: the vocabulary is additive, so a newer fixture may use directives
this adapter cannot know; it MUST raise `fixture_version_unsupported` instead of running with silent
gaps. For a spec author it usually means a typo in the version, or an adapter to upgrade.

## Example
Bad (for an adapter targeting 0.118.2):
```yaml
conformance_version: "1.9.0"
```
Good:
```yaml
conformance_version: "0.118.2"
```
"""

from oa_conformance.model.diagnostics import FIXTURE_VERSION_UNSUPPORTED

CODE = "V003"
NAME = "version-unsupported"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_VERSION_UNSUPPORTED
CLAIMS = ("version",)
