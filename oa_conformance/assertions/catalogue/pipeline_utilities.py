"""The pipeline-utilities predicates: rows named by its fixtures and defined in their prose (.md sidecars)."""

from __future__ import annotations

from . import Example, Query, Restates
from .examples import node_event, one_run

ROWS = (
    # fixture 037 (parallel-branches determinism): "Branch dispatch (started events) order on the
    # observer stream is the insertion order of the `branches` mapping".
    Query("branch_started_event_order", "The branches' first started events arrive in the given branch order (the `branches` mapping's insertion order).",
          "distinct(node_events[?phase=='started' && branch_name != null].branch_name)", "equals",
          holds=Example(one_run([node_event("x", "started", ["d", "x"], branch_name="alpha"),
                                 node_event("y", "started", ["d", "y"], branch_name="beta"),
                                 node_event("x", "completed", ["d", "x"], branch_name="alpha")]), ["alpha", "beta"]),
          fails=Example(one_run([node_event("y", "started", ["d", "y"], branch_name="beta"),
                                 node_event("x", "started", ["d", "x"], branch_name="alpha")]), ["alpha", "beta"])),
    # fixture 043: "Migration ran twice: once for the outer record state, once for the single parent_states entry."
    Query("migration_invocation_count", "The harness migration function ran exactly this many times during the run (record state plus each parent_states entry).",
          "invocation.checkpoint.migrations_run", "count",
          holds=Example(one_run(checkpoint={"migrations_run": ["v1->v2", "v1->v2"]}), 2),
          fails=Example(one_run(checkpoint={"migrations_run": ["v1->v2"]}), 2)),
    # fixture 063 (failure isolation, default predicate, bare exception): the event's caught_exception says it.
    Restates("default_predicate_catches_bare_exception", "The default (always-true) predicate caught the bare exception: the failure-isolation event fired.",
             "expected.expected_failure_isolation_event"),
    Restates("caught_exception_category_null_for_non_categorized", "A caught exception without a category records caught_exception.category null.",
             "expected.expected_failure_isolation_event.caught_exception.category"),
    Restates("caught_exception_message_captures_str_exc", "caught_exception.message is str(exc) of the caught exception.",
             "expected.expected_failure_isolation_event.caught_exception.message"),
    Restates("engine_sees_degraded_return", "The engine merged the degraded update as the node's return: the final state carries it.",
             "expected.final_state"),
    # fixture 068: the expected caught_exception.chain lists the carrier and two non-carrier links.
    Restates("chain_has_two_non_carrier_links", "The caught exception's cause chain has two non-carrier links (the re-categorized surface and the originating cause).",
             "expected.expected_failure_isolation_event.caught_exception.chain"),
    # fixture 070: "The after_node crash boundary rolled node_a forward across the resume."
    Restates("after_node_crash_rolls_node_forward", "The node the crash followed is not re-run on resume (it is in completed_positions, rolled forward).",
             "expected.nodes_skipped_during_resume"),
)
