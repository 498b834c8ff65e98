"""The checkpoint / resume predicates of pipeline-utilities (§10) that cannot be queries.

They join the resumed run's node log (what ran again) with the record the resume loaded (what was
completed, per fan-out instance and enclosing lineage), the wiring (which state field a fan-out
collects into) and the final state: joins keyed by a value read from another part of the trace,
which JMESPath cannot make. Each function takes the query scope (scope.py) and the fixture's value.
"""

from __future__ import annotations

from typing import Any

from ...model.trace import InvocationOutcome
from ..matchers import show
from .rows import Compute, Example, Verdict, flag
from .scope import view
from .examples import case, invocation, node_event



def role(scope: dict, name: str) -> dict:
    if name not in scope:
        raise LookupError(f"the case has no {name.replace('_', ' ')}")
    return scope[name]


def entered(run: dict) -> list:
    """The node bodies that started during a run (any depth), in order."""
    return [row for row in run.get("node_log", ()) if row.get("event") == "entered"]


def loaded_record(scope: dict) -> dict:
    record = ((role(scope, "resumed_run").get("checkpoint") or {}).get("resumed_from") or {}).get("record")
    if record is None:
        raise LookupError("the resume loaded no record")
    return record


def final_state(scope: dict) -> dict:
    run = scope.get("invocation")
    if run is None or run.get("outcome") != InvocationOutcome.COMPLETED:
        raise LookupError(f"the run {run.get('outcome') if run is not None else 'never happened'}: no final state")
    return run["final_state"]


def fan_out_fields(scope: dict, key: str) -> list[str]:
    return [node[key] for node in scope["wiring"]["nodes"].values() if node.get("kind") == "fan_out" and node.get(key)]


def unique(items: list) -> bool:
    seen = [repr(item) for item in items]
    return len(seen) == len(set(seen))


# ---------------------------------------------------------------------------------------------
# Saves


def save_order(scope: dict, expected: Any) -> Verdict:
    saved = [tuple(p["namespace"]) + (p["node_name"],) for p in (s["record"]["completed_positions"][-1] for s in scope["saves"]
                                                                if s["record"]["completed_positions"])]
    completed = [tuple(e["namespace"]) for e in view(scope, "node_events") if e.get("phase") == "completed" and e.get("error") is None]
    return flag(expected, saved == completed, f"saves recorded {saved}; completed events {completed}")


def fan_out_in_progress(record: dict) -> bool:
    """The record was saved while a fan-out ran: it has progress for a fan-out node not yet completed."""
    completed = {p["node_name"] for p in record["completed_positions"]}
    return any(p["fan_out_node_name"] not in completed for p in record["fan_out_progress"])


def batching_scope(scope: dict, expected: Any) -> Verdict:
    outside = [s for s in scope["checkpoint_saves"] if not fan_out_in_progress(s["record"])]
    routed = sorted({s["route"] for s in outside if s["route"] != "save"})
    return flag(expected, bool(outside) and not routed,
                f"routes of the saves made with no fan-out in progress: {sorted({s['route'] for s in outside})}")


# ---------------------------------------------------------------------------------------------
# What the resume re-ran


def inner_not_rerun(scope: dict, expected: Any) -> Verdict:
    done = {tuple(p["namespace"]) + (p["node_name"],) for p in loaded_record(scope)["completed_positions"] if p["namespace"]}
    again = sorted({tuple(row["namespace"]) for row in entered(role(scope, "resumed_run"))} & done)
    return flag(expected, bool(done) and not again, f"completed inner positions {sorted(done)}, re-ran {again}")


def reentry_uses_parent_states(scope: dict, expected: Any) -> Verdict:
    record = loaded_record(scope)
    positions = record["completed_positions"]
    ran = entered(role(scope, "resumed_run"))
    if not record["parent_states"] or not positions or not ran:
        return flag(expected, False, f"parent_states {show(record['parent_states'])}, {len(ran)} node bodies ran")
    deepest = tuple(positions[-1]["namespace"])
    done = {tuple(p["namespace"]) + (p["node_name"],) for p in positions}
    first = tuple(ran[0]["namespace"])
    return flag(expected, first[:-1] == deepest and first not in done,
                f"the resume started at {first}; the record's deepest completed position is in {deepest}")


# ---------------------------------------------------------------------------------------------
# The collected results after a resume


def no_duplicate_results(scope: dict, expected: Any) -> Verdict:
    state, fields = final_state(scope), fan_out_fields(scope, "target_field")
    repeated = [f for f in fields if not unique(list(state[f]))]
    return flag(expected, bool(fields) and not repeated, f"target fields {({f: list(state[f]) for f in fields})}")


def no_duplicate_errors(scope: dict, expected: Any) -> Verdict:
    state, fields = final_state(scope), fan_out_fields(scope, "errors_field")
    repeated = [f for f in fields if not unique([e.get("fan_out_index") for e in state[f]])]
    return flag(expected, bool(fields) and not repeated, f"errors fields {({f: list(state[f]) for f in fields})}")


def degrade_rolled_forward(scope: dict, expected: Any) -> Verdict:
    state = final_state(scope)
    ran = {row["fan_out_index"] for row in entered(role(scope, "resumed_run"))}
    problems = []
    for progress in loaded_record(scope)["fan_out_progress"]:
        target = scope["wiring"]["nodes"].get(progress["fan_out_node_name"], {}).get("target_field")
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


def nested_entries(scope: dict) -> list:
    """The loaded record's fan-out entries nested inside another fan-out (non-empty namespace)."""
    return [p for p in loaded_record(scope)["fan_out_progress"] if p["namespace"]]


def enclosing_name(entry: dict) -> str:
    lineage = entry.get("enclosing_fan_out_lineage") or ()
    return lineage[-1]["fan_out_node_name"] if lineage else entry["namespace"][-1]


def inner_runs(scope: dict, entry: dict) -> dict[int, set[int]]:
    """For a nested entry: enclosing instance index -> inner instance indices that ran on resume
    (read off each node body's namespace and fan-out index chain)."""
    outer, inner = enclosing_name(entry), entry["fan_out_node_name"]
    found: dict[int, set[int]] = {}
    for row in entered(role(scope, "resumed_run")):
        path, chain = list(row["namespace"][:-1]), list(row["fan_out_index_chain"])
        if outer in path and inner in path:
            found.setdefault(chain[path.index(outer)], set()).add(chain[path.index(inner)])
    return found


def outer_instances(scope: dict, name: str) -> list[int]:
    entries = [p for p in loaded_record(scope)["fan_out_progress"] if p["fan_out_node_name"] == name and not p["namespace"]]
    if len(entries) != 1:
        raise LookupError(f"the loaded record has no top-level entry for {name!r}")
    return list(range(entries[0]["instance_count"]))


def completed_indices(entry: dict) -> set[int]:
    return {i for i, instance in enumerate(entry["instances"]) if instance["state"] == "completed"}


def lineage_skips(scope: dict) -> list[tuple[int, set[int], set[int]]]:
    """Per lineage-qualified nested entry: (enclosing index, inner indices skipped, own completed)."""
    found = []
    for entry in nested_entries(scope):
        lineage = entry.get("enclosing_fan_out_lineage") or ()
        if lineage:
            outer = lineage[-1]["fan_out_index"]
            ran = inner_runs(scope, entry).get(outer, set())
            found.append((outer, set(range(entry["instance_count"])) - ran, completed_indices(entry)))
    if not found:
        raise LookupError("the loaded record has no lineage-qualified nested fan-out entry")
    return found


def skips_match_lineage(scope: dict, expected: Any) -> Verdict:
    found = [(outer, sorted(skipped), sorted(own)) for outer, skipped, own in lineage_skips(scope)]
    return flag(expected, all(skipped == own for _, skipped, own in found), f"(enclosing index, skipped, own completed): {found}")


def no_cross_skip(scope: dict, expected: Any) -> Verdict:
    wrong = [(outer, sorted(skipped - own)) for outer, skipped, own in lineage_skips(scope) if skipped - own]
    return flag(expected, not wrong, f"(enclosing index, skipped without its own completion): {wrong or 'none'}")


def per_enclosing_instance(missing: Any, what: str, fine: str):
    """For every lineage-less nested entry and every enclosing instance: the inner instances
    ``missing(entry)`` names must have run in it during the resume."""
    def check(scope: dict, expected: Any) -> Verdict:
        unlineaged = [p for p in nested_entries(scope) if not p.get("enclosing_fan_out_lineage")]
        if not unlineaged:
            raise LookupError("the loaded record has no nested entry without a lineage")
        problems = []
        for entry in unlineaged:
            runs = inner_runs(scope, entry)
            for outer in outer_instances(scope, enclosing_name(entry)):
                left = missing(entry) - runs.get(outer, set())
                if left:
                    problems.append(f"enclosing instance {outer} {what} {sorted(left)}")
        return flag(expected, not problems, "; ".join(problems) or fine)
    check.__name__ = f"inner_instances_{what.replace(' ', '_')}"
    return check


# ---------------------------------------------------------------------------------------------
# Example documents


def position(node: str, namespace: list | None = None, step: int = 0) -> dict:
    return {"node_name": node, "namespace": namespace or [], "step": step}


def record(positions: list, progress: list | None = None, parent_states: list | None = None) -> dict:
    return {"completed_positions": positions, "fan_out_progress": progress or [], "parent_states": parent_states or []}


def saves(*records: dict, route: str = "save") -> list:
    return [{"run": 0, "route": route, "lost": False, "record": r} for r in records]


def ordered_saves(*nodes: str) -> dict:
    events = [e for n in ("a", "b") for e in (node_event(n, "started"), node_event(n, "completed"))]
    return case(invocation(events), checkpoint_saves=saves(*(record([position(n)]) for n in nodes)))


def entering(*rows: tuple) -> list:
    """Node-log rows: (node, namespace, fan_out_index_chain)."""
    return [{"event": "entered", "node": n, "namespace": ns, "fan_out_index": (chain or [None])[-1],
             "fan_out_index_chain": chain or []} for n, ns, chain in rows]


def resumed(loaded: dict, ran: list, state: dict | None = None, wiring: dict | None = None) -> dict:
    run = invocation(role="resumed", node_log=ran, final_state=state or {},
                     checkpoint={"resumed_from": {"record": loaded}, "migrations_run": []})
    return case(invocation(role="first_run"), run, **({"wiring": wiring} if wiring else {}))


SUB = record([position("s1", ["sub"])], parent_states=[{"x": 1}])
FAN = {"nodes": {"fan": {"kind": "fan_out", "target_field": "results", "errors_field": "errors"}}, "failure_isolation": []}
ROLLED = record([], [{"fan_out_node_name": "fan", "namespace": [], "instance_count": 2,
                      "instances": [{"state": "completed", "result": 10}, {"state": "not_started", "result": None}]}])


def nested(lineage: bool) -> dict:
    inner = {"fan_out_node_name": "inner", "namespace": ["outer"], "instance_count": 2,
             "instances": [{"state": "completed"}, {"state": "not_started"}],
             **({"enclosing_fan_out_lineage": [{"fan_out_node_name": "outer", "fan_out_index": 0}]} if lineage else {})}
    outer = {"fan_out_node_name": "outer", "namespace": [], "instance_count": 2, "instances": [{"state": "in_flight"}] * 2}
    return record([], [outer, inner])


def inner_ran(*pairs: tuple) -> list:
    """Node-log rows of the inner work node for (enclosing index, inner index) pairs."""
    return entering(*(("w", ["outer", "inner", "w"], [o, i]) for o, i in pairs))


JOINS = "joins the resumed run's node log with the loaded record's positions"
NESTED = "joins the resumed run's node bodies (namespace and fan-out index chain) with the record's nested entries per enclosing instance"

ROWS = (
    Compute("save_order_matches_completed_event_order",
            "The node each save recorded (its newest completed position), in save order, is the order of the successful "
            "completed events the observer received.", save_order,
            why="pairs the saves with the completed events by position (the last element of each save's positions)",
            holds=Example(ordered_saves("a", "b")), fails=Example(ordered_saves("b", "a"))),
    Compute("batching_scoped_to_fan_out_internal_saves_only",
            "Every save made while no fan-out was in progress went through the synchronous save, not a fan-out batching seam.",
            batching_scope,
            why="whether a fan-out is in progress is a join inside each record (fan-out progress against completed positions)",
            holds=Example(case(invocation(), checkpoint_saves=saves(record([position("a")]))), invocation=None),
            fails=Example(case(invocation(), checkpoint_saves=saves(record([position("a")]), route="fan_out_internal")),
                          invocation=None)),
    Compute("inner_first_node_not_re_run", "No node the loaded record shows completed inside a subgraph ran again during the resume.",
            inner_not_rerun, why=JOINS,
            holds=Example(resumed(SUB, entering(("s2", ["sub", "s2"], None))), invocation=1),
            fails=Example(resumed(SUB, entering(("s1", ["sub", "s1"], None))), invocation=1)),
    Compute("subgraph_re_entry_uses_parent_states",
            "The loaded record carries parent_states, and the resume's first node body is the first not-completed node "
            "inside that subgraph.", reentry_uses_parent_states, why=JOINS + " (the first body against the deepest position)",
            holds=Example(resumed(SUB, entering(("s2", ["sub", "s2"], None))), invocation=1),
            fails=Example(resumed(SUB, entering(("a", ["a"], None))), invocation=1)),
    Compute("no_duplicate_results", "Every outer fan-out's collected target_field list holds no value twice (exactly-once merge).",
            no_duplicate_results, why="the field to read is named by the wiring (a key taken from another part of the trace)",
            holds=Example(resumed(ROLLED, [], {"results": [10, 20], "errors": []}, FAN), invocation=1),
            fails=Example(resumed(ROLLED, [], {"results": [10, 10], "errors": []}, FAN), invocation=1)),
    Compute("no_duplicate_error_entries", "Every outer fan-out's errors_field holds at most one entry per fan_out_index.",
            no_duplicate_errors, why="the field to read is named by the wiring (a key taken from another part of the trace)",
            holds=Example(resumed(ROLLED, [], {"results": [], "errors": [{"fan_out_index": 0}]}, FAN), invocation=1),
            fails=Example(resumed(ROLLED, [], {"results": [], "errors": [{"fan_out_index": 0}] * 2}, FAN), invocation=1)),
    Compute("degrade_slot_rolled_forward_unchanged",
            "Each instance the loaded record shows completed did not run on resume, and its saved result sits unchanged "
            "at its slot of the fan-out's target_field list.", degrade_rolled_forward,
            why=JOINS + ", the wiring's target field and the final state's slot per instance index",
            holds=Example(resumed(ROLLED, entering(("w", ["fan", "w"], [1])), {"results": [10, 20]}, FAN), invocation=1),
            fails=Example(resumed(ROLLED, entering(("w", ["fan", "w"], [0])), {"results": [11, 20]}, FAN), invocation=1)),
    *(Compute(name, "Each enclosing instance skipped exactly the inner instances its own lineage entry marks completed.",
              skips_match_lineage, why=NESTED,
              holds=Example(resumed(nested(True), inner_ran((0, 1), (1, 0), (1, 1))), invocation=1),
              fails=Example(resumed(nested(True), inner_ran((0, 0), (0, 1))), invocation=1))
      for name in ("each_outer_instance_skips_only_its_own_completed_inner_instances",
                   "inner_fan_out_progress_matched_per_enclosing_lineage")),
    Compute("no_inner_instance_skipped_across_enclosing_instances",
            "No enclosing instance skipped an inner instance its own lineage entry does not mark completed.", no_cross_skip,
            why=NESTED,
            holds=Example(resumed(nested(True), inner_ran((0, 1))), invocation=1),
            fails=Example(resumed(nested(True), inner_ran((0, 0))), invocation=1)),
    Compute("legacy_unlineaged_entry_not_applied_to_nested_fan_out",
            "Every enclosing instance re-ran the inner instances a lineage-less nested entry marks completed.",
            per_enclosing_instance(completed_indices, "skipped", "every enclosing instance re-ran them"), why=NESTED,
            holds=Example(resumed(nested(False), inner_ran((0, 0), (1, 0))), invocation=1),
            fails=Example(resumed(nested(False), inner_ran((0, 1), (1, 0))), invocation=1)),
    Compute("all_inner_instances_re_run_in_every_outer_instance", "Every enclosing instance ran every inner instance during the resume.",
            per_enclosing_instance(lambda entry: set(range(entry["instance_count"])), "did not run",
                                   "every enclosing instance ran every inner instance"), why=NESTED,
            holds=Example(resumed(nested(False), inner_ran((0, 0), (0, 1), (1, 0), (1, 1))), invocation=1),
            fails=Example(resumed(nested(False), inner_ran((0, 0), (1, 0), (1, 1))), invocation=1)),
)
