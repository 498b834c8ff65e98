"""Value matchers (§5.10): pure objects that match, describe, and explain a mismatch.

An expected value in a fixture is an AST value (``Scalar`` / ``Mapping`` / ``Sequence``) possibly
holding tokens (``FormatToken`` / ``BindingToken``). :func:`match` compares it to an actual value
from the trace and returns a :class:`Match`: whether it matched, the :class:`Bindings` after
matching (threaded in and out explicitly — never hidden state: the first-occurrence bindings, and
the harness parameters the case was run with), and the mismatches, each with its path through the
data, expected vs actual, and the fixture span of the expectation.

Mapping modes: ``exact`` (the actual mapping has exactly the expected keys) for states, ``subset``
(keys the fixture names must match; others are ignored) for events, records and attribute maps.
"""

from __future__ import annotations

import math

from ..model.kinds import is_sequence

import re
from dataclasses import dataclass, field
from typing import Any

from pyrsistent import pmap

from ..ast.nodes import BindingToken, FormatToken, Mapping, Node, Scalar, Sequence
from ..model.diagnostics import Span, clipped

_UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\Z")
_UUID_HEX = re.compile(r"[0-9a-f]{32}\Z")
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}")


@dataclass(frozen=True)
class Mismatch:
    path: str
    expected: str
    actual: str
    span: Span | None

    def __str__(self) -> str:  # no location: the check that carries it says where (explain, Check.at)
        return f"{self.path or '<value>'}: expected {self.expected}, got {self.actual}"


def explain(mismatches: Any, limit: int = 5) -> str:
    """Mismatches as one check's detail, each location said once: the first mismatch is where the
    check is located (``Check.at``), a later one elsewhere in the fixture adds ``(at line:column)``."""
    mismatches = list(mismatches)
    first = mismatches[0].span if mismatches else None
    return "; ".join(f"{m} (at {m.span.position})" if m.span is not None and m.span != first else str(m)
                     for m in mismatches[:limit])


@dataclass(frozen=True)
class Bindings:
    """What the references in an expected value resolve against while one case is judged, passed to
    every :func:`match` and threaded through the case's rules: the values its binding tokens
    (``{{name}}``) bound first — a new ``Bindings`` each time one binds — and the harness-injected
    values ``harness_parameterized: <name>`` compares against (§5.10: the runtime's own identity,
    recorded with the case's trace as ``CaseFacts.harness_parameters``), the same for the whole case."""

    bound: Any = field(default_factory=pmap)
    harness_parameters: Any = field(default_factory=pmap)

    def __contains__(self, token: str) -> bool:
        return token in self.bound

    def __getitem__(self, token: str) -> Any:
        return self.bound[token]

    def set(self, token: str, value: Any) -> Bindings:
        return Bindings(self.bound.set(token, value), self.harness_parameters)

    def fresh(self) -> Bindings:
        """Nothing bound yet, the same harness parameters (a match tried aside, binding nothing for later)."""
        return Bindings(harness_parameters=self.harness_parameters)

    def harness_parameter(self, name: str) -> Any:
        """The harness-injected value ``harness_parameterized: <name>`` compares against (§5.10)."""
        if self.harness_parameters.get(name) is None:
            raise LookupError(f"no harness parameter named {name!r}")
        return self.harness_parameters[name]


NO_BINDINGS = Bindings()  # nothing bound, no harness parameters (a rule judged outside a case)


@dataclass(frozen=True)
class Match:
    ok: bool
    bindings: Bindings = NO_BINDINGS
    mismatches: tuple[Mismatch, ...] = ()



def absorb(problems: list[Mismatch], result: Match) -> Any:
    """Add a child match's mismatches to ``problems``; return its bindings, for the next match."""
    problems.extend(result.mismatches)
    return result.bindings

def show(value: Any) -> str:
    """A short rendering of an actual value for a mismatch message."""
    if hasattr(value, "items") and not isinstance(value, (str, bytes)):
        value = {k: v for k, v in value.items()}
    elif is_sequence(value):
        value = list(value)
    return clipped(repr(_thaw(value)))


def _thaw(value: Any) -> Any:
    if hasattr(value, "items") and not isinstance(value, (str, bytes)):
        return {k: _thaw(v) for k, v in value.items()}
    if is_sequence(value):
        return [_thaw(v) for v in value]
    return value


def describe(expected: Any) -> str:
    """What an expectation requires, in words."""
    if isinstance(expected, FormatToken):
        return f"{expected.text} ({FORMAT_WORDS.get(expected.kind, expected.kind)})"
    if isinstance(expected, BindingToken):
        return f"{expected.text} (the value it bound first)"
    from ..ast.values import literal

    return show(literal(expected)) if isinstance(expected, Node) else show(expected)


FORMAT_WORDS = {
    "uuid": "a canonical UUIDv4",
    "uuid-hex": "32 lowercase hex characters",
    "any-string": "a non-empty string",
    "timestamp": "a timestamp",
}


# §5.10 assertion sub-keys: a mapping made only of these keys is a set of assertions about one value,
# not an expected record.
ASSERTION_SUBKEYS = frozenset(("non_empty_string", "harness_parameterized"))


def _is_assertion_mapping(expected: Mapping) -> bool:
    return bool(expected.keys) and all(key in ASSERTION_SUBKEYS for key in expected.keys)


def _match_assertions(expected: Mapping, actual: Any, bindings: Bindings, path: str, problems: list) -> None:
    for key, want in expected.items():
        span = expected.key_span(key)
        if key == "non_empty_string":
            if (isinstance(actual, str) and actual != "") != bool(want.value):
                problems.append(Mismatch(path, f"non_empty_string: {want.value}", show(actual), span))
        else:  # harness_parameterized
            try:
                injected = bindings.harness_parameter(want.value)
            except LookupError as missing:
                problems.append(Mismatch(path, f"harness_parameterized: {want.value}", str(missing), span))
                continue
            if actual != injected:
                problems.append(Mismatch(path, f"{show(injected)} (harness parameter {want.value})", show(actual), span))


def format_ok(kind: str, actual: Any) -> bool:
    if kind == "uuid":
        return isinstance(actual, str) and _UUID4.match(actual) is not None
    if kind == "uuid-hex":
        return isinstance(actual, str) and _UUID_HEX.match(actual) is not None
    if kind == "any-string":
        return isinstance(actual, str) and actual != ""
    if kind == "timestamp":
        return isinstance(actual, (int, float)) and not isinstance(actual, bool) or (isinstance(actual, str) and _TIMESTAMP.match(actual) is not None)
    return False


FLOAT_ROUNDING = 1e-9  # relative (and absolute, near zero) tolerance for integer-valued expectations


def _scalar_equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, int) and isinstance(actual, float):
        # The fixture wrote an exact integer; the runtime computed a float (a duration from clock
        # readings in seconds, × 1000: 0.010 - 0.005 → 5.000000000000001 ms). Equal up to float
        # rounding — the one numeric tolerance, FLOAT_ROUNDING relative.
        return math.isclose(actual, expected, rel_tol=FLOAT_ROUNDING, abs_tol=FLOAT_ROUNDING)
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        # A fixture that writes `.nan` expects a NaN: NaN is the one value unequal to itself.
        return expected == actual or (expected != expected and actual != actual)
    return type(expected) is type(actual) and expected == actual or (expected is None and actual is None)


def _is_mapping(value: Any) -> bool:
    return hasattr(value, "items") and hasattr(value, "keys") and not isinstance(value, (str, bytes))


def _is_sequence(value: Any) -> bool:
    return is_sequence(value)


def match(expected: Any, actual: Any, bindings: Bindings = NO_BINDINGS, path: str = "", mode: str = "exact") -> Match:
    """Match an expected AST value against an actual value. ``mode`` applies to mappings."""
    problems: list[Mismatch] = []
    bindings = _match(expected, actual, bindings, path, mode, problems)
    return Match(not problems, bindings, tuple(problems))


def _fail(problems: list, path: str, expected: Any, actual: Any, span: Span | None, what: str | None = None) -> None:
    problems.append(Mismatch(path, what or describe(expected), show(actual), span))


def _match(expected: Any, actual: Any, bindings: Bindings, path: str, mode: str, problems: list) -> Bindings:
    span = getattr(expected, "span", None)
    if isinstance(expected, FormatToken):
        if not format_ok(expected.kind, actual):
            _fail(problems, path, expected, actual, span)
        return bindings
    if isinstance(expected, BindingToken):
        if expected.text in bindings:
            if bindings[expected.text] != actual:
                _fail(problems, path, expected, actual, span, f"{expected.text} = {show(bindings[expected.text])} (bound earlier)")
            return bindings
        if actual is None or actual == "":
            _fail(problems, path, expected, actual, span, f"{expected.text} (a value to bind)")
            return bindings
        return bindings.set(expected.text, actual)
    if isinstance(expected, Scalar):
        if not _scalar_equal(expected.value, actual):
            _fail(problems, path, expected, actual, span)
        return bindings
    if isinstance(expected, Mapping) and _is_assertion_mapping(expected):
        _match_assertions(expected, actual, bindings, path, problems)
        return bindings
    if isinstance(expected, Mapping):
        if not _is_mapping(actual):
            _fail(problems, path, expected, actual, span, "a mapping")
            return bindings
        for key, value in expected.items():
            child = f"{path}.{key}" if path else str(key)
            if key not in actual:
                _fail(problems, child, value, "<absent>", expected.key_span(key), describe(value) + " (present)")
                continue
            bindings = _match(value, actual[key], bindings, child, mode, problems)
        if mode == "exact":
            extra = [key for key in actual.keys() if key not in expected]
            if extra:
                problems.append(Mismatch(path, f"exactly the keys {list(expected.keys)}", f"also {sorted(map(str, extra))}", span))
        return bindings
    if isinstance(expected, Sequence):
        if not _is_sequence(actual):
            _fail(problems, path, expected, actual, span, "a list")
            return bindings
        if len(actual) != len(expected.items):
            _fail(problems, path, expected, actual, span, f"{len(expected.items)} items {describe(expected)}")
            return bindings
        for index, (item, value) in enumerate(zip(expected.items, actual)):
            bindings = _match(item, value, bindings, f"{path}[{index}]", mode, problems)
        return bindings
    # A plain Python value (from a rule, not from the fixture)
    if not _scalar_equal(expected, actual) and expected != actual:
        _fail(problems, path, expected, actual, span)
    return bindings


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place two plain values differ, as (path, a's value, b's value), or None."""
    def sequence(value: Any) -> bool:
        return is_sequence(value)

    if hasattr(a, "keys") and hasattr(b, "keys"):
        for key in list(a.keys()) + [k for k in b.keys() if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key, "<absent>"), b.get(key, "<absent>")
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if sequence(a) and sequence(b):
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        for index, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{index}]")
            if found:
                return found
        return None
    return None if a == b else (path, a, b)
