"""Expected errors (conformance-adapter §5.8, §5.13): the invocation's error against
``expected_error`` / ``error`` / ``raises``, field by field, with the fields read off the trace.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

from ..ast.nodes import Mapping
from .matchers import match, show
from ..model.vocabulary import VOCABULARY
from .rules import Check, CheckStatus, Context, SelectingRule, at_should_level, invocation_of, verdict


@dataclass(frozen=True)
class ErrorRule(SelectingRule):
    """An expected error (`expected_error`, `error`, `first_run_expected_error`)."""

    def evaluate(self, ctx: Context, bindings: Any):
        error = self.select(ctx)
        checks = []
        for key, want in self.expected.items():
            name = f"{self.name}.{key}"
            span = self.expected.key_span(key)
            if key == "category":
                # A node_exception carrier (graph-engine §4) wraps the originating error: a fixture may
                # name the carrier's category or the one the cause chain derives (conformance-adapter §5.8).
                derived = error.attributes.get("derived_category")
                actual = derived if derived is not None and getattr(want, "value", None) == derived else error.category
                if error.unclassified is not None and getattr(want, "value", None) != actual:  # the derived one is unknown
                    checks.append(Check(name, CheckStatus.FAILED, span, f"not judged: {error.unclassified}"))
                    continue
            elif key == "raised_from":
                actual = error.node
            elif key == "message":  # the message the cause chain derives
                if error.unclassified is not None:
                    checks.append(Check(name, CheckStatus.FAILED, span, f"nothing to compare: {error.unclassified}"))
                    continue
                actual = error.message
            elif key == "exception_kind":  # the type raised, as `raises: {exception_kind}` spells it
                actual = error.type_name
            elif key == "execution_order":
                actual = invocation_of(ctx).execution_order
            elif key in ("carries", "cause"):  # §5.13 fields the error exposes / its cause link
                found, bindings = (_carries if key == "carries" else _cause)(want, error, bindings, name)
                checks.extend(found)
                continue
            elif key == "names":  # an extension: the error names each value, wherever it puts it
                checks.extend(_names(want, error, name, span))
                continue
            elif key in DERIVED_ERROR_FIELDS:
                try:
                    actual = DERIVED_ERROR_FIELDS[key](ctx, error)
                except LookupError as missing:
                    checks.append(Check(name, CheckStatus.FAILED, span, f"nothing to compare: {missing}"))
                    continue
            elif key in error.attributes:
                actual = error.attributes[key]
                if actual is None and getattr(want, "value", None) is not None and _should_level(key):
                    # A SHOULD-level hint the runtime exposes as "none": not met (a warning), not false.
                    checks.append(Check(name, CheckStatus.UNVERIFIED, span, f"the {error.type_name} exposes {key!r} as none"))
                    continue
            else:
                checks.append(Check(name, CheckStatus.UNVERIFIED, span, f"not implemented: error field {key!r}"))
                continue
            result = match(want, actual, bindings, name, "exact")
            bindings = result.bindings
            check = verdict(name, span, result)
            if key == "category" and not result.ok:  # say what was raised instead
                check = dataclasses.replace(check, detail=f"{check.detail} (raised {error.type_name}: {error.message})")
            checks.append(check)
        return _with_levels(checks, self.name), bindings


def _with_levels(checks: list[Check], owner: str) -> tuple[Check, ...]:
    """Each check of an error field the vocabulary marks SHOULD-level (``Directive.should``) as a
    warning when it did not hold: a runtime need not expose a SHOULD-level hint."""
    leveled = []
    for check in checks:
        key = check.name[len(owner) + 1:].split(".", 1)[0]
        directive = VOCABULARY.lookup("error_expectation", key)
        leveled.extend(at_should_level((check,), directive.should) if directive is not None and directive.should else (check,))
    return tuple(leveled)


def _should_level(key: str) -> bool:
    directive = VOCABULARY.lookup("error_expectation", key)
    return directive is not None and bool(directive.should)


def _carries(expected: Mapping, error: Any, bindings: Any, path: str) -> tuple[list[Check], Any]:
    """`carries` (conformance-adapter §5.13): each key names a field the error exposes — bare
    (exact; a mapping by the keys named), ``_present`` (present / absent) or ``_mentions`` (substring)."""
    checks = []
    for key, want in expected.items():
        name, span = f"{path}.{key}", expected.key_span(key)
        stem, flavor = key, "exact"
        for suffix in ("_present", "_mentions"):
            if key.endswith(suffix):
                stem, flavor = key[: -len(suffix)], suffix[1:]
        actual = error.attributes.get(stem)
        if flavor == "present":
            ok = (actual is not None) == bool(want.value)
            checks.append(Check(name, CheckStatus.VERIFIED if ok else CheckStatus.FAILED, span, "" if ok else f"{stem} is {show(actual)}"))
        elif stem not in error.attributes:
            checks.append(Check(name, CheckStatus.FAILED, span, f"the {error.type_name} exposes no field {stem!r}"))
        elif flavor == "mentions":
            ok = isinstance(actual, str) and str(want.value) in actual
            checks.append(Check(name, CheckStatus.VERIFIED if ok else CheckStatus.FAILED, span, "" if ok else f"{show(actual)} does not mention {want.value!r}"))
        else:
            result = match(want, actual, bindings, name, "subset")
            bindings = result.bindings
            checks.append(verdict(name, span, result))
    return checks, bindings


# What an error says of itself, for `names`: fields the adapter derives from the trace are not the
# error's own words (``derived_category``), and ``message`` may be read off the cause chain.
NOT_THE_ERRORS_OWN = frozenset({"derived_category", "raw_message"})


def _own_texts(error: Any) -> list[str]:
    """The error's own message and every string field it exposes (its originating node among them),
    the strings of a list field too: a validation error may name its fields only as a list."""
    texts = [error.attributes.get("raw_message", error.message), error.node]
    for key, value in error.attributes.items():
        if key not in NOT_THE_ERRORS_OWN:
            texts += list(value) if isinstance(value, Sequence) and not isinstance(value, str) else [value]
    return [text for text in texts if isinstance(text, str) and text]


def _names(expected: Any, error: Any, path: str, span: Any) -> list[Check]:
    """`names` (an extension): each value occurs as a whole word — not inside a longer identifier —
    in the error's own message or in a string field it exposes. Where the error puts a name is left
    open: graph-engine §4 requires a ReducerError to name the field, reducer and node, not how."""
    return _names_in(_own_texts(error), f"the {error.type_name}", expected, path, span)


def _names_in(texts: list, holder: str, expected: Any, path: str, span: Any) -> list[Check]:
    """Each item of ``expected`` named as a whole word in one of ``texts``: an item that is a list is
    a set of alternatives, any one of which names it (a value named by itself or by its position)."""
    texts, checks = [text for text in texts if isinstance(text, str) and text], []
    for position, item in enumerate(expected.items):
        words = [str(i.value) for i in item.items] if hasattr(item, "items") and not callable(item.items) else [str(item.value)]
        found = any(re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text) for word in words for text in texts)
        said = " or ".join(repr(word) for word in words)
        detail = "" if found else f"{holder} does not name {said} (it says {show(texts)})"
        checks.append(Check(f"{path}[{position}]", CheckStatus.VERIFIED if found else CheckStatus.FAILED, getattr(item, "span", None) or span, detail))
    return checks


CAUSE_FIELDS = {"exception_type": "type", "message": "message", "category": "category"}


def _cause(expected: Mapping, error: Any, bindings: Any, path: str) -> tuple[list[Check], Any]:
    """`cause`: the error's direct cause (the next link of its chain) — exception_type, message, category."""
    checks = []
    link = error.chain[1] if len(error.chain) > 1 else None
    for key, want in expected.items():
        name, span = f"{path}.{key}", expected.key_span(key)
        if link is None:
            checks.append(Check(name, CheckStatus.FAILED, span, f"the {error.type_name} has no cause"))
        elif key == "names":  # the extension, on the cause: its own message names each value
            checks.extend(_names_in([link.get("message")], f"the {error.type_name}'s cause", want, name, span))
        elif key not in CAUSE_FIELDS:
            checks.append(Check(name, CheckStatus.UNVERIFIED, span, f"not implemented: cause field {key!r}"))
        else:
            result = match(want, link.get(CAUSE_FIELDS[key]), bindings, name, "exact")
            bindings = result.bindings
            checks.append(verdict(name, span, result))
    return checks, bindings


def cause_message(ctx: Context, error: Any) -> Any:
    """The message of the outermost non-carrier link below the raised error (what it wraps)."""
    below = [link for link in error.chain[1:] if not link.get("carrier")]
    if not below:
        raise LookupError(f"the {error.type_name} has no non-carrier cause")
    return below[0].get("message")


def flaky_call_count(ctx: Context, error: Any) -> Any:
    """How many times the `flaky` failure mock of the node the error surfaced from was called."""
    return sum(n for key, n in ctx.trace.mock_calls.items() if key[0] == "flaky" and key[1] == error.node)


# Error fields an expectation may name that are read off the trace rather than the error object.
DERIVED_ERROR_FIELDS: dict[str, Callable[[Context, Any], Any]] = {
    "cause_message": cause_message,
    "flaky_call_count": flaky_call_count,
}


def invocation_error(ctx: Context) -> Any:
    inv = invocation_of(ctx)
    if inv.error is None:
        raise LookupError(f"the invocation {inv.outcome} without an error (final state {show(inv.final_state)})")
    return inv.error


def build_or_run_error(ctx: Context) -> Any:
    """The error raised while the graph was built, else the invocation's (`expected_chain_ambiguity_error`
    with a map: the spec lets the category surface at either point, §10.12.2)."""
    if ctx.trace.compile_error is not None:
        return ctx.trace.compile_error
    if ctx.invocation is not None and ctx.invocation.error is not None:
        return ctx.invocation.error
    raise LookupError("nothing was raised at graph build or at run time")


def raised_error(ctx: Context) -> Any:
    """The invocation's error as the code inside the node raised it: the category (and type) of
    the outermost non-carrier link of the chain that has one — a provider's §7 category raised
    through the node_exception carrier the engine wraps it in. A chain with no such link (an
    uncategorized exception) keeps the carrier's own. For directories whose `expected_error` is
    about what raised out of a provider call (retrieval-provider 022 header: "Asserts the §7
    category and the raising node")."""
    error = invocation_error(ctx)
    raised = next((link for link in error.chain if not link.get("carrier") and link.get("category")), None)
    if raised is None:
        return error
    return dataclasses.replace(error, category=raised.get("category"), type_name=raised.get("type"))
