"""A projection or fan-out names a field its state schema does not declare.

## What it does
For every node that runs a subgraph — a subgraph-as-node, a fan-out, a parallel branch, a subgraph
call — checks each field name against the schema it belongs to:

| directive | names |
|---|---|
| `inputs` | `{<subgraph field>: <parent field>}` |
| `outputs`, `extra_outputs` | `{<parent field>: <subgraph field>}` |
| `projects_in`, `projects_out` | same-name fields: on both schemas |
| `items_field`, `target_field`, `errors_field`, `count_field` | a parent field |
| `item_field`, `collect_field` | a subgraph field |

(a `mapping:` block's `inputs` / `outputs` read the same). A side whose graph declares no `state:`
is not checked. A fan-out's `count_field` must also be declared `int`: pipeline-utilities §9 makes a
type mismatch "a compile error per the existing `mapping_references_undeclared_field` rule applied
symmetrically to type compatibility".

## Why is this bad?
graph-engine §2 and pipeline-utilities §9: every mapped field MUST be declared on the relevant
schema, and compilation fails with `mapping_references_undeclared_field` otherwise. Swapping the
two sides of an `inputs` map (it is subgraph → parent, `outputs` is parent → subgraph) is an easy
mistake that this catches.

A case that expects `expected_compile_error: mapping_references_undeclared_field` is correct, not a
finding.

## Example
Bad (`inputs` written parent → subgraph):
```yaml
nodes:
  sub: {subgraph: doubler, inputs: {a: input}}
```
Good:
```yaml
nodes:
  sub: {subgraph: doubler, inputs: {input: a}}
```
"""

from __future__ import annotations

from typing import Iterator

from ....ast.nodes import Mapping, Scalar, Section, Sequence, TypeRef
from ....model.diagnostics import Span
from ..context import Finding, ScenarioContext, child_sections, did_you_mean, schema_fields, subgraph_reference
from ..spec_terms import MAPPING_REFERENCES_UNDECLARED_FIELD

CODE = "G006"
NAME = "mapping-field-undeclared"
SEVERITY = "error"
KIND = "scenario"
EXPECTED_AS = MAPPING_REFERENCES_UNDECLARED_FIELD

PARENT, SUBGRAPH = "parent", "subgraph"
# {key: value} maps: which schema each side names.
PAIR_MAPS = {"inputs": (SUBGRAPH, PARENT), "outputs": (PARENT, SUBGRAPH), "extra_outputs": (PARENT, SUBGRAPH)}
SAME_NAME_SETS = ("projects_in", "projects_out")
FIELD_REFERENCES = {
    "items_field": PARENT, "target_field": PARENT, "errors_field": PARENT, "count_field": PARENT,
    "item_field": SUBGRAPH, "collect_field": SUBGRAPH,
}


def check(ctx: ScenarioContext) -> Iterator[Finding]:
    for graph in ctx.graphs():
        for _, node in graph.node_items():
            yield from _section(ctx, node, (graph.label, graph.field_names), None)
            yield from _count_field_type(node, graph.fields, graph.label)


def _count_field_type(node: Section, fields: Mapping | None, owner: str) -> Iterator[Finding]:
    """A fan-out's `count_field` declared with a type other than `int` (pipeline-utilities §9)."""
    fan_out = node.fan_out
    count_field = fan_out.count_field if isinstance(fan_out, Section) else None
    if type(count_field) is not Scalar or fields is None:
        return
    declared = fields.get(count_field.value)
    kind = declared.type if isinstance(declared, Section) else None
    if isinstance(kind, TypeRef) and kind.name != "int":
        yield Finding(count_field.span, f"count_field names field {count_field.value!r}, which {owner} declares "
                                        f"{kind.spelling!r}, not int")


def _section(ctx: ScenarioContext, section: Section, parent: tuple, running: str | None) -> Iterator[Finding]:
    reference = subgraph_reference(section)
    running = reference.value if reference is not None else running
    sides = {PARENT: parent, SUBGRAPH: _schema(ctx, running)}
    for directive, value in section.items():
        kind = type(value)
        if directive in PAIR_MAPS and kind is Mapping:
            key_side, value_side = PAIR_MAPS[directive]
            for key, key_span, item in zip(value.keys, value.key_spans, value.values):
                yield from _field(directive, key, key_span, sides[key_side])
                if type(item) is Scalar:
                    yield from _field(directive, item.value, item.span, sides[value_side])
        elif directive in SAME_NAME_SETS and kind is Sequence:
            for item in value.items:
                yield from _field(directive, item.value, item.span, sides[PARENT], sides[SUBGRAPH])
        elif directive in FIELD_REFERENCES and kind is Scalar:
            yield from _field(directive, value.value, value.span, sides[FIELD_REFERENCES[directive]])
        for child in child_sections(value):
            # A `mapping:` block maps for the subgraph its node runs; any other nested section
            # (a branch, a fan-out, a branch's `call:`) names its own.
            yield from _section(ctx, child, parent, running if child.family == "projection" else None)


def _schema(ctx: ScenarioContext, name: str | None) -> tuple[str, frozenset | None]:
    declaration = ctx.declarations.get(name) if name is not None else None
    return (f"subgraph {name!r}", schema_fields(declaration) if declaration is not None else None)


def _field(directive: str, name: object, span: Span, *schemas: tuple[str, frozenset | None]) -> Iterator[Finding]:
    if not isinstance(name, str) or name.startswith("<"):
        return  # not a field name: a marker such as `<fan_out_item>`
    missing = [(owner, fields) for owner, fields in schemas if fields is not None and name not in fields]
    if missing:
        if len(missing) == 1:
            owner, fields = missing[0]
            yield Finding(span, f"{directive} names field {name!r}, which {owner} does not declare{did_you_mean(name, fields)}")
        else:
            yield Finding(span, f"{directive} names field {name!r}, which neither {missing[0][0]} nor {missing[1][0]} declares")
