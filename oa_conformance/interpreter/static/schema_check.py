"""Schema check: every problem in a fixture's value tree, against the vocabulary table.

Walks the loader's value tree with the shape each position must have, starting from the
``fixture`` family, and reports — all of them, not just the first:

* ``fixture_directive_unknown`` for a key no family at that position declares;
* ``fixture_schema_invalid`` for a value of the wrong kind or type, a missing required directive,
  two mutually exclusive directives, or a string in a mini-language (type string, value token,
  resume placeholder, version) that does not parse — pointing at the column inside the string.

Data regions (state values, expected states, attribute maps, wire bodies) are values: their keys
are never directives. Invariant predicate names are references; they are resolved later, by the
assertion layer, and only their block's shape is checked here — and, with ``predicate_misspelling``
(the pipeline passes the catalogue's), whether a name misspells a known one.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable

from ...ast.nodes import Mapping, Node, Scalar, Sequence
from ...grammar.value_tokens import token_sites
from .shape_match import choose, describe_value, node_kind, scalar_problem, site_keys
from ...ast.visitor import Visitor
from ...model.diagnostics import FIXTURE_DIRECTIVE_UNKNOWN, FIXTURE_SCHEMA_INVALID, Diagnostic, Span
from ...grammar import check as grammar_check
from ...grammar import looks_like_placeholder
from ...model.vocabulary import VOCABULARY, Vocabulary
from ...model.vocabulary import shapes as sh

VERSION_PATTERN = re.compile(r"\d+\.\d+\.\d+\Z")

_KIND_WORDS = {"map": "a mapping", "list": "a list", "scalar": "a scalar"}


# (capability, predicate name) → the known name it misspells, or None (known, or a new name: §5.9)
PredicateMisspelling = Callable[[str | None, str], str | None]


def check_schema(tree: Mapping, capability: str | None = None, vocabulary: Vocabulary = VOCABULARY, tokens: bool = True,
                 predicate_misspelling: PredicateMisspelling | None = None) -> tuple[Diagnostic, ...]:
    """All schema problems of one fixture's value tree, in document order.

    ``capability`` is the fixture's directory (``graph-engine`` …): it selects that directory's
    §3.2 vocabulary on top of the general one. ``tokens=False`` (the loader found no string that
    could be a value token) skips scanning expected values for them. ``predicate_misspelling``
    judges each invariant predicate name (the catalogue lives above this layer).
    """
    checker = _SchemaChecker(vocabulary, capability)
    checker.predicate_misspelling = predicate_misspelling
    checker.scan_tokens = tokens
    checker.visit(tree, sh.SectionShape("fixture"), None)
    checker.diagnostics.extend(_case_list_problems(tree))
    return tuple(sorted(checker.diagnostics, key=lambda d: d.location))


# What a case name may not hold: it is the parametrization id of the case's test item
# (`<file>::NNN-name[case]`), matched by -k and written into expectations entries.
_NAME_BREAKERS = re.compile(r"::|[\[\]\x00-\x1f\x7f]")


def _case_list_problems(tree: Mapping) -> list[Diagnostic]:
    """§4.2: a ``cases:`` list holds cases, each named so that it can be told apart — a name that
    is empty, repeated or that breaks a case id would make two test items one (-k, --lf and the
    expectations file could not tell them apart). An empty list would run nothing, silently."""
    cases = tree.get("cases")
    if type(cases) is not Sequence:
        return []  # not a list: the shape check reports it
    if not cases.items:
        return [Diagnostic(cases.span, FIXTURE_SCHEMA_INVALID, "cases", "cases: an empty list; a cases fixture needs at least one case")]
    problems = []
    first: dict[str, Span] = {}
    for index, case in enumerate(cases.items):
        if type(case) is not Mapping:
            continue
        name = case.get("name")
        if type(name) is not Scalar or not isinstance(name.value, str):
            text, span = f"case {index}", case.span  # the name the case goes by (interpreter.static.scenarios); a wrong type is reported by the shape check
        else:
            text, span = name.value, name.span
            if not text.strip():
                problems.append(Diagnostic(span, FIXTURE_SCHEMA_INVALID, "case-name", f"cases[{index}].name: empty; a case needs a name"))
                continue
            if _NAME_BREAKERS.search(text):
                problems.append(Diagnostic(span, FIXTURE_SCHEMA_INVALID, "case-name",
                                           f"cases[{index}].name: {text!r} holds '::', a bracket or a control character, "
                                           "which a case id cannot carry"))
        if text in first:
            problems.append(Diagnostic(span, FIXTURE_SCHEMA_INVALID, "case-name",
                                       f"cases[{index}].name: {text!r} again (first at line {first[text].line}); case names must be unique"))
        else:
            first[text] = span
    return problems


def _inside(node: Scalar, offset: int) -> Span:
    """The span of the character ``offset`` into a one-line string scalar."""
    return node.span.shifted(offset + (1 if node.quoted else 0))


# Paths are built lazily: a linked pair (parent, key) per level, formatted only when a problem is
# reported — most of a fixture has none, and formatting every path cost more than checking it.
Path = tuple | None


def _text(path: Path) -> str:
    parts = []
    while path is not None:
        path, key = path
        parts.append(f"[{key}]" if type(key) is int else f".{key}")
    return "".join(reversed(parts)).lstrip(".")


_NODE_KINDS = {Mapping: "map", Sequence: "list", Scalar: "scalar"}
_PY_TYPE_NAMES = {str: "str", int: "int", float: "float", bool: "bool", type(None): "null"}
_FREE = (sh.Nullable, sh.OneOf)  # shapes whose option depends on the value, not only its kind


class _SchemaChecker(Visitor):
    def __init__(self, vocabulary: Vocabulary, capability: str | None):
        self.vocabulary = vocabulary
        self.capability = capability
        self.diagnostics: list[Diagnostic] = []

    def report(self, span: Span, message: str, category: str = FIXTURE_SCHEMA_INVALID, code: str = "schema") -> None:
        self.diagnostics.append(Diagnostic(span, category, code, message))

    def wrong_kind(self, node: Node, shape: sh.Shape, path: Path) -> None:
        expected = " or ".join(_KIND_WORDS[k] for k in sorted(sh.kind_of(shape)))
        self.report(node.span, f"{_text(path) or 'fixture'}: expected {expected} ({shape.describe()}), found {_KIND_WORDS[node_kind(node)]}")

    # The shapes a node can meet are resolved here; the node class picks the method.
    def resolve(self, node: Node, shape: sh.Shape, path: Path) -> sh.Shape | None:
        if type(shape) not in _FREE:  # the common case: the YAML kind alone decides
            if _NODE_KINDS[type(node)] in sh.kind_of(shape):
                return shape
            self.wrong_kind(node, shape, path)
            return None
        if isinstance(shape, sh.Nullable):
            if type(node) is Scalar and node.value is None:
                return None
            shape = shape.inner
        if isinstance(shape, sh.OneOf):
            option = choose(node, shape)
            if option is None:
                self.wrong_kind(node, shape, path)
            return option
        if node_kind(node) not in sh.kind_of(shape):
            self.wrong_kind(node, shape, path)
            return None
        return shape

    def visit_Mapping(self, node: Mapping, shape: sh.Shape, path: Path) -> None:
        shape = self.resolve(node, shape, path)
        if shape is None:
            return
        if isinstance(shape, sh.SectionShape):
            self.section(node, shape.family, path)
        elif isinstance(shape, sh.MapOf):
            for key, key_span, value in zip(node.keys, node.key_spans, node.values):
                if not isinstance(key, str):
                    self.report(key_span, f"{_text(path)}: a {shape.key} must be a string, found {describe_value(key)}")
                self.child(value, shape.value, (path, key))
        elif isinstance(shape, sh.Predicates):
            for key, key_span in zip(node.keys, node.key_spans):
                if not isinstance(key, str) or not key:
                    self.report(key_span, f"{_text(path)}: a predicate name must be a non-empty string, found {describe_value(key)}")
                elif self.predicate_misspelling is not None:
                    self.misspelled(key, key_span, path)
        elif isinstance(shape, sh.Expect):
            self.tokens(node, path)

    def visit_Sequence(self, node: Sequence, shape: sh.Shape, path: Path) -> None:
        shape = self.resolve(node, shape, path)
        if shape is None:
            return
        if isinstance(shape, sh.ListOf):
            for index, item in enumerate(node.items):
                self.child(item, shape.item, (path, index))
        elif isinstance(shape, sh.Expect):
            self.tokens(node, path)

    def visit_Scalar(self, node: Scalar, shape: sh.Shape, path: Path) -> None:
        shape = self.resolve(node, shape, path)
        if shape is None:
            return
        problem = scalar_problem(node, shape)
        if problem:
            self.report(node.span, f"{_text(path)}: {problem}")
            return
        value = node.value
        error = code = None
        if isinstance(shape, sh.TypeString):
            error, code = grammar_check("type", value), "type-string"
        elif isinstance(shape, sh.Version):
            if not VERSION_PATTERN.match(value):
                self.report(node.span, f"{_text(path)}: {value!r} is not a version (expected X.Y.Z)", code="version-string")
        elif isinstance(shape, sh.Reference):
            if looks_like_placeholder(value):
                error, code = grammar_check("placeholder", value), "placeholder"
        elif isinstance(shape, sh.Expect):
            self.tokens(node, path)
        if error is not None:
            self.report(_inside(node, error.offset), f"{_text(path)}: {error.message}", code=code)

    def child(self, node: Node, shape: sh.Shape, path: Path) -> None:
        if type(shape) is sh.SectionShape and type(node) is Mapping:
            self.section(node, shape.family, path)  # a nested directive mapping, without dispatch
        else:
            self.visit(node, shape, path)

    def section(self, node: Mapping, family: str, path: Path) -> None:
        vocabulary = self.vocabulary
        directives = vocabulary.table(family, self.capability)
        for key, key_span, value in zip(node.keys, node.key_spans, node.values):
            directive = directives.get(key) if isinstance(key, str) else None
            if directive is None:
                self.unknown(key, key_span, family, path)
                continue
            shape = directive.shape
            kind = type(shape)
            if kind is sh.Data and not shape.kinds:
                continue  # any value at all: nothing to check
            if kind is sh.ScalarShape and shape.bounds is None and type(value) is Scalar and _PY_TYPE_NAMES.get(type(value.value)) in shape.types:
                continue  # the most common directive: a scalar of the right type
            self.child(value, shape, (path, key))
        spec = vocabulary.families[family]  # required / exclusive are the family's own rules
        for name in spec.required:
            if name not in node.keys:
                self.report(node.span, f"{_text(path) or 'fixture'}: {family} is missing required directive {name!r}")
        for group in spec.any_of:
            if not any(name in node.keys for name in group):
                self.report(node.span, f"{_text(path) or 'fixture'}: {family} needs one of {', '.join(repr(n) for n in group)}")
        for group in spec.exclusive:
            present = [name for name in group if name in node.keys]
            if len(present) > 1:
                self.report(node.key_span(present[1]), f"{_text(path) or 'fixture'}: {' and '.join(repr(p) for p in present)} cannot both appear in one {family}")

    def unknown(self, key: object, span: Span, family: str, path: Path) -> None:
        known = [d.name for d in self.vocabulary.directives_of(family, self.capability)]
        hint = difflib.get_close_matches(str(key), known, n=1)
        suggestion = f" (did you mean {hint[0]!r}?)" if hint else ""
        where = f" at {_text(path)}" if path is not None else " at the top level"
        name = repr(key) if isinstance(key, str) else f"{describe_value(key)} (a directive name is a string)"
        self.report(span, f"unknown directive {name} in {family}{where}{suggestion}", FIXTURE_DIRECTIVE_UNKNOWN, "unknown-directive")

    predicate_misspelling: PredicateMisspelling | None = None

    def misspelled(self, name: str, span: Span, path: Path) -> None:
        known = self.predicate_misspelling(self.capability, name)
        if known is not None:
            self.report(span, f"{_text((path, name))}: unknown invariant predicate {name!r} (did you mean {known!r}?)",
                        code="predicate-name")

    scan_tokens = True

    def tokens(self, node: Node, path: Path) -> None:
        """Check the value tokens inside an expected-value region."""
        if not self.scan_tokens:
            return
        for site, scalar in token_sites(node):
            error = grammar_check("token", scalar.value)
            if error is not None:
                where = path
                for key in site_keys(node, site):
                    where = (where, key)
                self.report(_inside(scalar, error.offset), f"{_text(where)}: {error.message}", code="value-token")
