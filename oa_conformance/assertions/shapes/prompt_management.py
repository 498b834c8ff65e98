"""prompt-management expectations (the directory's §3.2 header; conformance-adapter §6.8) as rules
over the ``calls`` and ``prompts`` trace collections (docs/TRACE.md).

- ``calls`` / ``secondary_calls`` / ``tertiary_calls``: each call's own ``expected`` — the fetched
  ``prompt`` or rendered ``prompt_result`` (fields listed are compared), the error it ``raises``,
  and named predicates (catalogue rows). A call without ``raises`` that raised fails.
- ``expected``: captured results by ``capture_as`` name, plus the assertions
  ``result_equivalence``, ``rendered_hash_equal`` / ``rendered_hash_different`` and
  ``prompt_group`` (a key that names one of these is the assertion, never a capture).
- ``expected_backend_state``, ``expected_shared_prefix``, ``expected_message_equal``.

A captured result is compared field by field: each field the fixture lists must match exactly (a
nested mapping has exactly the keys given), and ``<field>_absent`` / ``_present`` /
``_non_empty_string`` keys are the §3.2 header's matchers for fields whose value the spec leaves
to the implementation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...ast.nodes import Mapping, Scalar, Section, Sequence
from ...model.diagnostics import Span
from ...model.trace import ErrorRecord
from ..matchers import Match, Mismatch, describe, match, show
from ..catalogue.predicate_rules import predicate_block
from ..error_rules import ErrorRule
from ..rules import (
    Check,
    CheckStatus,
    Context,
    Rule,
    SelectingRule,
    Unverified,
    ValueRule,
    AllOf,
    ShapeRow,
    collection,
    verdict,
)

PM = "prompt-management"
CALL_RESULTS = ("prompt", "prompt_result")  # what a call's `expected` says it returned


def call_entry(block: str, index: int) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        for entry in collection(ctx, "calls"):
            if entry["block"] == block and entry["index"] == index:
                return entry
        raise LookupError(f"{block}[{index}] never ran")
    return select


def call_result(block: str, index: int) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        entry = call_entry(block, index)(ctx)
        if "error" in entry:
            raise LookupError(f"{block}[{index}] raised {entry['error']['type']}: {entry['error']['message']}")
        return entry["result"]
    return select


def call_error(block: str, index: int) -> Callable[[Context], Any]:
    def select(ctx: Context) -> ErrorRecord:
        entry = call_entry(block, index)(ctx)
        if "error" not in entry:
            raise LookupError(f"{block}[{index}] raised nothing; it returned {show(entry.get('result'))}")
        error = entry["error"]
        return ErrorRecord(category=error["category"], message=error["message"], type_name=error["type"],
                           chain=tuple(error["chain"]), attributes=error["fields"])
    return select


def captured(name: str) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        captures = collection(ctx, "prompts")["captures"]
        if name in captures:
            return captures[name]
        for entry in collection(ctx, "calls"):
            if entry.get("capture_as") == name and "error" in entry:
                raise LookupError(f"the call capturing {name!r} raised {entry['error']['type']}: {entry['error']['message']}")
        raise LookupError(f"no call captured a result as {name!r}")
    return select


# ---------------------------------------------------------------------------------------------
# Rules


def judged(rule: Rule, problems: list[str], bindings: Any):
    """A rule's one check: failed with its problems, or verified when there are none."""
    check = Check(rule.name, CheckStatus.FAILED, rule.span, "; ".join(problems)) if problems else Check(rule.name, CheckStatus.VERIFIED, rule.span)
    return (check,), bindings


# The §3.2 header's field matchers: `<field><suffix>: true|false`.
FIELD_MATCHERS: dict[str, Callable[[bool, Any], bool]] = {
    "_absent": lambda present, value: present is False or value is None,
    "_present": lambda present, value: present and value is not None,
    "_non_empty_string": lambda present, value: present and isinstance(value, str) and value != "",
}


@dataclass(frozen=True)
class FieldsRule(SelectingRule):
    """A captured record, field by field: the fields listed match exactly; others are not compared."""

    def evaluate(self, ctx: Context, bindings: Any):
        actual = self.select(ctx)
        problems: list[Mismatch] = []
        path = self.name.split(".", 1)[-1]
        for key, want in self.expected.items():
            child, span = f"{path}.{key}", self.expected.key_span(key)
            if key in actual:
                result = match(want, actual[key], bindings, child, "exact")
                bindings = result.bindings
                problems.extend(result.mismatches)
                continue
            flavor = next((suffix for suffix in FIELD_MATCHERS if key.endswith(suffix)), None)
            if flavor is None:
                problems.append(Mismatch(child, describe(want) + " (present)", "<absent>", span))
                continue
            stem = key[: -len(flavor)]
            holds = FIELD_MATCHERS[flavor](stem in actual, actual.get(stem))
            if not isinstance(want, Scalar) or holds != bool(want.value):
                problems.append(Mismatch(child, f"{key}: {describe(want)}", f"{stem} = {show(actual.get(stem, '<absent>'))}", span))
        return (verdict(self.name, self.span, Match(not problems, bindings, tuple(problems))),), bindings


@dataclass(frozen=True)
class CallSucceeded(Rule):
    """A call whose ``expected`` names no ``raises`` must not raise."""

    name: str
    span: Span | None
    select: Callable[[Context], Any]

    def evaluate(self, ctx: Context, bindings: Any):
        entry = self.select(ctx)
        error = entry.get("error")
        problems = [f"the call raised unexpectedly: {error['category'] or error['type']}: {error['message']}"] if error else []
        return judged(self, problems, bindings)


@dataclass(frozen=True)
class CapturesCompare(Rule):
    """Fields of two or more captures compared: ``same`` (all equal) or not (pairwise different)."""

    name: str
    span: Span | None
    captures: tuple[str, ...]
    fields: tuple[str, ...]
    same: bool = True

    def evaluate(self, ctx: Context, bindings: Any):
        if len(set(self.captures)) < 2:  # a capture equals itself: nothing would be compared
            return judged(self, [f"expected at least two distinct captures to compare, got {list(self.captures)}"], bindings)
        records = [captured(name)(ctx) for name in self.captures]
        problems = []
        for field in self.fields:
            present = [name for name, record in zip(self.captures, records) if field not in record]
            if present:
                problems.append(f"{field}: absent from {present}")
                continue
            values = [record[field] for record in records]
            equal = all(value == values[0] for value in values[1:])
            if equal != self.same:
                problems.append(f"{field}: expected {'equal' if self.same else 'different'} values, got "
                                + ", ".join(f"{name}={show(value)}" for name, value in zip(self.captures, values)))
        return judged(self, problems, bindings)


def _names(node: Any) -> tuple[str, ...]:
    return tuple(item.value for item in node.items)


# ---------------------------------------------------------------------------------------------
# Shapes


def _calls(block: str):
    def factory(node: Sequence, span: Span | None) -> Rule:
        rules: list[Rule] = []
        for index, call in enumerate(node.items):
            where = f"{block}[{index}]"
            expected = call.expected
            if expected is None or expected.raises is None:
                rules.append(CallSucceeded(where, call.span, call_entry(block, index)))
            for key, value in (expected.items() if expected is not None else ()):
                key_span = expected.key_span(key)
                name = f"{where}.expected.{key}"
                if key in CALL_RESULTS:
                    rules.append(FieldsRule(name, key_span, value, call_result(block, index)))
                elif key == "raises":
                    rules.append(ErrorRule(name, key_span, value, call_error(block, index)))
                else:  # a named predicate over the case's trace (catalogue/prompt_management.py)
                    rules.extend(predicate_block(PM, f"{where}.expected", ((key, value, key_span),)))
        return AllOf(tuple(rules))
    return factory


def _expected(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for key, value in node.items():
        key_span = node.key_span(key)
        factory = ASSERTIONS.get(key)
        rules.append(factory(value, key_span) if factory else FieldsRule(f"expected.{key}", key_span, value, captured(key)))
    return AllOf(tuple(rules))


def _result_equivalence(node: Mapping, span: Span | None) -> Rule:
    """`{of, fields_must_match, fields_may_differ}`: the captures agree on every must-match field; a
    may-differ field must still be present on each (it is named, so it exists)."""
    of = _names(node.get("of"))
    rules = [CapturesCompare("expected.result_equivalence.fields_must_match", node.key_span("fields_must_match"), of,
                             _names(node.get("fields_must_match")))]
    if node.get("fields_may_differ") is not None:
        may = _names(node.get("fields_may_differ"))
        rules.append(_Present("expected.result_equivalence.fields_may_differ", node.key_span("fields_may_differ"), of, may))
    return AllOf(tuple(rules))


@dataclass(frozen=True)
class _Present(Rule):
    name: str
    span: Span | None
    captures: tuple[str, ...]
    fields: tuple[str, ...]

    def evaluate(self, ctx: Context, bindings: Any):
        missing = [f"{name}.{field}" for name in self.captures for field in self.fields if field not in captured(name)(ctx)]
        return judged(self, [f"absent: {missing}"] if missing else [], bindings)


def _hash_pairs(same: bool):
    def factory(node: Sequence, span: Span | None) -> Rule:
        word = "equal" if same else "different"
        return AllOf(tuple(CapturesCompare(f"expected.rendered_hash_{word}[{index}]", pair.span, _names(pair), ("rendered_hash",), same)
                            for index, pair in enumerate(node.items)))
    return factory


def _prompt_group(node: Mapping, span: Span | None) -> Rule:
    """`{of: <capture>, group_name, member_count, member_names, member_order_preserved}` about a
    captured PromptGroup; `member_order_preserved: true` — its members are, in order, the captures
    the constructing call named in `members_refs`."""
    of = node.get("of").value
    group = captured(of)
    rules: list[Rule] = []
    for key, value in node.items():
        name, key_span = f"expected.prompt_group.{key}", node.key_span(key)
        if key == "of":
            continue
        if key == "group_name":
            rules.append(ValueRule(name, key_span, value, lambda ctx: group(ctx)["group_name"]))
        elif key == "member_count":
            rules.append(ValueRule(name, key_span, value, lambda ctx: len(group(ctx)["members"])))
        elif key == "member_names":
            rules.append(ValueRule(name, key_span, value, lambda ctx: [m["name"] for m in group(ctx)["members"]]))
        elif key == "member_order_preserved":
            rules.append(ValueRule(name, key_span, value, _order_preserved(of)))
        else:
            rules.append(Unverified(name, key_span, f"not implemented: prompt_group field {key!r}"))
    return AllOf(tuple(rules))


# The assertions a key of `expected:` may name instead of a capture.
ASSERTIONS: dict[str, Callable[[Any, Span | None], Rule]] = {
    "result_equivalence": _result_equivalence,
    "rendered_hash_equal": _hash_pairs(True),
    "rendered_hash_different": _hash_pairs(False),
    "prompt_group": _prompt_group,
}


def _order_preserved(of: str) -> Callable[[Context], bool]:
    def select(ctx: Context) -> bool:
        members = captured(of)(ctx)["members"]
        constructing = [e for e in collection(ctx, "calls") if e.get("capture_as") == of and e["operation"] == "construct_prompt_group"]
        if not constructing:
            raise LookupError(f"no construct_prompt_group call captured {of!r}")
        refs = constructing[-1]["members_refs"]
        return list(members) == [captured(ref)(ctx) for ref in refs]
    return select


def _backend_state(node: Mapping, span: Span | None) -> Rule:
    rules = []
    for backend, state in node.items():
        def select(ctx: Context, b=backend) -> Any:
            backends = collection(ctx, "prompts")["backends"]
            if b not in backends:
                raise LookupError(f"no backend named {b!r}")
            return backends[b]
        for key, value in state.items():
            rules.append(ValueRule(f"expected_backend_state.{backend}.{key}", state.key_span(key), value,
                                   lambda ctx, s=select, k=key: s(ctx)[k]))
    return AllOf(tuple(rules))


def _messages_of(name: str, index: int) -> Callable[[Context], Any]:
    def select(ctx: Context) -> Any:
        messages = captured(name)(ctx).get("messages", ())
        if index >= len(messages):
            raise LookupError(f"{name} has {len(messages)} messages, no message {index}")
        return messages[index]
    return select


@dataclass(frozen=True)
class SharedPrefix(Rule):
    """The content of message ``index`` of each capture starts with the same byte-identical ``prefix``."""

    name: str
    span: Span | None
    captures: tuple[str, ...]
    index: int
    prefix: str

    def evaluate(self, ctx: Context, bindings: Any):
        problems = []
        for name in self.captures:
            content = _messages_of(name, self.index)(ctx).get("content")
            if not (isinstance(content, str) and content.startswith(self.prefix)):
                problems.append(f"{name}.messages[{self.index}].content {show(content)} does not start with {self.prefix!r}")
        return judged(self, problems, bindings)


def _shared_prefix(node: Section, span: Span | None) -> Rule:
    return SharedPrefix("expected_shared_prefix", node.key_span("prefix"), _names(node.between), node.message_index.value, node.prefix.value)


def _message_equal(node: Section, span: Span | None) -> Rule:
    between = _names(node.between)
    rules = []
    for index in (item.value for item in node.message_indices.items):
        rules.append(_MessagesEqual(f"expected_message_equal[{index}]", node.key_span("message_indices"), between, index))
    return AllOf(tuple(rules))


@dataclass(frozen=True)
class _MessagesEqual(Rule):
    name: str
    span: Span | None
    captures: tuple[str, ...]
    index: int

    def evaluate(self, ctx: Context, bindings: Any):
        if len(set(self.captures)) < 2:  # a capture's message equals itself: nothing would be compared
            return judged(self, [f"between: expected at least two distinct captures to compare, got {list(self.captures)}"], bindings)
        messages = [_messages_of(name, self.index)(ctx) for name in self.captures]
        problems = []
        if any(message != messages[0] for message in messages[1:]):
            problems.append(f"messages[{self.index}] differ: " + ", ".join(f"{n}={show(m)}" for n, m in zip(self.captures, messages)))
        return judged(self, problems, bindings)


# directive → rule builder, in the prompt-management vocabulary
SHAPES = (
    ShapeRow("calls", _calls("calls"), PM),
    ShapeRow("secondary_calls", _calls("secondary_calls"), PM),
    ShapeRow("tertiary_calls", _calls("tertiary_calls"), PM),
    ShapeRow("expected", _expected, PM),
    ShapeRow("expected_backend_state", _backend_state, PM),
    ShapeRow("expected_shared_prefix", _shared_prefix, PM),
    ShapeRow("expected_message_equal", _message_equal, PM),
)
