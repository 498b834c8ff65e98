"""Predicates named by the checkpoint / resume / migration fixtures (pipeline-utilities §10).

They read the trace the multi-run flow records (interpreter/resume.py): the runs by role (the first
run and the resumed run), each run's saves, its saved record and the record a resume loaded, the
harness migrations it ran, and its node log (every harness node body with the runtime's
namespace, fan-out index chain, attempt index, invocation and correlation ids as read inside the
body). Sets are compared where the runtime may interleave (§7).
"""

from __future__ import annotations

from typing import Any

from ...trace.record import FIRST_RUN, RESUMED
from ...interpreter.values import literal
from ..checkpoint_shapes import entered, run_with_role, saves_of
from ..matchers import format_ok, show
from ..rules import Context
from . import Verdict, flag, pattern, predicate, unique

# ---------------------------------------------------------------------------------------------
# Building blocks


def first_run(ctx: Context) -> Any:
    return run_with_role(ctx, FIRST_RUN)


def resumed_run(ctx: Context) -> Any:
    return run_with_role(ctx, RESUMED)


def invocation_id(run: Any) -> str:
    if run.invocation_id is None:
        raise LookupError(f"the {run.role or 'invocation'}'s invocation id was never observed (no node ran)")
    return run.invocation_id


def correlation_ids_seen(ctx: Context, run: Any) -> list[Any]:
    """Every correlation id one run showed: in its nodes' context, on its saves, on the run."""
    seen = [row["correlation_id"] for row in run.node_log]
    seen += [save["record"]["correlation_id"] for save in saves_of(ctx, run)]
    return seen + ([run.correlation_id] if run.correlation_id is not None else [])


def loaded_record(ctx: Context) -> Any:
    """The record the resumed run loaded (as the checkpointer held it just before the resume)."""
    resumed = resumed_run(ctx)
    record = (resumed.checkpoint.get("resumed_from") or {}).get("record")
    if record is None:
        raise LookupError("the resume loaded no record")
    return record


def final_state(ctx: Context) -> Any:
    run = ctx.invocation
    if run is None or run.outcome != "completed":
        raise LookupError(f"the run {run.outcome if run is not None else 'never happened'}: no final state")
    return run.final_state


def fan_out_fields(ctx: Context, key: str) -> list[str]:
    """A configuration field (target_field, errors_field) of every outer fan-out node."""
    return [node[key] for node in ctx.trace.wiring["nodes"].values() if node.get("kind") == "fan_out" and node.get(key)]


def migrations_run(ctx: Context) -> list[str]:
    return list(resumed_run(ctx).checkpoint["migrations_run"])


# ---------------------------------------------------------------------------------------------
# Saves and records


@predicate("save_order_matches_completed_event_order")
def _save_order(ctx: Context, expected: Any) -> Verdict:
    """The node each save recorded (its newest completed position), in save order, is the order of
    the successful ``completed`` events the harness observer received."""
    from . import events_of

    saved = [tuple(p["namespace"]) + (p["node_name"],) for p in (s["record"]["completed_positions"][-1] for s in saves_of(ctx)
                                                                if s["record"]["completed_positions"])]
    completed = [tuple(e["namespace"]) for e in events_of(ctx) if e.get("phase") == "completed" and e.get("error") is None]
    return flag(expected, saved == completed, f"saves recorded {saved}; completed events {completed}")


def fan_out_in_progress(record: Any) -> bool:
    """The record was saved while a fan-out ran: it has progress for a fan-out node not yet completed."""
    completed = {p["node_name"] for p in record["completed_positions"]}
    return any(p["fan_out_node_name"] not in completed for p in record["fan_out_progress"])


@predicate("batching_scoped_to_fan_out_internal_saves_only")
def _batching_scope(ctx: Context, expected: Any) -> Verdict:
    """Every save made while no fan-out was in progress (outer-node, subgraph and fan-out-node
    completion saves) went through the synchronous ``save``, not a fan-out batching seam."""
    outside = [s for s in ctx.trace.checkpoint_saves if not fan_out_in_progress(s["record"])]
    routed = sorted({s["route"] for s in outside if s["route"] != "save"})
    return flag(expected, bool(outside) and not routed, f"routes of the saves made with no fan-out in progress: {sorted({s['route'] for s in outside})}")


# ---------------------------------------------------------------------------------------------
# Identities across the first and the resumed run


# ---------------------------------------------------------------------------------------------
# What the resume re-ran


@predicate("inner_first_node_not_re_run")
def _inner_not_rerun(ctx: Context, expected: Any) -> Verdict:
    """No node the loaded record shows completed inside a subgraph ran again during the resume."""
    done = {tuple(p["namespace"]) + (p["node_name"],) for p in loaded_record(ctx)["completed_positions"] if p["namespace"]}
    again = sorted({tuple(row["namespace"]) for row in entered(resumed_run(ctx))} & done)
    return flag(expected, bool(done) and not again, f"completed inner positions {sorted(done)}, re-ran {again}")


@predicate("subgraph_re_entry_uses_parent_states")
def _reentry_uses_parent_states(ctx: Context, expected: Any) -> Verdict:
    """The loaded record carries parent_states, and the resume's first node body is the first
    not-completed node inside that subgraph (it re-entered the subgraph instead of restarting it)."""
    record = loaded_record(ctx)
    positions = record["completed_positions"]
    ran = entered(resumed_run(ctx))
    if not record["parent_states"] or not positions or not ran:
        return flag(expected, False, f"parent_states {show(record['parent_states'])}, {len(ran)} node bodies ran")
    deepest = tuple(positions[-1]["namespace"])
    done = {tuple(p["namespace"]) + (p["node_name"],) for p in positions}
    first = tuple(ran[0]["namespace"])
    holds = first[:-1] == deepest and first not in done
    return flag(expected, holds, f"the resume started at {first}; the record's deepest completed position is in {deepest}")


def _instance_rows(ctx: Context, index: str) -> list[Any]:
    return [row for row in entered(resumed_run(ctx)) if row["fan_out_index"] == int(index)]


# ---------------------------------------------------------------------------------------------
# The collected results after a resume


@predicate("no_duplicate_results")
def _no_duplicate_results(ctx: Context, expected: Any) -> Verdict:
    """Every outer fan-out's collected target_field list holds no value twice (exactly-once merge)."""
    state = final_state(ctx)
    fields = fan_out_fields(ctx, "target_field")
    repeated = {f: list(state[f]) for f in fields if not unique(state[f])}
    return flag(expected, bool(fields) and not repeated, f"target fields {({f: list(state[f]) for f in fields})}")


@predicate("no_duplicate_error_entries")
def _no_duplicate_errors(ctx: Context, expected: Any) -> Verdict:
    """Every outer fan-out's errors_field holds at most one entry per fan_out_index."""
    state = final_state(ctx)
    fields = fan_out_fields(ctx, "errors_field")
    repeated = {f: list(state[f]) for f in fields if not unique(e.get("fan_out_index") for e in state[f])}
    return flag(expected, bool(fields) and not repeated, f"errors fields {({f: list(state[f]) for f in fields})}")


@predicate("degrade_slot_rolled_forward_unchanged")
def _degrade_rolled_forward(ctx: Context, expected: Any) -> Verdict:
    """Each instance the loaded record shows completed did not run on resume, and its saved result
    sits unchanged at its slot of the fan-out's collected target_field list."""
    state = final_state(ctx)
    ran = {row["fan_out_index"] for row in entered(resumed_run(ctx))}
    problems = []
    for progress in loaded_record(ctx)["fan_out_progress"]:
        target = ctx.trace.wiring["nodes"].get(progress["fan_out_node_name"], {}).get("target_field")
        for index, instance in enumerate(progress["instances"]):
            if instance["state"] != "completed":
                continue
            if index in ran:
                problems.append(f"instance {index} re-ran")
            slots = state.get(target) if target else None
            if slots is None or index >= len(slots) or slots[index] != instance["result"]:
                problems.append(f"slot {index} of {target!r} is {show(slots)}, saved result {show(instance['result'])}")
    return flag(expected, not problems, "; ".join(problems) or "every completed instance rolled forward unchanged")


# ---------------------------------------------------------------------------------------------
# Nested fan-out resume (enclosing lineage, §10.11)


def nested_entries(ctx: Context) -> list[Any]:
    """The loaded record's fan-out entries nested inside another fan-out (non-empty namespace)."""
    return [p for p in loaded_record(ctx)["fan_out_progress"] if p["namespace"]]


def enclosing_name(entry: Any) -> str:
    lineage = entry.get("enclosing_fan_out_lineage") or ()
    return lineage[-1]["fan_out_node_name"] if lineage else entry["namespace"][-1]


def inner_runs(ctx: Context, entry: Any) -> dict[int, set[int]]:
    """For a nested entry: enclosing instance index -> inner instance indices that ran on resume
    (read off each node body's namespace and fan-out index chain)."""
    outer, inner = enclosing_name(entry), entry["fan_out_node_name"]
    found: dict[int, set[int]] = {}
    for row in entered(resumed_run(ctx)):
        path, chain = list(row["namespace"][:-1]), list(row["fan_out_index_chain"])
        if outer in path and inner in path:
            found.setdefault(chain[path.index(outer)], set()).add(chain[path.index(inner)])
    return found


def outer_instances(ctx: Context, name: str) -> list[int]:
    entries = [p for p in loaded_record(ctx)["fan_out_progress"] if p["fan_out_node_name"] == name and not p["namespace"]]
    if len(entries) != 1:
        raise LookupError(f"the loaded record has no top-level entry for {name!r}")
    return list(range(entries[0]["instance_count"]))


def completed_indices(entry: Any) -> set[int]:
    return {i for i, instance in enumerate(entry["instances"]) if instance["state"] == "completed"}


def lineage_skips(ctx: Context) -> list[tuple[int, set[int], set[int]]]:
    """Per lineage-qualified nested entry: (enclosing index, inner indices skipped, own completed)."""
    found = []
    for entry in nested_entries(ctx):
        lineage = entry.get("enclosing_fan_out_lineage") or ()
        if not lineage:
            continue
        outer = lineage[-1]["fan_out_index"]
        ran = inner_runs(ctx, entry).get(outer, set())
        found.append((outer, set(range(entry["instance_count"])) - ran, completed_indices(entry)))
    if not found:
        raise LookupError("the loaded record has no lineage-qualified nested fan-out entry")
    return found


@predicate("each_outer_instance_skips_only_its_own_completed_inner_instances")
@predicate("inner_fan_out_progress_matched_per_enclosing_lineage")
def _skips_match_lineage(ctx: Context, expected: Any) -> Verdict:
    """Each enclosing instance skipped exactly the inner instances its own lineage entry marks completed."""
    wrong = [(outer, sorted(skipped), sorted(own)) for outer, skipped, own in lineage_skips(ctx) if skipped != own]
    found = [(outer, sorted(skipped), sorted(own)) for outer, skipped, own in lineage_skips(ctx)]
    return flag(expected, not wrong, f"(enclosing index, skipped, own completed): {found}")


@predicate("no_inner_instance_skipped_across_enclosing_instances")
def _no_cross_skip(ctx: Context, expected: Any) -> Verdict:
    """No enclosing instance skipped an inner instance its own lineage entry does not mark completed."""
    wrong = [(outer, sorted(skipped - own)) for outer, skipped, own in lineage_skips(ctx) if skipped - own]
    return flag(expected, not wrong, f"(enclosing index, skipped without its own completion): {wrong or 'none'}")


def _unlineaged(ctx: Context) -> list[Any]:
    found = [p for p in nested_entries(ctx) if not p.get("enclosing_fan_out_lineage")]
    if not found:
        raise LookupError("the loaded record has no nested entry without a lineage")
    return found


def _per_enclosing_instance(ctx: Context, expected: Any, missing: Any, what: str, fine: str) -> Verdict:
    """For every lineage-less nested entry and every enclosing instance: the inner instances
    ``missing(entry)`` names that did not run in it during the resume."""
    problems = []
    for entry in _unlineaged(ctx):
        runs = inner_runs(ctx, entry)
        for outer in outer_instances(ctx, enclosing_name(entry)):
            left = missing(entry) - runs.get(outer, set())
            if left:
                problems.append(f"enclosing instance {outer} {what} {sorted(left)}")
    return flag(expected, not problems, "; ".join(problems) or fine)


@predicate("legacy_unlineaged_entry_not_applied_to_nested_fan_out")
def _legacy_not_applied(ctx: Context, expected: Any) -> Verdict:
    """Every enclosing instance re-ran the inner instances a lineage-less nested entry marks completed."""
    return _per_enclosing_instance(ctx, expected, completed_indices, "skipped", "every enclosing instance re-ran them")


@predicate("all_inner_instances_re_run_in_every_outer_instance")
def _all_inner_rerun(ctx: Context, expected: Any) -> Verdict:
    """Every enclosing instance ran every inner instance during the resume."""
    return _per_enclosing_instance(ctx, expected, lambda entry: set(range(entry["instance_count"])), "did not run",
                                   "every enclosing instance ran every inner instance")


# ---------------------------------------------------------------------------------------------
# Migrations and resume errors

