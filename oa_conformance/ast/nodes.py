"""The immutable fixture AST.

Every node is a pyrsistent ``PClass``. Each class declares, once, its ``_fields`` (the children and
values that make up its meaning, compared by ``==``) apart from its ``_attributes`` (where it came
from and how it was spelled: spans, quoting style — carried along, never compared), the split the
standard library's ``ast`` makes. Generic walking (:mod:`.visitor`), dumping and re-reading
(:mod:`.dump`) need no per-class code.

Three layers of node:

* **Values** — :class:`Scalar`, :class:`Mapping`, :class:`Sequence`: what YAML holds, with spans.
  Data regions of a fixture (state values, expected states, attribute maps, wire bodies) stay values.
* **Mini-language nodes** — :class:`TypeRef`, :class:`FormatToken`, :class:`BindingToken`,
  :class:`Placeholder`: what :mod:`oa_conformance.grammar` parses out of strings.
* **Sections** — one class per directive family (``NodeDecl``, ``EdgeDecl``, ``Expected`` …),
  the typed views :mod:`.views` generated from the vocabulary table; plus :class:`PredicateRef` for the
  named invariant predicates the assertion layer resolves.

Rewrites return new nodes (``node.set(...)``); nothing is mutated in place.
"""

from __future__ import annotations

from ..model.kinds import is_sequence

from functools import cache
from typing import Any, ClassVar, Iterator

from pyrsistent import PClass, field
from pyrsistent._pclass import PClassMeta

_new = object.__new__
_setattr = object.__setattr__


class Node(PClass):
    """Base of every AST node: immutable, compared on ``_fields`` only."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _attributes: ClassVar[tuple[str, ...]] = ("span",)

    span = field(initial=None)

    @classmethod
    def make(cls, **values: Any) -> Node:
        """Construct without pyrsistent's per-field checks.

        Only the loader and the AST builder call this, on input the schema check has accepted
        ("validate before you construct"); it is several times faster than ``cls(**values)``,
        which is what makes loading the corpus cost little more than YAML composing it.
        """
        node = _new(cls)
        fields, freeze = _field_setters(cls)
        for name, set_field in fields:
            set_field(node, values.get(name))
        freeze(node, True)
        return node

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented
        for name in self._fields:
            if getattr(self, name) != getattr(other, name):
                return False
        return True

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + tuple(_hashable(getattr(self, n)) for n in self._fields))

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
        return f"{type(self).__name__}({inner})"

    def children(self) -> Iterator[Node]:
        """The child nodes, in field order (containers of nodes are flattened)."""
        for name in self._fields:
            yield from _nodes_in(getattr(self, name))


def slot_setters(cls: type, *names: str) -> tuple:
    """The setters of a node class's slots, in the order named. Calling a slot's descriptor
    directly skips the lookup through the class hierarchy that ``object.__setattr__`` makes first
    (about 40% of building a node)."""
    return tuple(getattr(cls, name).__set__ for name in names)


@cache
def _field_setters(cls: type) -> tuple[tuple[tuple[str, Any], ...], Any]:
    """((field, its setter) for each field, the frozen flag's setter) of a node class."""
    names = tuple(cls._pclass_fields)
    return tuple(zip(names, slot_setters(cls, *names))), slot_setters(cls, "_pclass_frozen")[0]


def _nodes_in(value: Any) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif is_sequence(value):
        for item in value:
            if isinstance(item, Node):
                yield item


def _hashable(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return repr(value)
    return value


# --------------------------------------------------------------------------------------------
# Values


class Scalar(Node):
    """A YAML scalar: ``str``, ``int``, ``float``, ``bool`` or ``None``.

    ``quoted`` records whether the source wrote it in quotes (so a column inside the string can be
    computed); it is an attribute, not part of the value.
    """

    _fields = ("value",)
    _attributes = ("span", "quoted")
    value = field()
    quoted = field(initial=False)


class Mapping(Node):
    """A YAML mapping in document order. Keys are scalars; ``key_spans`` say where each key is."""

    _fields = ("keys", "values")
    _attributes = ("span", "key_spans")
    keys = field()
    values = field()
    key_spans = field()

    def get(self, key: Any, default: Any = None) -> Any:
        for index, candidate in enumerate(self.keys):
            if candidate == key:
                return self.values[index]
        return default

    def __contains__(self, key: Any) -> bool:
        return key in self.keys

    def items(self) -> Iterator[tuple[Any, Node]]:
        return zip(self.keys, self.values)

    def key_span(self, key: Any) -> Any:
        for index, candidate in enumerate(self.keys):
            if candidate == key:
                return self.key_spans[index]
        return self.span

    def __len__(self) -> int:
        return len(self.keys)

    def children(self) -> Iterator[Node]:
        yield from self.values


class Sequence(Node):
    """A YAML sequence."""

    _fields = ("items",)
    items = field()

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.items)

    def __getitem__(self, index: int) -> Node:
        return self.items[index]

    def children(self) -> Iterator[Node]:
        yield from self.items


# --------------------------------------------------------------------------------------------
# Mini-language nodes (built by oa_conformance.grammar)


class TypeRef(Node):
    """A parsed state-field type string: ``list<dict<string,record>>`` → nested TypeRefs.

    ``name`` is the canonical name (``list``, ``dict``, ``string``, …, or a record name); ``args``
    the type arguments; ``spelling`` the original text, kept so a dump can reproduce it.
    """

    _fields = ("name", "args", "spelling")
    name = field()
    args = field()
    spelling = field()


class FormatToken(Node):
    """A §5.10 format matcher such as ``<uuid>``, ``<uuid-hex-3>`` or ``<any-string>``.

    ``kind`` is the format (``uuid``, ``uuid-hex``, ``any-string``, ``timestamp`` …); ``label`` the
    optional disambiguating suffix, which asserts nothing.
    """

    _fields = ("kind", "label", "text")
    kind = field()
    label = field()
    text = field()


class BindingToken(Node):
    """A §5.10 first-occurrence binding token such as ``<trace_id_parent>``.

    It binds to the value at its first occurrence in a case; later occurrences of the same ``text``
    must equal that value.
    """

    _fields = ("stem", "label", "text")
    stem = field()
    label = field()
    text = field()


class Placeholder(Node):
    """A resume placeholder: a reference to a prior invocation's outcome.

    ``<from previous suspended outcome>`` → ``source='previous'``, ``outcome='suspended'``,
    ``attribute='invocation_id'``; ``<invocation_id from initial completed invoke>`` →
    ``attribute='invocation_id'``, ``source='initial'``, ``outcome='completed'``.
    """

    _fields = ("attribute", "source", "outcome", "text")
    attribute = field()
    source = field()
    outcome = field()
    text = field()


class PredicateRef(Node):
    """One named invariant predicate (``inner_event_count: 6``): a name and its expected value.

    The assertion layer resolves the name against its rule vocabulary; here it is only kept, with
    the span of the key.
    """

    _fields = ("name", "value")
    name = field()
    value = field()


class PredicateBlock(Node):
    """The predicates of one ``invariants:``-like block, in document order."""

    _fields = ("predicates",)
    predicates = field()

    def __iter__(self) -> Iterator[PredicateRef]:
        return iter(self.predicates)


# --------------------------------------------------------------------------------------------
# Sections: the base of the generated directive-family classes


class _SectionMeta(PClassMeta):
    """Builds :class:`Section` as a pyrsistent class, and each view under it (:mod:`.views`) as a
    plain subclass whose directives live in the instance's ``__dict__``: a directive the node does
    not give reads as the class's ``None`` at C speed (an empty pyrsistent slot raises and is caught),
    and a node stores only the directives it gives, not one slot for each its family allows."""

    def __new__(mcs, name: str, bases: tuple, namespace: dict) -> type:
        if any(isinstance(base, _SectionMeta) for base in bases):
            return type.__new__(mcs, name, bases, namespace)
        return super().__new__(mcs, name, bases, namespace)


class Section(Node, metaclass=_SectionMeta):
    """A mapping whose keys are directives of one family.

    Subclasses are the typed views, generated from the vocabulary (:mod:`.views`): one typed
    attribute per directive the family allows, named by the directive (``from`` → ``from_``),
    ``None`` where the node does not give it. ``order`` keeps the directives present in document
    order (§8.3: a node's directives run in that order); ``key_spans`` says where each key was written.
    """

    family: ClassVar[str] = ""
    directive_attrs: ClassVar[dict[str, str]] = {}
    holding: ClassVar[frozenset[str]] = frozenset()
    _attributes = ("span", "key_spans")

    order = field()
    key_spans = field()

    @classmethod
    def make(cls, **values: Any) -> Section:
        """Like :meth:`Node.make`, but only the directives present are stored."""
        node = _new(cls)
        for name, value in values.items():
            _setattr(node, name, value)
        _setattr(node, "_pclass_frozen", True)
        return node

    def given(self, row: Any) -> Node | None:
        """The value of the vocabulary row ``row``'s directive here, or None: for code generic over
        rows (the assert plan walks the rows of each step); code that knows its directive reads the
        typed attribute (``edge.from_``)."""
        return getattr(self, row.attr, None)

    def named(self, directive: Any) -> Node | None:
        """The value of the directive named by data rather than code — a reference in the fixture
        (``label_resolver_ref: resolver_a``, a call's ``target: secondary_manager``), a key of a
        directory's table keyed by directive (its provider blocks, its mock lists) — or None (no
        such directive in the family, or not given). Code that knows its directive reads the typed
        attribute; code generic over vocabulary rows reads :meth:`given`."""
        attribute = self.directive_attrs.get(directive) if type(directive) is str else None
        return getattr(self, attribute) if attribute is not None else None

    def get(self, directive: str, default: Any = None) -> Any:
        # Name-keyed, for the few readers whose receiver may also be a Scenario or a raw Mapping
        # (both answer ``get``): the lint rule over a case and its run blocks, the version check
        # of a file the schema check refused; or a section of one of several families not all of
        # which allow the directive (a node_raise or one of its causes, a call or a wrapper call).
        # A reader whose receiver is always one typed view reads its attribute.
        value = self.named(directive)
        return default if value is None else value

    def __contains__(self, directive: str) -> bool:
        return directive in self.order

    def items(self) -> Iterator[tuple[str, Node]]:
        for name in self.order:
            yield name, getattr(self, self.directive_attrs[name])

    def key_span(self, directive: str) -> Any:
        for index, name in enumerate(self.order):
            if name == directive:
                return self.key_spans[index]
        return self.span

    def children(self) -> Iterator[Node]:
        for _, value in self.items():
            yield value
