"""The pipeline-utilities predicates over failure isolation, parallel branches and scoped inner events
that cannot be queries (§6.3, §6.4, §9.3, §11.7).

They join the wiring (what the harness built: each fan-out's and parallel node's configuration and
each isolation middleware's gate) with the observed events (an outer node's started / completed
event found by name, the isolation events, the attempts before each), the middleware log and the
final state — joins keyed by values read from another part of the trace, positions in a stream and
the §6.3 category derivation over a cause chain, none of which JMESPath can say. Each function takes
the query scope (engine.py) and the fixture's value; ``ROWS`` (at the end) names each with why.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..matchers import show
from . import Compute, Example, Verdict, flag

FUNCTIONS: list[tuple[str, Any]] = []  # (predicate name or pattern, function), in definition order


def predicate(name: str):
    def register(function):
        FUNCTIONS.append((name, function))
        return function
    return register


pattern = predicate  # a catalogue pattern name (``<scope>_…``) is registered the same way



def run_of(scope: dict) -> dict:
    if "invocation" not in scope:
        raise LookupError("this predicate reads one invocation; the block is about the whole case")
    return scope["invocation"]


def observed(scope: dict, type_name: str | None = None) -> list:
    if "observed" not in scope:
        raise LookupError("the invocation has no observer to read")
    return [e for e in scope["observed"] if type_name is None or e.get("type") == type_name]


def isolation_events(scope: dict) -> list:
    return observed(scope, "FailureIsolatedEvent")


def events_of(scope: dict) -> list:
    if "node_events" not in scope:
        raise LookupError("this predicate reads one invocation's events")
    return scope["node_events"]


def inner(events: Iterable[Any]) -> list:
    return [e for e in events if len(e.get("namespace") or ()) > 1]


def values_of(events: Iterable[Any], field: str) -> list:
    return [e.get(field) for e in events]


def as_set(items: Iterable[Any]) -> list:
    return sorted({tuple(v) if isinstance(v, list) else v for v in items}, key=repr)


# ---------------------------------------------------------------------------------------------
# Building blocks


def completed(scope: dict) -> bool:
    return run_of(scope)["outcome"] == "completed"


def errored(scope: dict, category: str | None = None) -> bool:
    run = run_of(scope)
    return run["outcome"] == "errored" and (category is None or run["error"]["category"] == category)


def outcome_text(scope: dict) -> str:
    run = run_of(scope)
    error = run.get("error")
    return f"{run['outcome']}: {error['category']}: {error['message']}" if error is not None else run["outcome"]


def final_state(scope: dict) -> Any:
    run = run_of(scope)
    if run["outcome"] != "completed":
        raise LookupError(f"the invocation did not complete ({outcome_text(scope)})")
    return run["final_state"]


def initial_state(scope: dict) -> Any:
    """The state the invocation started from (its InvocationStartedEvent)."""
    for event in observed(scope, "InvocationStartedEvent"):
        return event.get("initial_state")
    raise LookupError("no InvocationStartedEvent was observed")


def outer_event(scope: dict, node: str, phase: str) -> Any:
    """The outer node's NodeEvent of ``phase`` (its first), or None."""
    for event in observed(scope, "NodeEvent"):
        if event.get("node_name") == node and tuple(event.get("namespace") or ()) == (node,) and event.get("phase") == phase:
            return event
    return None


def wired(scope: dict, kind: str) -> dict[str, Any]:
    """The outer nodes of one kind (``fan_out`` / ``parallel_branches``) with their configuration."""
    return {name: config for name, config in scope["wiring"]["nodes"].items() if config["kind"] == kind}


def isolation_configs(scope: dict) -> list[Any]:
    return list(scope["wiring"]["failure_isolation"])


def logged(scope: dict, kind: str) -> list[Any]:
    """The data of the middleware-log entries of one kind (e.g. ``on_caught``, ``degraded_callable``)."""
    return [entry["record"] for entry in scope["middleware_log"] if entry["kind"] == kind]


def derive(chain: Iterable[Any]) -> tuple[Any, Any]:
    """§6.3's derivation over a cause chain: the outermost non-carrier link with a category (its
    category and message), else (None, the outermost non-carrier link's message)."""
    links = [link for link in chain if not link.get("carrier")]
    for link in links:
        if link.get("category"):
            return link.get("category"), link.get("message")
    return None, links[0].get("message") if links else None


def caught(event: Any) -> Any:
    return event.get("caught_exception") or {}


def lineage(event: Any) -> tuple:
    return tuple(event.get("namespace") or ()), event.get("fan_out_index"), event.get("branch_name")


def needs(found: Any, what: str) -> None:
    """A predicate about something the run must have produced fails (cannot evaluate) without it."""
    if not found:
        raise LookupError(f"no {what} to check")


def holds_in(state: Any, update: Any) -> list[str]:
    """The fields of ``update`` whose value ``state`` does not hold."""
    return [key for key, value in update.items() if state.get(key) != value]


def degraded_instances(scope: dict) -> list[tuple[str, Any, Any, int]]:
    """(fan-out node, its wiring, the isolation event, the instance's slot offset) for every
    instance of an outer fan-out node that failure isolation degraded."""
    found = []
    for node, config in wired(scope, "fan_out").items():
        started = outer_event(scope, node, "started")
        if started is None:
            continue
        for event in isolation_events(scope):
            namespace = tuple(event.get("namespace") or ())
            if namespace[:1] == (node,) and event.get("fan_out_index") is not None:
                found.append((node, config, event, event.get("fan_out_index")))
    return found


def slot(scope: dict, node: str, field: str, index: int) -> tuple[bool, Any]:
    """(present, value) of the fan-out's contribution to ``field`` for instance ``index``: the
    element after the field's value at the node's entry (its started event's pre_state)."""
    before = outer_event(scope, node, "started").get("pre_state").get(field) or ()
    after = final_state(scope).get(field) or ()
    position = len(before) + index
    return (position < len(after), after[position] if position < len(after) else None)


# ---------------------------------------------------------------------------------------------
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
    events = events_of(scope)
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


@pattern("<within>_inner_attempt_indices_seen")
def _scoped_attempt_indices(scope: dict, expected: Any, within: str) -> Verdict:
    """The set of ``attempt_index`` values on the inner events of a branch / node kind / node."""
    return _seen(scope, expected, within, "attempt_index")


@pattern("<within>_inner_fan_out_indices_seen")
def _scoped_fan_out_indices(scope: dict, expected: Any, within: str) -> Verdict:
    """The set of ``fan_out_index`` values on the inner events of a branch / node kind / node."""
    return _seen(scope, expected, within, "fan_out_index")


@pattern("<within>_inner_branch_name[s]_seen")
def _scoped_branch_names(scope: dict, expected: Any, within: str) -> Verdict:
    """The set of ``branch_name`` values on the inner events of a branch / node kind / node (a
    scalar expectation is a one-element set)."""
    return _seen(scope, expected, within, "branch_name")


@pattern("<within>_inner_events_carry_both_branch_name_and_fan_out_index")
def _scoped_both(scope: dict, expected: Any, within: str) -> Verdict:
    """Every inner event of the scope carries both a ``branch_name`` and a ``fan_out_index`` (and there are some)."""
    events = scoped(scope, within)
    lacking = [(e.get("node_name"), e.get("branch_name"), e.get("fan_out_index")) for e in events
               if e.get("branch_name") is None or e.get("fan_out_index") is None]
    return flag(expected, bool(events) and not lacking, f"{len(events)} {within!r} inner events; lacking one: {show(lacking)}")


@pattern("<within>_inner_events_carry_branch_name_but_no_fan_out_index")
def _scoped_branch_only(scope: dict, expected: Any, within: str) -> Verdict:
    """Every inner event of the scope carries a ``branch_name`` and no ``fan_out_index`` (and there are some)."""
    events = scoped(scope, within)
    wrong = [(e.get("node_name"), e.get("branch_name"), e.get("fan_out_index")) for e in events
             if e.get("branch_name") is None or e.get("fan_out_index") is not None]
    return flag(expected, bool(events) and not wrong, f"{len(events)} {within!r} inner events; wrong: {show(wrong)}")


# ---------------------------------------------------------------------------------------------
# Parallel branches: callable branches, `when`


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


@predicate("callable_branches_run_without_subgraph")
def _callable_branches_run_without_subgraph(scope: dict, expected: Any) -> Verdict:
    """Each callable branch ran as one started/completed pair named after the branch at its parallel
    node's namespace, with nothing nested beneath it (no subgraph ran)."""
    branches = call_branches(scope)
    needs(branches, "callable branch")
    wrong = []
    for node, name, _ in branches:
        events = branch_events(scope, name)
        shape = sorted((e.get("node_name"), tuple(e.get("namespace") or ()), e.get("phase")) for e in events)
        if shape != [(name, (node,), "completed"), (name, (node,), "started")]:
            wrong.append((name, shape))
    return flag(expected, not wrong, f"callable branches with other events: {show(wrong)}")


@predicate("contributions_merge_via_parent_reducer")
def _contributions_merge(scope: dict, expected: Any) -> Verdict:
    """Every field a callable branch changed (its completed event, post_state vs pre_state) holds that
    value after the parallel node's merge (its completed event's post_state)."""
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


@predicate("when_false_branch_skipped")
def _when_false_skipped(scope: dict, expected: Any) -> Verdict:
    """Each branch whose `when` field was falsy at dispatch was not dispatched: no events in its
    lineage, and the parallel node's dispatched branch_count leaves it out."""
    skipped = [(node, name) for node, name, truthy in conditional_branches(scope) if not truthy]
    needs(skipped, "branch with a falsy `when`")
    wrong = []
    for node, name in skipped:
        configured = len(wired(scope, "parallel_branches")[node]["branches"])
        falsy = sum(1 for n, _, truthy in conditional_branches(scope) if n == node and not truthy)
        if branch_events(scope, name) or dispatched_count(scope, node) != configured - falsy:
            wrong.append((name, len(branch_events(scope, name)), dispatched_count(scope, node)))
    return flag(expected, not wrong, f"(branch, its events, branch_count) for branches not skipped: {show(wrong)}")


@predicate("skipped_branch_emits_no_event")
def _skipped_no_event(scope: dict, expected: Any) -> Verdict:
    """No observed event of any type belongs to a branch whose `when` was falsy at dispatch."""
    skipped = {name for _, name, truthy in conditional_branches(scope) if not truthy}
    needs(skipped, "branch with a falsy `when`")
    seen = [e.get("type") for e in observed(scope)
            if e.get("branch_name") in skipped or skipped & set(e.get("branch_name_chain") or ())]
    return flag(expected, not seen, f"events from skipped branches: {show(seen)}")


@predicate("skipped_branch_no_contribution")
def _skipped_no_contribution(scope: dict, expected: Any) -> Verdict:
    """The parallel node changed only fields its dispatched branches contributed (callable branches'
    changes, subgraph branches' `outputs`): a skipped branch contributed nothing."""
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


@predicate("when_true_branch_dispatches")
def _when_true_dispatches(scope: dict, expected: Any) -> Verdict:
    """Each branch whose `when` field was truthy at dispatch ran to a completed event without error,
    and its parallel node dispatched all its branches."""
    running = [(node, name) for node, name, truthy in conditional_branches(scope) if truthy]
    needs(running, "branch with a truthy `when`")
    wrong = []
    for node, name in running:
        done = [e for e in branch_events(scope, name) if e.get("phase") == "completed" and e.get("error") is None]
        if not done or dispatched_count(scope, node) != len(wired(scope, "parallel_branches")[node]["branches"]):
            wrong.append((name, len(done), dispatched_count(scope, node)))
    return flag(expected, not wrong, f"(branch, clean completions, branch_count) not dispatched: {show(wrong)}")


@predicate("callable_branch_failure_isolated_and_degraded")
def _callable_branch_isolated(scope: dict, expected: Any) -> Verdict:
    """A callable branch's failure was caught by its branch failure isolation (an isolation event
    carrying the branch's name) and the parallel node's merge holds the degraded update."""
    calls = {name: node for node, name, _ in call_branches(scope)}
    events = [e for e in isolation_events(scope) if e.get("branch_name") in calls]
    needs(events, "failure-isolation event from a callable branch")
    missing = []
    for event in events:
        merged = (outer_event(scope, calls[event.get("branch_name")], "completed") or {}).get("post_state") or {}
        missing += holds_in(merged, event.get("post_state") or {})
    return flag(expected, completed(scope) and not missing, f"{outcome_text(scope)}; degraded fields not merged: {missing}")


@predicate("sibling_branch_completed")
def _sibling_completed(scope: dict, expected: Any) -> Verdict:
    """Every outer branch no failure isolation degraded completed without error (it was not cancelled)."""
    degraded = {e.get("branch_name") for e in isolation_events(scope)}
    siblings = [(node, name) for node, config in wired(scope, "parallel_branches").items() for name in config["branches"] if name not in degraded]
    needs(siblings, "sibling branch")
    wrong = [name for _, name in siblings
             if not [e for e in branch_events(scope, name) if e.get("phase") == "completed" and e.get("error") is None]]
    return flag(expected, completed(scope) and not wrong, f"{outcome_text(scope)}; siblings without a clean completion: {wrong}")


# ---------------------------------------------------------------------------------------------
# Failure isolation: catching, the event, on_caught, the degraded callable


@predicate("matching_exception_caught")
def _matching_caught(scope: dict, expected: Any) -> Verdict:
    """The failure the isolation predicate matches (a cause-chain link of the configured category)
    was caught — an isolation event reports it — and the invocation completed."""
    categories = {c["predicate_category"] for c in isolation_configs(scope) if c["predicate_category"]}
    needs(categories, "isolation predicate")
    events = [e for e in isolation_events(scope) if {link.get("category") for link in caught(e).get("chain") or ()} & categories]
    return flag(expected, bool(events) and completed(scope), f"{len(events)} matching isolation events; {outcome_text(scope)}")


@predicate("non_matching_exception_propagates")
def _non_matching_propagates(scope: dict, expected: Any) -> Verdict:
    """A failure the isolation predicate does not match (no cause-chain link of the configured
    category) reached the caller: the invocation errored and nothing was isolated."""
    categories = {c["predicate_category"] for c in isolation_configs(scope) if c["predicate_category"]}
    needs(categories, "isolation predicate")
    error = run_of(scope).get("error")
    matching = error is not None and bool({link.get("category") for link in error["chain"]} & categories)
    events = isolation_events(scope)
    return flag(expected, error is not None and not matching and not events,
                f"{outcome_text(scope)}; matches the predicate: {matching}; {len(events)} isolation events")


@predicate("event_is_distinct_from_node_event")
def _distinct_event(scope: dict, expected: Any) -> Verdict:
    """The catch is reported by its own FailureIsolatedEvent (event_name, caught_exception) and no
    NodeEvent stands for it: NodeEvents still come in started/completed pairs per lineage and attempt."""
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


@predicate("callable_receives_pre_merge_state")
def _callable_pre_merge(scope: dict, expected: Any) -> Verdict:
    """The callable degraded_update was called with the state the isolation middleware received (the
    event's pre_state), not a merged or placeholder state."""
    calls = logged(scope, "degraded_callable")
    needs(calls, "degraded_update callable call")
    received = [e.get("pre_state") for e in isolation_events(scope)]
    wrong = [call["state_in"] for call in calls if call["state_in"] not in received]
    return flag(expected, not wrong, f"callable states {show(wrong)} are not the isolation pre_states {show(received)}")


@predicate("callable_return_merges_via_reducer")
def _callable_return_merges(scope: dict, expected: Any) -> Verdict:
    """What the callable degraded_update returned is the event's post_state and reaches the final
    state through the reducers (each returned field holds the returned value)."""
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


@predicate("retry_exhausts_before_isolation_catches")
def _retry_exhausts_first(scope: dict, expected: Any) -> Verdict:
    """Each isolation event follows several failed attempts of the wrapped node (every completed
    attempt carries an error) and reports the last of them as its attempt_index."""
    events = isolation_events(scope)
    needs(events, "failure-isolation event")
    wrong = []
    for event in events:
        attempts = [e for e in _attempts_before(scope, event) if e.get("phase") == "completed"]
        indices = sorted(e.get("attempt_index") for e in attempts)
        if len(indices) < 2 or any(e.get("error") is None for e in attempts) or event.get("attempt_index") != indices[-1]:
            wrong.append((event.get("event_name"), event.get("attempt_index"), indices))
    return flag(expected, not wrong, f"(event, its attempt_index, failed attempts before it): {show(wrong)}")


@predicate("outer_to_inner_ordering_load_bearing")
def _ordering_load_bearing(scope: dict, expected: Any) -> Verdict:
    """Isolation sits outside retry: exactly one isolation event, fired only after the wrapped node
    had been attempted more than once (an inner isolation would have caught the first failure)."""
    events = isolation_events(scope)
    attempts = [e for e in _attempts_before(scope, events[0]) if e.get("phase") == "started"] if len(events) == 1 else []
    return flag(expected, len(events) == 1 and len(attempts) > 1, f"{len(events)} isolation events; {len(attempts)} attempts before it")


@predicate("on_caught_receives_original_exception")
def _on_caught_original(scope: dict, expected: Any) -> Verdict:
    """on_caught received the caught exception itself: its category and message are those of the
    surface link of an isolation event's caught_exception chain."""
    calls = logged(scope, "on_caught")
    needs(calls, "on_caught call")
    surfaces = [(link.get("category"), link.get("message")) for e in isolation_events(scope) for link in (caught(e).get("chain") or ())[:1]]
    wrong = [(c["category"], c["message"]) for c in calls if (c["category"], c["message"]) not in surfaces]
    return flag(expected, not wrong, f"on_caught received {wrong}; the caught exceptions were {surfaces}")


@predicate("degraded_return_reaches_engine_with_on_caught")
def _degraded_with_on_caught(scope: dict, expected: Any) -> Verdict:
    """With on_caught called, the invocation completed and the final state holds each outer
    isolation event's degraded update."""
    calls = logged(scope, "on_caught")
    needs(calls, "on_caught call")
    state = final_state(scope)
    missing = [key for e in isolation_events(scope) if len(e.get("namespace") or ()) == 1 for key in holds_in(state, e.get("post_state") or {})]
    outer = [e for e in isolation_events(scope) if len(e.get("namespace") or ()) == 1]
    return flag(expected, bool(outer) and not missing, f"degraded fields not in the final state: {missing}; final {show(state)}")


# ---------------------------------------------------------------------------------------------
# Failure isolation: the caught_exception chain (§6.3, §6.4)


@predicate("category_resolves_through_node_exception_wrapper")
def _resolves_through_wrapper(scope: dict, expected: Any) -> Verdict:
    """An isolation event caught a node_exception carrier, and its caught_exception.category is the
    category derived through the carrier (the outermost non-carrier link's), not the carrier's."""
    events = [e for e in isolation_events(scope) if (caught(e).get("chain") or [{}])[0].get("carrier")]
    needs(events, "isolation event that caught a carrier")
    wrong = [(caught(e).get("category"), derive(caught(e).get("chain"))[0]) for e in events
             if caught(e).get("category") != derive(caught(e).get("chain"))[0] or caught(e).get("category") == "node_exception"]
    return flag(expected, not wrong, f"(reported, derived) categories: {wrong}")


@predicate("derived_category_is_outermost_non_carrier_with_category")
def _derived_outermost(scope: dict, expected: Any) -> Verdict:
    """Each isolation event's caught category / message are the outermost non-carrier link's with a
    category (else null and the outermost non-carrier link's message), derived from its own chain."""
    events = isolation_events(scope)
    needs(events, "failure-isolation event")
    wrong = [((caught(e).get("category"), caught(e).get("message")), derive(caught(e).get("chain") or ())) for e in events
             if (caught(e).get("category"), caught(e).get("message")) != derive(caught(e).get("chain") or ())]
    return flag(expected, not wrong, f"(reported, derived): {show(wrong)}")


@predicate("uncategorized_cause_yields_null_derived_category")
def _uncategorized_null(scope: dict, expected: Any) -> Verdict:
    """An isolation event whose non-carrier links carry no category reports category null and the
    outermost non-carrier link's message."""
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


@predicate("catch_matches_through_node_exception_carrier")
def _catch_through_carrier(scope: dict, expected: Any) -> Verdict:
    """An isolation event caught a node_exception carrier whose derived category is in the configured
    `catch` set (a surface check would have seen only node_exception)."""
    catch = catch_sets(scope)
    needs(catch, "`catch` set")
    events = [e for e in isolation_events(scope) if (caught(e).get("chain") or [{}])[0].get("carrier")
              and (caught(e).get("chain") or [{}])[0].get("category") == "node_exception" and caught(e).get("category") in catch]
    return flag(expected, bool(events) and completed(scope), f"{len(events)} carrier catches within {sorted(catch)}; {outcome_text(scope)}")


@predicate("catch_non_matching_propagates")
def _catch_non_matching(scope: dict, expected: Any) -> Verdict:
    """A failure whose derived category is outside every configured `catch` set reached the caller:
    the invocation errored and nothing was isolated."""
    catch = catch_sets(scope)
    needs(catch, "`catch` set")
    error = run_of(scope).get("error")
    category = derive(error["chain"])[0] if error is not None else None
    events = isolation_events(scope)
    return flag(expected, error is not None and category not in catch and not events,
                f"{outcome_text(scope)}; derived category {category!r} vs catch {sorted(catch)}; {len(events)} isolation events")


# ---------------------------------------------------------------------------------------------
# Failure isolation in fan-out / branches: what a degraded unit contributes (§9.3, §11.7)


@predicate("fan_in_does_not_raise")
def _fan_in_no_raise(scope: dict, expected: Any) -> Verdict:
    """With a degraded instance, every outer fan-out node completed without error and so did the invocation."""
    instances = degraded_instances(scope)
    needs(instances, "degraded fan-out instance")
    clean = [node for node in wired(scope, "fan_out") if (outer_event(scope, node, "completed") or {}).get("phase") and outer_event(scope, node, "completed").get("error") is None]
    failing = [node for node in wired(scope, "fan_out") if node not in clean]
    return flag(expected, completed(scope) and not failing, f"{outcome_text(scope)}; fan-out nodes without a clean completion: {failing}")


@predicate("contribution_is_the_degraded_update")
def _contribution_is_degraded(scope: dict, expected: Any) -> Verdict:
    """A degraded instance's slot in target_field and in each extra_outputs field is read from its
    degraded update (the isolation event's post_state) by subgraph field name — null where absent."""
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


@predicate("extra_outputs_read_by_subgraph_field_name")
def _extra_outputs_by_child_name(scope: dict, expected: Any) -> Verdict:
    """Each extra_outputs field the degraded update supplies (by its subgraph field name) lands in the
    parent field's slot for that instance."""
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


@predicate("omitted_collect_field_yields_null_slot")
@predicate("absent_collect_field_yields_null_slot")
def _absent_collect_null(scope: dict, expected: Any) -> Verdict:
    """A degraded update without the collect_field leaves a null in that instance's target_field slot
    (the slot is kept, not dropped) and the fan-in does not raise (the invocation completed)."""
    checked, wrong = _null_slots(scope, "collect")
    needs(checked, "degraded update omitting the collect_field")
    return flag(expected, completed(scope) and not wrong, f"{outcome_text(scope)}; (field, instance, slot) not null: {show(wrong)}")


@predicate("extra_outputs_omission_is_null_slot")
def _extra_outputs_null(scope: dict, expected: Any) -> Verdict:
    """A degraded update without an extra_outputs subgraph field leaves a null at that instance's slot
    of the parent field, index-aligned with target_field."""
    checked, wrong = _null_slots(scope, "extra")
    needs(checked, "degraded update omitting an extra_outputs field")
    return flag(expected, not wrong, f"(field, instance, slot) not null: {show(wrong)}")


@predicate("strict_reducer_null_slot_raises")
def _strict_reducer_raises(scope: dict, expected: Any) -> Verdict:
    """A degraded instance omitted the collect_field (a null slot) and the fan-out node then failed with
    reducer_error: the strict reducer rejected the null."""
    fan_outs = wired(scope, "fan_out")
    omitted = [e for e in isolation_events(scope) if (e.get("namespace") or [None])[0] in fan_outs
               and fan_outs[e.get("namespace")[0]]["collect_field"] not in (e.get("post_state") or {})]
    error = run_of(scope).get("error")
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


@predicate("uncovered_projected_field_skipped")
def _uncovered_skipped(scope: dict, expected: Any) -> Verdict:
    """An `outputs` field a degraded branch's update does not cover is not contributed: the parallel
    node leaves it as it was at the node's entry."""
    uncovered = _uncovered_outputs(scope)
    needs(uncovered, "uncovered projected field")
    wrong = []
    for node, branch, parent in uncovered:
        before = (outer_event(scope, node, "started") or {}).get("pre_state") or {}
        after = (outer_event(scope, node, "completed") or {}).get("post_state")
        if after is None or after.get(parent) != before.get(parent):
            wrong.append((branch, parent, before.get(parent), after.get(parent) if after is not None else "<no completion>"))
    return flag(expected, not wrong, f"(branch, field, before, after): {show(wrong)}")


@predicate("parent_keeps_prior_value")
def _parent_keeps_prior(scope: dict, expected: Any) -> Verdict:
    """Each parent field an uncovered `outputs` projection targets ends the invocation with the value it started with."""
    uncovered = _uncovered_outputs(scope)
    needs(uncovered, "uncovered projected field")
    start, state = initial_state(scope), final_state(scope)
    wrong = [(parent, start.get(parent), state.get(parent)) for _, _, parent in uncovered if state.get(parent) != start.get(parent)]
    return flag(expected, not wrong, f"(field, initial, final): {show(wrong)}")


# ---------------------------------------------------------------------------------------------
# Fan-out instances' inner events


# Other names fixtures use for the §5.9 canonical "seen" sets (same rule, same docstring).

# ---------------------------------------------------------------------------------------------
# Example documents

from .examples import case, invocation, node_event  # noqa: E402


def isolation(namespace: list | None = None, chain: list | None = None, **fields: Any) -> dict:
    """A FailureIsolatedEvent; its caught exception is derived from ``chain`` unless given."""
    chain = chain if chain is not None else [{"category": "provider_unavailable", "message": "down", "carrier": False}]
    category, message = derive(chain)
    return {"type": "FailureIsolatedEvent", "event_name": "degraded", "namespace": namespace or ["n"], "fan_out_index": None,
            "branch_name": None, "attempt_index": 0,
            "caught_exception": {"category": category, "message": message, "chain": chain}, **fields}


def run(events: list, wiring: dict | None = None, log: list | None = None, error: dict | None = None, **fields: Any) -> dict:
    """A case of one invocation: observed ``events``, the harness ``wiring``, the middleware ``log``;
    with ``error`` the invocation errored."""
    outcome = {"outcome": "errored", "error": {"message": "m", "type": "E", **error}} if error else {}
    return case(invocation(events, **outcome, **fields),
                wiring=wiring or {"nodes": {}, "failure_isolation": []}, middleware_log=log or [])


def link(category: Any, message: str = "down", carrier: bool = False) -> dict:
    return {"category": category, "message": message, "carrier": carrier}


CARRIED = [link("node_exception", "wrapped", True), link("timeout", "slow")]
UNCATEGORIZED = [link("node_exception", "wrapped", True), link(None, "boom")]


def gate(catch: list | None = None, category: str | None = None) -> dict:
    return {"nodes": {}, "failure_isolation": [{"node": "n", "event_name": "degraded", "catch": catch,
                                                "predicate_category": category, "degraded_update": {}, "on_caught": None}]}


def inner_events(**fields: Any) -> list:
    """Inner events under node ``fan`` (two instances, the second retried)."""
    return [node_event("w", "started", ["fan", "w"], **{"fan_out_index": i, "attempt_index": a, **fields})
            for i, a in ((0, 0), (1, 0), (1, 1))]


def parallel(**branches: dict) -> dict:
    return {"nodes": {"par": {"kind": "parallel_branches", "errors_field": None,
                              "branches": {name: {"form": "call", "outputs": None, "when": None, **b} for name, b in branches.items()}}},
            "failure_isolation": []}


def outer(node: str, phase: str, **fields: Any) -> dict:
    return node_event(node, phase, [node], **fields)


def branch(name: str, phase: str, **fields: Any) -> dict:
    return node_event(name, phase, ["par"], branch_name=name, **fields)


def callable_run(merged: dict, extra: list | None = None) -> dict:
    events = [outer("par", "started", pre_state={"x": 0}), branch("b1", "started"),
              branch("b1", "completed", pre_state={"x": 0}, post_state={"x": 0, "y": 1}), *(extra or []),
              outer("par", "completed", post_state=merged)]
    return run(events, parallel(b1={}))


def conditional(go: bool, count: int, b1_events: list | None = None, merged: dict | None = None) -> dict:
    events = [outer("par", "started", pre_state={"go": go}, parallel_branches_config={"branch_count": count}),
              *(b1_events or []), branch("b2", "started"),
              branch("b2", "completed", pre_state={"go": go}, post_state={"go": go, "z": 1}),
              outer("par", "completed", post_state=merged or {"go": go, "z": 1})]
    return run(events, parallel(b1={"when": "go"}, b2={}))


def degraded_branch(merged: dict, sibling_error: dict | None = None) -> dict:
    events = [outer("par", "started", pre_state={}), isolation(["par"], branch_name="b1", post_state={"y": -1}),
              branch("b2", "started"), branch("b2", "completed", error=sibling_error), outer("par", "completed", post_state=merged)]
    return run(events, parallel(b1={}, b2={}), final_state=merged)


def retried(isolated_attempt: int, attempts: int = 2) -> dict:
    events = [e for a in range(attempts) for e in (node_event("n", "started", attempt_index=a),
                                                   node_event("n", "completed", attempt_index=a, error={"category": "timeout"}))]
    return run(events + [isolation(attempt_index=isolated_attempt)])


def on_caught(message: str, final: dict | None = None) -> dict:
    log = [{"kind": "on_caught", "record": {"category": "provider_unavailable", "message": message, "type": "E"}}]
    return run([isolation(post_state={"y": 1})], log=log, final_state=final or {"y": 1})


def degraded_callable(state_in: dict, final: dict) -> dict:
    log = [{"kind": "degraded_callable", "record": {"state_in": state_in, "returned": {"y": 2}}}]
    return run([isolation(pre_state={"x": 1}, post_state={"y": 2})], log=log, final_state=final)


def caught_as(category: Any, message: str, chain: list) -> dict:
    event = isolation(chain=chain)
    event["caught_exception"] = {"category": category, "message": message, "chain": chain}
    return run([event])


FAN = {"nodes": {"fan": {"kind": "fan_out", "collect_field": "r", "target_field": "results",
                         "extra_outputs": {"notes": "note"}, "errors_field": None}}, "failure_isolation": []}


def fanned(degraded: dict, final: dict, fan_error: dict | None = None, error: dict | None = None) -> dict:
    events = [outer("fan", "started", pre_state={"results": [], "notes": []}),
              isolation(["fan", "w"], fan_out_index=1, post_state=degraded), outer("fan", "completed", error=fan_error)]
    return run(events, FAN, error=error, **({} if error else {"final_state": final}))


PROJECTED = parallel(b1={"form": "subgraph", "outputs": {"summary": "s"}})


def uncovered(after: Any, final: Any) -> dict:
    events = [{"type": "InvocationStartedEvent", "initial_state": {"summary": "old"}},
              outer("par", "started", pre_state={"summary": "old"}), isolation(["par", "b1"], branch_name="b1", post_state={}),
              outer("par", "completed", post_state={"summary": after})]
    return run(events, PROJECTED, final_state={"summary": final})


BOTH = inner_events(branch_name="x")
EXAMPLES: dict[str, tuple[Example, Example]] = {
    "<within>_inner_attempt_indices_seen": (Example(run(inner_events()), [0, 1], name="fan_inner_attempt_indices_seen"),
                                            Example(run(inner_events()), [0], name="fan_inner_attempt_indices_seen")),
    "<within>_inner_fan_out_indices_seen": (Example(run(inner_events()), [0, 1], name="fan_inner_fan_out_indices_seen"),
                                            Example(run(inner_events()), [1], name="fan_inner_fan_out_indices_seen")),
    "<within>_inner_branch_name[s]_seen": (Example(run(BOTH), "x", name="fan_inner_branch_name_seen"),
                                           Example(run(BOTH), ["x", "y"], name="fan_inner_branch_names_seen")),
    "<within>_inner_events_carry_both_branch_name_and_fan_out_index": (
        Example(run(BOTH), name="fan_inner_events_carry_both_branch_name_and_fan_out_index"),
        Example(run(inner_events()), name="fan_inner_events_carry_both_branch_name_and_fan_out_index")),
    "<within>_inner_events_carry_branch_name_but_no_fan_out_index": (
        Example(run(inner_events(branch_name="x", fan_out_index=None)), name="fan_inner_events_carry_branch_name_but_no_fan_out_index"),
        Example(run(BOTH), name="fan_inner_events_carry_branch_name_but_no_fan_out_index")),
    "callable_branches_run_without_subgraph": (
        Example(callable_run({"x": 0, "y": 1})),
        Example(callable_run({"x": 0, "y": 1}, [node_event("s", "started", ["par", "b1", "s"], branch_name_chain=["b1"])]))),
    "contributions_merge_via_parent_reducer": (Example(callable_run({"x": 0, "y": 1})), Example(callable_run({"x": 0}))),
    "when_false_branch_skipped": (Example(conditional(False, 1)), Example(conditional(False, 2))),
    "skipped_branch_emits_no_event": (Example(conditional(False, 1)), Example(conditional(False, 1, [branch("b1", "started")]))),
    "skipped_branch_no_contribution": (Example(conditional(False, 1)),
                                       Example(conditional(False, 1, merged={"go": False, "z": 1, "w": 5}))),
    "when_true_branch_dispatches": (Example(conditional(True, 2, [branch("b1", "started"), branch("b1", "completed")])),
                                    Example(conditional(True, 2, [branch("b1", "started")]))),
    "callable_branch_failure_isolated_and_degraded": (Example(degraded_branch({"y": -1})), Example(degraded_branch({"y": 0}))),
    "sibling_branch_completed": (Example(degraded_branch({"y": -1})),
                                 Example(degraded_branch({"y": -1}, sibling_error={"category": "cancelled"}))),
    "matching_exception_caught": (Example(run([isolation(chain=[link("timeout")])], gate(category="timeout"))),
                                  Example(run([], gate(category="timeout")))),
    "non_matching_exception_propagates": (
        Example(run([], gate(category="timeout"), error={"category": "provider_unavailable", "chain": [link("provider_unavailable")]})),
        Example(run([], gate(category="timeout"), error={"category": "node_exception", "chain": CARRIED}))),
    "event_is_distinct_from_node_event": (Example(run([node_event("n", "started"), node_event("n", "completed"), isolation()])),
                                          Example(run([node_event("n", "started"), isolation()]))),
    "callable_receives_pre_merge_state": (Example(degraded_callable({"x": 1}, {"y": 2})), Example(degraded_callable({"x": 9}, {"y": 2}))),
    "callable_return_merges_via_reducer": (Example(degraded_callable({"x": 1}, {"y": 2})), Example(degraded_callable({"x": 1}, {"y": 0}))),
    "retry_exhausts_before_isolation_catches": (Example(retried(1)), Example(retried(0))),
    "outer_to_inner_ordering_load_bearing": (Example(retried(1)), Example(retried(0, attempts=1))),
    "on_caught_receives_original_exception": (Example(on_caught("down")), Example(on_caught("other"))),
    "degraded_return_reaches_engine_with_on_caught": (Example(on_caught("down")), Example(on_caught("down", {"y": 0}))),
    "category_resolves_through_node_exception_wrapper": (Example(caught_as("timeout", "slow", CARRIED)),
                                                         Example(caught_as("node_exception", "wrapped", CARRIED))),
    "derived_category_is_outermost_non_carrier_with_category": (Example(caught_as("timeout", "slow", CARRIED)),
                                                                Example(caught_as("timeout", "wrapped", CARRIED))),
    "uncategorized_cause_yields_null_derived_category": (Example(caught_as(None, "boom", UNCATEGORIZED)),
                                                         Example(caught_as(None, "wrapped", UNCATEGORIZED))),
    "catch_matches_through_node_exception_carrier": (Example(run([isolation(chain=CARRIED)], gate(catch=["timeout"]))),
                                                     Example(run([isolation(chain=CARRIED)], gate(catch=["rate_limit"])))),
    "catch_non_matching_propagates": (
        Example(run([], gate(catch=["timeout"]), error={"category": "node_exception", "chain": [link("provider_unavailable")]})),
        Example(run([], gate(catch=["timeout"]), error={"category": "node_exception", "chain": CARRIED}))),
    "fan_in_does_not_raise": (Example(fanned({"r": -1, "note": "d"}, {"results": [-1], "notes": ["d"]})),
                              Example(fanned({"r": -1}, {}, fan_error={"category": "reducer_error"},
                                             error={"category": "reducer_error", "node": "fan", "chain": []}))),
    "contribution_is_the_degraded_update": (Example(fanned({"r": -1, "note": "d"}, {"results": [10, -1], "notes": ["a", "d"]})),
                                            Example(fanned({"r": -1, "note": "d"}, {"results": [10, 5], "notes": ["a", "d"]}))),
    "extra_outputs_read_by_subgraph_field_name": (Example(fanned({"r": -1, "note": "d"}, {"results": [10, -1], "notes": ["a", "d"]})),
                                                  Example(fanned({"r": -1, "note": "d"}, {"results": [10, -1], "notes": ["a", "x"]}))),
    "omitted_collect_field_yields_null_slot": (Example(fanned({"note": "d"}, {"results": [10, None], "notes": ["a", "d"]})),
                                               Example(fanned({"note": "d"}, {"results": [10, 0], "notes": ["a", "d"]}))),
    "extra_outputs_omission_is_null_slot": (Example(fanned({"r": -1}, {"results": [10, -1], "notes": ["a", None]})),
                                            Example(fanned({"r": -1}, {"results": [10, -1], "notes": ["a", "x"]}))),
    "strict_reducer_null_slot_raises": (Example(fanned({}, {}, error={"category": "reducer_error", "node": "fan", "chain": []})),
                                        Example(fanned({}, {}, error={"category": "node_exception", "node": "fan", "chain": []}))),
    "uncovered_projected_field_skipped": (Example(uncovered("old", "old")), Example(uncovered(None, "old"))),
    "parent_keeps_prior_value": (Example(uncovered("old", "old")), Example(uncovered("old", "new"))),
}
EXAMPLES["absent_collect_field_yields_null_slot"] = EXAMPLES["omitted_collect_field_yields_null_slot"]

SCOPED = ("the scope word resolves to a branch, a node kind or a node only by looking at the events (which node "
          "carries a fan-out or parallel-branches config), then selects the events nested under it")
BRANCHES = "joins the wiring's branches (form, when, outputs) with the parallel node's own events found by name and the branches' events"
ISOLATION = "joins the wiring's isolation gates with the isolation events, the invocation's error and its cause chain"
DERIVED = "the §6.3 derivation (the outermost non-carrier link with a category) is a first-match over a chain per event"
ATTEMPTS = "the attempts before each isolation event are found by its position in the stream and its lineage"
LOGGED = "joins the middleware log (what the callbacks received or returned) with the isolation events and the final state"
SLOTS = ("a degraded instance's slot is an index computed from the fan-out node's pre_state length and the instance's "
         "fan_out_index, into fields the wiring names")
WHY = {
    **{name: SCOPED for name, _ in FUNCTIONS if name.startswith("<within>")},
    **{name: BRANCHES for name in ("callable_branches_run_without_subgraph", "contributions_merge_via_parent_reducer",
                                   "when_false_branch_skipped", "skipped_branch_emits_no_event", "skipped_branch_no_contribution",
                                   "when_true_branch_dispatches", "callable_branch_failure_isolated_and_degraded",
                                   "sibling_branch_completed", "uncovered_projected_field_skipped", "parent_keeps_prior_value")},
    **{name: ISOLATION for name in ("matching_exception_caught", "non_matching_exception_propagates",
                                    "catch_matches_through_node_exception_carrier", "catch_non_matching_propagates",
                                    "event_is_distinct_from_node_event")},
    **{name: DERIVED for name in ("category_resolves_through_node_exception_wrapper",
                                  "derived_category_is_outermost_non_carrier_with_category",
                                  "uncategorized_cause_yields_null_derived_category")},
    **{name: ATTEMPTS for name in ("retry_exhausts_before_isolation_catches", "outer_to_inner_ordering_load_bearing")},
    **{name: LOGGED for name in ("callable_receives_pre_merge_state", "callable_return_merges_via_reducer",
                                 "on_caught_receives_original_exception", "degraded_return_reaches_engine_with_on_caught")},
    **{name: SLOTS for name in ("fan_in_does_not_raise", "contribution_is_the_degraded_update",
                                "extra_outputs_read_by_subgraph_field_name", "omitted_collect_field_yields_null_slot",
                                "absent_collect_field_yields_null_slot", "extra_outputs_omission_is_null_slot",
                                "strict_reducer_null_slot_raises")},
}


def one_line(doc: str | None) -> str:
    return " ".join((doc or "").split()).replace("``", "")


ROWS = tuple(Compute(name, one_line(function.__doc__), function, why=WHY[name],
                     holds=EXAMPLES[name][0], fails=EXAMPLES[name][1]) for name, function in FUNCTIONS)
