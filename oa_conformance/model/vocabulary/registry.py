"""The directive table: families, directives, and lookups over them.

A **family** is a kind of mapping in a fixture whose keys are directives (the fixture top level, a
case, a node, an edge, an ``expected:`` block …); each becomes one AST class. A **directive** is one
key a family allows, with the shape of its value, the spec section and capability it serves and the
spec version it arrived in. Every entry lives in one of the per-capability modules of this package;
:data:`VOCABULARY` gathers them, and the schema check, the AST builder, the linter and the docs all
read it.
"""

from __future__ import annotations

import keyword
from functools import lru_cache
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterable

from .shapes import Shape


@dataclass(frozen=True)
class Family:
    """A directive family: one kind of directive mapping, one AST class."""

    name: str
    class_name: str
    doc: str
    required: tuple[str, ...] = ()
    # Groups of directives of which at most one may appear (e.g. ``to`` / ``condition`` on an edge).
    exclusive: tuple[tuple[str, ...], ...] = ()
    # Groups of directives of which at least one must appear (``category`` / ``exception_kind``).
    any_of: tuple[tuple[str, ...], ...] = ()


# Who consumes a directive at run time (``Directive.handled_by``). The vocabulary names handlers by
# kind and key only (it imports nothing above it); the interpreter's explicit tables map the keys of
# the keyed kinds to functions, and every list of supported directives is derived from these rows.
HANDLER_KINDS = {
    # general kinds: the graph executor in any directory (a key restricts the row to that directory)
    "static": "read by the reading passes only (names, markers, the case gate); nothing to run",
    "graph": "graph build (graph_build.py) reads it to build the compiled graph",
    "run": "the execute pass (execute.py, resume.py) reads it to set up or drive the invocations",
    # keyed kinds: the key names an entry of an interpreter table
    "capture": "a capture a capability harness enters around the graph run (key: the capture's name)",
    "direct": "a capability harness's own run reads it (key: the capability)",
    "case_expectation": "a capability's shapes judge it beside `expected:` (key: the capability)",
    "node": "a node-body step, run in document order (key: the node behaviour table entry)",
    "node_middleware": "a middleware graph build puts around the node (key: the node middleware table entry)",
    "expectation": "the assert pass judges it (key: the rule builder table entry, assertions/rule_builders.py)",
    # node keys graph build reads itself
    "node_modifier": "graph build applies it around the body (middleware, an error category)",
    "composition": "graph build composes the node from the runtime's primitive (subgraph, fan-out …)",
    "projection": "graph build reads it at a subgraph boundary",
    # the rest
    "part": "read by the handler of the directive whose value holds it",
    "not_executed": "accepted by the schema, not executed yet: a case using it fails as not implemented",
}
# The kinds whose key names an interpreter table entry (a general kind's optional key is a directory).
KEYED_KINDS = frozenset(("capture", "direct", "case_expectation", "node", "node_middleware", "expectation"))
GENERAL_KINDS = frozenset(("static", "graph", "run"))
# The kinds the general passes run in any directory, whatever their key: what the gates accept.
GENERAL_PASSES = GENERAL_KINDS | {"expectation"}


@dataclass(frozen=True)
class Handler:
    """One consumer of a directive: a kind of :data:`HANDLER_KINDS`, the key of its table entry (or,
    for a general kind, the one directory it serves), and the families it holds in (default: all the
    directive's families — ``crash_injection`` is run at case level but not per invocation)."""

    kind: str
    key: str = ""
    families: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in HANDLER_KINDS:
            raise ValueError(f"unknown handler kind {self.kind!r}")
        if self.kind in KEYED_KINDS and not self.key:
            raise ValueError(f"handler kind {self.kind!r} needs the key of its table entry")
        if self.key and self.kind not in KEYED_KINDS | GENERAL_KINDS:
            raise ValueError(f"handler kind {self.kind!r} takes no key")

    def holds_in(self, family: str) -> bool:
        return not self.families or family in self.families


def every_use(value: Any) -> bool:
    """An extension every use of its directive depends on (a key upstream lacks)."""
    return True


def null_value(value: Any) -> bool:
    """An extension only its ``null`` value depends on (the key is upstream, ``null`` is not)."""
    return getattr(value, "value", 0) is None


def value_naming(*keys: str) -> Callable[[Any], bool]:
    """An extension a value depends on when it names one of ``keys``: a mapping with one of them as a
    key, or a list with such a mapping (an option upstream lacks, on the directive or on an entry)."""
    wanted = frozenset(keys)

    def names(value: Any) -> bool:
        # Duck-typed over the AST's data nodes (this layer sits below the AST): a Mapping holds
        # ``keys`` and ``values``, a Sequence ``items``.
        mapping_keys, items = getattr(value, "keys", None), getattr(value, "items", None)
        if mapping_keys is not None and not callable(mapping_keys):
            return any(getattr(k, "value", k) in wanted for k in mapping_keys)
        if items is not None and not callable(items):
            return any(names(item) for item in items)
        return False

    return names


def value_among(*values: Any) -> Callable[[Any], bool]:
    """An extension a scalar value depends on when it is one of ``values`` (a kind upstream lacks)."""
    wanted = frozenset(values)
    return lambda value: getattr(value, "value", None) in wanted


@dataclass(frozen=True)
class Extension:
    """What a directive adds to the fixture language beyond upstream: an EXTENSION of this adapter,
    not spec. ``doc`` says what it adds and why; ``used_by(value)`` says whether one use of the
    directive depends on it (every use, or only some values: a ``null``, an option, a kind)."""

    doc: str
    used_by: Callable[[Any], bool] = every_use


# Where the assert pass judges an expectation directive (``Directive.judged``): the steps of its plan
# (``assertions/assert_pass.plan``), in the order it takes them. A step reads the rows naming it in
# their ``order``; rows sharing a slot (step and order) are alternatives, the first the fixture gives wins.
ASSERT_STEPS = {
    "compile_error": "compilation must fail: judged alone, and it decides the case",
    "build_or_run_error": "an error allowed at graph build or at run time (the case's, then `resume:`'s): judged alone",
    "construction_error": "standing the observers up (or their first use) must raise",
    "construction_observed": "when standing the observers up raised as expected, what the captures saw standing up",
    "compile_warning": "compilation must warn",
    "direct": "a direct case (no graph run) judges it beside its directory's shapes",
    "run_error": "a run's expected error: the first holder giving it (the run's own entry, then the case) accounts for the run's error",
    "run_block": "one of each run's blocks, judged against that run",
    "whole_case": "an `invocations:` case's case-level block, about the runs as a whole",
    "whole_case_unverified": "a case-level block not implemented beside `invocations:` (an unverified check)",
}


@dataclass(frozen=True)
class Judged:
    """One place in the assert pass's plan: a step of :data:`ASSERT_STEPS`, the directive's order in
    it, and which runs it is judged in (True: a resume case's first run only; False: every run but
    that one; None: every run). In a slot, a first-run row comes before the rest."""

    step: str
    order: int = 0
    first_run: bool | None = None

    def __post_init__(self) -> None:
        if self.step not in ASSERT_STEPS:
            raise ValueError(f"unknown assert step {self.step!r}")

    def in_run(self, first_run: bool) -> bool:
        return self.first_run is None or self.first_run == first_run


# What a directive's number declares the case will wait, in wall-clock time (``Directive.waits``): its
# unit, as how many of it make a second. The scenario pass sums a case's declared waits (``Scenario.waits``); the schedulers
# start the cases that wait first, and give them a process of their own (scheduling/processes.py).
WAIT_UNITS = {"ms": 1000, "s": 1}


@dataclass(frozen=True)
class Directive:
    """One key a family allows."""

    name: str
    where: tuple[str, ...]
    shape: Shape
    section: str
    capability: str
    since: str | None = None
    doc: str = ""
    # "general" (conformance-adapter §5) or "directory" (a §3.2 fixture-header vocabulary).
    scope: str = "general"
    # Who consumes it at run time (one Handler, or several when two directories read it).
    handled_by: tuple[Handler, ...] | Handler = ()
    # The prose that makes the expectation SHOULD-level (capability, section and the sentence), or ""
    # for a MUST: a check of a SHOULD-level directive that does not hold is a warning, never a failure.
    should: str = ""
    # True for a directive this adapter adds beyond the upstream fixture language (an EXTENSION, not
    # spec): its doc says what it extends. `oa-lint` reports each use as information (V005), so a
    # fixture meant for upstream shows where it depends on one; docs/PREDICATES.md lists them.
    extension: Extension | None = None
    # Where the assert pass judges it (an expectation directive the pass's plan reads): :class:`Judged`.
    judged: tuple[Judged, ...] | Judged = ()
    # A deliberate wait (a slow node, a paced observer): the unit of :data:`WAIT_UNITS` its number is
    # in; a value of another kind (a pacing section) declares none itself. "" for every other row.
    waits: str = ""
    attr: str = field(default="", init=False, compare=False)  # the Python attribute on its family's AST class

    def __post_init__(self) -> None:
        # The AST attribute name, computed once (the builder reads it for every directive).
        object.__setattr__(self, "attr", _attr_names(self.name))
        if isinstance(self.handled_by, Handler):
            object.__setattr__(self, "handled_by", (self.handled_by,))
        if isinstance(self.judged, Judged):
            object.__setattr__(self, "judged", (self.judged,))
        if self.waits and self.waits not in WAIT_UNITS:
            raise ValueError(f"directive {self.name!r}: unknown wait unit {self.waits!r} (known: {', '.join(WAIT_UNITS)})")

    def handlers_in(self, family: str) -> tuple[Handler, ...]:
        """Its handlers where it appears in ``family``."""
        return tuple(h for h in self.handled_by if h.holds_in(family))  # type: ignore[union-attr]


def attr_name(directive: str) -> str:
    """The Python attribute a directive is stored under (``from`` → ``from_``)."""
    return _attr_names(directive)


@lru_cache(maxsize=None)
def _attr_names(directive: str) -> str:
    name = directive.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) or name in _RESERVED else name


# Names a Section subclass already uses for itself.
_RESERVED = frozenset(("span", "order", "key_spans", "key_span", "get", "given", "named", "items", "family", "directive_attrs", "holding",
                       "children", "set", "serialize", "remove", "transform", "evolver", "make"))


class Vocabulary:
    """Immutable lookup over the families and directives."""

    def __init__(self, families: Iterable[Family], directives: Iterable[Directive]):
        fams: dict[str, Family] = {}
        for fam in families:
            if fam.name in fams:
                raise ValueError(f"family {fam.name!r} declared twice")
            fams[fam.name] = fam
        table: dict[tuple[str, str], Directive] = {}
        local: dict[tuple[str, str, str], Directive] = {}
        by_family: dict[str, list[Directive]] = {name: [] for name in fams}
        for directive in directives:
            if directive.scope not in ("general", "directory"):
                raise ValueError(f"directive {directive.name!r} has unknown scope {directive.scope!r}")
            for family in directive.where:
                if family not in fams:
                    raise ValueError(f"directive {directive.name!r} names unknown family {family!r}")
                if directive.scope == "general":
                    if (family, directive.name) in table:
                        raise ValueError(f"directive {directive.name!r} declared twice in family {family!r}")
                    table[(family, directive.name)] = directive
                else:
                    key = (family, directive.name, directive.capability)
                    if key in local:
                        raise ValueError(f"directive {directive.name!r} declared twice in family {family!r} for {directive.capability}")
                    local[key] = directive
                by_family[family].append(directive)
        for fam in fams.values():
            declared = {d.name for d in by_family[fam.name]}
            for name in fam.required + tuple(n for group in fam.exclusive + fam.any_of for n in group):
                if name not in declared:
                    raise ValueError(f"family {fam.name!r} constrains undeclared directive {name!r}")
        self.families = MappingProxyType(fams)
        self._table = MappingProxyType(table)
        self._local = MappingProxyType(local)
        self._local_any = MappingProxyType({(f, n): d for (f, n, _c), d in reversed(list(local.items()))})
        self._by_family = MappingProxyType({k: tuple(v) for k, v in by_family.items()})
        self._cache: dict[tuple, Directive | None] = {}
        self._tables: dict[tuple, dict] = {}
        self._steps: dict[str, tuple] = {}
        self._waits: dict[str, tuple[tuple[str, float], ...]] = {}
        self._extended: dict[str, frozenset[str]] = {}

    @property
    def capabilities(self) -> tuple[str, ...]:
        """Every capability a directive serves (the spec's capability folders, conformance-adapter
        included), sorted."""
        return tuple(sorted({d.capability for directives in self._by_family.values() for d in directives}))

    def lookup(self, family: str, name: object, capability: str | None = None) -> Directive | None:
        key = (family, name, capability)
        try:
            return self._cache[key]
        except KeyError:
            found = self._cache[key] = self._lookup(family, name, capability)
            return found
        except TypeError:  # an unhashable key (not a scalar) names no directive
            return None

    def _lookup(self, family: str, name: object, capability: str | None) -> Directive | None:
        """The directive ``name`` in ``family`` for a fixture of ``capability``'s directory.

        A directory-scoped directive (§3.2: a fixture-header vocabulary) is found only for its own
        directory, and wins over a general one of the same name there. With no capability (a
        fixture read from stdin or outside a ``conformance/`` directory) any directory's
        vocabulary is accepted.
        """
        if capability is not None:
            found = self._local.get((family, name, capability))  # type: ignore[arg-type]
            if found is not None:
                return found
            return self._table.get((family, name))  # type: ignore[arg-type]
        found = self._table.get((family, name))  # type: ignore[arg-type]
        return found if found is not None else self._local_any.get((family, name))  # type: ignore[arg-type]

    def table(self, family: str, capability: str | None = None) -> dict:
        """Directive name → Directive for ``family`` as ``capability``'s fixtures see it (a plain dict,
        built once: the passes look a key up with ``dict.get``, no Python frame per key)."""
        key = (family, capability)
        found = self._tables.get(key)
        if found is None:
            names = {d.name for d in self._by_family[family]}
            found = self._tables[key] = {name: self.lookup(family, name, capability) for name in names}
            found = {name: d for name, d in found.items() if d is not None}
            self._tables[key] = found
        return found

    def directives_of(self, family: str, capability: str | None = None) -> tuple[Directive, ...]:
        """The directives a family allows (for ``capability``'s directory, when given)."""
        every = self._by_family[family]
        if capability is None:
            return every
        return tuple(d for d in every if d.scope == "general" or d.capability == capability)

    def attrs_of(self, family: str) -> dict[str, str]:
        """Directive name → AST attribute, over every directory's vocabulary."""
        return {d.name: d.attr for d in self._by_family[family]}

    def handled_by(self, family: str, kinds: Iterable[str], key: str = "") -> frozenset[str]:
        """The names of ``family``'s directives that a handler of one of ``kinds`` with ``key``
        consumes there (an ``expectation`` handler whatever its key: the key names a rule builder,
        not a directory): every list of the supported surface is one of these."""
        kinds = frozenset(kinds)
        return frozenset(d.name for d in self._by_family[family]
                         if any(h.kind in kinds and (h.key == key or h.kind == "expectation") for h in d.handlers_in(family)))

    def rule_builder(self, family: str, name: str, capability: str | None = None) -> str | None:
        """The rule builder key the row of ``name`` in ``family`` names (``expectation("<key>")``), or None."""
        row = self.lookup(family, name, capability)
        keys = [h.key for h in row.handlers_in(family) if h.kind == "expectation"] if row is not None else []
        return keys[0] if keys else None

    def judged_at(self, step: str) -> tuple[tuple[Directive, Judged], ...]:
        """The rows the assert pass judges at ``step`` (row and place), in their order; in a slot, a
        first-run row first."""
        found = self._steps.get(step)
        if found is None:
            places = [(d, j) for d in self.all_directives() for j in d.judged if j.step == step]  # type: ignore[union-attr]
            found = self._steps[step] = tuple(sorted(places, key=lambda place: (place[1].order, place[1].first_run is not True, place[0].name)))
        return found

    def waits_in(self, family: str) -> tuple[tuple[str, float], ...]:
        """``(AST attribute, units per second)`` of each of ``family``'s directives that declare a wait
        (``Directive.waits``), over every directory's rows (a test checks no two rows of one name disagree)."""
        found = self._waits.get(family)
        if found is None:
            found = self._waits[family] = tuple(sorted({(d.attr, WAIT_UNITS[d.waits]) for d in self._by_family[family] if d.waits}))
        return found

    def extended_in(self, family: str) -> frozenset[str]:
        """The names of ``family``'s directives that carry an EXTENSION (``Directive.extension``) in
        some directory: the only keys of a section worth looking up for one."""
        found = self._extended.get(family)
        if found is None:
            found = self._extended[family] = frozenset(d.name for d in self._by_family.get(family, ()) if d.extension is not None)
        return found

    def keys_of(self, kind: str) -> frozenset[str]:
        """Every key the rows give handlers of ``kind`` (a test checks each names a table entry)."""
        return frozenset(h.key for d in self.all_directives() for h in d.handled_by if h.kind == kind)  # type: ignore[union-attr]

    def all_directives(self) -> Iterable[Directive]:
        seen: set[int] = set()
        for directive in (d for group in self._by_family.values() for d in group):
            if id(directive) not in seen:
                seen.add(id(directive))
                yield directive


# What a row's ``handled_by`` may be given as (one handler or several).
Handlers = tuple[Handler, ...] | Handler
