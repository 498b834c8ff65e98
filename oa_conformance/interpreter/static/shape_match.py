"""How a value meets a shape: shared by the schema check and the AST builder."""

from __future__ import annotations

from ...model.vocabulary import shapes as sh
from ...ast.nodes import Mapping, Node, Scalar, Sequence

_PY_TYPES = {str: "str", int: "int", float: "float", bool: "bool", type(None): "null"}


def node_kind(node: Node) -> str:
    if type(node) is Mapping:
        return "map"
    if type(node) is Sequence:
        return "list"
    return "scalar"


def choose(node: Node, shape: sh.OneOf) -> sh.Shape | None:
    """The option of a :class:`~shapes.OneOf` that a value is meant as, by its YAML kind and type."""
    kind = node_kind(node)
    candidates = [o for o in shape.options if kind in sh.kind_of(o)]
    if len(candidates) <= 1 or kind != "scalar":
        return candidates[0] if candidates else None
    for option in candidates:  # several scalar options: the first one the value satisfies
        if not scalar_problem(node, option):
            return option
    return candidates[0]


def scalar_problem(node: Scalar, shape: sh.Shape) -> str | None:
    value = node.value
    if isinstance(shape, sh.Nullable):
        return None if value is None else scalar_problem(node, shape.inner)
    if isinstance(shape, sh.ScalarShape):
        found = _PY_TYPES.get(type(value), "str")
        if found in shape.types or (found == "int" and "float" in shape.types):
            if shape.bounds is not None and not (shape.bounds[0] <= value <= shape.bounds[1]):  # NaN is in no range
                return f"expected {shape.describe()}, found {describe_value(value)}"
            return None
        return f"expected {shape.describe()}, found {describe_value(value)}"
    if isinstance(shape, sh.Enum):
        if isinstance(value, str) and value in shape.values:
            return None
        return f"expected one of {', '.join(shape.values)}; found {describe_value(value)}"
    if isinstance(shape, (sh.TypeString, sh.Version, sh.Reference)):
        return None if isinstance(value, str) else f"expected a string, found {describe_value(value)}"
    return None


def describe_value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if type(value) is int and abs(value) >= 10 ** 20:  # shown by its size, not hundreds of digits
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, (int, float)):
        return f"number {value!r}"
    return f"string {value!r}"


def site_keys(node: Node, path: tuple[int, ...]) -> list:
    """The keys / indices a path of child indices takes through a value (for messages)."""
    keys = []
    for index in path:
        if type(node) is Mapping:
            keys.append(node.keys[index])
            node = node.values[index]
        else:
            keys.append(index)
            node = node.items[index]
    return keys
