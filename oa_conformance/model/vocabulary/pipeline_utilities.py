"""Directives serving pipeline-utilities: middleware (§6), fan-out (§9), parallel branches (§11),
the failure mocks (conformance-adapter §5.1) and checkpointing / resume (§10)."""

from __future__ import annotations

from .handlers import COMPOSITION, EXECUTE, expectation, GRAPH_BUILD, node, NODE_MODIFIER, NOT_EXECUTED, PART, PREDICATES, SHAPE
from .registry import Directive, Extension, Family, Handler, Judged, every_use, value_among, value_naming
from .shapes import BOOL, INT, NUM, STR, Data, Enum, Expect, ListOf, MapOf, Nullable, OneOf, Predicates, SectionShape

CAPABILITY = "pipeline-utilities"
PU = CAPABILITY


def _an_error_block(value: object) -> bool:
    """Whether an `expected_chain_ambiguity_error` value is the extension's expected-error block, not
    upstream's bare category (duck-typed: a section names its family)."""
    return getattr(value, "family", None) == "error_expectation"


NODE = ("node",)
CASE = ("fixture", "case")
RUN = ("fixture", "case", "invocation")
MIDDLEWARE = ListOf(SectionShape("middleware"))
ERROR_POLICY = Enum(("fail_fast", "collect"))

FAMILIES = [
    Family("fan_out", "FanOut", "A fan-out node: one subgraph instance per item or per count (§9)."),
    Family("fan_out_count", "FanOutCount", "A computed fan-out count or concurrency: from a field or a harness callable (§9)."),
    Family("parallel_branches", "ParallelBranches", "A parallel-branches node (§11).", required=("branches",)),
    Family("branch", "Branch", "One branch of a parallel-branches node (§11)."),
    Family("branch_condition", "BranchCondition", "When a branch runs (§11)."),
    Family("middleware_config", "MiddlewareConfig", "Middleware per graph and per node (§6)."),
    Family("middleware", "MiddlewareDecl", "One middleware: a built-in (`retry`, `timing`, `failure_isolation` …) or a harness marker."),
    Family("backoff", "Backoff", "A retry backoff (§6.1)."),
    Family("classifier", "Classifier", "A retry classifier (§6.1)."),
    Family("on_caught", "OnCaught", "The failure-isolation `on_caught` callback (§6.3)."),
    Family("on_complete", "OnComplete", "The timing `on_complete` callback (§6.2)."),
    Family("predicate", "CatchPredicate", "Which errors failure isolation catches (§6.3)."),
    Family("wrap_middleware", "WrapMiddleware", "A `wrap_with_middleware` entry (§6.7).", required=("name",)),
    Family("flaky", "Flaky", "The `flaky` failure mock: sequence or compact form (§5.1)."),
    Family("failure", "Failure", "One `failure_sequence` entry (§5.1)."),
    Family("cause", "Cause", "A mock-authored cause chained to the raised error (§5.1, proposal 0070)."),
    Family("flaky_by_index", "FlakyByIndex", "Fan-out failure mock keyed by item value or attempt (§5.1)."),
    Family("flaky_per_index", "FlakyPerIndex", "Fan-out failure mock keyed by invocation (§5.1)."),
    Family("flaky_instance_only", "FlakyInstanceOnly", "Fan-out failure mock failing whole instances (§5.1)."),
    Family("flaky_resume_aware", "FlakyResumeAware", "Failure mock counting attempts per invocation (§5.1)."),
    Family("checkpointer", "CheckpointerDecl", "A checkpointer backend with options (§10).", required=("kind",)),
    Family("save_batching", "SaveBatching", "Batched fan-out-internal checkpoint saves (§10)."),
    Family("crash_injection", "CrashInjection", "Abandon the first run after a checkpoint boundary (§5.6).",
           exclusive=(("after_node", "after_fan_out_instance"),)),
    Family("fan_out_instance_ref", "FanOutInstanceRef", "A fan-out instance: node and index (§5.6)."),
    Family("resume", "ResumeDecl", "Resume after the first run and assert the resumed run (§5.6)."),
    Family("record_assertions", "RecordAssertions", "Named assertions against a saved checkpoint record (§5.8)."),
    Family("fan_out_progress", "FanOutProgressAssertion", "The saved per-instance progress of one fan-out (§5.8)."),
    Family("migration", "MigrationDecl", "A state migration between schema versions (§10.10).", required=("from_version", "to_version", "migrate")),
    Family("clock_stub", "ClockStub", "A deterministic clock for timing middleware (§6.2)."),
]

DIRECTIVES = [
    # ---- composition ---------------------------------------------------------------------------
    Directive("fan_out", NODE, SectionShape("fan_out"), "§5.4", PU, "0.48.0", "Run a subgraph once per item (or count).", handled_by=COMPOSITION),
    Directive("subgraph", ("fan_out", "branch"), STR, "§5.4", PU, "0.48.0", "The subgraph each instance / branch runs.", handled_by=PART),
    Directive("items_field", ("fan_out",), STR, "§5.4", PU, "0.48.0", "The outer list field to fan out over.", handled_by=PART),
    Directive("count", ("fan_out",), OneOf((INT, SectionShape("fan_out_count"))), "§5.4", PU, "0.48.0", "Count mode: how many instances.", handled_by=PART),
    Directive("item_field", ("fan_out",), STR, "§5.4", PU, "0.48.0", "The instance field that receives the item.", handled_by=PART),
    Directive("collect_field", ("fan_out",), STR, "§5.4", PU, "0.48.0", "The instance field collected back.", handled_by=PART),
    Directive("target_field", ("fan_out",), STR, "§5.4", PU, "0.48.0", "The outer field receiving the collected results.", handled_by=PART),
    Directive("error_policy", ("fan_out", "parallel_branches"), ERROR_POLICY, "§5.4", PU, "0.48.0", "fail_fast or collect.", handled_by=PART),
    Directive("errors_field", ("fan_out", "parallel_branches"), STR, "§9.5", PU, None, "The outer field receiving collected errors.", handled_by=PART),
    Directive("concurrency", ("fan_out",), OneOf((INT, SectionShape("fan_out_count"))), "§5.4", PU, "0.48.0", "The parallelism bound.", handled_by=PART),
    Directive("concurrent_mode", ("fan_out",), Enum(("serial", "concurrent")), "§5.4", PU, "0.81.0", "Force serial or concurrent dispatch.", handled_by=PART),
    Directive("on_empty", ("fan_out",), STR, "§9", PU, None, "What an empty item list does.", handled_by=PART),
    Directive("count_field", ("fan_out",), STR, "§9", PU, None, "The outer field receiving the instance count.", handled_by=PART),
    Directive("extra_outputs", ("fan_out",), Data(("map",)), "§9", PU, None, "More instance fields collected into outer fields.", handled_by=PART),
    Directive("inputs", ("fan_out", "branch"), Data(("map",)), "§9", PU, None, "Fields projected into each instance / branch.", handled_by=PART),
    Directive("outputs", ("branch",), Data(("map",)), "§11", PU, "0.48.0", "Outer field ← branch subgraph field.", handled_by=PART),
    Directive("mapping", ("fan_out",), SectionShape("projection"), "§9", PU, None, "Explicit instance mapping (`<fan_out_item>` names the item).", handled_by=NOT_EXECUTED),
    Directive("instance_middleware", ("fan_out",), MIDDLEWARE, "§9", PU, None, "Middleware around each whole instance.", handled_by=PART),
    Directive("abort_after_instance", ("fan_out",), INT, "§10", PU, None, "Harness: abort the process after this instance completes.", handled_by=PART),
    Directive("field", ("fan_out_count", "branch_condition"), STR, "§9", PU, None, "The state field to read.", handled_by=PART),
    Directive("callable", ("fan_out_count",), STR, "§9", PU, None, "A harness function computing the value.", handled_by=PART),
    Directive("chunk_size", ("fan_out_count",), INT, "§9", PU, None, "Items per instance when counting chunks.", handled_by=PART),

    Directive("parallel_branches", NODE, SectionShape("parallel_branches"), "§5.4", PU, "0.48.0", "Run named branches concurrently.", handled_by=COMPOSITION),
    Directive("branches", ("parallel_branches",), OneOf((MapOf(SectionShape("branch"), "branch name"), ListOf(SectionShape("branch")))), "§5.4", PU, "0.48.0",
              "The branches, by name.", handled_by=PART),
    Directive("name", ("branch",), STR, "§11", PU, None, "The branch name (list form).", handled_by=PART),
    Directive("call", ("branch",), SectionShape("node"), "§11", PU, None, "A plain-callable branch: node directives.", handled_by=PART),
    Directive("middleware", ("branch",), MIDDLEWARE, "§11", PU, None, "Middleware around the branch.", handled_by=PART),
    Directive("when", ("branch",), SectionShape("branch_condition"), "§11", PU, None, "Run the branch only when a field is truthy.", handled_by=PART),

    # ---- middleware (§6) -----------------------------------------------------------------------
    Directive("middleware", ("fixture", "case", "graph"), SectionShape("middleware_config"), "§6", PU, None, "Per-graph and per-node middleware.", handled_by=(Handler("graph", families=("fixture", "case")), Handler("part", families=("graph",)))),
    Directive("middleware", NODE, MIDDLEWARE, "§6", PU, None, "Middleware around this node.", handled_by=NODE_MODIFIER),
    Directive("per_graph", ("middleware_config",), MIDDLEWARE, "§6", PU, None, "Middleware around every node of the graph.", handled_by=PART),
    Directive("per_node", ("middleware_config",), MapOf(MIDDLEWARE, "node name"), "§6", PU, None, "Middleware by node.", handled_by=PART),
    Directive("type", ("middleware",), STR, "§6", PU, None, "The middleware kind (retry, timing, failure_isolation, marker, …).", handled_by=PART),
    Directive("name", ("middleware",), STR, "§6", PU, None, "A label for the middleware.", handled_by=PART),
    Directive("node_name", ("middleware",), STR, "§6", PU, None, "The node the middleware applies to.", handled_by=PART),
    Directive("pre_marker", ("middleware",), STR, "§6", PU, None, "Marker logged before next().", handled_by=PART),
    Directive("post_marker", ("middleware",), STR, "§6", PU, None, "Marker logged after next().", handled_by=PART),
    Directive("partial_update", ("middleware",), Data(("map",)), "§6", PU, None, "The update an error-recovery middleware returns.", handled_by=PART),
    Directive("max_attempts", ("middleware",), INT, "§6.1", PU, None, "Retry: total attempts.", handled_by=PART),
    Directive("backoff", ("middleware",), SectionShape("backoff"), "§6.1", PU, None, "Retry: backoff.", handled_by=PART),
    Directive("classifier", ("middleware",), OneOf((STR, SectionShape("classifier"))), "§6.1", PU, None, "Retry: which errors are transient.", handled_by=PART),
    Directive("retry", ("middleware",), SectionShape("middleware"), "§6", PU, None, "A retry nested in a composite middleware.", handled_by=PART),
    Directive("degraded_update", ("middleware",), Data(("map",)), "§6.3", PU, None, "Failure isolation: the update on a caught failure.", handled_by=PART),
    Directive("event_name", ("middleware",), STR, "§6.3", PU, None, "Failure isolation: the event name.", handled_by=PART),
    Directive("catch", ("middleware",), ListOf(STR), "§6.3", PU, None, "Failure isolation: the categories caught.", handled_by=PART),
    Directive("predicate", ("middleware",), SectionShape("predicate"), "§6.3", PU, None, "Failure isolation: a catch predicate.", handled_by=PART),
    Directive("on_caught", ("middleware",), SectionShape("on_caught"), "§6.3", PU, None, "Failure isolation: the on_caught callback.", handled_by=PART),
    Directive("on_complete", ("middleware",), SectionShape("on_complete"), "§6.2", PU, None, "Timing: the on_complete callback.", handled_by=PART),
    Directive("type", ("classifier",), STR, "§6", PU, None, "The kind.", handled_by=PART),
    Directive("type", ("backoff",), STR, "§6.1", PU, None, "The kind: `deterministic`, or `default` (the runtime's own).", handled_by=PART,
              extension=Extension("`backoff: {type: default}`: the retry middleware is built with no backoff, so the runtime "
                                  "uses its own default (pipeline-utilities §6.1: exponential with full jitter, base 1 s, "
                                  "cap 30 s). An omitted `backoff` is a zero deterministic backoff (retry cases never wait), "
                                  "which hides the default.", value_among("default"))),
    Directive("type", ("clock_stub",), STR, "§6.2", PU, None, "The kind: `deterministic_monotonic`, or `virtual_sleep`.", handled_by=PART,
              extension=Extension("`clock_stub: {type: virtual_sleep}`: the runtime's own sleeps (a retry's backoff) are "
                                  "recorded — seconds, attempt index, namespace, fan-out index — in the trace's "
                                  "`middleware_log` (`runtime_sleep`) and not waited. The sleep is the clock edge; a case "
                                  "asserting the default backoff's delays (pipeline-utilities §6.1) cannot wait up to 30 s "
                                  "or judge random delays in wall seconds.", value_among("virtual_sleep"))),
    Directive("seconds", ("backoff",), NUM, "§6.1", PU, None, "Seconds between attempts.", handled_by=PART),
    Directive("transient_categories", ("classifier",), ListOf(STR), "§6.1", PU, None, "Categories retried.", handled_by=PART),
    Directive("matches_category", ("predicate",), STR, "§6.3", PU, None, "Catch errors of this category.", handled_by=PART),
    Directive("kind", ("on_caught",), STR, "§6.3", PU, None, "What the callback does.", handled_by=PART,
              extension=Extension("`on_caught: {kind: raise}`: the callback records the exception it received, then raises "
                                  "(pipeline-utilities §6.3 awaits on_caught inside the catch, after the failure-isolation event: "
                                  "the node fails).", value_among("raise"))),
    Directive("increment_field", ("on_caught",), STR, "§6.3", PU, None, "A counter field the callback increments.", handled_by=PART),
    Directive("capture_message_field", ("on_caught",), STR, "§6.3", PU, None, "A field receiving the caught message.", handled_by=PART),
    Directive("capture_to", ("on_complete",), STR, "§6.2", PU, None, "Where timing records are captured.", handled_by=PART),
    Directive("clock_stub", CASE, SectionShape("clock_stub"), "§6.2", PU, None, "A deterministic monotonic clock.", handled_by=EXECUTE),
    Directive("advance_ms_per_call", ("clock_stub",), INT, "§6.2", PU, None, "Milliseconds per clock read.", handled_by=PART),

    Directive("wrap_with_middleware", NODE, ListOf(SectionShape("wrap_middleware")), "§5.1", PU, "0.48.0", "Run the node inside these middleware.", handled_by=NODE_MODIFIER),
    Directive("name", ("wrap_middleware",), STR, "§6.7", PU, "0.48.0", "The middleware name.", handled_by=PART),
    Directive("pre_log", ("wrap_middleware",), STR, "§6.7", PU, "0.48.0", "Marker logged before next().", handled_by=PART),
    Directive("post_log", ("wrap_middleware",), STR, "§6.7", PU, "0.48.0", "Marker logged after next().", handled_by=PART),
    Directive("pre_next_calls_suspend_with_descriptor", ("wrap_middleware",), SectionShape("descriptor"), "§6.7", "suspension", "0.48.0",
              "The middleware itself calls suspend() before next() (rejected per suspension §8.4).", handled_by=NOT_EXECUTED),

    # ---- failure mocks (§5.1) ------------------------------------------------------------------
    Directive("flaky", NODE, SectionShape("flaky"), "§5.1", PU, None, "Fail per attempt (sequence) or on the first invocation (compact).", handled_by=node("flaky")),
    Directive("failure_sequence", ("flaky",), ListOf(Nullable(SectionShape("failure"))), "§5.1", PU, None, "One entry per attempt; null succeeds.", handled_by=PART),
    Directive("success_update", ("flaky",), Data(("map",)), "§5.1", PU, None, "The update once the sequence is exhausted.", handled_by=PART),
    Directive("fail_first_invocation_only", ("flaky",), BOOL, "§5.1", PU, None, "Compact form: fail the first invocation only.", handled_by=PART),
    Directive("on_success", ("flaky", "flaky_resume_aware"), Data(("map",)), "§5.1", PU, None, "The update on success.", handled_by=PART),
    Directive("transient", ("failure",), BOOL, "§5.1", PU, None, "A transient (retryable) failure.", handled_by=PART),
    Directive("category", ("failure", "cause"), Nullable(STR), "§5.1", PU, None, "The error category.", handled_by=PART),
    Directive("message", ("failure", "cause"), Nullable(STR), "§5.1", PU, None, "The error message.", handled_by=PART),
    Directive("cause", ("failure", "cause", "flaky_by_index", "flaky_per_index", "flaky_instance_only", "flaky_resume_aware", "node_raise"),
              SectionShape("cause"), "§5.1", PU, "0.58.0", "An originating cause chained to the raised error.", handled_by=PART),
    Directive("cycles_back", ("cause",), BOOL, "§5.1", PU, None,
              "This cause's own cause is the raised error itself: the chain is cyclic.", handled_by=PART,
              extension=Extension("`cycles_back: true` on a mock-authored `cause`: that cause's own `__cause__` is the raised "
                                  "(outermost) error, so the cause chain is cyclic. pipeline-utilities §6.3 requires the "
                                  "cause-chain walk to terminate on a repeated reference (a cyclic chain MUST NOT hang or crash "
                                  "the degrade path); upstream's `cause` can only describe a chain that ends.")),
    Directive("flaky_by_index", NODE, SectionShape("flaky_by_index"), "§5.1", PU, None, "Fan-out mock: by item value or attempt count.", handled_by=node("flaky_by_index")),
    Directive("fail_when_idx", ("flaky_by_index",), INT, "§5.1", PU, None, "The item value that fails deterministically.", handled_by=PART),
    Directive("fail_count_per_idx", ("flaky_by_index",), INT, "§5.1", PU, None, "Attempts each instance fails before succeeding.", handled_by=PART),
    Directive("category", ("flaky_by_index", "flaky_instance_only", "flaky_resume_aware"), STR, "§5.1", PU, None, "The failure category.", handled_by=PART),
    Directive("success_compute", ("flaky_by_index", "flaky_per_index", "flaky_instance_only"), Data(("map",)), "§5.1", PU, None,
              "The update on success (a string naming a field reads that field).", handled_by=PART),
    Directive("flaky_per_index", NODE, SectionShape("flaky_per_index"), "§5.1", PU, None, "Fan-out mock keyed by invocation.", handled_by=node("flaky_per_index")),
    Directive("fail_first_run_indices", ("flaky_per_index",), ListOf(INT), "§5.1", PU, None, "Indices failing the first invocation only.", handled_by=PART),
    Directive("always_fail_indices", ("flaky_per_index",), ListOf(INT), "§5.1", PU, None, "Indices failing every invocation.", handled_by=PART),
    Directive("flaky_instance_only", NODE, SectionShape("flaky_instance_only"), "§5.1", PU, None, "Fan-out mock failing whole instances.", handled_by=node("flaky_instance_only")),
    Directive("fail_count_per_instance", ("flaky_instance_only",), INT, "§5.1", PU, None, "Whole-instance failures before success.", handled_by=PART),
    Directive("flaky_resume_aware", NODE, SectionShape("flaky_resume_aware"), "§5.1", PU, None, "Fails N attempts, then M after resume.", handled_by=node("flaky_resume_aware")),
    Directive("fail_first_invocation_count", ("flaky_resume_aware",), INT, "§5.1", PU, None, "Failures on the first invocation.", handled_by=PART),
    Directive("fail_resumed_invocation_count", ("flaky_resume_aware",), INT, "§5.1", PU, None, "Failures on a resumed invocation.", handled_by=PART),

    # ---- checkpointing and resume (§10) --------------------------------------------------------
    Directive("checkpointer", CASE, OneOf((STR, SectionShape("checkpointer"))), "§5.6", PU, "0.48.0",
              "The checkpointer backend: in_memory, sqlite, in_memory_batched (or a block with `kind`).", handled_by=EXECUTE),
    Directive("kind", ("checkpointer",), STR, "§5.6", PU, None, "The backend.", handled_by=PART),
    Directive("invoke_checkpoint_delete", NODE, STR, "§10.1", PU, None,
              "Before returning, call the checkpointer's `delete` with this invocation id.", handled_by=node("invoke_checkpoint_delete"),
              extension=Extension("`invoke_checkpoint_delete: <invocation id>` on a node: the node calls the case's checkpointer "
                                  "backend's `delete` with that id before returning. No upstream directive calls `delete`; "
                                  "pipeline-utilities §10.1 requires `delete` of an id with no record to be a no-op, which a "
                                  "call inside a node shows: an error from it fails that node.", every_use)),
    Directive("lists_checkpoints_into", NODE, STR, "§10.1", PU, None,
              "Call the case's checkpointer's `list` and return the running invocation's summary "
              "(its four minimum fields; null when `list` does not enumerate it) in this field.",
              handled_by=node("lists_checkpoints_into"),
              extension=Extension("`lists_checkpoints_into: <field>` on a node: the node calls the case's checkpointer "
                                  "backend's `list` (no filter: the filter shape is implementation-defined) and returns "
                                  "in that field the summary `list` gave for the running invocation, as a mapping of the "
                                  "four fields pipeline-utilities §10.1 requires at minimum (`invocation_id`, "
                                  "`correlation_id`, `last_saved_at`, `completed_node_count`; a field the summary lacks is "
                                  "left out, other fields are not copied), or null when `list` enumerates no summary "
                                  "for it. No upstream directive calls `list`.", every_use)),
    Directive("reload_checkpoint_into", NODE, STR, "§10.1", PU, None,
              "Open the case's checkpointer backend again on the same storage, load this invocation's record, "
              "and return the count of its completed positions (-1: no record) in this field.", handled_by=node("reload_checkpoint_into"),
              extension=Extension("`reload_checkpoint_into: <int field>` on a node: a second instance of the case's "
                                  "checkpointer backend, opened on the same storage as a new process would open it, loads the "
                                  "running invocation's record, and the node returns its completed-position count (-1 when it "
                                  "has none) in that field. Pipeline-utilities §10.1 requires a saved record to be durable "
                                  "across process crashes for backends that document durability; no upstream directive reads "
                                  "the store from outside the process that wrote it.", every_use)),
    Directive("fan_out_internal_save_batching", ("checkpointer",), SectionShape("save_batching"), "§10", PU, None, "Batch fan-out saves.", handled_by=PART),
    Directive("flush_every", ("save_batching",), INT, "§10", PU, None, "Saves per flush.", handled_by=PART),
    Directive("populate_checkpointer_via_runs", RUN, INT, "§5.6", PU, "0.48.0", "Seed the checkpointer with N completed runs first.", handled_by=EXECUTE),
    Directive("first_run_expected_error", RUN, SectionShape("error_expectation"), "§5.6", PU, None, "The error ending the first run.", handled_by=(Handler("expectation", "first_run_error", families=("fixture", "case")), Handler("not_executed", families=("invocation",))),
              judged=Judged("run_error", first_run=True)),
    Directive("crash_injection", RUN, SectionShape("crash_injection"), "§5.6", PU, None, "Abandon the first run after a save.", handled_by=(Handler("run", families=("fixture", "case")), Handler("not_executed", families=("invocation",)))),
    Directive("after_node", ("crash_injection",), STR, "§5.6", PU, None, "Crash after this node's completed save.", handled_by=PART),
    Directive("after_fan_out_instance", ("crash_injection",), SectionShape("fan_out_instance_ref"), "§5.6", PU, None,
              "Crash after this fan-out instance's completed save.", handled_by=PART),
    Directive("node", ("fan_out_instance_ref",), STR, "§5.6", PU, None, "The fan-out node.", handled_by=PART),
    Directive("index", ("fan_out_instance_ref",), INT, "§5.6", PU, None, "The instance index.", handled_by=PART),
    Directive("resume", RUN, SectionShape("resume"), "§5.6", PU, None, "Resume and assert the resumed run.", handled_by=(Handler("run", families=("fixture", "case")), Handler("not_executed", families=("invocation",)))),
    Directive("from_first_run", ("resume",), BOOL, "§5.6", PU, None, "Resume the first run's invocation id.", handled_by=PART),
    Directive("from_seeded_record", ("resume",), BOOL, "§10", PU, None, "Resume from the `seeded_record`.", handled_by=PART),
    Directive("expected", ("resume",), SectionShape("expected"), "§5.6", PU, None, "The resumed run's expected outcome.", handled_by=expectation("expected")),
    Directive("expected_error", ("resume",), SectionShape("error_expectation"), "§5.6", PU, None, "The resume fails with this error.", handled_by=expectation("expected_error")),
    Directive("expected_chain_ambiguity_error", CASE + ("resume",), OneOf((STR, SectionShape("error_expectation"))), "§10.12", PU, None,
              "This category surfaces at graph build (migration registration / compile) or when the run resumes.", handled_by=expectation("build_or_run_error"),
              extension=Extension("`expected_chain_ambiguity_error` as an expected error (`category`, `carries`, ...) instead of "
                                  "a category: the error raised at graph build or when the run resumes, whichever happened, "
                                  "is matched field by field (pipeline-utilities §10.10: the ambiguity error MUST carry the "
                                  "offending `(from_version, to_version)` pair; §10.12.2 leaves the detection point open).",
                                  _an_error_block),
              judged=Judged("build_or_run_error")),
    Directive("transient", ("error_expectation",), BOOL, "§6.1", PU, None,
              "Whether the runtime's default retry classifier treats the error as transient.", handled_by=PART),
    Directive("invariants", ("resume",), Predicates(), "§5.6", PU, None, "Resume-specific invariant predicates.", handled_by=PREDICATES),
    Directive("caller_invocation_id", ("resume",), STR, "§10", PU, None, "The invocation id passed on resume.", handled_by=PART),
    Directive("resume_with_modified_items", ("resume",), Data(("map",)), "§10.11", PU, None, "State changes applied before resuming.", handled_by=PART),
    Directive("successful_attempt_index_during_resume", ("expected",), INT, "§10", PU, None,
              "The attempt_index of the resumed run's successful attempt (a fresh retry budget starts at 0).", handled_by=SHAPE),
    Directive("instances_executed_during_resume", ("expected",), Expect(("list",)), "§5.8", PU, None, "Fan-out instances re-run on resume.", handled_by=SHAPE),
    Directive("instances_skipped_during_resume", ("expected",), Expect(("list",)), "§5.8", PU, None, "Fan-out instances rolled forward.", handled_by=SHAPE),
    Directive("nodes_executed_during_resume", ("expected",), Expect(("list",)), "§10.4", PU, None, "Nodes re-run on resume.", handled_by=SHAPE),
    Directive("nodes_skipped_during_resume", ("expected",), Expect(("list",)), "§10.4", PU, None, "Nodes skipped on resume.", handled_by=SHAPE),
    Directive("migrations_run", ("expected",), Expect(("list",)), "§10.10", PU, None, "Migrations applied on load.", handled_by=SHAPE),
    Directive("seeded_record", CASE, Data(("map",)), "§10", PU, None, "A checkpoint record saved before the run.", handled_by=EXECUTE),
    Directive("runtime_state_subclass", CASE, Data(("map",)), "§10.10", PU, None, "Runtime state class attributes (schema_version).", handled_by=GRAPH_BUILD),
    Directive("schema_version", ("state",), STR, "§10.10", PU, None, "The state schema version.", handled_by=PART),
    Directive("migrations", CASE, ListOf(SectionShape("migration")), "§10.10", PU, None, "Registered state migrations.", handled_by=EXECUTE),
    Directive("from_version", ("migration",), STR, "§10.10", PU, None, "Source schema version.", handled_by=PART),
    Directive("to_version", ("migration",), STR, "§10.10", PU, None, "Target schema version.", handled_by=PART),
    Directive("migrate", ("migration",), STR, "§10.10", PU, None, "The harness migration function.", handled_by=PART),

    Directive("saved_record_assertions", RUN, SectionShape("record_assertions"), "§5.8", PU, None, "Assertions on the record saved by the first run.", handled_by=(Handler("expectation", "saved_record", families=("fixture", "case")), Handler("not_executed", families=("invocation",))),
              judged=Judged("run_block", 2)),
    Directive("latest_record_assertions", ("expected",), SectionShape("record_assertions"), "§5.8", PU, None, "Assertions on the latest saved record.", handled_by=SHAPE),
    Directive("every_save_assertions", CASE, SectionShape("record_assertions"), "§5.8", PU, None, "Assertions every save must satisfy.", handled_by=expectation("every_save"),
              judged=Judged("run_block", 3)),
    Directive("checkpoint_saves", ("expected",), Expect(("list",)), "§10", PU, None, "The saves, in order.", handled_by=SHAPE),
    Directive("completed_positions", ("record_assertions",), Expect(("list",)), "§5.8", PU, None, "The record's completed positions.", handled_by=PART),
    Directive("fan_out_node_in_completed_positions", ("record_assertions",), BOOL, "§5.8", PU, None, "The fan-out node is recorded completed.", handled_by=PART),
    Directive("fan_out_progress", ("record_assertions",), Nullable(MapOf(SectionShape("fan_out_progress"), "fan-out node")), "§5.8", PU, None,
              "Per-instance fan-out progress (null: none saved).", handled_by=PART),
    Directive("parent_states_present", ("record_assertions",), BOOL, "§5.8", PU, None, "The record carries parent states.", handled_by=PART),
    Directive("parent_states_outermost_first", ("record_assertions",), BOOL, "§5.8", PU, None, "Parent states are outermost first.", handled_by=PART),
    Directive("parent_states", ("record_assertions",), Expect(("list",)), "§5.8", PU, None, "The record's parent states.", handled_by=PART),
    Directive("state", ("record_assertions",), Expect(("map",)), "§5.8", PU, None, "The saved state.", handled_by=PART),
    Directive("schema_version", ("record_assertions",), Expect(("scalar",)), "§10.10", PU, None, "The saved schema version.", handled_by=PART),
    Directive("invocation_id", ("record_assertions",), Expect(("scalar",)), "§5.8", PU, None, "The saved invocation id.", handled_by=PART),
    Directive("correlation_id", ("record_assertions",), Expect(("scalar",)), "§5.8", PU, None, "The saved correlation id.", handled_by=PART),
    Directive("last_saved_at", ("record_assertions",), Expect(("scalar",)), "§5.8", PU, None, "The save timestamp.", handled_by=PART),
    Directive("instance_count", ("fan_out_progress",), INT, "§5.8", PU, None, "How many instances.", handled_by=PART),
    Directive("instances", ("fan_out_progress",), Expect(("list",)), "§5.8", PU, None,
              "Per instance: state / state_one_of, result, result_is_error, completed_inner_positions.", handled_by=PART),
    Directive("enclosing_fan_out_lineage", ("fan_out_progress",), Expect(("list",)), "§10.11", PU, None,
              "The entry's enclosing fan-out instances, outermost first ({namespace, fan_out_node_name, fan_out_index}).", handled_by=PART,
              extension=Extension("`enclosing_fan_out_lineage` in a saved-record `fan_out_progress` assertion: the entry's lineage "
                                  "field (§10.2), compared exactly. Upstream asserts a saved entry's instances only; "
                                  "pipeline-utilities §10.3 requires a fan-out nested inside an outer fan-out instance to "
                                  "record it, which only the saved record shows.", every_use)),

    # ---- other expected shapes -----------------------------------------------------------------
    Directive("subgraph_with_idx", CASE, SectionShape("graph"), "§9", PU, None, "A second subgraph declaration (count-mode fan-out).", handled_by=GRAPH_BUILD),
    Directive("trace_records", ("expected",), MapOf(Expect(("list",)), "middleware name"), "§6", PU, None,
              "What each tracing middleware recorded (state_in, partial_update_returned).", handled_by=SHAPE),
    Directive("timing_records", ("expected",), Expect(("list",)), "§6.2", PU, None, "Records captured by timing on_complete.", handled_by=SHAPE),
    Directive("expected_attempt_events", ("expected",), Expect(("list",)), "§6.1", PU, None, "The per-attempt observer events.", handled_by=SHAPE),
    Directive("expected_failure_isolation_event", ("expected",), Expect(("map",)), "§6.3", PU, None,
              "The failure-isolation event, with its `caught_exception` chain (§5.8).", handled_by=SHAPE),
    Directive("no_failure_isolation_event", ("expected",), BOOL, "§6.3", PU, None, "No failure-isolation event fired.", handled_by=SHAPE),
    Directive("expected_observer_event", ("expected",), Expect(("map",)), "§6", PU, None, "One observer event that must be present.", handled_by=SHAPE),
    Directive("concurrency_invariant", ("expected",), Expect(("map",)), "§9", PU, None, "Bounds on concurrent instances (`max_in_flight`, `reached`).", handled_by=SHAPE,
              extension=Extension("`reached: true` in `concurrency_invariant`: the bound `max_in_flight` must be reached "
                                  "(at some point exactly N instances in flight), not only respected.", value_naming("reached"))),
]
