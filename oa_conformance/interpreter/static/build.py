"""Checked value tree → typed AST (directive-family classes, parsed mini-languages).

Runs only on a tree the schema check accepted, so nothing here can fail on fixture input: each
position is converted according to its shape in the vocabulary table. Data regions are shared with
the value tree, not copied; an expected-value region is rebuilt only where a value token replaces a
string.
"""

from __future__ import annotations

from pyrsistent import pvector

from ...grammar import looks_like_placeholder, parse_placeholder, parse_type
from ...grammar.value_tokens import content_span, with_tokens
from ...model.vocabulary import VOCABULARY, Vocabulary
from ...model.vocabulary import shapes as sh
from ...ast.views import BY_FAMILY
from ...ast.nodes import Mapping, Node, PredicateBlock, PredicateRef, Scalar, Sequence, Section
from .shape_match import choose


def build_fixture(tree: Mapping, capability: str | None = None, vocabulary: Vocabulary = VOCABULARY, tokens: bool = True) -> Section:
    """The typed ``Fixture`` node for a schema-checked value tree.

    ``tokens=False`` (no string of the document can be a value token) keeps expected values as
    they are instead of scanning them for tokens.
    """
    builder = _Builder(vocabulary, capability)
    builder.scan_tokens = tokens
    return builder.build(tree, sh.SectionShape("fixture"))


class _Builder:
    def __init__(self, vocabulary: Vocabulary, capability: str | None):
        self.vocabulary = vocabulary
        self.capability = capability

    def build(self, node: Node, shape: sh.Shape) -> Node:
        kind = type(shape)
        if kind is sh.SectionShape:
            return self.section(node, shape.family)  # the most common container, without dispatch
        if kind in _AS_IS:
            return node
        return self._by_shape[kind](self, node, shape)

    def _nullable(self, node: Node, shape: sh.Nullable) -> Node:
        if type(node) is Scalar and node.value is None:
            return node
        return self.build(node, shape.inner)

    def _one_of(self, node: Node, shape: sh.OneOf) -> Node:
        return self.build(node, choose(node, shape))

    def _section(self, node: Mapping, shape: sh.SectionShape) -> Node:
        return self.section(node, shape.family)

    def _map_of(self, node: Mapping, shape: sh.MapOf) -> Node:
        value_shape = shape.value
        values = [self.build(v, value_shape) for v in node.values]
        if all(a is b for a, b in zip(values, node.values)):
            return node  # nothing inside changed: share the value node
        return Mapping.make(keys=node.keys, values=pvector(values), key_spans=node.key_spans, span=node.span)

    def _list_of(self, node: Sequence, shape: sh.ListOf) -> Node:
        items = [self.build(v, shape.item) for v in node.items]
        if all(a is b for a, b in zip(items, node.items)):
            return node
        return Sequence.make(items=pvector(items), span=node.span)

    scan_tokens = True

    def _expect(self, node: Node, shape: sh.Expect) -> Node:
        return with_tokens(node) if self.scan_tokens else node

    def _predicates(self, node: Mapping, shape: sh.Predicates) -> Node:
        refs = [PredicateRef.make(name=k, value=v, span=s) for k, v, s in zip(node.keys, node.values, node.key_spans)]
        return PredicateBlock.make(predicates=pvector(refs), span=node.span)

    def _type_string(self, node: Scalar, shape: sh.TypeString) -> Node:
        return parse_type(node.value, content_span(node))

    def _reference(self, node: Scalar, shape: sh.Reference) -> Node:
        return parse_placeholder(node.value, content_span(node)) if looks_like_placeholder(node.value) else node

    def _as_is(self, node: Node, shape: sh.Shape) -> Node:
        return node

    _by_shape = {
        sh.Nullable: _nullable,
        sh.OneOf: _one_of,
        sh.SectionShape: _section,
        sh.MapOf: _map_of,
        sh.ListOf: _list_of,
        sh.Expect: _expect,
        sh.Predicates: _predicates,
        sh.TypeString: _type_string,
        sh.Reference: _reference,
        sh.ScalarShape: _as_is,
        sh.Enum: _as_is,
        sh.Data: _as_is,
        sh.Version: _as_is,
    }

    def section(self, node: Mapping, family: str) -> Section:
        directives = self.vocabulary.table(family, self.capability)
        section = _new(BY_FAMILY[family])  # Section.make, inlined: one node per directive mapping
        _set(section, "order", node.keys)
        _set(section, "key_spans", node.key_spans)
        _set(section, "span", node.span)
        for key, value in zip(node.keys, node.values):
            directive = directives[key]
            shape = directive.shape
            # Leaves kept as they are (most directives) skip the call.
            _set(section, directive.attr, value if type(shape) in _AS_IS else self.build(value, shape))
        _set(section, "_pclass_frozen", True)
        return section


_AS_IS = frozenset((sh.ScalarShape, sh.Enum, sh.Data, sh.Version))
_new = object.__new__
_set = object.__setattr__
