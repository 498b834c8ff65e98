"""How the binding asks a build what it has, and what a case meets when the build lacks it.

The binding does not compare version numbers: it detects what the build under test has — a name in a
module, a field a pydantic model declares (``model_fields``), a field a dataclass declares, a
parameter of a callable (``inspect.signature``) — and maps the spec's concept onto what it found.
Each binding module lists the runtime names it re-exports in one table (``RUNTIME``: name → the
public module that holds it) and resolves them when they are used (:func:`late_bound`, the module's
``__getattr__``), never at import: a name the build lacks is a :class:`Lacking` stand-in whose use
fails the case with :class:`RuntimeLacks` (a ``harness_primitive_missing`` finding naming what the
build lacks), and a test that patches the runtime's own module reaches the adapter through it.
What that lack makes of the case — a recognized skip, or a failure when the build claims a spec
version that requires the name — is decided by ``pipeline`` with :mod:`.required`.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from typing import Any, Callable, Mapping

from ..model.errors import HarnessPrimitiveMissing


class RuntimeLacks(HarnessPrimitiveMissing):
    """The build under test lacks the runtime API a case needs (a class, a module, a field, a
    parameter): the build does not ship that feature, so the case is a recognized skip naming it
    (pipeline.run_case) — never an import crash, never a pass — unless the build claims to ship it
    (its manifest claims the proposal, or the spec version it claims requires the name:
    :mod:`.required`), which makes the case fail."""

    def __init__(self, what: str, span=None):
        super().__init__(f"the openarmature build under test lacks {what}", span)
        self.lacking = what


class Lacking:
    """What the binding binds a name to when the build has no such name: using it in any way —
    calling it, reading an attribute — raises :class:`RuntimeLacks` naming it; it is falsy."""

    def __init__(self, what: str):
        self.what = what

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeLacks(self.what)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise RuntimeLacks(self.what)

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<lacking {self.what}>"


def optional(module: str, name: str) -> Any:
    """``module.name`` when the build has it, else a :class:`Lacking` stand-in naming it."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return Lacking(f"{module}.{name}")


def late_bound(module: str, table: Mapping[str, str]) -> Callable[[str], Any]:
    """A binding module's ``__getattr__``: each name of ``table`` looked up in its runtime module
    when it is used (:func:`optional`); any other name is no attribute of the binding."""

    def lookup(name: str) -> Any:
        if name not in table:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        return optional(table[name], name)

    return lookup


def require(thing: Any) -> Any:
    """``thing`` itself, or :class:`RuntimeLacks` when the build lacks it."""
    if isinstance(thing, Lacking):
        raise RuntimeLacks(thing.what)
    return thing


def declares(model: Any, field: str) -> bool:
    """Whether a pydantic model or a dataclass declares ``field``."""
    if dataclasses.is_dataclass(model):
        return field in {f.name for f in dataclasses.fields(model)}
    return field in getattr(model, "model_fields", {})


def accepts(function: Any, parameter: str) -> bool:
    """Whether ``function`` takes a parameter named ``parameter``."""
    return parameter in inspect.signature(function).parameters


def with_extras(model: type, fields: Mapping[str, Any]) -> Any:
    """A runtime config model from a fixture's fields, its vendor knobs in ``fields["extras"]``.

    A model that declares an ``extras`` container (proposal 0122) takes them nested, as written.
    A model without one takes undeclared fields flat (its ``extra="allow"``), so the knobs go in
    beside the declared fields. A knob that names a declared field cannot be said flat — it would
    become that field — so the build lacks what the case needs; so does a model that accepts no
    undeclared field at all.
    """
    fields = dict(fields)
    extras = fields.pop("extras", None)
    if extras is None:
        return model(**fields)
    if declares(model, "extras"):
        return model(**fields, extras=extras)
    if not extras:
        return model(**fields)
    name = model.__name__
    if model.model_config.get("extra") != "allow":
        raise RuntimeLacks(f"a way to pass vendor extras to {name} (no `extras` field, no undeclared fields)")
    declared = sorted(set(extras) & set(model.model_fields))
    if declared:
        raise RuntimeLacks(f"an `extras` container on {name} (proposal 0122): its extras are flat fields, "
                           f"so the extras key(s) {declared} would set the declared field(s) of that name")
    return model(**fields, **extras)


def dataclass_with(cls: type, fields: Mapping[str, Any], optional_fields: Mapping[str, Any]) -> Any:
    """``cls(**fields)`` plus each of ``optional_fields`` the build's dataclass declares; one it
    does not declare is fine when empty (the build's default meaning) and lacking otherwise."""
    present = {}
    for name, value in optional_fields.items():
        if declares(cls, name):
            present[name] = value
        elif value:
            raise RuntimeLacks(f"the field {cls.__name__}.{name}")
    return cls(**fields, **present)


__all__ = ["Lacking", "RuntimeLacks", "accepts", "dataclass_with", "declares", "late_bound", "optional", "require", "with_extras"]
