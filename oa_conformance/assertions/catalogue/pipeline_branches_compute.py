"""The compute functions of the pipeline-utilities rows over scoped inner events and parallel branches
(§5.9, §11.7); their rows, with why each cannot be a query, are in :mod:`.pipeline_isolation`.

Each takes the query scope (scope.py) and the fixture's value.
"""

from __future__ import annotations

from typing import Any

from ..matchers import show
from .rows import flag, Verdict
from .pipeline_isolation_reads import (
    as_set, completed, holds_in, inner, isolation_events, needs, observed, outcome_text, outer_event,
    values_of, wired,
)
from .scope import view


# Scoped inner events (parallel branches, fan-out)


def kinds(events: list[Any]) -> dict[str, str]:
    """Node name → ``fan_out`` / ``parallel_branches`` for the composite nodes seen in the events."""
    found = {}
    for event in events:
        if event.get("fan_out_config") is not None:
            found[event.get("node_name")] = "fan_out"
        if event.get("parallel_branches_config") is not None:
            found[event.get("node_name")] = "parallel_branches"
    return found


def branch_names(events: list[Any]) -> set[str]:
    names = set()
    for event in events:
        config = event.get("parallel_branches_config")
        if config is not None:
            names.update(config.get("branch_names") or ())
    return names


def scoped(scope: dict, within: str) -> list[Any]:
    """Inner events in a scope: a branch name (events in that branch's lineage), a node kind
    (``fan_out`` / ``parallel_branches``: events nested under any node of that kind) or a node name
    (events nested under that node)."""
    events = view(scope, "node_events")
    kind_of = kinds(events)

    def nested_under(event: Any, test) -> bool:
        namespace = tuple(event.get("namespace") or ())
        return any(test(name) for name in namespace[:-1])

    if within in branch_names(events):
        return [e for e in inner(events) if within in (e.get("branch_name_chain") or ()) or e.get("branch_name") == within]
    if within in kind_of.values():
        return [e for e in events if nested_under(e, lambda name: kind_of.get(name) == within)]
    if any(within in (e.get("namespace") or ()) for e in events):
        return [e for e in events if nested_under(e, lambda name: name == within)]
    raise LookupError(f"{within!r} names no branch, node kind or node in the observed events")


def _seen(scope: dict, expected: Any, within: str, field: str) -> Verdict:
    events = scoped(scope, within)
    seen = as_set(v for v in values_of(events, field) if v is not None)
    wanted = expected
    want = as_set(wanted if isinstance(wanted, list) else [wanted])
    return Verdict(seen == want, f"expected the set {want} on {within!r} inner events, saw {seen}")


def scoped_attempt_indices(scope: dict, expected: Any, within: str) -> Verdict:
    return _seen(scope, expected, within, "attempt_index")


def scoped_fan_out_indices(scope: dict, expected: Any, within: str) -> Verdict:
    return _seen(scope, expected, within, "fan_out_index")


def scoped_branch_names(scope: dict, expected: Any, within: str) -> Verdict:
    return _seen(scope, expected, within, "branch_name")


def scoped_both(scope: dict, expected: Any, within: str) -> Verdict:
    events = scoped(scope, within)
    lacking = [(e.get("node_name"), e.get("branch_name"), e.get("fan_out_index")) for e in events
               if e.get("branch_name") is None or e.get("fan_out_index") is None]
    return flag(expected, bool(events) and not lacking, f"{len(events)} {within!r} inner events; lacking one: {show(lacking)}")


def scoped_branch_only(scope: dict, expected: Any, within: str) -> Verdict:
    events = scoped(scope, within)
    wrong = [(e.get("node_name"), e.get("branch_name"), e.get("fan_out_index")) for e in events
             if e.get("branch_name") is None or e.get("fan_out_index") is not None]
    return flag(expected, bool(events) and not wrong, f"{len(events)} {within!r} inner events; wrong: {show(wrong)}")


def branch_events(scope: dict, branch: str) -> list[Any]:
    """Every NodeEvent in a branch's lineage (its callable pair, or its subgraph's inner events)."""
    return [e for e in observed(scope, "NodeEvent") if e.get("branch_name") == branch or branch in (e.get("branch_name_chain") or ())]


def contribution(event: Any) -> dict[str, Any]:
    """What a callable branch contributed: the fields its completed event's post_state changed."""
    pre, post = event.get("pre_state") or {}, event.get("post_state") or {}
    return {key: value for key, value in post.items() if pre.get(key) != value}


def call_branches(scope: dict) -> list[tuple[str, str, Any]]:
    """(parallel node, branch, branch wiring) for every outer callable (`call`) branch."""
    return [(node, name, branch) for node, config in wired(scope, "parallel_branches").items()
            for name, branch in config["branches"].items() if branch["form"] == "call"]


def callable_branches_run_without_subgraph(scope: dict, expected: Any) -> Verdict:
    branches = call_branches(scope)
    needs(branches, "callable branch")
    wrong = []
    for node, name, _ in branches:
        events = branch_events(scope, name)
        shape = sorted((e.get("node_name"), tuple(e.get("namespace") or ()), e.get("phase")) for e in events)
        if shape != [(name, (node,), "completed"), (name, (node,), "started")]:
            wrong.append((name, shape))
    return flag(expected, not wrong, f"callable branches with other events: {show(wrong)}")


def contributions_merge(scope: dict, expected: Any) -> Verdict:
    branches = call_branches(scope)
    needs(branches, "callable branch")
    missing = []
    for node, name, _ in branches:
        merged = (outer_event(scope, node, "completed") or {}).get("post_state") or {}
        for event in branch_events(scope, name):
            if event.get("phase") == "completed":
                missing += [(name, key) for key in holds_in(merged, contribution(event))]
    return flag(expected, not missing, f"branch contributions missing after the merge: {show(missing)}")


def conditional_branches(scope: dict) -> list[tuple[str, str, bool]]:
    """(parallel node, branch, whether its `when` field was truthy at dispatch) for every outer branch with a `when`."""
    found = []
    for node, config in wired(scope, "parallel_branches").items():
        started = outer_event(scope, node, "started")
        if started is None:
            continue
        for name, branch in config["branches"].items():
            if branch["when"] is not None:
                found.append((node, name, bool(started.get("pre_state").get(branch["when"]))))
    return found


def dispatched_count(scope: dict, node: str) -> int:
    return ((outer_event(scope, node, "started") or {}).get("parallel_branches_config") or {}).get("branch_count")


def when_false_skipped(scope: dict, expected: Any) -> Verdict:
    skipped = [(node, name) for node, name, truthy in conditional_branches(scope) if not truthy]
    needs(skipped, "branch with a falsy `when`")
    wrong = []
    for node, name in skipped:
        configured = len(wired(scope, "parallel_branches")[node]["branches"])
        falsy = sum(1 for n, _, truthy in conditional_branches(scope) if n == node and not truthy)
        if branch_events(scope, name) or dispatched_count(scope, node) != configured - falsy:
            wrong.append((name, len(branch_events(scope, name)), dispatched_count(scope, node)))
    return flag(expected, not wrong, f"(branch, its events, branch_count) for branches not skipped: {show(wrong)}")


def skipped_no_event(scope: dict, expected: Any) -> Verdict:
    skipped = {name for _, name, truthy in conditional_branches(scope) if not truthy}
    needs(skipped, "branch with a falsy `when`")
    seen = [e.get("type") for e in observed(scope)
            if e.get("branch_name") in skipped or skipped & set(e.get("branch_name_chain") or ())]
    return flag(expected, not seen, f"events from skipped branches: {show(seen)}")


def skipped_no_contribution(scope: dict, expected: Any) -> Verdict:
    nodes = {node for node, _, truthy in conditional_branches(scope) if not truthy}
    needs(nodes, "parallel node with a skipped branch")
    stray = []
    for node in nodes:
        started, done = outer_event(scope, node, "started"), outer_event(scope, node, "completed")
        if started is None or done is None:
            raise LookupError(f"the parallel node {node!r} did not complete")
        allowed: set[str] = set()
        for name, branch in wired(scope, "parallel_branches")[node]["branches"].items():
            if branch["form"] == "subgraph" and branch_events(scope, name):
                allowed.update((branch["outputs"] or {}).keys())
            for event in branch_events(scope, name):
                if event.get("phase") == "completed" and branch["form"] == "call":
                    allowed.update(contribution(event).keys())
        changed = contribution({"pre_state": started.get("pre_state"), "post_state": done.get("post_state")})
        stray += [(node, key) for key in changed if key not in allowed]
    return flag(expected, not stray, f"fields changed by no dispatched branch: {show(stray)}")


def when_true_dispatches(scope: dict, expected: Any) -> Verdict:
    running = [(node, name) for node, name, truthy in conditional_branches(scope) if truthy]
    needs(running, "branch with a truthy `when`")
    wrong = []
    for node, name in running:
        done = [e for e in branch_events(scope, name) if e.get("phase") == "completed" and e.get("error") is None]
        if not done or dispatched_count(scope, node) != len(wired(scope, "parallel_branches")[node]["branches"]):
            wrong.append((name, len(done), dispatched_count(scope, node)))
    return flag(expected, not wrong, f"(branch, clean completions, branch_count) not dispatched: {show(wrong)}")


def callable_branch_isolated(scope: dict, expected: Any) -> Verdict:
    calls = {name: node for node, name, _ in call_branches(scope)}
    events = [e for e in isolation_events(scope) if e.get("branch_name") in calls]
    needs(events, "failure-isolation event from a callable branch")
    missing = []
    for event in events:
        merged = (outer_event(scope, calls[event.get("branch_name")], "completed") or {}).get("post_state") or {}
        missing += holds_in(merged, event.get("post_state") or {})
    return flag(expected, completed(scope) and not missing, f"{outcome_text(scope)}; degraded fields not merged: {missing}")


def sibling_completed(scope: dict, expected: Any) -> Verdict:
    degraded = {e.get("branch_name") for e in isolation_events(scope)}
    siblings = [(node, name) for node, config in wired(scope, "parallel_branches").items() for name in config["branches"] if name not in degraded]
    needs(siblings, "sibling branch")
    wrong = [name for _, name in siblings
             if not [e for e in branch_events(scope, name) if e.get("phase") == "completed" and e.get("error") is None]]
    return flag(expected, completed(scope) and not wrong, f"{outcome_text(scope)}; siblings without a clean completion: {wrong}")
