"""The pipeline-utilities predicates: rows named by its fixtures and defined in their prose (.md sidecars).

They read the recorded observer events (NodeEvents and the framework-emitted FailureIsolatedEvents,
§6.3 — the scope's ``isolation_events``), the invocation's outcome, error and states, the middleware
log (what harness callbacks received), the wiring (what the harness built) and the checkpoint
flow's runs (``first_run`` / ``resumed_run``, their saves and migrations, §10).
"""

from __future__ import annotations

from typing import Any

from ..matchers import format_ok
from .rows import Compute, Example, Query, Restates, Verdict, flag
from .examples import case, invocation, node_event, one_run
from .pipeline_checkpoint import ROWS as CHECKPOINT_COMPUTED, role
from .pipeline_isolation import ROWS as ISOLATION_COMPUTED

INNER = ["fan", "work"]
_instances = [node_event("work", "started", INNER, fan_out_index=i, attempt_index=a) for i, a in ((0, 0), (1, 0), (1, 1))]


def isolated(category: str = "provider_unavailable", namespace: list | None = None, chain: list | None = None, **fields) -> dict:
    """A FailureIsolatedEvent as the trace records it."""
    chain = chain if chain is not None else [{"category": category, "message": "down", "carrier": False}]
    return {"type": "FailureIsolatedEvent", "event_name": "degraded", "namespace": namespace or ["n"], "fan_out_index": None,
            "branch_name": None, "attempt_index": 0, "caught_exception": {"category": category, "message": "down", "chain": chain},
            **fields}


def errored(category: str, events: list | None = None, **fields) -> dict:
    """A case whose one invocation raised an error of ``category`` (``fields`` go on the case)."""
    run = invocation(events, outcome="errored", error={"category": category, "message": "m", "type": "E", "chain": []})
    run.pop("final_state")
    return case(run, **fields)


def on_caught(times: int) -> list:
    return [{"kind": "on_caught", "record": {"category": "provider_unavailable", "message": "down", "type": "E"}}] * times


def resume_case(first: dict, resumed: dict, **fields) -> dict:
    """A checkpoint case: a first run and the run resuming it."""
    return case(invocation(role="first_run", **first), invocation(role="resumed", **resumed), **fields)


SAME = resume_case({"id": "a", "correlation_id": "c"}, {"id": "b", "correlation_id": "c", "call": {"invocation_id": "x"}})
CLASH = resume_case({"id": "a", "correlation_id": "c"}, {"id": "a", "correlation_id": "d", "call": {"invocation_id": "a"}})


def migrated(*steps: str) -> dict:
    return resume_case({"id": "a"}, {"id": "b", "checkpoint": {"migrations_run": list(steps)}})


def saved(*runs: int, lost: bool = False) -> dict:
    return case(invocation(), checkpoint_saves=[{"run": run, "route": "save", "lost": lost, "record": {}} for run in runs])


RAN = resume_case({}, {"node_log": [{"event": "entered", "node": "a", "fan_out_index": 0, "attempt_index": 0},
                                     {"event": "entered", "node": "b", "fan_out_index": 1, "attempt_index": 1}]})


# One fan-out instance entered `work` once, the other twice (a retried attempt).
BODY_RUNS = [{"event": "entered", "node": "work", "fan_out_index": 0, "attempt_index": 0},
             {"event": "entered", "node": "work", "fan_out_index": 1, "attempt_index": 0},
             {"event": "entered", "node": "work", "fan_out_index": 1, "attempt_index": 1}]


def _entered(node: str, attempt: int) -> dict:
    return {"event": "entered", "node": node, "fan_out_index": None, "attempt_index": attempt}


ISOLATION_GATE = {"nodes": {}, "failure_isolation": [{"node": "n", "event_name": "degraded", "catch": ["timeout"],
                                                      "predicate_category": "timeout", "degraded_update": {}, "on_caught": None}]}
CARRIED = [{"category": "node_exception", "message": "wrapped", "carrier": True}, {"category": "timeout", "message": "slow", "carrier": False}]



def run_id(scope: dict, name: str) -> str:
    run = role(scope, name)
    if "id" not in run:
        raise LookupError(f"the {name.replace('_', ' ')}'s invocation id was never observed (no node ran)")
    return run["id"]


# pipeline-utilities §6.1: "The default backoff is `random.uniform(0, min(cap, base * 2^attempt))`
# where `base = 1.0` and `cap = 30.0`."
DEFAULT_BACKOFF_BASE_S, DEFAULT_BACKOFF_CAP_S = 1.0, 30.0


def retry_sleeps_default_full_jitter(scope: dict, expected: Any) -> Verdict:
    """The runtime's retry sleeps (``runtime_sleep`` rows, `clock_stub: {type: virtual_sleep}`) follow
    the default full-jitter exponential backoff: each delay after attempt k lies in
    [0, min(cap, base * 2^k)] (either end included: uniform jitter may round onto it), and the delays
    after the same attempt index in different retry loops are not all equal — a deterministic
    strategy (constant, linear, exponential without jitter) gives every loop the same delay, a
    jittered one never does. Needs some attempt index slept after by two loops."""
    sleeps = [entry["record"] for entry in scope["middleware_log"] if entry["kind"] == "runtime_sleep"]
    by_attempt: dict[Any, list[float]] = {}
    for sleep in sleeps:
        by_attempt.setdefault(sleep.get("attempt_index"), []).append(sleep["seconds"])
    if not any(isinstance(k, int) and len(delays) >= 2 for k, delays in by_attempt.items()):
        raise LookupError(f"no attempt index was slept after by two retry loops (delays by attempt index: {by_attempt}): "
                          "nothing shows whether the delays are jittered")
    outside = [(k, d) for k, delays in by_attempt.items() for d in delays
               if not isinstance(k, int) or not 0 <= d <= min(DEFAULT_BACKOFF_CAP_S, DEFAULT_BACKOFF_BASE_S * 2 ** k)]
    unjittered = [k for k, delays in by_attempt.items() if len(delays) >= 2 and len(set(delays)) == 1]
    problems = ([f"outside [0, min(cap, base * 2^k)]: {outside}"] if outside else []) + (
        [f"every loop slept the same after attempt index {unjittered}: no jitter"] if unjittered else [])
    return flag(expected, not problems, "; ".join(problems) + f" (delays by attempt index: {by_attempt})")


def _slept(*delays: tuple[int, float]) -> dict:
    return case(invocation(), middleware_log=[{"kind": "runtime_sleep", "record": {"seconds": d, "attempt_index": k}} for k, d in delays])


def invocation_id_is_uuidv4(scope: dict, expected: Any) -> Verdict:
    found = scope["invocation"].get("id")
    return flag(expected, format_ok("uuid", found), f"invocation id {found!r}")


def first_run_correlation_id_is_uuidv4(scope: dict, expected: Any) -> Verdict:
    found = role(scope, "first_run").get("correlation_id")
    return flag(expected, format_ok("uuid", found), f"correlation id {found!r}")


def resumed_id_fresh(scope: dict, expected: Any) -> Verdict:
    first, resumed = run_id(scope, "first_run"), run_id(scope, "resumed_run")
    return flag(expected, format_ok("uuid", resumed) and resumed != first, f"resumed {resumed!r}, first {first!r}")


def ordered(values: list) -> bool:
    return all(a <= b for a, b in zip(values, values[1:]))


def last_saved_at_monotonic(scope: dict, expected: Any) -> Verdict:
    stamps = [save["record"]["last_saved_at"] for save in scope["saves"]]
    return flag(expected, bool(stamps) and ordered(stamps), f"last_saved_at across saves: {stamps}")


def steps_monotonic(scope: dict, expected: Any) -> Verdict:
    steps = [[p["step"] for p in save["record"]["completed_positions"]] for save in scope["saves"]]
    return flag(expected, bool(steps) and all(ordered(s) for s in steps), f"steps per save: {steps}")


def correlation_ids_seen(scope: dict, run: dict) -> list:
    """Every correlation id one run showed: in its nodes' context, on its saves, on the run."""
    seen = [row.get("correlation_id") for row in run.get("node_log", ())]
    seen += [save["record"].get("correlation_id") for save in scope.get("checkpoint_saves", ())
             if save.get("run") == run["index"] and not save.get("lost")]
    return seen + ([run["correlation_id"]] if "correlation_id" in run else [])


def correlation_uniform(scope: dict, expected: Any) -> Verdict:
    seen = set(correlation_ids_seen(scope, role(scope, "first_run")) + correlation_ids_seen(scope, role(scope, "resumed_run")))
    return flag(expected, len(seen) == 1 and None not in seen, f"correlation ids seen: {sorted(map(str, seen))}")


def no_new_correlation(scope: dict, expected: Any) -> Verdict:
    first = role(scope, "first_run").get("correlation_id")
    new = sorted({str(c) for c in correlation_ids_seen(scope, role(scope, "resumed_run")) if c != first})
    return flag(expected, first is not None and not new, f"the resumed run showed {new} (first run {first!r})")


def migration_chain(scope: dict, expected: Any) -> Verdict:
    run = role(scope, "resumed_run")
    steps = [step.split("->") for step in run.get("checkpoint", {}).get("migrations_run", ())]
    record = (run.get("checkpoint", {}).get("resumed_from") or {}).get("record")
    if record is None:
        raise LookupError("the resume loaded no record")
    holds = bool(steps) and steps[0][0] == record["schema_version"] and all(a[1] == b[0] for a, b in zip(steps, steps[1:]))
    return flag(expected, holds, f"migrations {steps} from schema_version {record['schema_version']!r}")


def resume_attempt_count(scope: dict, expected: Any, index: str) -> int:
    rows = [row for row in role(scope, "resumed_run").get("node_log", ())
            if row.get("event") == "entered" and str(row.get("fan_out_index")) == index]
    return sum(row["node"] == rows[0]["node"] for row in rows) if rows else 0


def pairs_per_instance(scope: dict, expected: Any) -> Verdict:
    counts: dict = {}
    for event in scope["inner_events"]:
        if event.get("fan_out_index") is not None:
            counts[event["fan_out_index"]] = counts.get(event["fan_out_index"], 0) + 1
    return Verdict(bool(counts) and set(counts.values()) == {expected},
                   f"inner events per instance: {dict(sorted(counts.items()))}, expected {expected} each")


def event_name_supplied(scope: dict, expected: Any) -> Verdict:
    events = scope.get("isolation_events") or []
    if not events:
        raise LookupError("no failure-isolation event to check")
    configured = {c["event_name"] for c in scope["wiring"]["failure_isolation"]}
    stray = [e.get("event_name") for e in events if e.get("event_name") not in configured]
    return flag(expected, not stray, f"event names {stray} are not among the configured {sorted(configured)}")


U1, U2 = "0b6f6f0e-4c1a-4d2b-9a8e-1f2e3d4c5b6a", "7c9e6679-7425-40de-944b-e07fc1f90ae7"
UUIDS = resume_case({"id": U1, "correlation_id": U2}, {"id": U2, "correlation_id": U2})
NOT_UUIDS = resume_case({"id": "run-1", "correlation_id": "corr"}, {"id": "run-1", "correlation_id": "corr"})


def stamped(*stamps: float) -> dict:
    return case(invocation(), checkpoint_saves=[{"run": 0, "route": "save", "lost": False, "record": {
        "last_saved_at": t, "completed_positions": [{"step": n} for n in range(k + 1)] if k >= 0 else [{"step": 2}, {"step": 1}]}}
        for k, t in zip(range(len(stamps)), stamps)])


def correlated(resumed_ids: list) -> dict:
    return resume_case({"correlation_id": "c", "node_log": [{"event": "entered", "correlation_id": "c"}]},
                       {"correlation_id": resumed_ids[0], "node_log": [{"event": "entered", "correlation_id": i} for i in resumed_ids]})


def chain_case(*steps: str) -> dict:
    return resume_case({}, {"checkpoint": {"migrations_run": list(steps), "resumed_from": {"record": {"schema_version": "1"}}}})


NAMED = case(invocation([isolated()]), wiring=ISOLATION_GATE)

ROWS = (
    # Fan-out instances' inner events (other names fixtures use for the §5.9 "seen" sets)
    Query("inner_events_attempt_indices_seen", "The set of attempt_index values on inner events (§5.9's inner_attempt_indices_seen).",
          "inner_events[].attempt_index", "set",
          holds=Example(one_run(_instances), [0, 1]), fails=Example(one_run(_instances), [0])),
    Query("fan_out_indices_seen", "The set of fan_out_index values on inner events (§5.9's inner_fan_out_indices_seen).",
          "inner_events[?fan_out_index != null].fan_out_index", "set",
          holds=Example(one_run(_instances), [0, 1]), fails=Example(one_run(_instances), [0, 1, 2])),
    Query("inner_events_have_fan_out_index", "Every inner event (namespace deeper than the outer node) carries a fan_out_index.",
          "inner_events[?fan_out_index == null]", "absent", anchor="inner_events",
          holds=Example(one_run(_instances)), fails=Example(one_run(_instances + [node_event("work", "started", INNER)]))),
    # Failure isolation: catching, the event, on_caught
    Query("engine_does_not_see_exception", "A failure was caught and degraded (a failure-isolation event fired) and the invocation still completed.",
          "isolation_events && invocation.outcome == 'completed'", "flag",
          holds=Example(one_run([isolated()])), fails=Example(errored("timeout", [isolated()]))),
    Query("degrade_path_does_not_raise", "A failure was caught and degraded (a failure-isolation event fired) and the invocation still completed.",
          "isolation_events && invocation.outcome == 'completed'", "flag",
          holds=Example(one_run([isolated()])), fails=Example(one_run([]))),
    Query("degrade_does_not_suppress_reducer_error", "A degrade happened (an isolation event) and the invocation still failed with reducer_error.",
          "isolation_events && invocation.error.category == 'reducer_error'", "flag",
          holds=Example(errored("reducer_error", [isolated()])), fails=Example(one_run([isolated()]))),
    Query("no_event_when_predicate_does_not_match", "With an isolation predicate configured, the invocation errored and no isolation event fired.",
          "invocation.outcome == 'errored' && !isolation_events", "flag", anchor="wiring.failure_isolation[?predicate_category]",
          holds=Example(errored("timeout", [], wiring=ISOLATION_GATE)), fails=Example(errored("timeout", [isolated()], wiring=ISOLATION_GATE))),
    Query("no_event_when_catch_does_not_match", "With a `catch` set configured, the invocation errored and no isolation event fired.",
          "invocation.outcome == 'errored' && !isolation_events", "flag", anchor="wiring.failure_isolation[?catch]",
          holds=Example(errored("timeout", [], wiring=ISOLATION_GATE)),
          fails=Example(case(invocation([isolated()]), wiring=ISOLATION_GATE))),
    Query("on_caught_fires_exactly_once", "The on_caught callback was called exactly once, for the one catch.",
          "length(middleware_log[?kind == 'on_caught']) == `1` && length(isolation_events) == `1`", "flag",
          holds=Example(case(invocation([isolated()]), middleware_log=on_caught(1))),
          fails=Example(case(invocation([isolated()]), middleware_log=on_caught(2)))),
    Query("framework_event_still_emits_with_on_caught", "With on_caught configured and called, each catch still emitted its isolation event.",
          "length(isolation_events) == length(middleware_log[?kind == 'on_caught'])", "flag", anchor="middleware_log[?kind == 'on_caught']",
          holds=Example(case(invocation([isolated()]), middleware_log=on_caught(1))),
          fails=Example(case(invocation([]), middleware_log=on_caught(1)))),
    # Failure isolation: the caught_exception chain (§6.3, §6.4)
    Query("category_not_masked_as_node_exception", "No isolation event reports the carrier category node_exception as its caught category.",
          "isolation_events[?caught_exception.category == 'node_exception']", "absent", anchor="isolation_events",
          holds=Example(one_run([isolated("timeout", chain=CARRIED)])), fails=Example(one_run([isolated("node_exception")]))),
    Query("chain_includes_carrier_and_originating",
          "Each isolation event's chain holds at least one carrier link and ends at a non-carrier (originating) link.",
          "isolation_events[?length(caught_exception.chain[?carrier]) == `0` || caught_exception.chain[-1].carrier]", "absent", anchor="isolation_events",
          holds=Example(one_run([isolated("timeout", chain=CARRIED)])), fails=Example(one_run([isolated()]))),
    Query("node_level_chain_is_single_non_carrier_link",
          "An isolation event at an outer node (no fan-out index, no branch) has a chain of exactly one non-carrier link.",
          "isolation_events[?length(namespace) == `1` && fan_out_index == null && branch_name == null]"
          " | [?length(caught_exception.chain) != `1` || caught_exception.chain[0].carrier]", "absent",
          anchor="isolation_events[?length(namespace) == `1` && fan_out_index == null && branch_name == null]",
          holds=Example(one_run([isolated()])), fails=Example(one_run([isolated("timeout", chain=CARRIED)]))),
    # Checkpoints: saves, identities across the first and the resumed run, migrations (§10)
    Query("save_count", "How many saves the runtime made during the invocation (those that persisted).",
          "saves", "count", holds=Example(saved(0, 0, 0), 3), fails=Example(saved(0, 0, 0, lost=True), 3)),
    Query("resumed_invocation_id_differs_from_original", "The resumed run's invocation id is not the first run's.",
          "first_run.id != resumed_run.id", "flag", anchor="first_run.id && resumed_run.id",
          holds=Example(SAME, invocation=1), fails=Example(CLASH, invocation=1)),
    Query("first_and_resumed_invocation_ids_differ", "The resumed run's invocation id is not the first run's.",
          "first_run.id != resumed_run.id", "flag", anchor="first_run.id && resumed_run.id",
          holds=Example(SAME, invocation=1), fails=Example(CLASH, invocation=1)),
    Query("resumed_correlation_id_matches_original", "The resumed run's correlation id is the first run's.",
          "first_run.correlation_id == resumed_run.correlation_id", "flag", anchor="first_run.correlation_id",
          holds=Example(SAME, invocation=1), fails=Example(CLASH, invocation=1)),
    Query("resumed_run_correlation_id_matches_first", "The resumed run's correlation id is the first run's.",
          "first_run.correlation_id == resumed_run.correlation_id", "flag", anchor="first_run.correlation_id",
          holds=Example(SAME, invocation=1), fails=Example(CLASH, invocation=1)),
    Query("first_run_correlation_id", "The first run's correlation id.", "first_run.correlation_id", "equals",
          holds=Example(SAME, "c", invocation=1), fails=Example(SAME, "d", invocation=1)),
    Query("resumed_run_correlation_id", "The resumed run's correlation id.", "resumed_run.correlation_id", "equals",
          holds=Example(SAME, "c", invocation=1), fails=Example(CLASH, "c", invocation=1)),
    Query("first_run_invocation_id", "The first run's invocation id.", "first_run.id", "equals",
          holds=Example(SAME, "a", invocation=1), fails=Example(SAME, "b", invocation=1)),
    Query("saved_record_correlation_id", "The correlation id on the record the first run left saved.",
          "first_run.checkpoint.saved_record.correlation_id", "equals",
          holds=Example(resume_case({"checkpoint": {"saved_record": {"correlation_id": "c"}}}, {}), "c", invocation=1),
          fails=Example(resume_case({"checkpoint": {"saved_record": {"correlation_id": "d"}}}, {}), "c", invocation=1)),
    Query("resumed_run_invocation_id_not_caller_supplied", "The resumed run did not adopt the invocation id the resume call supplied.",
          "resumed_run.id != resumed_run.call.invocation_id", "flag", anchor="resumed_run.call.invocation_id",
          holds=Example(SAME, invocation=1), fails=Example(CLASH, invocation=1)),
    Query("single_migration_invocation", "Exactly one harness migration ran during the resume.",
          "length(resumed_run.checkpoint.migrations_run) == `1`", "flag",
          holds=Example(migrated("1->2"), invocation=1), fails=Example(migrated("1->2", "2->3"), invocation=1)),
    Query("migration_count", "How many harness migrations ran during the resume.",
          "resumed_run.checkpoint.migrations_run", "count",
          holds=Example(migrated("1->2", "2->3"), 2, invocation=1), fails=Example(migrated("1->2"), 2, invocation=1)),
    Query("migration_registry_not_consulted", "No registered migration ran during the resume.",
          "resumed_run.checkpoint.migrations_run", "absent", anchor="resumed_run",
          holds=Example(migrated(), invocation=1), fails=Example(migrated("1->2"), invocation=1)),
    Query("error_category_not", "The run failed, with a category outside the listed ones.",
          "!contains(to_array({value}), invocation.error.category)", "flag", anchor="invocation.error",
          holds=Example(errored("timeout"), ["node_exception"]), fails=Example(errored("node_exception"), ["node_exception"])),
    Query("instance_<index>_executes_<node>_on_resume", "Fan-out instance <index> ran node <node> during the resume.",
          "resumed_run.node_log[?event == 'entered' && fan_out_index == to_number({index}) && node == {node}]", "flag",
          anchor="resumed_run",
          holds=Example(RAN, name="instance_1_executes_b_on_resume", invocation=1),
          fails=Example(RAN, name="instance_0_executes_b_on_resume", invocation=1)),
    Query("instance_<index>_attempt_index_on_resume",
          "The attempt index (the runtime's) of fan-out instance <index>'s first node body on resume.",
          "resumed_run.node_log[?event == 'entered' && fan_out_index == to_number({index})] | [0].attempt_index", "equals",
          anchor="resumed_run.node_log[?event == 'entered' && fan_out_index == to_number({index})]",
          holds=Example(RAN, 1, name="instance_1_attempt_index_on_resume", invocation=1),
          fails=Example(RAN, 0, name="instance_1_attempt_index_on_resume", invocation=1)),
    Query("attempt_index_reset_to_zero_on_resume",
          "On resume a retried node's attempt_index restarts at 0: it does not carry over the prior run's attempts (§10.6).",
          "length(distinct(resumed_run.node_log[?event == 'entered'].node)) == "
          "length(distinct(resumed_run.node_log[?event == 'entered' && attempt_index == `0`].node))", "flag",
          anchor="resumed_run.node_log[?event == 'entered']",
          holds=Example(resume_case({}, {"node_log": [_entered("flaky", 0), _entered("flaky", 1)]}), invocation=1),
          fails=Example(resume_case({}, {"node_log": [_entered("flaky", 3), _entered("flaky", 4)]}), invocation=1)),
    # listed before `<node>_body_runs`, whose pattern would also take this name whole
    Query("instance_<index>_<node>_body_runs", "How many times fan-out instance <index> entered node <node>'s body (every attempt).",
          "invocation.node_log[?event == 'entered' && fan_out_index == to_number({index}) && node == {node}]", "count",
          anchor="invocation.node_log",
          holds=Example(one_run(node_log=BODY_RUNS), 1, name="instance_0_work_body_runs"),
          fails=Example(one_run(node_log=BODY_RUNS), 2, name="instance_0_work_body_runs")),
    Query("<node>_body_runs", "How many times node <node>'s body was entered in the invocation: every attempt, every instance.",
          "invocation.node_log[?event == 'entered' && node == {node}]", "count", anchor="invocation.node_log",
          holds=Example(one_run(node_log=BODY_RUNS), 3, name="work_body_runs"),
          fails=Example(one_run(node_log=BODY_RUNS), 2, name="work_body_runs")),
    Query("<node>_cleaned_up_after_cancellation",
          "Node <node>'s body, cancelled, finished its `on_cancelled` cleanup within the invocation.",
          "invocation.node_log[?event == 'cleaned_up' && node == {node}]", "flag", anchor="invocation.node_log",
          holds=Example(one_run(node_log=[*BODY_RUNS, {"event": "raised", "node": "work", "fan_out_index": 0},
                                          {"event": "cleaned_up", "node": "work", "fan_out_index": 0}]), name="work_cleaned_up_after_cancellation"),
          fails=Example(one_run(node_log=[*BODY_RUNS, {"event": "raised", "node": "work", "fan_out_index": 0}]),
                        name="work_cleaned_up_after_cancellation")),
    Query("<field>_list_length", "The length of list field <field> in the final state.",
          "invocation.final_state.{field!key}", "count", anchor="invocation.final_state",
          holds=Example(one_run(final_state={"results": [1, 2]}), 2, name="results_list_length"),
          fails=Example(one_run(final_state={"results": [1]}), 2, name="results_list_length")),
    # Computes: each needs a format check, a pairwise order, a grouping or a join that JMESPath lacks
    Compute("retry_sleeps_follow_default_full_jitter_backoff",
            "Every retry sleep the runtime asked for follows §6.1's default backoff: within "
            "[0, min(30 s, 1 s * 2^attempt)] and jittered (loops sleep differently after the same attempt).",
            retry_sleeps_default_full_jitter,
            why="bounds that depend on each row's attempt index, and a grouping by attempt index; JMESPath has neither",
            holds=Example(_slept((0, 0.31), (0, 0.77), (1, 1.92), (1, 0.05))),
            fails=Example(_slept((0, 1.0), (0, 1.0), (1, 2.0), (1, 2.0)))),
    Compute("invocation_id_is_uuidv4", "The invocation's framework-minted id is a canonical UUIDv4.", invocation_id_is_uuidv4,
            why="a §5.10 format check (uuid) on a value; JMESPath has no pattern matching",
            holds=Example(one_run(id=U1)), fails=Example(one_run(id="run-1"))),
    Compute("first_run_correlation_id_is_uuidv4", "The first run's (framework-generated) correlation id is a canonical UUIDv4.",
            first_run_correlation_id_is_uuidv4, why="a §5.10 format check (uuid) on a value; JMESPath has no pattern matching",
            holds=Example(UUIDS, invocation=1), fails=Example(NOT_UUIDS, invocation=1)),
    Compute("resumed_run_invocation_id_is_fresh_uuidv4", "The resumed run's invocation id is a canonical UUIDv4 minted for it (not the first run's).",
            resumed_id_fresh, why="a §5.10 format check (uuid) on a value; JMESPath has no pattern matching",
            holds=Example(UUIDS, invocation=1), fails=Example(NOT_UUIDS, invocation=1)),
    Compute("last_saved_at_monotonic_across_saves", "last_saved_at never decreases from one save of the invocation to the next.",
            last_saved_at_monotonic, why="a pairwise order over consecutive saves; JMESPath cannot compare neighbours",
            holds=Example(stamped(1.0, 2.0)), fails=Example(stamped(2.0, 1.0))),
    Compute("completed_positions_step_monotonic", "In every save of the invocation, completed positions are in non-decreasing step order.",
            steps_monotonic, why="a pairwise order inside each save's positions; JMESPath cannot compare neighbours",
            holds=Example(stamped(1.0, 2.0)),
            fails=Example(case(invocation(), checkpoint_saves=[{"run": 0, "route": "save", "lost": False,
                                                                "record": {"completed_positions": [{"step": 2}, {"step": 1}]}}]))),
    Compute("correlation_id_uniform_across_both_runs", "One correlation id everywhere both runs showed one (node contexts, saves, the runs).",
            correlation_uniform, why="a join of the two runs' node logs, saves and ids into one set",
            holds=Example(correlated(["c"]), invocation=1), fails=Example(correlated(["c", "d"]), invocation=1)),
    Compute("no_new_correlation_id_generated_on_resume", "Everything the resumed run showed carries the first run's correlation id.",
            no_new_correlation, why="a join: the resumed run's node log and saves against the first run's id",
            holds=Example(correlated(["c"]), invocation=1), fails=Example(correlated(["d"]), invocation=1)),
    Compute("migration_order_matches_chain", "The migrations ran as one chain: from the loaded record's schema_version, each step starting where the previous one ended.",
            migration_chain, why="a pairwise chain over consecutive migration steps",
            holds=Example(chain_case("1->2", "2->3"), invocation=1), fails=Example(chain_case("1->2", "3->4"), invocation=1)),
    Compute("instance_<index>_resume_attempt_count", "How many times fan-out instance <index> was attempted on resume (its entry node's dispatches).",
            resume_attempt_count, why="grouping: the dispatches of the node that an instance's first body ran",
            holds=Example(RAN, 1, name="instance_1_resume_attempt_count", invocation=1),
            fails=Example(RAN, 2, name="instance_1_resume_attempt_count", invocation=1)),
    Compute("inner_event_pair_count_per_instance", "Every fan-out instance (by fan_out_index) produced exactly this many inner events.",
            pairs_per_instance, why="grouping by fan_out_index; JMESPath has no group-by",
            holds=Example(one_run(_instances[:1] + _instances[:1]), 2), fails=Example(one_run(_instances), 2)),
    Compute("event_name_is_caller_supplied", "Every isolation event carries the event_name its middleware was configured with.",
            event_name_supplied, why="a join: the events' names against the wiring's configured names",
            holds=Example(NAMED), fails=Example(case(invocation([isolated(event_name="other")]), wiring=ISOLATION_GATE))),
    # Rows added for the adapter gaps the expectations work closed
    # parallel-branches determinism: "Branch dispatch (started events) order on the
    # observer stream is the insertion order of the `branches` mapping".
    Query("branch_started_event_order", "The branches' first started events arrive in the given branch order (the `branches` mapping's insertion order).",
          "distinct(node_events[?phase=='started' && branch_name != null].branch_name)", "equals",
          holds=Example(one_run([node_event("x", "started", ["d", "x"], branch_name="alpha"),
                                 node_event("y", "started", ["d", "y"], branch_name="beta"),
                                 node_event("x", "completed", ["d", "x"], branch_name="alpha")]), ["alpha", "beta"]),
          fails=Example(one_run([node_event("y", "started", ["d", "y"], branch_name="beta"),
                                 node_event("x", "started", ["d", "x"], branch_name="alpha")]), ["alpha", "beta"])),
    # "Migration ran twice: once for the outer record state, once for the single parent_states entry."
    Query("migration_invocation_count", "The harness migration function ran exactly this many times during the run (record state plus each parent_states entry).",
          "invocation.checkpoint.migrations_run", "count",
          holds=Example(one_run(checkpoint={"migrations_run": ["v1->v2", "v1->v2"]}), 2),
          fails=Example(one_run(checkpoint={"migrations_run": ["v1->v2"]}), 2)),
    # failure isolation, default predicate, bare exception: the event's caught_exception says it.
    Restates("default_predicate_catches_bare_exception", "The default (always-true) predicate caught the bare exception: the failure-isolation event fired.",
             "expected.expected_failure_isolation_event"),
    Restates("caught_exception_category_null_for_non_categorized", "A caught exception without a category records caught_exception.category null.",
             "expected.expected_failure_isolation_event.caught_exception.category"),
    Restates("caught_exception_message_captures_str_exc", "caught_exception.message is str(exc) of the caught exception.",
             "expected.expected_failure_isolation_event.caught_exception.message"),
    Restates("engine_sees_degraded_return", "The engine merged the degraded update as the node's return: the final state carries it.",
             "expected.final_state"),
    # the expected caught_exception.chain lists the carrier and two non-carrier links.
    Restates("chain_has_two_non_carrier_links", "The caught exception's cause chain has two non-carrier links (the re-categorized surface and the originating cause).",
             "expected.expected_failure_isolation_event.caught_exception.chain"),
    # "The after_node crash boundary rolled node_a forward across the resume."
    Restates("after_node_crash_rolls_node_forward", "The node the crash followed is not re-run on resume (it is in completed_positions, rolled forward).",
             "expected.nodes_skipped_during_resume"),
    *CHECKPOINT_COMPUTED,
    *ISOLATION_COMPUTED,
)
