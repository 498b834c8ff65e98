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
from typing import Iterable

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
    attr: str = field(default="", init=False, compare=False)  # the Python attribute on its family's AST class

    def __post_init__(self) -> None:
        # The AST attribute name, computed once (the builder reads it for every directive).
        object.__setattr__(self, "attr", _attr_names(self.name))


def attr_name(directive: str) -> str:
    """The Python attribute a directive is stored under (``from`` → ``from_``)."""
    return _attr_names(directive)


@lru_cache(maxsize=None)
def _attr_names(directive: str) -> str:
    name = directive.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) or name in _RESERVED else name


# Names a Section subclass already uses for itself.
_RESERVED = frozenset(("span", "order", "key_spans", "get", "items", "family", "children", "set", "serialize", "remove", "transform", "evolver", "make"))


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
            for name in fam.required + tuple(n for group in fam.exclusive for n in group):
                if name not in declared:
                    raise ValueError(f"family {fam.name!r} constrains undeclared directive {name!r}")
        self.families = MappingProxyType(fams)
        self._table = MappingProxyType(table)
        self._local = MappingProxyType(local)
        self._local_any = MappingProxyType({(f, n): d for (f, n, _c), d in reversed(list(local.items()))})
        self._by_family = MappingProxyType({k: tuple(v) for k, v in by_family.items()})
        self._cache: dict[tuple, Directive | None] = {}
        self._tables: dict[tuple, dict] = {}

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

    def all_directives(self) -> Iterable[Directive]:
        seen: set[int] = set()
        for directive in (d for group in self._by_family.values() for d in group):
            if id(directive) not in seen:
                seen.add(id(directive))
                yield directive
