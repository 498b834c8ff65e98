"""One AST class per directive family, generated from the vocabulary table.

``Fixture``, ``Case``, ``Invocation``, ``NodeDecl``, ``EdgeDecl``, ``Expected`` … are built here at
import time: each has one field per directive its family allows (see
:class:`~oa_conformance.ast.nodes.Section`). Adding a directive to the table adds the field; no
class is written by hand.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from pyrsistent import field

from ..model.vocabulary import VOCABULARY
from ..model.vocabulary import shapes as sh
from .nodes import Mapping, Node, Scalar, Section, Sequence


def _generate() -> dict[str, type[Section]]:
    classes: dict[str, type[Section]] = {}
    # One field specification for every directive slot: it is an immutable description (no name,
    # no state), and building ~900 of them cost every start-up a few milliseconds.
    directive_field = field(initial=None)
    for family in VOCABULARY.families.values():
        attrs = VOCABULARY.attrs_of(family.name)
        namespace = {attr: directive_field for attr in attrs.values()}
        namespace.update(
            __doc__=family.doc,
            __module__=__name__,
            __qualname__=family.class_name,
            family=family.name,
            directive_attrs=attrs,
            _fields=("order",) + tuple(attrs.values()),
        )
        classes[family.class_name] = type(family.class_name, (Section,), namespace)
    return classes


CLASSES: dict[str, type[Section]] = _generate()
BY_FAMILY: dict[str, type[Section]] = {cls.family: cls for cls in CLASSES.values()}
globals().update(CLASSES)


def sections_under(node: Node) -> Iterator[Section]:
    """Every directive section at or below ``node`` (depth first), not looking inside data regions
    — state values, expected values, wire bodies: most of a fixture's nodes, and never a section —
    only into the directives whose shape can hold a section."""
    stack = [node]
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind is Mapping:
            stack.extend(value for value in current.values if type(value) is not Scalar)
        elif kind is Sequence:
            stack.extend(item for item in current.items if type(item) is not Scalar)
        elif isinstance(current, Section):
            yield current
            holding, attrs = _holding_sections(current.family), current.directive_attrs
            stack.extend([getattr(current, attrs[name]) for name in current.order if name in holding])


@lru_cache(maxsize=None)
def _holding_sections(family: str) -> frozenset[str]:
    """The directives of ``family`` whose value can hold a section."""
    return frozenset(d.name for d in VOCABULARY.directives_of(family) if sh.can_hold(d.shape, (sh.SectionShape,)))
