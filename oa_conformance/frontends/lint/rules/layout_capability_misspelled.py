"""A fixture's capability folder misspells a known capability.

## What it does
Reports a fixture under `spec/<folder>/conformance/` whose folder is not a capability this adapter
knows but is close to one: the same words with `_` or capitals (`graph_engine`), or a near spelling
(`observabilty`, `llm-providers`), with the known name as the suggestion. A folder far from every
known name is a new capability a newer spec adds, read with the general vocabulary.

## Why is this bad?
conformance-adapter §3.1, §3.2: the capability folder selects the vocabulary and the executors. A
misspelled one would run the fixture as a capability of its own, with every capability-specific
directive unknown or not implemented. `check` and `run` report it as `fixture_schema_invalid` too.

## Example
Bad: `spec/graph_engine/conformance/001-linear.yaml`

Good: `spec/graph-engine/conformance/001-linear.yaml`
"""

from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

# The judgement is discovery's (oa_conformance.model.discovery.misspelled_capability), applied when a
# fixture is read: every front end reports it.
CODE = "L006"
NAME = "capability-misspelled"
SEVERITY = "error"
KIND = "static"
CATEGORY = FIXTURE_SCHEMA_INVALID
CLAIMS = ("capability-name",)
