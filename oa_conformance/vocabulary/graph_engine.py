"""Directives serving graph-engine: node behaviours (§5.1), subgraph boundaries (§5.4) and the
drain primitives (§6.6)."""

from __future__ import annotations

from .registry import Directive, Family
from .shapes import BOOL, INT, MILLISECONDS, NUM, SECONDS, STR, Data, Expect, ListOf, OneOf, Section

CAPABILITY = "graph-engine"
GE = CAPABILITY
NODE = ("node",)

FAMILIES = [
    Family("node_raise", "NodeRaise", "A structured `raises:` — the error a node raises, with its category."),
    Family("drain_for", "DrainEventsFor", "`invoke_drain_events_for`: a per-invocation drain inside a node (graph-engine §6).",
           required=("timeout_seconds",)),
    Family("projection", "Projection", "An explicit subgraph boundary mapping: `inputs` / `outputs` (graph-engine §2)."),
]

DIRECTIVES = [
    Directive("update", NODE, Data(("map",)), "§5.1", GE, "0.48.0", "Return this partial update; each field merges through its reducer."),
    Directive("update_pure", NODE, Data(("map",)), "§5.1", GE, "0.48.0", "Same as `update`, a constant inlined verbatim."),
    Directive("update_from_field", NODE, Data(("map",)), "§5.1", "pipeline-utilities", "0.48.0",
              "`{<target>: <source_field>, multiplier: <int>}`: return target = source × multiplier."),
    Directive("raises", NODE, OneOf((STR, Section("node_raise"))), "§5.1", GE, "0.48.0", "Raise instead of returning."),
    Directive("category", ("node_raise",), STR, "§5.1", GE, None, "The category of the raised error."),
    Directive("message", ("node_raise",), STR, "§5.1", GE, None, "The message of the raised error."),
    Directive("empty_phases_raises_at_registration", ("expected",), BOOL, "§6", GE, None,
              "Registering an observer with an empty phases set raises (a configuration error)."),
    Directive("exception_kind", ("node_raise",), STR, "§5.1", GE, None,
              "The host-language exception type raised (a built-in such as ValueError): a bare error with no category."),
    Directive("error_category", NODE, STR, "§5.1", "pipeline-utilities", None, "The category the `raises:` error carries."),
    Directive("sleep_ms", NODE, MILLISECONDS, "§5.1", "pipeline-utilities", None, "Sleep this long before the node's other directives."),
    Directive("noop", NODE, BOOL, "§5.1", GE, None, "A node that returns no update."),

    Directive("subgraph", NODE, STR, "§5.4", GE, "0.48.0", "Run the named subgraph as this node."),
    Directive("inputs", NODE + ("projection",), Data(("map",)), "§5.4", GE, None, "Explicit mapping parent field → subgraph field."),
    Directive("outputs", NODE + ("projection",), Data(("map",)), "§5.4", GE, None, "Explicit mapping subgraph field → parent field."),
    Directive("mapping", NODE, Section("projection"), "§5.4", GE, None, "The explicit mapping as one block."),
    Directive("projects_in", NODE, ListOf(STR), "§2", GE, "0.89.0", "Declared same-name boundary: fields copied in."),
    Directive("projects_out", NODE, ListOf(STR), "§2", GE, "0.89.0", "Declared same-name boundary: fields copied out."),

    Directive("invoke_drain_events_for", NODE, Section("drain_for"), "§5.1", GE, "0.48.0",
              "Before returning, call `drain_events_for(invocation_id)` and snapshot an accumulator."),
    Directive("timeout_seconds", ("drain_for",), SECONDS, "§6.6", GE, "0.48.0", "The drain timeout."),
    Directive("snapshot_observer", ("drain_for",), STR, "§6.6", GE, "0.48.0", "The accumulate observer to snapshot."),

    Directive("delivery_order", ("expected",), Expect(("list",)), "§6", GE, None, "The order events reached observers."),
    Directive("no_propagated_error", ("expected",), BOOL, "§6", GE, None, "The invocation raised nothing."),
]
