"""One AST class per directive family, generated from the vocabulary table.

``Fixture``, ``Case``, ``Invocation``, ``NodeDecl``, ``EdgeDecl``, ``Expected`` … are built here at
import time: each has one field per directive its family allows (see
:class:`~oa_conformance.ast.nodes.Section`). Adding a directive to the table adds the field; no
class is written by hand.
"""

from __future__ import annotations

from pyrsistent import field

from ..vocabulary import VOCABULARY
from .nodes import Section


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
