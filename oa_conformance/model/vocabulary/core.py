"""The general directive surface of conformance-adapter §4–§5: fixture shapes, graphs, nodes,
edges, composition, observers, invocation and the expected-outcome block.

Capability-specific directives live in the sibling modules; a directive that a capability's
fixtures introduced but that every suite may use (``fan_out``, ``flaky`` …) lives where its spec
section is, and says which capability it serves.
"""

from __future__ import annotations

from ..trace.record import ASSERTED_OUTCOMES
from .handlers import EXECUTE, expectation, GRAPH_BUILD, NOT_EXECUTED, PART, PREDICATES, SHAPE, STATIC
from .registry import Directive, Extension, Family, Handler, Judged, value_among, value_naming
from .shapes import (
    BOOL,
    INT,
    MILLISECONDS,
    RUNS,
    SECONDS,
    SCALAR,
    STR,
    Data,
    Enum,
    Expect,
    ListOf,
    MapOf,
    Nullable,
    OneOf,
    Predicates,
    Reference,
    SectionShape,
    TypeString,
    Version,
)

def _any_category(value: object) -> bool:
    """Whether an `expected_compile_error` value is the extension's `true` (any category), not
    upstream's category name (duck-typed: a scalar carries its value)."""
    return getattr(value, "value", value) is True


ADAPTER = "conformance-adapter"
GE = "graph-engine"
PU = "pipeline-utilities"

# Where the directives of a whole scenario may appear: the fixture top level (single-case form),
# a `cases:` entry, and — for what varies per call — an `invocations:` entry.
CASE = ("fixture", "case")
GRAPH = ("fixture", "case", "graph")  # a graph body: top level, a case, `graph:`, a subgraph decl
RUN = ("fixture", "case", "invocation")

FAMILIES = [
    Family("fixture", "Fixture", "A fixture file's top level: one case inline, or `cases:` / `invocations:` (§4)."),
    Family("case", "Case", "One scenario of a `cases:` list (§4.2)."),
    Family("invocation", "Invocation", "One sequential `invoke()` of an `invocations:` list (§4.3, §5.7)."),
    Family("graph", "GraphDecl", "A graph definition: `graph:`, or a subgraph declared by `subgraph:` / `subgraphs:` (§5.4)."),
    Family("state", "StateDecl", "The typed state schema (§5.2)."),
    Family("field", "FieldDecl", "One state field: type, default, reducer (§5.2)."),
    Family("node", "NodeDecl", "One node: its behaviour directives, run in document order (§5.1, §8.3)."),
    Family("edge", "EdgeDecl", "A static or conditional edge (§5.3); a `condition.callable` edge may also name its `to`.", required=("from",)),
    Family("condition", "Condition", "The routing rule of a conditional edge (§5.3)."),
    Family("invoke", "InvokeDecl", "Per-invoke directives of the single-invocation form; `invoke:` or `invoke_with:` (§5.7)."),
    Family("drain", "DrainDecl", "A process-wide drain after the invocation (graph-engine §6, §6.6)."),
    Family("observer", "ObserverDecl", "An in-memory observer registration (§5.5, §6.1).", required=("name",)),
    Family("pacing", "Pacing", "Per-invocation observer pacing for `sleep_ms_per_event` (§5.5)."),
    Family("expected", "Expected", "The expected-outcome block (§5.8)."),
    Family("error_expectation", "ErrorExpectation", "An expected raised error: category, origin and the fields it carries (§5.8, §5.13)."),
]

DIRECTIVES = [
    # ---- fixture shape (§4) -------------------------------------------------------------------
    Directive("conformance_version", ("fixture",), Version(), "§4.4", ADAPTER, "0.48.0",
              "The conformance-adapter version the fixture targets; newer than the adapter → fixture_version_unsupported.", handled_by=STATIC),
    Directive("cases", ("fixture",), ListOf(SectionShape("case")), "§4.2", ADAPTER, "0.48.0", "Independent scenarios sharing only the file.", handled_by=STATIC),
    Directive("invocations", ("fixture", "case"), OneOf((ListOf(SectionShape("invocation")), INT)), "§4.3", ADAPTER, "0.48.0",
              "Sequential invocations against one compiled graph and shared backends (or, as an integer, how many identical runs).", handled_by=EXECUTE),
    Directive("name", ("fixture", "case", "invocation", "graph"), STR, "§4.2", ADAPTER, "0.48.0", "The case, invocation or subgraph name.", handled_by=(Handler("static", families=("fixture", "case", "invocation")), Handler("part", families=("graph",)))),
    Directive("description", ("fixture", "case", "invocation"), STR, "§4.2", ADAPTER, "0.48.0", "Prose; not executed.", handled_by=STATIC),
    Directive("graph", CASE, SectionShape("graph"), "§4", GE, None, "The case's graph, when written as a block instead of inline keys.", handled_by=GRAPH_BUILD),
    Directive("run_count", CASE, RUNS, "§10", GE, None, "Run the case this many times (determinism fixtures).", handled_by=EXECUTE),

    # ---- graph definition (§4.1, §5.2–§5.4) ----------------------------------------------------
    Directive("state", GRAPH, SectionShape("state"), "§5.2", GE, "0.48.0", "The typed state schema.", handled_by=(Handler("graph", families=("fixture", "case")), Handler("part", families=("graph",)))),
    Directive("entry", GRAPH, STR, "§4.1", GE, "0.48.0", "The entry node.", handled_by=(Handler("graph", families=("fixture", "case")), Handler("part", families=("graph",)))),
    Directive("nodes", GRAPH, MapOf(SectionShape("node"), "node name"), "§5.1", GE, "0.48.0", "The nodes, by name.", handled_by=(Handler("graph", families=("fixture", "case")), Handler("part", families=("graph",)))),
    Directive("edges", GRAPH, ListOf(SectionShape("edge")), "§5.3", GE, "0.48.0", "Static and conditional edges.", handled_by=(Handler("graph", families=("fixture", "case")), Handler("part", families=("graph",)))),
    Directive("subgraph", GRAPH, SectionShape("graph"), "§5.4", GE, "0.48.0", "One inline subgraph declaration (with `name:`).", handled_by=(Handler("graph", families=("fixture", "case")), Handler("part", families=("graph",)))),
    Directive("subgraphs", GRAPH, MapOf(SectionShape("graph"), "subgraph name"), "§5.4", GE, "0.48.0", "Named subgraph declarations.", handled_by=(Handler("graph", families=("fixture", "case")), Handler("part", families=("graph",)))),

    Directive("fields", ("state",), MapOf(SectionShape("field"), "field name"), "§5.2", GE, "0.48.0", "The state fields, by name.", handled_by=PART),
    Directive("type", ("field",), TypeString(), "§5.2", GE, "0.48.0", "The field's type string (primitive, list<T>, dict<K,V>, record).", handled_by=PART),
    Directive("default", ("field",), Data(), "§5.2", GE, "0.48.0", "The value when `initial_state` omits the field.", handled_by=PART),
    Directive("reducer", ("field",), OneOf((STR, MapOf(Data(("map",)), "factory reducer"))), "§5.2", GE, "0.48.0",
              "A canonical reducer name, or `{<factory>: {kwargs}}` for a factory reducer (proposal 0023).", handled_by=PART),
    Directive("alt_reducer", ("field",), STR, "§2", GE, None, "A second, conflicting reducer declaration (compile-error fixtures).", handled_by=PART),
    Directive("required", ("field",), BOOL, "§10.10", PU, None, "The field has no default and must be supplied.", handled_by=PART),

    Directive("from", ("edge",), STR, "§5.3", GE, "0.48.0", "The source node.", handled_by=PART),
    Directive("to", ("edge",), STR, "§5.3", GE, "0.48.0", "The destination node, or END.", handled_by=PART),
    Directive("condition", ("edge",), SectionShape("condition"), "§5.3", GE, "0.48.0", "Route by post-update state.", handled_by=PART),
    Directive("if_field", ("condition",), STR, "§5.3", GE, "0.48.0", "The field to compare.", handled_by=PART),
    Directive("field", ("condition",), STR, "§5.3", GE, None, "The field a routing callable reads.", handled_by=PART),
    Directive("equals", ("condition",), SCALAR, "§5.3", GE, "0.48.0", "The comparison value.", handled_by=PART),
    Directive("then", ("condition",), STR, "§5.3", GE, "0.48.0", "Destination when equal.", handled_by=PART),
    Directive("else", ("condition",), STR, "§5.3", GE, "0.48.0", "Destination otherwise.", handled_by=PART),
    Directive("callable", ("condition",), STR, "§5.3", GE, None,
              "A harness routing function (e.g. `edge_raises`, `state_field_read`), resolved when the graph is built.", handled_by=PART),
    Directive("message", ("condition",), STR, "§5.3", GE, None, "The message a raising routing function raises.", handled_by=PART),

    # ---- observers (§5.5, §6.1) ----------------------------------------------------------------
    Directive("observers", RUN, ListOf(SectionShape("observer")), "§5.5", GE, "0.48.0", "In-memory observer registrations.", handled_by=(Handler("run", families=("fixture", "case")), Handler("not_executed", families=("invocation",)))),
    Directive("name", ("observer",), STR, "§5.5", GE, "0.48.0", "The observer's name, referenced by assertions.", handled_by=PART),
    Directive("attach", ("observer",), Enum(("graph", "invocation")), "§5.5", GE, "0.48.0", "Graph-level or per-invocation.", handled_by=PART),
    Directive("target", ("observer",), STR, "§5.5", GE, "0.48.0", "`outer`, `inner` or a subgraph / node name.", handled_by=PART),
    Directive("behavior", ("observer",), Enum(("record", "accumulate", "raise", "mutate")), "§5.5", GE, "0.48.0", "What the observer does per event.", handled_by=PART,
              extension=Extension("`behavior: mutate` on an observer: it records each event as `record` does, and first tries "
                                  "to assign a field, in place, of the event's `pre_state`, `post_state` and every entry of "
                                  "its `parent_states` (the field's own value again), noting for each attempt whether it "
                                  "was refused (raised). graph-engine §6 requires those states to present the state "
                                  "immutability contract and an observer's attempt to mutate one to fail; upstream's "
                                  "observer behaviours never touch the states.", value_among("mutate"))),
    Directive("sleep_ms_per_event", ("observer",), OneOf((MILLISECONDS, SectionShape("pacing"))), "§5.5", GE, "0.48.0", "Pace the observer (drain fixtures).", handled_by=PART,
              waits="ms"),
    Directive("phases", ("observer",), ListOf(STR), "§5.5", GE, None, "Phase subscription filter (default started, completed).", handled_by=PART),
    Directive("first_invocation", ("pacing",), MILLISECONDS, "§5.5", GE, None, "Milliseconds per event on the first invocation.", handled_by=PART, waits="ms"),
    Directive("subsequent_invocations", ("pacing",), MILLISECONDS, "§5.5", GE, None, "Milliseconds per event on later invocations.", handled_by=PART, waits="ms"),

    # ---- invocation (§5.7) ---------------------------------------------------------------------
    Directive("initial_state", RUN, Data(("map",)), "§5.2", GE, "0.48.0", "The input state; omitted fields take their defaults.", handled_by=EXECUTE),
    Directive("invoke", CASE, SectionShape("invoke"), "§5.7", GE, "0.48.0", "Per-invoke directives (same as `invoke_with`).", handled_by=EXECUTE),
    Directive("invoke_with", CASE, SectionShape("invoke"), "§5.7", GE, "0.48.0", "Per-invoke directives (same as `invoke`).", handled_by=EXECUTE),
    Directive("drain", ("invoke", "invocation"), SectionShape("drain"), "§5.7", GE, "0.48.0", "Call the process-wide `drain()` after invoke.", handled_by=EXECUTE),
    Directive("timeout_seconds", ("drain",), Nullable(SECONDS), "§6.6", GE, "0.48.0", "Drain timeout; null or absent waits for all.", handled_by=PART),
    Directive("resume_invocation", ("invoke", "invocation"), Reference(), "§5.7", GE, "0.48.0",
              "Resume a saved invocation: an id or a `<placeholder>` naming a prior outcome.", handled_by=EXECUTE),
    Directive("caller_metadata", RUN, Data(("map",)), "§5.7", "observability", None, "Invocation metadata passed to invoke() (observability §3.4).", handled_by=EXECUTE),
    Directive("caller_correlation_id", CASE, STR, "§5.7", "observability", None, "Correlation id passed to invoke() (observability §3.1).", handled_by=EXECUTE),
    Directive("correlation_id", ("invocation",), STR, "§5.7", "observability", None, "Correlation id for this invocation.", handled_by=EXECUTE),
    Directive("caller_invocation_id", RUN, STR, "§5.7", "observability", None, "Invocation id passed to invoke() (observability §5.1).", handled_by=EXECUTE),

    # ---- expected outcome (§5.8) ---------------------------------------------------------------
    Directive("expected", RUN, SectionShape("expected"), "§5.8", ADAPTER, "0.48.0", "What the run must produce.", handled_by=expectation("expected"),
              judged=(Judged("construction_observed"), Judged("direct"), Judged("run_block", 0), Judged("whole_case_unverified"))),
    Directive("expected_error", RUN + ("expected",), SectionShape("error_expectation"), "§5.8", ADAPTER, "0.48.0",
              "The invocation fails with this error category, raised from this node.", handled_by=(Handler("expectation", "expected_error", families=("fixture", "case", "invocation")), Handler("expectation", "shape", families=("expected",))),
              judged=Judged("run_error", first_run=False)),
    Directive("expected_compile_error", CASE, OneOf((STR, BOOL)), "§5.8", GE, "0.89.0", "Compilation fails with this graph-engine §2 category.", handled_by=expectation("compile_error"),
              extension=Extension("`expected_compile_error: true` instead of a category: compilation fails, with whatever category "
                                  "(or none). For the configuration errors the spec calls a compile error without naming a "
                                  "category (pipeline-utilities §9: an `on_empty` other than \"raise\" / \"noop\" \"is a compile "
                                  "error\"), where asserting one would pin the runtime's choice.", _any_category),
              judged=Judged("compile_error")),
    Directive("expected_compile_warning", CASE, OneOf((STR, ListOf(STR))), "§5.8", GE, "0.89.0",
              "Compilation succeeds with this warning (scalar: among those emitted; list: exactly these).", handled_by=expectation("compile_warning"), judged=Judged("compile_warning")),
    Directive("invariants", RUN + ("expected",), Predicates(), "§5.9", ADAPTER, "0.48.0", "Named invariant predicates.", handled_by=PREDICATES,
              judged=(Judged("run_block", 1), Judged("whole_case"))),

    Directive("final_state", ("expected",), Expect(("map",)), "§5.8", ADAPTER, "0.48.0", "The final state, field by field.", handled_by=SHAPE),
    Directive("execution_order", ("expected",), Expect(("list",)), "§5.8", ADAPTER, "0.48.0", "The nodes that ran, in order.", handled_by=SHAPE),
    Directive("outcome", ("expected",), Enum(ASSERTED_OUTCOMES), "§5.8", ADAPTER, "0.48.0", "The invoke outcome.", handled_by=SHAPE),
    Directive("error", ("expected",), SectionShape("error_expectation"), "§5.8", ADAPTER, "0.48.0", "With `outcome: errored`, the error.", handled_by=SHAPE),
    Directive("final_state_at_error", ("expected",), Expect(("map",)), "§5.8", ADAPTER, "0.48.0", "The state when the error surfaced.", handled_by=SHAPE),
    Directive("drain_summary", ("expected",), Expect(("map",)), "§5.8", GE, "0.48.0",
              "The process-wide drain's summary (`timeout_reached`, `undelivered_count` / `undelivered_count_min`).", handled_by=SHAPE),
    Directive("observer_events", ("expected",), OneOf((MapOf(Expect(("list",)), "observer name"), Expect(("list",)))), "§5.8", GE, "0.48.0",
              "The exact ordered events each observer received.", handled_by=SHAPE),
    Directive("observer_event_invariants", ("expected",), Predicates(), "§5.9", GE, "0.48.0", "Invariant predicates over recorded events.", handled_by=PREDICATES),
    Directive("node_drain_summaries", ("expected",), MapOf(Expect(("map",)), "node name"), "§5.8", GE, "0.48.0",
              "Each node's `invoke_drain_events_for` summary.", handled_by=SHAPE),
    Directive("node_accumulator_snapshots", ("expected",), MapOf(MapOf(Expect(("list",)), "observer name"), "node name"), "§5.8", GE, "0.48.0",
              "Accumulator snapshots taken at each node's drain.", handled_by=SHAPE),
    Directive("node_accumulator_snapshot_invariants", ("expected",), MapOf(MapOf(Predicates(), "observer name"), "node name"), "§5.9", GE, "0.48.0",
              "Invariant predicates over those snapshots.", handled_by=SHAPE),
    Directive("final_accumulator_state", ("expected",), MapOf(Expect(("list",)), "observer name"), "§5.8", GE, "0.48.0",
              "Each accumulator's content after the invocation.", handled_by=SHAPE),

    Directive("category", ("error_expectation",), STR, "§5.8", ADAPTER, "0.48.0", "The error category.", handled_by=PART),
    Directive("raised_from", ("error_expectation",), STR, "§5.8", ADAPTER, "0.48.0", "The node the error surfaced from.", handled_by=PART),
    # No recorded error says where it surfaced (registration, invoke …): not judged yet, so a case using
    # it fails as not implemented at the key rather than each run reporting it unverified.
    Directive("raised_at", ("error_expectation",), STR, "§5.8", ADAPTER, None, "The operation the error surfaced at.", handled_by=NOT_EXECUTED),
    Directive("message", ("error_expectation",), Expect(("scalar",)), "§5.8", ADAPTER, None, "The error message.", handled_by=PART),
    Directive("carries", ("error_expectation",), Expect(("map",)), "§5.13", ADAPTER, "0.97.0",
              "Fields the raised error exposes (bare = equal, `_present`, `_mentions`).", handled_by=PART),
    Directive("cause", ("error_expectation",), Expect(("map",)), "§5.13", ADAPTER, None, "The error's cause (e.g. `exception_type`).", handled_by=PART,
              extension=Extension("`names: [...]` under `cause:`: the cause's own message names each value as a whole word, an "
                                  "item that is a list naming alternatives, any one of which will do (graph-engine §2: a "
                                  "concat_flatten ReducerError's root cause names the non-list value, by the value itself "
                                  "or by its position in the update).", value_naming("names"))),
    Directive("names", ("error_expectation",), ListOf(STR), "§5.13", ADAPTER, None,
              "Values the raised error names: its own message or a field it exposes mentions each as a whole word.", handled_by=PART,
              extension=Extension("`names: [...]` on an expected error: the error names each value — its own message (not its "
                                  "cause's) or a field it exposes mentions it as a whole word — wherever the runtime puts it "
                                  "(graph-engine §4: a ReducerError names the field, the reducer and the producing node, and "
                                  "no field name is specified for any of them, so `carries` cannot be used).")),
    Directive("exception_kind", ("error_expectation",), STR, "§5.8", ADAPTER, None,
              "The host-language type of what the invocation raised (`CancelledError`: the language's cancellation signal).",
              handled_by=PART,
              extension=Extension("`exception_kind` on an expected error: the type of what the invocation raised, spelled as "
                                  "`raises: {exception_kind}` spells it (`CancelledError`: Python's asyncio.CancelledError). "
                                  "The language's cancellation signal carries no category, so `category` cannot say that an "
                                  "invocation propagated it (pipeline-utilities §6.1, §6.3).")),
    Directive("cause_message", ("error_expectation",), Expect(("scalar",)), "§5.8", PU, None, "The message of the error's cause.", handled_by=PART),
    Directive("branch_name", ("error_expectation",), STR, "§5.8", PU, None, "The parallel branch the error came from.", handled_by=PART),
    Directive("execution_order", ("error_expectation",), Expect(("list",)), "§5.8", GE, None, "The nodes that ran before the error.", handled_by=PART),
    Directive("recoverable_state", ("error_expectation", "expected"), Expect(("map",)), "§5.8", GE, None,
              "The last consistent state carried on the error.", handled_by=(Handler("part", families=("error_expectation",)), Handler("expectation", "shape", families=("expected",)))),
    Directive("fan_out_category", ("error_expectation",), STR, "§9", PU, None, "The category the fan-out wrapper reports.", handled_by=PART),
    Directive("flaky_call_count", ("error_expectation",), INT, "§6.1", PU, None, "How many times the failing node was attempted.", handled_by=PART),
]
