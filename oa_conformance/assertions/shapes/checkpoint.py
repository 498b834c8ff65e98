"""Checkpoint shapes (pipeline-utilities §10, conformance-adapter §5.6 / §5.8): saved records, the
saves an invocation made, and what a resumed run re-executed.

Everything here reads the trace the multi-run flow records (interpreter/running/resume.py):
``trace.checkpoint_saves`` (every save, tagged with its run), each run's ``checkpoint`` block
(the record held for its id when it ended, the record a resume loaded, the migrations run) and
each run's ``node_log`` (every harness node body, with the runtime's namespace and fan-out index).

A record assertion (``saved_record_assertions``, ``latest_record_assertions``, each entry of
``checkpoint_saves``, ``every_save_assertions``) checks each key it names:

    state, parent_states, schema_version,     the record's field (state exact; positions and the
    invocation_id, correlation_id,            rest by the keys each entry names)
    last_saved_at, completed_positions
    fan_out_progress                          null: the record carries none (the runtime's empty
                                              tuple); {node: {instance_count, instances}}: the
                                              node's entry, each instance by the keys named —
                                              state | state_one_of, result, result_present,
                                              result_is_error, completed_inner_positions
    fan_out_node_in_completed_positions       a node the record has fan-out progress for appears
                                              among its completed positions
    parent_states_present                     parent_states is non-empty
    parent_states_outermost_first             parent_states[0] is an outermost state (the fields
                                              of the state the run was invoked with)
    after_node                                (a save entry) the save's newest completed position
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from pyrsistent import pmap

from ...ast.nodes import Mapping, Node, Scalar, Sequence
from ...model.diagnostics import Span
from ...model.trace import InvocationTrace
from ..matchers import Match, Mismatch, explain, match, show
from ..rules import Check, CheckStatus, Context, Rule, SelectingRule, ShapeRow, ValueRule, invocation_of

RECORD_FIELDS = ("state", "parent_states", "schema_version", "invocation_id", "correlation_id", "last_saved_at")


# ---------------------------------------------------------------------------------------------
# Selectors


def run_index(ctx: Context, invocation: InvocationTrace | None = None) -> int:
    invocation = invocation if invocation is not None else ctx.invocation
    for index, candidate in enumerate(ctx.trace.invocations):
        if candidate is invocation:
            return index
    raise LookupError("the case never invoked the graph")


def saves_of(ctx: Context, invocation: InvocationTrace | None = None) -> list[Any]:
    """The saves the runtime made during one invocation that persisted (not lost to a crash)."""
    index = run_index(ctx, invocation)
    return [save for save in ctx.trace.checkpoint_saves if save["run"] == index and not save["lost"]]


def saved_record(ctx: Context) -> Any:
    """The record the checkpointer held for this invocation's id when the invocation ended."""
    record = invocation_of(ctx).checkpoint.get("saved_record")
    if record is None:
        raise LookupError(f"no checkpoint record was saved for invocation {ctx.invocation.invocation_id!r}")
    return record


def record_view(record: Any) -> Any:
    """A record as assertions see it: an empty ``fan_out_progress`` is the runtime's "none"."""
    if not record.get("fan_out_progress"):
        return record.set("fan_out_progress", None)
    return record


def progress_entry(record: Any, node: str) -> Any:
    """The record's fan-out progress entry for ``node`` (the top-level one when it recurs)."""
    entries = [p for p in record.get("fan_out_progress") or () if p["fan_out_node_name"] == node]
    if len(entries) > 1:
        entries = [p for p in entries if not p.get("enclosing_fan_out_lineage")]
    if len(entries) != 1:
        raise LookupError(f"the record has {len(entries)} fan-out progress entries for {node!r}")
    return entries[0]


# ---------------------------------------------------------------------------------------------
# Matching one record


def match_record(expected: Mapping, record: Any, ctx: Context, bindings: Any, path: str) -> tuple[list[tuple[str, Span | None, Match | str]], Any]:
    """Each key of a record assertion against a record: (path, span, Match | unverified reason)."""
    results: list[tuple[str, Span | None, Match | str]] = []
    shown = record_view(record)  # the saved record (a map), as assertions see it
    for key, want in expected.items():
        child, span = f"{path}.{key}", expected.key_span(key)
        check = RECORD_KEYS.get(key)
        if check is None and key in RECORD_FIELDS:
            result = match(want, shown.get(key), bindings, child, "exact")
        elif check is None:
            results.append((child, span, f"not implemented: record assertion {key!r}"))
            continue
        else:
            result = check(want, shown, ctx, bindings, child)
        bindings = result.bindings
        results.append((child, span, result))
    return results, bindings


def _positions(want: Any, record: Any, ctx: Context, bindings: Any, path: str) -> Match:
    return match(want, record.get("completed_positions"), bindings, path, "subset")


def _flag(want: Any, holds: bool, path: str, why: str, bindings: Any) -> Match:
    if holds == bool(want.value):
        return Match(True, bindings)
    return Match(False, bindings, (Mismatch(path, show(want.value), f"{holds}: {why}", want.span),))


def _fan_out_node_completed(want: Any, record: Any, ctx: Context, bindings: Any, path: str) -> Match:
    fan_outs = {p["fan_out_node_name"] for p in record.get("fan_out_progress") or ()}
    completed = [p["node_name"] for p in record["completed_positions"] if p["node_name"] in fan_outs]
    return _flag(want, bool(completed), path, f"fan-out nodes {sorted(fan_outs)}, completed positions "
                 f"{[p['node_name'] for p in record['completed_positions']]}", bindings)


def _parent_states_present(want: Any, record: Any, ctx: Context, bindings: Any, path: str) -> Match:
    return _flag(want, bool(record["parent_states"]), path, f"parent_states {show(record['parent_states'])}", bindings)


def _outermost_first(want: Any, record: Any, ctx: Context, bindings: Any, path: str) -> Match:
    parents = record["parent_states"]
    outer = ctx.invocation.initial_state if ctx.invocation is not None else None
    holds = bool(parents) and outer is not None and set(parents[0].keys()) == set(outer.keys())
    return _flag(want, holds, path, f"parent_states[0] has the fields {sorted(parents[0].keys()) if parents else []}, "
                 f"the outermost state {sorted(outer.keys()) if outer is not None else '?'}", bindings)


def _fan_out_progress(want: Any, record: Any, ctx: Context, bindings: Any, path: str) -> Match:
    if isinstance(want, Scalar):
        return match(want, record.get("fan_out_progress"), bindings, path)
    problems: list[Mismatch] = []
    for node, expected in want.items():
        where = f"{path}.{node}"
        try:
            entry = progress_entry(record, node)
        except LookupError as missing:
            problems.append(Mismatch(where, "one fan-out progress entry", str(missing), want.key_span(node)))
            continue
        for key, value in expected.items():
            if key == "instances":
                bindings = _instances(value, entry["instances"], bindings, f"{where}.instances", problems)
            else:
                result = match(value, entry.get(key), bindings, f"{where}.{key}")
                bindings = result.bindings
                problems.extend(result.mismatches)
    return Match(not problems, bindings, tuple(problems))


def _instances(expected: Sequence, actual: Any, bindings: Any, path: str, problems: list[Mismatch]) -> Any:
    if len(expected.items) != len(actual):
        problems.append(Mismatch(path, f"{len(expected.items)} instances", f"{len(actual)}: {show([i['state'] for i in actual])}", expected.span))
        return bindings
    for index, (want, got) in enumerate(zip(expected.items, actual)):
        for key, value in want.items():
            where, span = f"{path}[{index}].{key}", want.key_span(key)
            if key == "state_one_of":
                allowed = [item.value for item in value.items]
                if got["state"] not in allowed:
                    problems.append(Mismatch(where, f"one of {allowed}", show(got["state"]), span))
            elif key == "result_present":
                if (got.get("result") is not None) != bool(value.value):
                    problems.append(Mismatch(where, f"result {'present' if value.value else 'absent'}", show(got.get("result")), span))
            else:
                result = match(value, got.get(key), bindings, where, "subset")
                bindings = result.bindings
                problems.extend(result.mismatches)
    return bindings


def _after_node(want: Any, record: Any, ctx: Context, bindings: Any, path: str) -> Match:
    positions = record["completed_positions"]
    newest = positions[-1]["node_name"] if positions else None
    return match(want, newest, bindings, path)


RECORD_KEYS: dict[str, Callable[..., Match]] = {
    "completed_positions": _positions,
    "fan_out_progress": _fan_out_progress,
    "fan_out_node_in_completed_positions": _fan_out_node_completed,
    "parent_states_present": _parent_states_present,
    "parent_states_outermost_first": _outermost_first,
    "after_node": _after_node,
}


def _checks(results: Iterable[tuple[str, Span | None, Match | str]]) -> list[Check]:
    checks = []
    for name, span, result in results:
        if isinstance(result, str):
            checks.append(Check(name, CheckStatus.UNVERIFIED, span, result))
        elif result.ok:
            checks.append(Check(name, CheckStatus.VERIFIED, span))
        else:
            checks.append(Check(name, CheckStatus.FAILED, span, explain(result.mismatches), result.mismatches[0].span))
    return checks


# ---------------------------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class RecordRule(SelectingRule):
    """A record assertion against one record (the saved one, the latest one)."""

    def evaluate(self, ctx: Context, bindings: Any):
        record = self.select(ctx)
        results, bindings = match_record(self.expected, record, ctx, bindings, self.name)
        return tuple(_checks(results)), bindings


@dataclass(frozen=True)
class EverySaveRule(Rule):
    """A record assertion every save of the invocation must satisfy (``every``), or — ``every`` false —
    `checkpoint_saves`: the invocation's saves, in order, each matching its entry."""

    name: str
    span: Span | None
    expected: Mapping | Sequence
    every: bool = True

    def evaluate(self, ctx: Context, bindings: Any):
        saves = saves_of(ctx)
        if self.every:
            return self.each(saves, ctx, bindings), bindings
        if len(saves) != len(self.expected.items):
            newest = [(s["record"]["completed_positions"] or [{}])[-1].get("node_name") for s in saves]
            return (Check(self.name, CheckStatus.FAILED, self.span, f"expected {len(self.expected.items)} saves, got {len(saves)} (after {newest})"),), bindings
        results: list[tuple[str, Span | None, Match | str]] = []
        for index, (want, save) in enumerate(zip(self.expected.items, saves)):
            found, bindings = match_record(want, save["record"], ctx, bindings, f"{self.name}[{index}]")
            results.extend(found)
        return tuple(_checks(results)), bindings

    def each(self, saves: list[Any], ctx: Context, bindings: Any) -> tuple[Check, ...]:
        if not saves:
            return (Check(self.name, CheckStatus.FAILED, self.span, "the invocation made no checkpoint save"),)
        failing: list[str] = []
        for number, save in enumerate(saves):
            results, _ = match_record(self.expected, save["record"], ctx, bindings, f"{self.name}[save {number}, {save['route']}]")
            unverified = [result for _, _, result in results if isinstance(result, str)]
            if unverified:
                return (Check(self.name, CheckStatus.UNVERIFIED, self.span, unverified[0]),)
            failing.extend(str(m) for _, _, result in results if not result.ok for m in result.mismatches)
        if failing:
            return (Check(self.name, CheckStatus.FAILED, self.span, f"{len(failing)} mismatches over {len(saves)} saves: " + "; ".join(failing[:3])),)
        return (Check(self.name, CheckStatus.VERIFIED, self.span),)


@dataclass(frozen=True)
class SetRule(Rule):
    """An expected list compared as a set with what ``select`` computes (no order imposed, §7)."""

    name: str
    span: Span | None
    expected: Sequence
    select: Callable[[Context], Iterable[Any]]

    def evaluate(self, ctx: Context, bindings: Any):
        actual = sorted(set(self.select(ctx)), key=repr)
        wanted = sorted({item.value for item in self.expected.items}, key=repr)
        if actual == wanted:
            return (Check(self.name, CheckStatus.VERIFIED, self.span),), bindings
        return (Check(self.name, CheckStatus.FAILED, self.span, f"expected the set {wanted}, got {actual}"),), bindings


# ---------------------------------------------------------------------------------------------
# What a resumed run re-executed


def run_with_role(ctx: Context, role: str) -> InvocationTrace:
    for invocation in ctx.trace.invocations:
        if invocation.role == role:
            return invocation
    raise LookupError(f"the case has no {role.replace('_', ' ')}")


def entered(invocation: InvocationTrace) -> list[Any]:
    """The node bodies that started during an invocation (any depth), in order."""
    return [row for row in invocation.node_log if row["event"] == "entered"]


def before_resume(ctx: Context) -> list[InvocationTrace]:
    """The runs before the one a resume block is about (the first run, or nothing for a seeded record)."""
    index = run_index(ctx)
    return list(ctx.trace.invocations[:index])


def nodes_executed(ctx: Context) -> list[str]:
    """Nodes whose bodies ran during this (resumed) run."""
    return [row["node"] for row in entered(ctx.invocation)]


def nodes_skipped(ctx: Context) -> list[str]:
    """Nodes that ran before the resume and did not run during it."""
    during = set(nodes_executed(ctx))
    return [row["node"] for inv in before_resume(ctx) for row in entered(inv) if row["node"] not in during]


def instances_executed(ctx: Context) -> list[int]:
    """Fan-out instance indices whose bodies ran during this (resumed) run."""
    return [row["fan_out_index"] for row in entered(ctx.invocation) if row["fan_out_index"] is not None]


def instances_skipped(ctx: Context) -> list[int]:
    """Instance indices that ran before the resume, or completed in the record it loaded, and did not run during it."""
    during = set(instances_executed(ctx))
    before = {row["fan_out_index"] for inv in before_resume(ctx) for row in entered(inv) if row["fan_out_index"] is not None}
    record = (ctx.invocation.checkpoint.get("resumed_from") or pmap()).get("record")
    for progress in (record or pmap()).get("fan_out_progress") or ():
        if not progress.get("enclosing_fan_out_lineage") and not progress["namespace"]:
            before |= {i for i, instance in enumerate(progress["instances"]) if instance["state"] == "completed"}
    return [index for index in before if index not in during]


def _set_shape(name: str, select: Callable[[Context], Iterable[Any]]) -> Callable[[Node, Span | None], Rule]:
    def factory(node: Any, span: Span | None) -> Rule:
        return SetRule(f"expected.{name}", span, node, select)

    return factory


def successful_attempt_index(ctx: Context) -> int | None:
    """The attempt_index of this run's latest successful attempt: the highest ``attempt_index`` of a
    ``completed`` event without an error (graph-engine §6: retries number their attempts 0..N-1)."""
    events = next((e for e in ctx.invocation.events.values() if e), ())
    succeeded = [e.get("attempt_index") for e in events if e.get("phase") == "completed" and e.get("error") is None]
    return max(succeeded) if succeeded else None


def _successful_attempt_index(node: Scalar, span: Span | None) -> Rule:
    return ValueRule("expected.successful_attempt_index_during_resume", span, node, successful_attempt_index)


def _migrations_run(node: Sequence, span: Span | None) -> Rule:
    """The harness migrations the run applied, in order (``from->to``)."""
    return ValueRule("expected.migrations_run", span, node, lambda ctx: ctx.invocation.checkpoint["migrations_run"])


def _checkpoint_saves(node: Sequence, span: Span | None) -> Rule:
    return EverySaveRule("expected.checkpoint_saves", span, node, every=False)


def _latest_record(node: Mapping, span: Span | None) -> Rule:
    return RecordRule("expected.latest_record_assertions", span, node, saved_record)


__all__ = ["EverySaveRule", "RecordRule", "SetRule", "before_resume", "entered", "record_view",
           "run_with_role", "saved_record", "saves_of"]


# directive → rule builder (general shapes a checkpointing fixture uses)
SHAPES = (
    ShapeRow("nodes_executed_during_resume", _set_shape("nodes_executed_during_resume", nodes_executed)),
    ShapeRow("nodes_skipped_during_resume", _set_shape("nodes_skipped_during_resume", nodes_skipped)),
    ShapeRow("instances_executed_during_resume", _set_shape("instances_executed_during_resume", instances_executed)),
    ShapeRow("instances_skipped_during_resume", _set_shape("instances_skipped_during_resume", instances_skipped)),
    ShapeRow("successful_attempt_index_during_resume", _successful_attempt_index),
    ShapeRow("migrations_run", _migrations_run),
    ShapeRow("checkpoint_saves", _checkpoint_saves),
    ShapeRow("latest_record_assertions", _latest_record),
)
