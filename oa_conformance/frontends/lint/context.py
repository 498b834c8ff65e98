"""What a lint rule is given to look at, and what it gives back.

* :class:`FileContext` — one fixture file by name, with the names beside it (layout rules).
* :class:`SidecarContext` — a fixture's Markdown sidecar and the prose its citations name (citation
  rules).
* :class:`DocumentContext` — the YAML document the loader composed, before conversion (rules about
  how the YAML is written rather than what it means).
* :class:`FixtureContext` — one typed ``Fixture`` that passed the static checks, with the value
  tokens and predicates it holds (rules over the whole file).
* :class:`ScenarioContext` — one scenario of it (a case, or the single-case file) as
  :mod:`oa_conformance.interpreter.static.scenarios` sees it: its graph, the subgraphs it can reference, its
  sections, tokens and expectations (every per-case rule).
* :class:`Graph` — one graph of a scenario: the scenario's own, or a declared subgraph.

A rule's ``check`` yields :class:`Finding` values — a span and a message; the engine turns them into
:class:`~oa_conformance.model.diagnostics.Diagnostic` records with the rule's code and severity.
"""

from __future__ import annotations

import difflib
from collections import Counter
from functools import cached_property, lru_cache
from typing import Iterable, Iterator, Mapping, NamedTuple

from ...grammar.value_tokens import content_span
from ...ast.nodes import BindingToken, FormatToken, Mapping, Node, PredicateBlock, PredicateRef, Scalar, Section, Sequence
from ...interpreter.static.scenarios import FILE_ONLY, Scenario, scenarios
from ...model.diagnostics import Span
from ...ast.visitor import distinct_sections
from ...grammar import check as grammar_check
from ...grammar import looks_like_token, parse_token
from ...model.vocabulary import VOCABULARY, Directive
from ...model.vocabulary import shapes as sh
from .spec_terms import END


class Finding(NamedTuple):
    span: Span
    message: str
    severity: str | None = None  # the rule's own unless a rule says otherwise for this finding


class SidecarContext(NamedTuple):
    """A fixture's ``.md`` sidecar, with the spec prose its citations resolve against (None: no prose)."""

    path: str  # the sidecar
    fixture: str  # the fixture it accompanies
    capability: str
    text: str
    prose: Mapping | None  # capability → coverage.resolve.StatementIndex (coverage.prose_index.ProseIndexes: each read when first asked for)
    own: bool  # the fixture is one of this project's bundled cases (its spec/)


class FileContext(NamedTuple):
    """A fixture file as a name in its directory (nothing read)."""

    path: str
    name: str  # the file name: NNN-kebab-slug.yaml
    in_conformance_dir: bool
    siblings: tuple[str, ...]  # every file name in the same directory, sorted

    def at_start(self, message: str) -> Finding:
        return Finding(Span(self.path, 1, 1), message)


class DocumentContext(NamedTuple):
    """A fixture's YAML as libyaml composed it for the loader (the same parse: nothing read twice)."""

    path: str
    text: str  # the decoded text (no byte-order mark)
    root: object  # PyYAML's root node: plain scalars keep their text, style and YAML 1.2 tag


# --------------------------------------------------------------------------------------------
# The index: one pass over a subtree, collecting what rules look up by kind


class FixtureIndex(NamedTuple):
    sections: dict[str, list[Section]]  # by family, document order
    bindings: list[BindingToken]
    formats: list[FormatToken]
    predicates: list[PredicateRef]


def index_of(node: Node) -> FixtureIndex:
    """Sections (by family), value tokens and invariant predicates below ``node``, in document order."""
    sections: dict[str, list[Section]] = {}
    bindings: list[BindingToken] = []
    formats: list[FormatToken] = []
    predicates: list[PredicateRef] = []
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        current = pop()
        kind = type(current)
        # Scalars (a third of what is below) are never pushed: they hold nothing indexed.
        if kind is Mapping:
            push([value for value in reversed(current.values) if type(value) is not Scalar])
        elif kind is Sequence:
            push([item for item in reversed(current.items) if type(item) is not Scalar])
        elif kind is BindingToken:
            bindings.append(current)
        elif kind is FormatToken:
            formats.append(current)
        elif kind is PredicateBlock:
            for ref in current.predicates:
                predicates.append(ref)
                push(_data_tokens(ref.value))
        elif isinstance(current, Section):
            family = current.family
            sections.setdefault(family, []).append(current)
            attrs = current.directive_attrs
            indexed = _indexed_directives(family)
            push([getattr(current, attrs[name]) for name in reversed(current.order) if name in indexed])
    return FixtureIndex(sections, bindings, formats, predicates)


@lru_cache(maxsize=None)
def _indexed_directives(family: str) -> frozenset[str]:
    """The directives of a family whose value can hold what the index collects (sections, tokens,
    predicates).

    A pure data region (an initial state, an update, a mock response body) cannot, and is skipped:
    that is most of a provider fixture's bytes.
    """
    return frozenset(d.name for d in VOCABULARY.directives_of(family) if _holds_nodes(d.shape))


def _holds_nodes(shape: sh.Shape) -> bool:
    return sh.can_hold(shape, (sh.SectionShape, sh.Expect, sh.Predicates))


def _data_tokens(value: Node) -> list[Node]:
    """The well-formed value tokens written in a data region.

    A predicate's value is data, but may cross-reference the case's binding tokens; a string that
    does not parse as a token stays a string there (nothing in a data region is a matcher).
    """
    found: list[Node] = []
    stack = [value]
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind is Scalar:
            text = current.value
            if isinstance(text, str) and looks_like_token(text) and grammar_check("token", text) is None:
                found.append(parse_token(text, content_span(current)))
        elif kind is Mapping:
            stack.extend(current.values)
        elif kind is Sequence:
            stack.extend(current.items)
    return found


# --------------------------------------------------------------------------------------------
# Fixtures


class FixtureContext:
    """One typed fixture, read and checked by the static passes."""

    def __init__(self, path: str, capability: str | None, fixture: Section, cases: Iterable[Scenario] | None = None,
                 sections: tuple[Section, ...] | None = None):
        self.path = path
        self.capability = capability
        self.fixture = fixture
        self._cases = cases  # the scenario pass's output when the reading already ran it
        if sections is not None:  # the reading's walk of the directive sections (else walked when first asked)
            self.sections = sections
        self._indexes: dict[int, FixtureIndex] = {}

    def index(self, node: Node) -> FixtureIndex:
        """The index of one subtree, computed once (cases share their inherited directives)."""
        return _cached_index(self._indexes, node)

    @cached_property
    def sections(self) -> tuple[Section, ...]:
        """Every directive section of the fixture, each once (``ast.visitor.distinct_sections``)."""
        return distinct_sections(self.fixture)

    @cached_property
    def scenarios(self) -> list[ScenarioContext]:
        cases = scenarios(self.fixture) if self._cases is None else self._cases
        return [ScenarioContext(self, scenario) for scenario in cases]

    @cached_property
    def parts(self) -> list[FixtureIndex]:
        """The indexes of everything the scenarios hold, each shared value once."""
        values = {id(value): value for scenario in self.scenarios for _, value in scenario.items}
        return [self.index(value) for value in values.values()]

    @cached_property
    def formats(self) -> list[FormatToken]:
        return [token for part in self.parts for token in part.formats]

    @cached_property
    def predicates(self) -> list[PredicateRef]:
        return [predicate for part in self.parts for predicate in part.predicates]


# A scalar directive value (a third of them: `name:`, `entry:`, `description:` …) holds nothing the
# index collects: they all share this one, never built, never mutated (readers only iterate).
_NOTHING = FixtureIndex({}, [], [], [])


def _cached_index(indexes: dict[int, FixtureIndex], node: Node) -> FixtureIndex:
    if type(node) is Scalar:
        return _NOTHING
    key = id(node)
    found = indexes.get(key)
    if found is None:
        found = indexes[key] = index_of(node)
    return found


# --------------------------------------------------------------------------------------------
# Graphs


class Graph(NamedTuple):
    """One graph: ``entry``, ``nodes`` (name → NodeDecl), ``edges`` and ``state``, each possibly absent."""

    name: str | None  # None: the scenario's own graph
    entry: Scalar | None
    nodes: Mapping | None
    edges: Sequence | None
    state: Section | None
    anchor: Span  # where graph-level problems are reported: the `nodes:` key

    @property
    def label(self) -> str:
        return "the graph" if self.name is None else f"subgraph {self.name!r}"

    @property
    def node_names(self) -> frozenset:
        return frozenset(self.nodes.keys) if self.nodes is not None else frozenset()

    @property
    def fields(self) -> Mapping | None:
        """The state fields (name → FieldDecl), or None when the graph declares no schema."""
        return fields_of(self.state)

    @property
    def field_names(self) -> frozenset | None:
        fields = self.fields
        return frozenset(fields.keys) if fields is not None else None

    def node_items(self) -> Iterator[tuple[str, Section]]:
        if self.nodes is not None:
            yield from self.nodes.items()

    def edge_items(self) -> Iterator[Section]:
        if self.edges is not None:
            yield from self.edges.items


def fields_of(state: Node | None) -> Mapping | None:
    """A ``state:`` block's fields (name → FieldDecl), or None."""
    fields = state.fields if isinstance(state, Section) else None
    return fields if type(fields) is Mapping else None


def schema_fields(graph: Section) -> frozenset | None:
    """The field names a graph declaration's ``state:`` declares (None: no schema to check against)."""
    fields = fields_of(graph.state)
    return frozenset(fields.keys) if fields is not None else None


def graph_of(section: Section, name: str | None) -> Graph | None:
    """The graph a section declares (a subgraph declaration), or None when it declares no nodes."""
    nodes = section.nodes
    if type(nodes) is not Mapping:
        return None
    return Graph(name, section.entry, nodes, section.edges, section.state, section.key_span("nodes"))


def _nested_graphs(section: Section) -> Iterator[tuple[str, Section]]:
    """Named graph declarations inside a graph declaration (a subgraph's own subgraphs)."""
    scenario = Scenario(section, None, None)
    yield from scenario.graph_declarations().items()


# --------------------------------------------------------------------------------------------
# Scenarios


class ScenarioContext:
    """One scenario of a fixture, with everything per-case rules look up."""

    def __init__(self, fixture: FixtureContext, scenario: Scenario):
        # The fixture's index cache, not the fixture: the fixture holds its scenarios, and a
        # reference back would make a cycle that keeps the whole AST for the cyclic collector.
        self._indexes = fixture._indexes
        self.scenario = scenario
        self.view = scenario.view  # the case's directives, own or inherited, as typed attributes (the scenario pass)
        self.path = fixture.path
        self.capability = fixture.capability
        self._sections: dict[str, list[Section]] = {}

    @cached_property
    def items(self) -> list[tuple[str, Node]]:
        """The scenario's directives: its own, then those it inherits from the top level."""
        fixture, case = self.scenario.fixture, self.scenario.case
        if case is None:
            return list(fixture.items())
        own = set(case.order)
        inherited = [(k, v) for k, v in fixture.items() if k not in own and k not in FILE_ONLY]
        return list(case.items()) + inherited

    @cached_property
    def parts(self) -> list[FixtureIndex]:
        """The indexes of the scenario's directives (shared with the other cases that inherit them)."""
        return [_cached_index(self._indexes, value) for _, value in self.items]

    def sections(self, family: str) -> list[Section]:
        """The scenario's sections of one family (nodes, edges, ``expected:`` blocks …)."""
        found = self._sections.get(family)
        if found is None:
            found = self._sections[family] = [section for part in self.parts for section in part.sections.get(family, ())]
        return found

    @cached_property
    def bindings(self) -> list[BindingToken]:
        """The binding tokens of the scenario's expectations (and invariant values)."""
        return [token for part in self.parts for token in part.bindings]

    # ---- graphs --------------------------------------------------------------------------------

    @cached_property
    def main(self) -> Graph | None:
        """The scenario's own graph (None when it runs no graph: provider or prompt fixtures)."""
        view = self.view
        nodes = view.nodes
        if type(nodes) is not Mapping:
            return None
        anchor = self.scenario.where("nodes").key_span("nodes")
        return Graph(None, view.entry, nodes, view.edges, view.state, anchor)

    @cached_property
    def declarations(self) -> dict[str, Section]:
        """Every named subgraph declaration the scenario can reference, nested ones included."""
        found = dict(self.scenario.graph_declarations())
        pending = list(found.values())
        while pending:
            for name, section in _nested_graphs(pending.pop()):
                if name not in found:
                    found[name] = section
                    pending.append(section)
        return found

    @cached_property
    def subgraphs(self) -> dict[str, Graph]:
        graphs = {}
        for name, section in self.declarations.items():
            graph = graph_of(section, name)
            if graph is not None:
                graphs[name] = graph
        return graphs

    def graphs(self) -> list[Graph]:
        """The scenario's own graph, then each declared subgraph that declares nodes."""
        own = [self.main] if self.main is not None else []
        return own + list(self.subgraphs.values())

    @cached_property
    def all_node_names(self) -> frozenset:
        return frozenset().union(*(graph.node_names for graph in self.graphs()))

    def field_decls(self) -> Iterator[tuple[str, Section]]:
        """Every state field declared in the scenario's graphs and subgraphs: (name, FieldDecl)."""
        for state in self.sections("state"):
            fields = fields_of(state)
            if fields is not None:
                for name, decl in fields.items():
                    if isinstance(decl, Section):
                        yield name, decl

    def reducer_uses(self) -> Iterator[tuple[str, ReducerUse]]:
        """Every reducer a field declares (``reducer:`` and ``alt_reducer:``): (field name, use)."""
        for name, decl in self.field_decls():
            for value in (decl.reducer, decl.alt_reducer):
                use = reducer_use(value)
                if use is not None:
                    yield name, use

    # ---- expectations --------------------------------------------------------------------------

    @cached_property
    def compile_error(self) -> str | None:
        """The graph-engine §2 category the scenario expects compilation to fail with, if any."""
        value = self.view.expected_compile_error
        return value.value if isinstance(value, Scalar) and isinstance(value.value, str) else None

    @cached_property
    def expected_errors(self) -> frozenset[str]:
        """Every error category the scenario expects: at compile time or raised by an invocation."""
        found = {self.compile_error} if self.compile_error else set()
        for section in self.sections("error_expectation"):
            category = section.category
            if isinstance(category, Scalar) and isinstance(category.value, str):
                found.add(category.value)
        return frozenset(found)

    def binding_counts(self) -> Counter:
        return Counter(token.text for token in self.bindings)

    def invocations(self) -> list[Section]:
        """The entries of an ``invocations:`` list (none in the single-invocation form)."""
        invocations = self.view.invocations
        if type(invocations) is not Sequence:
            return []
        return [item for item in invocations.items if isinstance(item, Section)]


# --------------------------------------------------------------------------------------------
# Small helpers rules share


def did_you_mean(name: object, candidates: Iterable[str], cutoff: float = 0.6) -> str:
    """`` (did you mean 'x'?)`` when a candidate is close to ``name``, else ``""``."""
    hint = difflib.get_close_matches(str(name), [c for c in candidates if isinstance(c, str)], n=1, cutoff=cutoff)
    return f" (did you mean {hint[0]!r}?)" if hint else ""


def text_of(node: Node | None) -> str | None:
    """The string a scalar holds (None for anything else)."""
    return node.value if type(node) is Scalar and isinstance(node.value, str) else None


def edge_targets(edge: Section) -> list[Scalar]:
    """Where an edge may route: its ``to``, and a condition's ``then`` / ``else``."""
    found = [edge.to]
    condition = edge.condition
    if isinstance(condition, Section):
        found += [condition.then, condition.else_]
    return [target for target in found if type(target) is Scalar]


def undeclared_target(target: Node | None, graph: Graph) -> str | None:
    """For an edge target that names neither ``END`` nor a node of ``graph``: a did-you-mean hint
    (possibly empty). None when the target is fine or absent."""
    if type(target) is not Scalar or target.value == END or text_of(target) in graph.node_names:
        return None
    return did_you_mean(target.value, list(graph.node_names) + [END])


def routes_anywhere(edge: Section) -> bool:
    """A routing callable with no declared destination: it may route to any node."""
    condition = edge.condition
    return isinstance(condition, Section) and "callable" in condition and not edge_targets(edge)


@lru_cache(maxsize=None)
def _reference_directives(family: str) -> tuple[Directive, ...]:
    """The rows of ``family`` that name a subgraph to run: a string-valued ``subgraph`` or
    ``*_subgraph`` (a node's, a fan-out's, a branch's …), read off the vocabulary."""
    return tuple(
        d for d in VOCABULARY.directives_of(family)
        if (d.name == "subgraph" or d.name.endswith("_subgraph")) and isinstance(d.shape, sh.ScalarShape)
    )


@lru_cache(maxsize=None)
def referencing_families() -> tuple[str, ...]:
    """The families with a directive naming a subgraph to run."""
    return tuple(family for family in VOCABULARY.families if _reference_directives(family))


def subgraph_reference(section: Section) -> Scalar | None:
    """The subgraph a section runs (``subgraph: inner``), if it names one."""
    for row in _reference_directives(section.family):
        value = section.given(row)
        if type(value) is Scalar:
            return value
    return None


def child_sections(value: Node) -> Iterator[Section]:
    """The sections directly inside a directive's value (through lists and name-keyed maps)."""
    if isinstance(value, Section):
        yield value
    elif type(value) is Mapping:
        for item in value.values:
            yield from child_sections(item)
    elif type(value) is Sequence:
        for item in value.items:
            yield from child_sections(item)


class ReducerUse(NamedTuple):
    """A reducer as written: ``append`` (string form) or ``{bounded_append: {max_len: 3}}``."""

    name: object
    span: Span  # the name's
    arguments: Mapping | None  # the factory form's kwargs; None for the string form
    factory_form: bool
    extra_keys: tuple[Span, ...]  # keys after the first in a factory form (it has exactly one)


def reducer_use(value: Node | None) -> ReducerUse | None:
    if type(value) is Scalar:
        return ReducerUse(value.value, value.span, None, False, ())
    if type(value) is Mapping and value.keys:
        arguments = value.values[0]
        return ReducerUse(value.keys[0], value.key_spans[0], arguments if type(arguments) is Mapping else None, True, tuple(value.key_spans[1:]))
    return None
