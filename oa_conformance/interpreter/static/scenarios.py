"""Scenarios: the cases of a fixture, each seen with what it inherits.

A fixture is one scenario (single-case form) or a list of ``cases:``; a case inherits every
top-level declaration it does not make itself — subgraphs, provider blocks, ``mapping``,
``backends``, even the graph — and a graph may be written inline or under ``graph:``. Every pass
after the static checks asks a :class:`Scenario`, so the inheritance rule lives in one place.
"""

from __future__ import annotations

from typing import Any, Iterator, NamedTuple

from ...model.diagnostics import Span
from ...ast.nodes import Mapping, Scalar, Section
from ...ast.views import BY_FAMILY
from ...ast.visitor import sections_under
from ...model.vocabulary import FILE_ONLY, VOCABULARY  # FILE_ONLY: the fixture-level directives a case never inherits (re-exported)

# Directives that belong to the file, not to a scenario: never inherited by a case.


class Scenario(NamedTuple):
    fixture: Section
    case: Section | None  # None in the single-case form
    index: int | None
    # The case's directives read once by the scenario pass (:func:`scenarios`): one immutable section
    # of the case family holding each directive's effective value — its own, else inherited — with
    # the key span where it was written. Later passes read its attributes (``scenario.view.expected``).
    view: Section | None = None

    @property
    def waits(self) -> float:
        """The seconds the case declares waiting (:func:`declared_waits`): its own section's and
        what it inherits from the fixture's top level. The schedulers start such a case first and
        let it wait apart from busy ones; summed when asked (``CaseRef.waits`` keeps it), as the
        linter never asks — a walk of every section of every case it would pay for nothing."""
        if self.case is None:
            return declared_waits(self.fixture)
        return declared_waits(self.case) + declared_waits(self.fixture, besides="cases")

    @property
    def name(self) -> str | None:
        if self.case is None:
            return None
        name = self.case.name
        return name.value if isinstance(name, Scalar) else f"case {self.index}"

    @property
    def section(self) -> Section:
        """The mapping the scenario was written as (the case, or the fixture)."""
        return self.case if self.case is not None else self.fixture

    @property
    def span(self) -> Span:
        """The case as one location: the `name:` line of its `cases:` entry (else the entry's first
        key); in the single-case form the whole file is the case, so the top of the file."""
        if self.case is not None:
            return self.case.key_span("name") if self.case.name is not None else self.case.span
        return Span(self.fixture.span.path, 1, 1)

    def sources(self) -> Iterator[Section]:
        """Where directives are looked up, nearest first."""
        if self.case is not None:
            yield self.case
            graph = self.case.get("graph")  # sections here may be declared subgraphs (lint's scopes): no `graph:`
            if graph is not None:
                yield graph
        yield self.fixture
        graph = self.fixture.get("graph")
        if graph is not None:
            yield graph

    def get(self, directive: str, default: Any = None) -> Any:
        """The directive's value as the scenario sees it (its own, else inherited).

        :meth:`sources`' order written out (the linter asks this some 8,000 times per corpus run):
        the case, its graph, the fixture (not for a file-only directive), the fixture's graph."""
        case = self.case
        if case is not None:
            value = _here_or_in_graph(case, directive)
            if value is not None:
                return value
        value = _here_or_in_graph(self.fixture, directive, here=case is None or directive not in FILE_ONLY)
        return default if value is None else value

    def where(self, directive: str) -> Section | None:
        """The section the directive's value comes from."""
        for source in self.sources():
            if source is self.fixture and self.case is not None and directive in FILE_ONLY:
                continue
            if directive in source:
                return source
        return None

    def graph_declarations(self) -> dict[str, Section]:
        """Every named graph the scenario can reference, by name, per conformance-adapter §5.4
        *Subgraph declaration placement* (proposal 0123).

        A declaration may sit at the document top level, inside the case, or inside the case's
        ``graph:`` block; where one name is declared at several sites the innermost in scope
        governs (:func:`declaration_sites`). Where both forms bind one name at one site, the mapping
        form (``subgraphs:``, or any ``*subgraphs`` mapping) governs over an inline block's ``name:``
        (``subgraph:``, ``subgraph_with_idx:`` …). Document order carries no meaning.
        """
        found: dict[str, Section] = {}
        for site in declaration_sites(self):
            inline: dict[str, Section] = {}
            mapped: dict[str, Section] = {}
            for name, graph, is_mapping in site_declarations(site):
                (mapped if is_mapping else inline).setdefault(name, graph)
            found |= inline
            found |= mapped
        return found


def site_declarations(site: Section) -> Iterator[tuple[str, Section, bool]]:
    """``(name, graph, is_mapping)`` for each graph one site declares, in document order: an inline
    block's ``name:`` (``is_mapping`` false) or a name-keyed mapping's entry (true)."""
    for _, value in site.items():
        if isinstance(value, Section) and value.family == "graph":
            name = value.name
            if isinstance(name, Scalar) and isinstance(name.value, str):
                yield name.value, value, False
        elif isinstance(value, Mapping):
            yield from ((str(key), item, True) for key, item in value.items()
                        if isinstance(item, Section) and item.family == "graph")


def declaration_sites(scenario: Scenario) -> list[Section]:
    """The sites that can declare a subgraph for ``scenario``, outermost first (§5.4): the document
    top level, its ``graph:`` block, the case, the case's ``graph:`` block."""
    sites = []
    for section in (scenario.fixture, scenario.case):
        if section is not None:
            sites.append(section)
            graph = section.get("graph")
            if graph is not None:
                sites.append(graph)
    return sites


def _here_or_in_graph(section: Section, directive: str, here: bool = True) -> Any:
    """The directive's value in ``section`` (unless not ``here``), else in its ``graph:`` block."""
    if here:
        value = section.named(directive)
        if value is not None:
            return value
    graph = section.get("graph")
    return None if graph is None else graph.named(directive)


def scenarios(fixture: Section) -> list[Scenario]:
    """The fixture's scenarios in document order, each with its directives read once (``view``)."""
    cases = fixture.cases
    if cases is None:
        return [with_view(Scenario(fixture, None, None))]
    return [with_view(Scenario(fixture, case, index)) for index, case in enumerate(cases.items)]


def declared_waits(section: Section, besides: str | None = None) -> float:
    """The seconds the directives at and below ``section`` (not under its directive ``besides``)
    declare waiting: each number of a row with a wait unit (``Directive.waits``: a node's
    ``sleep_ms``, an observer's ``sleep_ms_per_event``), once as written — a case's own section
    and what it inherits from the fixture's top level, all of it, as ``pipeline.own_sections`` reads
    the case (whether its graph reaches a sleeping node is not asked)."""
    total = _waits_of(section)
    for name, value in section.items():
        if name != besides and type(value) is not Scalar:
            total += sum(_waits_of(below) for below in sections_under(value))
    return total


def _waits_of(section: Section) -> float:
    """The waits ``section``'s own directives declare."""
    total = 0.0
    for attr, per_second in VOCABULARY.waits_in(section.family):
        value = getattr(section, attr)
        if type(value) is Scalar and type(value.value) in (int, float):
            total += value.value / per_second
    return total


def with_view(scenario: Scenario) -> Scenario:
    """``scenario`` with its view: every case-level directive it sees, by attribute, built once."""
    view_class = BY_FAMILY["case"]
    attrs = view_class.directive_attrs  # the case family's directive → attribute (over every directory)
    sources = tuple(scenario.sources())
    where: dict[str, Section] = {}  # each name's first source, as :meth:`Scenario.where` finds it
    for source in sources:
        file_only_skipped = source is scenario.fixture and scenario.case is not None
        for name in source.order:
            if name not in where and not (file_only_skipped and name in FILE_ONLY):
                where[name] = source
    names, spans, values = [], [], []
    for name in dict.fromkeys(n for source in sources for n in source.order):
        value = scenario.get(name) if name in attrs else None
        if value is not None:
            names.append(name)
            spans.append(where[name].key_span(name))
            values.append((attrs[name], value))
    view = object.__new__(view_class)
    for attribute, value in (("order", tuple(names)), ("key_spans", tuple(spans)), ("span", scenario.section.span), *values):
        object.__setattr__(view, attribute, value)
    object.__setattr__(view, "_pclass_frozen", True)
    return scenario._replace(view=view)
