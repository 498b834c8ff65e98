"""The compute functions of the pipeline-utilities rows over failure isolation (§6.3, §6.4, §9.3,
§11.7); their rows, with why each cannot be a query, are in :mod:`.pipeline_isolation`.

Each takes the query scope (scope.py) and the fixture's value.
"""

from __future__ import annotations

from typing import Any

from ..matchers import show
from .rows import flag, Verdict
from .pipeline_isolation_reads import (
    caught, completed, degraded_instances, derive, final_state, holds_in, initial_state, isolation_configs,
    isolation_events, lineage, logged, needs, observed, outcome_text, outer_event, slot, wired,
)
from .scope import view


def matching_caught(scope: dict, expected: Any) -> Verdict:
    categories = {c["predicate_category"] for c in isolation_configs(scope) if c["predicate_category"]}
    needs(categories, "isolation predicate")
    events = [e for e in isolation_events(scope) if {link.get("category") for link in caught(e).get("chain") or ()} & categories]
    return flag(expected, bool(events) and completed(scope), f"{len(events)} matching isolation events; {outcome_text(scope)}")


def non_matching_propagates(scope: dict, expected: Any) -> Verdict:
    categories = {c["predicate_category"] for c in isolation_configs(scope) if c["predicate_category"]}
    needs(categories, "isolation predicate")
    error = view(scope, "invocation").get("error")
    matching = error is not None and bool({link.get("category") for link in error["chain"]} & categories)
    events = isolation_events(scope)
    return flag(expected, error is not None and not matching and not events,
                f"{outcome_text(scope)}; matches the predicate: {matching}; {len(events)} isolation events")


def distinct_event(scope: dict, expected: Any) -> Verdict:
    events = isolation_events(scope)
    needs(events, "failure-isolation event")
    counts: dict[tuple, list[int]] = {}
    for event in observed(scope, "NodeEvent"):
        key = (*lineage(event), event.get("attempt_index"))
        pair = counts.setdefault(key, [0, 0])
        pair[0 if event.get("phase") == "started" else 1] += event.get("phase") in ("started", "completed")
    unpaired = [key for key, (s, c) in counts.items() if s != c]
    fields_ok = all(e.get("event_name") and e.get("caught_exception") is not None for e in events)
    return flag(expected, fields_ok and not unpaired, f"unpaired NodeEvents: {show(unpaired)}; event fields present: {fields_ok}")


def callable_pre_merge(scope: dict, expected: Any) -> Verdict:
    calls = logged(scope, "degraded_callable")
    needs(calls, "degraded_update callable call")
    received = [e.get("pre_state") for e in isolation_events(scope)]
    wrong = [call["state_in"] for call in calls if call["state_in"] not in received]
    return flag(expected, not wrong, f"callable states {show(wrong)} are not the isolation pre_states {show(received)}")


def callable_return_merges(scope: dict, expected: Any) -> Verdict:
    calls = logged(scope, "degraded_callable")
    needs(calls, "degraded_update callable call")
    posts = [e.get("post_state") for e in isolation_events(scope)]
    state = final_state(scope)
    wrong = [call["returned"] for call in calls if call["returned"] not in posts or holds_in(state, call["returned"])]
    return flag(expected, not wrong, f"returned updates not reported or not merged: {show(wrong)}; final {show(state)}")


def _attempts_before(scope: dict, event: Any) -> list[Any]:
    """The NodeEvents of the node an isolation event wrapped (same lineage), recorded before it."""
    recorded = observed(scope)
    position = next(i for i, e in enumerate(recorded) if e is event)
    namespace, fan_out_index, branch = lineage(event)
    return [e for e in recorded[:position] if e.get("type") == "NodeEvent" and tuple(e.get("namespace") or ()) == namespace
            and e.get("fan_out_index") == fan_out_index and e.get("branch_name") == branch]


def retry_exhausts_first(scope: dict, expected: Any) -> Verdict:
    events = isolation_events(scope)
    needs(events, "failure-isolation event")
    wrong = []
    for event in events:
        attempts = [e for e in _attempts_before(scope, event) if e.get("phase") == "completed"]
        indices = sorted(e.get("attempt_index") for e in attempts)
        if len(indices) < 2 or any(e.get("error") is None for e in attempts) or event.get("attempt_index") != indices[-1]:
            wrong.append((event.get("event_name"), event.get("attempt_index"), indices))
    return flag(expected, not wrong, f"(event, its attempt_index, failed attempts before it): {show(wrong)}")


def ordering_load_bearing(scope: dict, expected: Any) -> Verdict:
    events = isolation_events(scope)
    attempts = [e for e in _attempts_before(scope, events[0]) if e.get("phase") == "started"] if len(events) == 1 else []
    return flag(expected, len(events) == 1 and len(attempts) > 1, f"{len(events)} isolation events; {len(attempts)} attempts before it")


def on_caught_original(scope: dict, expected: Any) -> Verdict:
    calls = logged(scope, "on_caught")
    needs(calls, "on_caught call")
    surfaces = [(link.get("category"), link.get("message")) for e in isolation_events(scope) for link in (caught(e).get("chain") or ())[:1]]
    wrong = [(c["category"], c["message"]) for c in calls if (c["category"], c["message"]) not in surfaces]
    return flag(expected, not wrong, f"on_caught received {wrong}; the caught exceptions were {surfaces}")


def degraded_with_on_caught(scope: dict, expected: Any) -> Verdict:
    calls = logged(scope, "on_caught")
    needs(calls, "on_caught call")
    state = final_state(scope)
    missing = [key for e in isolation_events(scope) if len(e.get("namespace") or ()) == 1 for key in holds_in(state, e.get("post_state") or {})]
    outer = [e for e in isolation_events(scope) if len(e.get("namespace") or ()) == 1]
    return flag(expected, bool(outer) and not missing, f"degraded fields not in the final state: {missing}; final {show(state)}")


def resolves_through_wrapper(scope: dict, expected: Any) -> Verdict:
    events = [e for e in isolation_events(scope) if (caught(e).get("chain") or [{}])[0].get("carrier")]
    needs(events, "isolation event that caught a carrier")
    wrong = [(caught(e).get("category"), derive(caught(e).get("chain"))[0]) for e in events
             if caught(e).get("category") != derive(caught(e).get("chain"))[0] or caught(e).get("category") == "node_exception"]
    return flag(expected, not wrong, f"(reported, derived) categories: {wrong}")


def derived_outermost(scope: dict, expected: Any) -> Verdict:
    events = isolation_events(scope)
    needs(events, "failure-isolation event")
    wrong = [((caught(e).get("category"), caught(e).get("message")), derive(caught(e).get("chain") or ())) for e in events
             if (caught(e).get("category"), caught(e).get("message")) != derive(caught(e).get("chain") or ())]
    return flag(expected, not wrong, f"(reported, derived): {show(wrong)}")


def uncategorized_null(scope: dict, expected: Any) -> Verdict:
    events = [e for e in isolation_events(scope) if not any(l.get("category") for l in caught(e).get("chain") or () if not l.get("carrier"))]
    needs(events, "isolation event with an uncategorized cause")
    wrong = [(caught(e).get("category"), caught(e).get("message")) for e in events
             if (caught(e).get("category"), caught(e).get("message")) != derive(caught(e).get("chain") or ())]
    return flag(expected, not wrong, f"(category, message) reported: {wrong}")


def catch_sets(scope: dict) -> set[str]:
    found = set()
    for config in isolation_configs(scope):
        found.update(config["catch"] or ())
    return found


def catch_through_carrier(scope: dict, expected: Any) -> Verdict:
    catch = catch_sets(scope)
    needs(catch, "`catch` set")
    events = [e for e in isolation_events(scope) if (caught(e).get("chain") or [{}])[0].get("carrier")
              and (caught(e).get("chain") or [{}])[0].get("category") == "node_exception" and caught(e).get("category") in catch]
    return flag(expected, bool(events) and completed(scope), f"{len(events)} carrier catches within {sorted(catch)}; {outcome_text(scope)}")


def catch_non_matching(scope: dict, expected: Any) -> Verdict:
    catch = catch_sets(scope)
    needs(catch, "`catch` set")
    error = view(scope, "invocation").get("error")
    category = derive(error["chain"])[0] if error is not None else None
    events = isolation_events(scope)
    return flag(expected, error is not None and category not in catch and not events,
                f"{outcome_text(scope)}; derived category {category!r} vs catch {sorted(catch)}; {len(events)} isolation events")


def fan_in_no_raise(scope: dict, expected: Any) -> Verdict:
    instances = degraded_instances(scope)
    needs(instances, "degraded fan-out instance")
    clean = [node for node in wired(scope, "fan_out") if (outer_event(scope, node, "completed") or {}).get("phase") and outer_event(scope, node, "completed").get("error") is None]
    failing = [node for node in wired(scope, "fan_out") if node not in clean]
    return flag(expected, completed(scope) and not failing, f"{outcome_text(scope)}; fan-out nodes without a clean completion: {failing}")


def contribution_is_degraded(scope: dict, expected: Any) -> Verdict:
    instances = degraded_instances(scope)
    needs(instances, "degraded fan-out instance")
    wrong = []
    for node, config, event, index in instances:
        post = event.get("post_state") or {}
        pairs = [(config["target_field"], config["collect_field"]), *(config["extra_outputs"] or {}).items()]
        for parent, child in pairs:
            present, value = slot(scope, node, parent, index)
            if not present or value != post.get(child):
                wrong.append((parent, index, value if present else "<no slot>", post.get(child)))
    return flag(expected, not wrong, f"(field, instance, slot, degraded value): {show(wrong)}")


def extra_outputs_by_child_name(scope: dict, expected: Any) -> Verdict:
    checked, wrong = 0, []
    for node, config, event, index in degraded_instances(scope):
        post = event.get("post_state") or {}
        for parent, child in (config["extra_outputs"] or {}).items():
            if child in post:
                checked += 1
                present, value = slot(scope, node, parent, index)
                if not present or value != post[child]:
                    wrong.append((parent, child, value if present else "<no slot>", post[child]))
    needs(checked, "extra_outputs field supplied by a degraded update")
    return flag(expected, not wrong, f"(parent, subgraph field, slot, degraded value): {show(wrong)}")


def _null_slots(scope: dict, which: str) -> tuple[int, list]:
    checked, wrong = 0, []
    for node, config, event, index in degraded_instances(scope):
        post = event.get("post_state") or {}
        pairs = [(config["target_field"], config["collect_field"])] if which == "collect" else list((config["extra_outputs"] or {}).items())
        for parent, child in pairs:
            if child not in post:
                checked += 1
                present, value = slot(scope, node, parent, index)
                if not present or value is not None:
                    wrong.append((parent, index, value if present else "<no slot>"))
    return checked, wrong


def absent_collect_null(scope: dict, expected: Any) -> Verdict:
    checked, wrong = _null_slots(scope, "collect")
    needs(checked, "degraded update omitting the collect_field")
    return flag(expected, completed(scope) and not wrong, f"{outcome_text(scope)}; (field, instance, slot) not null: {show(wrong)}")


def extra_outputs_null(scope: dict, expected: Any) -> Verdict:
    checked, wrong = _null_slots(scope, "extra")
    needs(checked, "degraded update omitting an extra_outputs field")
    return flag(expected, not wrong, f"(field, instance, slot) not null: {show(wrong)}")


def strict_reducer_raises(scope: dict, expected: Any) -> Verdict:
    fan_outs = wired(scope, "fan_out")
    omitted = [e for e in isolation_events(scope) if (e.get("namespace") or [None])[0] in fan_outs
               and fan_outs[e.get("namespace")[0]]["collect_field"] not in (e.get("post_state") or {})]
    error = view(scope, "invocation").get("error")
    raised = error is not None and error["category"] == "reducer_error" and error.get("node") in fan_outs
    return flag(expected, bool(omitted) and raised, f"{len(omitted)} null-slot degrades; {outcome_text(scope)} from {error.get("node") if error else None!r}")


def _uncovered_outputs(scope: dict) -> list[tuple[str, str, str]]:
    """(parallel node, branch, parent field) for each `outputs` field a degraded branch's update does not cover."""
    found = []
    for node, config in wired(scope, "parallel_branches").items():
        for event in isolation_events(scope):
            branch = config["branches"].get(event.get("branch_name"))
            if branch is None:
                continue
            post = event.get("post_state") or {}
            found += [(node, event.get("branch_name"), parent) for parent, child in (branch["outputs"] or {}).items() if child not in post]
    return found


def uncovered_skipped(scope: dict, expected: Any) -> Verdict:
    uncovered = _uncovered_outputs(scope)
    needs(uncovered, "uncovered projected field")
    wrong = []
    for node, branch, parent in uncovered:
        before = (outer_event(scope, node, "started") or {}).get("pre_state") or {}
        after = (outer_event(scope, node, "completed") or {}).get("post_state")
        if after is None or after.get(parent) != before.get(parent):
            wrong.append((branch, parent, before.get(parent), after.get(parent) if after is not None else "<no completion>"))
    return flag(expected, not wrong, f"(branch, field, before, after): {show(wrong)}")


def parent_keeps_prior(scope: dict, expected: Any) -> Verdict:
    uncovered = _uncovered_outputs(scope)
    needs(uncovered, "uncovered projected field")
    start, state = initial_state(scope), final_state(scope)
    wrong = [(parent, start.get(parent), state.get(parent)) for _, _, parent in uncovered if state.get(parent) != start.get(parent)]
    return flag(expected, not wrong, f"(field, initial, final): {show(wrong)}")
