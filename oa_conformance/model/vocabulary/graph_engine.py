"""Directives serving graph-engine: node behaviours (§5.1), subgraph boundaries (§5.4) and the
drain primitives (§6.6)."""

from __future__ import annotations

from .handlers import COMPOSITION, node, NODE_MODIFIER, PART, PROJECTION, SHAPE
from .registry import Directive, Extension, Family, Handler, every_use, value_among
from .shapes import BOOL, DAY_MS, MILLISECONDS, SECONDS, STR, Data, Enum, Expect, ListOf, OneOf, ScalarShape, SectionShape

CAPABILITY = "graph-engine"
GE = CAPABILITY
NODE = ("node",)

# A drain timeout graph-engine §6 makes the runtime reject at the API boundary: negative, or NaN
# (spelled `NaN`: a number shape admits no NaN, so a stray `.nan` stays a schema problem).
REJECTED_SECONDS = (ScalarShape(("int", "float"), (-(DAY_MS // 1000), -1e-9)), Enum(("NaN",)))


def _rejected_timeout(value) -> bool:
    """Whether one `timeout_seconds` value is the extension's (negative or `NaN`), not upstream's."""
    found = getattr(value, "value", None)
    return found == "NaN" or (isinstance(found, (int, float)) and not isinstance(found, bool) and found < 0)

FAMILIES = [
    Family("node_raise", "NodeRaise", "A structured `raises:` — the error a node raises, with its category."),
    Family("cancellation_cleanup", "CancellationCleanup", "`on_cancelled`: what a node body does when it is cancelled (an extension).",
           required=("cleanup_ms",)),
    Family("drain_for", "DrainEventsFor", "`invoke_drain_events_for`: a per-invocation drain inside a node (graph-engine §6).",
           required=("timeout_seconds",)),
    Family("drain_in_node", "DrainInNode", "`invoke_drain`: the process-wide drain called inside a node (an extension; graph-engine §6).",
           required=("timeout_seconds",)),
    Family("projection", "Projection", "An explicit subgraph boundary mapping: `inputs` / `outputs` (graph-engine §2)."),
]

DIRECTIVES = [
    Directive("update", NODE, Data(("map",)), "§5.1", GE, "0.48.0", "Return this partial update; each field merges through its reducer.", handled_by=node("update")),
    Directive("update_pure", NODE, Data(("map",)), "§5.1", GE, "0.48.0", "Same as `update`, a constant inlined verbatim.", handled_by=node("update_pure")),
    Directive("update_from_field", NODE, Data(("map",)), "§5.1", "pipeline-utilities", "0.48.0",
              "`{<target>: <source_field>, multiplier: <int>}`: return target = source × multiplier.", handled_by=node("update_from_field")),
    Directive("raises", NODE, OneOf((STR, SectionShape("node_raise"))), "§5.1", GE, "0.48.0", "Raise instead of returning.", handled_by=node("raises")),
    Directive("category", ("node_raise",), STR, "§5.1", GE, None, "The category of the raised error.", handled_by=PART),
    Directive("message", ("node_raise",), STR, "§5.1", GE, None, "The message of the raised error.", handled_by=PART),
    Directive("empty_phases_raises_at_registration", ("expected",), BOOL, "§6", GE, None,
              "Registering an observer with an empty phases set raises (a configuration error).", handled_by=SHAPE),
    Directive("exception_kind", ("node_raise",), STR, "§5.1", GE, None,
              "The host-language exception type raised (a built-in such as ValueError): a bare error with no category. "
              "`CancelledError` names the language's cancellation signal (Python's asyncio.CancelledError).", handled_by=PART,
              extension=Extension("`exception_kind: CancelledError` in a structured `raises:`: the node raises the language's "
                                  "cancellation signal (Python's `asyncio.CancelledError`, a BaseException, not an Exception) "
                                  "instead of an error. Upstream names built-in exception types only; pipeline-utilities §6.1 / "
                                  "§6.3 require cancellation to propagate through retry (never classified as transient) and "
                                  "through failure isolation (never caught), which only a node raising it can show.",
                                  value_among("CancelledError"))),
    Directive("on_cancelled", NODE, SectionShape("cancellation_cleanup"), "§5.1", "pipeline-utilities", None,
              "When the node body receives the language's cancellation signal, it cleans up (awaits `cleanup_ms`), "
              "logs `cleaned_up`, then re-raises the signal.", handled_by=NODE_MODIFIER,
              extension=Extension("`on_cancelled: {cleanup_ms: N}` on a node: when the body is cancelled at an await (Python's "
                                  "`asyncio.CancelledError`), it runs an awaited cleanup of N ms, logs a `cleaned_up` row in "
                                  "the trace's `node_log`, and re-raises the signal. pipeline-utilities §9.5 requires a "
                                  "fail_fast fan-out's cancellation of sibling instances to be cooperative, with the instances "
                                  "given the opportunity to clean up; upstream has no node that cleans up.")),
    Directive("cleanup_ms", ("cancellation_cleanup",), MILLISECONDS, "§5.1", "pipeline-utilities", None,
              "How long the awaited cleanup takes.", handled_by=PART),
    Directive("error_category", NODE, STR, "§5.1", "pipeline-utilities", None, "The category the `raises:` error carries.", handled_by=NODE_MODIFIER),
    Directive("sleep_ms", NODE, MILLISECONDS, "§5.1", "pipeline-utilities", None, "Sleep this long before the node's other directives.", handled_by=node("sleep_ms"),
              waits="ms"),
    Directive("noop", NODE, BOOL, "§5.1", GE, None, "A node that returns no update.", handled_by=node("noop")),

    Directive("subgraph", NODE, STR, "§5.4", GE, "0.48.0", "Run the named subgraph as this node.", handled_by=COMPOSITION),
    Directive("inputs", NODE + ("projection",), Data(("map",)), "§5.4", GE, None, "Explicit mapping parent field → subgraph field.", handled_by=(Handler("projection", families=("node",)), Handler("part", families=("projection",)))),
    Directive("outputs", NODE + ("projection",), Data(("map",)), "§5.4", GE, None, "Explicit mapping subgraph field → parent field.", handled_by=(Handler("projection", families=("node",)), Handler("part", families=("projection",)))),
    Directive("mapping", NODE, SectionShape("projection"), "§5.4", GE, None, "The explicit mapping as one block.", handled_by=PROJECTION),
    Directive("projects_in", NODE, ListOf(STR), "§2", GE, "0.89.0", "Declared same-name boundary: fields copied in.", handled_by=PROJECTION),
    Directive("projects_out", NODE, ListOf(STR), "§2", GE, "0.89.0", "Declared same-name boundary: fields copied out.", handled_by=PROJECTION),

    Directive("invoke_drain_events_for", NODE, SectionShape("drain_for"), "§5.1", GE, "0.48.0",
              "Before returning, call `drain_events_for(invocation_id)` and snapshot an accumulator.", handled_by=node("invoke_drain_events_for")),
    Directive("timeout_seconds", ("drain_for",), OneOf((SECONDS, *REJECTED_SECONDS)), "§6.6", GE, "0.48.0", "The drain timeout.", handled_by=PART,
              extension=Extension("a negative or `NaN` `timeout_seconds` in `invoke_drain_events_for`: the call is made with it, "
                                  "and graph-engine §6 requires the runtime to reject it at the API boundary, so the node "
                                  "raises (expect `node_exception` from that node).", _rejected_timeout)),
    Directive("attempts_input_state_mutation", NODE, STR, "§5.1", GE, None,
              "Assign the named field on the state object the node received, in place.", handled_by=node("attempts_input_state_mutation"),
              extension=Extension("`attempts_input_state_mutation: <field>` on a node: the node body assigns that field of the "
                                  "state object it received, in place (its current value again), in document order with its "
                                  "other directives. graph-engine §2 forbids a node to mutate its input state, and §6 has an "
                                  "attempt to mutate a state fail per the implementation's state-immutability strategy: "
                                  "the assignment raises, so the node fails with node_exception. No upstream directive "
                                  "touches the received state object.", every_use)),
    Directive("detaches_observer", NODE, STR, "§5.1", GE, None,
              "Remove the named graph-attached observer, from inside the node.", handled_by=node("detaches_observer"),
              extension=Extension("`detaches_observer: <observer name>` on a node: the node body removes that graph-attached "
                                  "observer of the fixture through the handle the runtime's registration returned, in "
                                  "document order with its other directives. graph-engine §6 has a change to the "
                                  "registered observers during a run take effect only at the next invocation: the "
                                  "observer still receives the rest of this invocation's events, and none of the next "
                                  "one's. No upstream directive changes the observer set during a run.", every_use)),
    Directive("invoke_drain", NODE, SectionShape("drain_in_node"), "§5.1", GE, None,
              "Before returning, call the process-wide `drain(timeout)`.", handled_by=node("invoke_drain"),
              extension=Extension("`invoke_drain: {timeout_seconds: ...}` on a node: the node calls the process-wide "
                                  "`drain` with that timeout before returning. Upstream's `drain:` (conformance-adapter "
                                  "§5.7) is called after invoke() and admits only a valid duration; graph-engine §6 "
                                  "requires the runtime to reject a negative or `NaN` drain timeout before any drain work "
                                  "begins, which a call inside a node shows as that node's node_exception. A valid timeout "
                                  "waits on this invocation's own delivery too, so it returns when the timeout elapses.")),
    Directive("timeout_seconds", ("drain_in_node",), OneOf((SECONDS, *REJECTED_SECONDS)), "§6", GE, None,
              "The drain timeout (negative or `NaN` allowed: the runtime must reject it).", handled_by=PART),
    Directive("snapshot_observer", ("drain_for",), STR, "§6.6", GE, "0.48.0", "The accumulate observer to snapshot.", handled_by=PART),

    Directive("delivery_order", ("expected",), Expect(("list",)), "§6", GE, None, "The order events reached observers.", handled_by=SHAPE),
    Directive("no_propagated_error", ("expected",), BOOL, "§6", GE, None, "The invocation raised nothing.", handled_by=SHAPE),
]
