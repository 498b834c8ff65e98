"""Value shapes: what a directive's value must look like.

Shapes are plain immutable descriptions. The schema check (:mod:`oa_conformance.interpreter.static.schema_check`)
checks a value against a shape; the AST builder (:mod:`oa_conformance.interpreter.static.build`) converts a checked
value according to it; the linter and the generated docs print ``shape.describe()``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shape:
    def describe(self) -> str:  # pragma: no cover - every shape overrides
        raise NotImplementedError


@dataclass(frozen=True)
class ScalarShape(Shape):
    """A scalar of one of ``types`` (names: ``str``, ``int``, ``float``, ``bool``, ``null``); a number
    within ``bounds`` (inclusive, finite) when given."""

    types: tuple[str, ...]
    bounds: tuple[float, float] | None = None

    def describe(self) -> str:
        words = " | ".join(_TYPE_WORDS[t] for t in self.types)
        return words if self.bounds is None else f"{words} from {self.bounds[0]:g} to {self.bounds[1]:g}"


_TYPE_WORDS = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "null": "null"}

STR = ScalarShape(("str",))
INT = ScalarShape(("int",))
NUM = ScalarShape(("int", "float"))
BOOL = ScalarShape(("bool",))
# Durations a fixture asks the adapter to wait: never negative, NaN or infinite, at most a day (a
# case's own time limit ends it long before; a longer value is a typo the runtime cannot take).
DAY_MS = 86_400_000
MILLISECONDS = ScalarShape(("int",), (0, DAY_MS))
SECONDS = ScalarShape(("int", "float"), (0, DAY_MS // 1000))
SCALAR = ScalarShape(("str", "int", "float", "bool", "null"))
# How many times a case runs (`run_count`, §10 determinism): once at least (0 or fewer would run it
# once and compare nothing); more than a thousand runs is a typo, not a determinism check.
RUNS = ScalarShape(("int",), (1, 1000))


@dataclass(frozen=True)
class Enum(Shape):
    """A string out of a closed set."""

    values: tuple[str, ...]

    def describe(self) -> str:
        return " | ".join(self.values)


@dataclass(frozen=True)
class Data(Shape):
    """A data region: any YAML value, kept as values. Keys inside are data, not directives.

    ``kinds`` optionally restricts the top-level YAML kind (``map``, ``list``, ``scalar``).
    """

    kinds: tuple[str, ...] = ()

    def describe(self) -> str:
        return "data" if not self.kinds else "data (" + " | ".join(self.kinds) + ")"


@dataclass(frozen=True)
class Expect(Shape):
    """An expected-value region: data in which ``<token>`` strings are §5.10 value matchers."""

    kinds: tuple[str, ...] = ()

    def describe(self) -> str:
        return "expected value" if not self.kinds else "expected value (" + " | ".join(self.kinds) + ")"


@dataclass(frozen=True)
class TypeString(Shape):
    """A state-field type string (``list<dict<string,record>>``), parsed by the type grammar."""

    def describe(self) -> str:
        return "type string"


@dataclass(frozen=True)
class Version(Shape):
    """A dotted ``X.Y.Z`` version."""

    def describe(self) -> str:
        return "version X.Y.Z"


@dataclass(frozen=True)
class Reference(Shape):
    """A string naming an invocation or a resume placeholder (``<from previous suspended outcome>``)."""

    def describe(self) -> str:
        return "id or <placeholder>"


@dataclass(frozen=True)
class SectionShape(Shape):
    """A mapping whose keys are directives of ``family``."""

    family: str

    def describe(self) -> str:
        return f"{{{self.family} directives}}"


@dataclass(frozen=True)
class MapOf(Shape):
    """A mapping from user-chosen names (node, field, observer … names) to values of ``value``."""

    value: Shape
    key: str = "name"

    def describe(self) -> str:
        return f"{{<{self.key}>: {self.value.describe()}}}"


@dataclass(frozen=True)
class ListOf(Shape):
    item: Shape

    def describe(self) -> str:
        return f"[{self.item.describe()}, ...]"


@dataclass(frozen=True)
class OneOf(Shape):
    """One of several shapes, picked by the YAML kind of the value (scalar, map or list)."""

    options: tuple[Shape, ...]

    def describe(self) -> str:
        return " | ".join(o.describe() for o in self.options)


@dataclass(frozen=True)
class Predicates(Shape):
    """An invariant block: ``{<predicate_name>: <expected value>}``; names are rule references."""

    def describe(self) -> str:
        return "{<predicate>: <value>}"


@dataclass(frozen=True)
class Nullable(Shape):
    inner: Shape

    def describe(self) -> str:
        return f"{self.inner.describe()} | null"


def can_hold(shape: Shape, kinds: tuple[type, ...]) -> bool:
    """Whether a value of ``shape`` can hold a value of one of the shape classes ``kinds`` — as
    itself, or inside a map, a list, a nullable or an option (what the passes that skip data regions
    descend into)."""
    if isinstance(shape, kinds):
        return True
    if isinstance(shape, MapOf):
        return can_hold(shape.value, kinds)
    if isinstance(shape, ListOf):
        return can_hold(shape.item, kinds)
    if isinstance(shape, Nullable):
        return can_hold(shape.inner, kinds)
    if isinstance(shape, OneOf):
        return any(can_hold(option, kinds) for option in shape.options)
    return False


def kind_of(shape: Shape) -> frozenset[str]:
    """The YAML kinds (``map``, ``list``, ``scalar``) a value of ``shape`` may have."""
    try:
        return shape.__dict__["_kinds"]
    except KeyError:  # computed once per shape (shapes are immutable), then kept on it
        kinds = shape.__dict__["_kinds"] = _kinds(shape)
        return kinds


def _kinds(shape: Shape) -> frozenset[str]:
    if isinstance(shape, (ScalarShape, Enum, TypeString, Version, Reference)):
        return frozenset(("scalar",))
    if isinstance(shape, (SectionShape, MapOf, Predicates)):
        return frozenset(("map",))
    if isinstance(shape, ListOf):
        return frozenset(("list",))
    if isinstance(shape, (Data, Expect)):
        return frozenset(shape.kinds) if shape.kinds else frozenset(("map", "list", "scalar"))
    if isinstance(shape, OneOf):
        return frozenset().union(*(kind_of(o) for o in shape.options))
    if isinstance(shape, Nullable):
        return kind_of(shape.inner) | {"scalar"}
    raise TypeError(shape)  # pragma: no cover


__all__ = [
    "BOOL", "Data", "Enum", "Expect", "INT", "ListOf", "MapOf", "NUM", "Nullable", "OneOf",
    "Predicates", "Reference", "SCALAR", "STR", "ScalarShape", "SectionShape", "Shape", "TypeString",
    "Version", "kind_of",
]
