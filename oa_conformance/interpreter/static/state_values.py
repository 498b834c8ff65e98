"""State values against their declared types, before anything runs (conformance-adapter §5.2).

Two static checks over the typed fixture, each located at the offending value:

* a field's ``default:`` must match its ``type:`` (§5.2) — in every graph and subgraph declaration;
* a case's ``initial_state`` (and each invocation's) must give each declared field a value of its
  type — unless the case expects that very failure (a ``state_validation_error``, as graph-engine
  fixtures that test the validation do).

A value of the wrong type would otherwise fail at run time far from where it is written (the runtime
rejects the initial state: every expectation of the case fails), or — a default — not at all.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ...ast.visitor import sections_under
from ...ast.nodes import Mapping, Node, Scalar, Section, Sequence, TypeRef
from ...model.diagnostics import FIXTURE_SCHEMA_INVALID, Diagnostic, article
from .scenarios import Scenario, scenarios

STATE_VALIDATION_ERROR = "state_validation_error"  # graph-engine §4: what a wrong initial state raises

_SCALARS = {"string": (str,), "int": (int,), "float": (int, float), "bool": (bool,)}


def check_state_values(fixture: Section, cases: Iterable[Scenario] | None = None,
                       sections: Iterable[Section] | None = None) -> tuple[Diagnostic, ...]:
    """Every default and initial-state value that does not match its field's declared type
    (``cases``: the fixture's scenarios, ``sections``: its directive sections, when the caller has
    them already)."""
    problems = list(_defaults(fixture if sections is None else sections))
    for scenario in scenarios(fixture) if cases is None else cases:
        fields = _fields(scenario.view.state)
        if not fields:
            continue
        invocations = scenario.view.invocations
        states = [scenario.view.initial_state]
        if type(invocations) is Sequence:
            states += [item.initial_state for item in invocations.items if isinstance(item, Section)]
        found = [(name, declared, problem) for state in states if type(state) is Mapping for name, value in state.items()
                 if isinstance(declared := fields.get(name), TypeRef) and (problem := mismatch(declared, value)) is not None]
        if found and not _expects_state_validation_error(scenario.view.expected_compile_error, scenario):  # asked only when needed
            for name, declared, (node, expected) in found:
                problems.append(Diagnostic(node.span, FIXTURE_SCHEMA_INVALID, "initial-state-type",
                                           f"initial_state.{name}: {show(node)} is not {expected} (declared type {declared.spelling!r})"))
    unique = {(d.location, d.message): d for d in problems}  # a case list shares the fixture's declarations
    return tuple(sorted(unique.values(), key=lambda d: d.location))


def mismatch(declared: TypeRef, value: Node) -> tuple[Node, str] | None:
    """The first part of ``value`` that does not fit ``declared``, and what was expected there."""
    name, kind = declared.name, type(value)
    if name == "any":
        return None
    if name in _SCALARS:
        ok = kind is Scalar and isinstance(value.value, _SCALARS[name]) and (name == "bool" or not isinstance(value.value, bool))
        return None if ok else (value, f"{article(name)} {name}")
    if name == "list":
        if kind is not Sequence:
            return (value, "a list")
        element = declared.args[0] if declared.args else None
        return _first(mismatch(element, item) for item in value.items) if element is not None else None
    if name == "dict":
        if kind is not Mapping:
            return (value, "a mapping")
        if not declared.args:
            return None
        key_type, value_type = declared.args
        for key, key_span, item in zip(value.keys, value.key_spans, value.values):
            key_node = Scalar.make(value=key, span=key_span, quoted=False)
            found = mismatch(key_type, key_node) or mismatch(value_type, item)
            if found is not None:
                return found
        return None
    # Any other name is a record type: a mapping of its fields, or null for "no record yet".
    if kind is Mapping or (kind is Scalar and value.value is None):
        return None
    record = "a record" if name == "record" else f"{article(name)} {name} record"
    return (value, f"{record} (a mapping) or null")



def show(node: Node) -> str:
    """A value as a message names it: ``'zero'``, ``3``, ``null``, ``a list``."""
    if type(node) is not Scalar:
        return "a list" if type(node) is Sequence else "a mapping"
    if node.value is None or isinstance(node.value, bool):
        return str(node.value).lower().replace("none", "null")
    return repr(node.value)


def _first(problems) -> tuple[Node, str] | None:
    return next((p for p in problems if p is not None), None)


def _fields(state: Node | None) -> dict[str, TypeRef] | None:
    fields = state.fields if isinstance(state, Section) else None
    if type(fields) is not Mapping:
        return None
    return {name: decl.type for name, decl in fields.items() if isinstance(decl, Section)}


def _defaults(fixture: Section | Iterable[Section]) -> Iterator[Diagnostic]:
    """The defaults of the ``state`` sections of ``fixture`` (or of these sections)."""
    states = _sections(fixture, "state") if isinstance(fixture, Section) else (s for s in fixture if s.family == "state")
    for state in states:
        fields = state.fields
        if type(fields) is not Mapping:
            continue
        for name, decl in fields.items():
            if not isinstance(decl, Section):
                continue
            declared, default = decl.type, decl.default
            problem = mismatch(declared, default) if isinstance(declared, TypeRef) and default is not None else None
            if problem is not None:
                node, expected = problem
                yield Diagnostic(node.span, FIXTURE_SCHEMA_INVALID, "default-type",
                                 f"field {name!r}: default {show(node)} is not {expected} (declared type {declared.spelling!r})")


def _expects_state_validation_error(compile_error: Node | None, scenario) -> bool:
    if isinstance(compile_error, Scalar) and compile_error.value == STATE_VALIDATION_ERROR:
        return True
    return any(section.category is not None and section.category.value == STATE_VALIDATION_ERROR
               for section in _sections_of(scenario, "error_expectation"))


def _sections_of(scenario, family: str) -> Iterator[Section]:
    for _, value in scenario.section.items():
        yield from _sections(value, family)
    if scenario.case is not None:  # what the case inherits from the file
        for name, value in scenario.fixture.items():
            if name != "cases":
                yield from _sections(value, family)


def _sections(node: Node, family: str) -> Iterator[Section]:
    """The sections of ``family`` below ``node`` (data regions are not looked into)."""
    return (section for section in sections_under(node) if section.family == family)
