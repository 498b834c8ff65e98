"""The constructors both readers of the mini-languages build their nodes through: the shortcuts in
:mod:`oa_conformance.grammar` and the lark transformers in :mod:`.lark_parsers` (which imports
only this module of the package, so neither reader imports the other back).
"""

from __future__ import annotations

from typing import NamedTuple

from ..ast.nodes import BindingToken, FormatToken, Placeholder
from ..model.vocabulary.tokens import BINDING_STEMS, FORMAT_TOKENS, KNOWN_TYPES, TYPE_ALIASES


class GrammarError(ValueError):
    """A string that does not parse; ``offset`` is the 0-based position of the problem in it."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


class _Type(NamedTuple):
    """A parsed type before it is placed: ``offset`` is where it starts inside the string."""

    name: str
    spelling: str
    offset: int
    args: tuple


def type_of(name: str, text: str, start: int, end: int, args: tuple) -> _Type:
    """One type of ``text`` (``text[start:end]``), its arguments already checked: the name resolved
    and the arity of ``list`` / ``dict`` checked. Both readers build every type through here, inner
    types first and left to right, so the same string fails with the same error either way."""
    canonical = resolve_type_name(name, text, start)
    if canonical not in KNOWN_TYPES and args:
        raise GrammarError(f"type {text!r}: unknown type name {name!r} (a record type takes no type arguments)", start)
    if canonical == "list" and len(args) > 1:
        raise GrammarError(f"type {text!r}: list takes one element type, got {len(args)}", start)
    if canonical == "dict" and len(args) not in (0, 2):
        raise GrammarError(f"type {text!r}: dict takes a key and a value type, got {len(args)}", start)
    return _Type(canonical, text[start:end], start, args)


def resolve_type_name(name: str, text: str = "", offset: int = 0) -> str:
    """The one resolver of §5.2 type names (the schema check, lint and graph build all parse type
    strings through here): an alias becomes its canonical name; a near miss of a known name (at
    most two edits: ``strng``, ``lst``) is a GrammarError with the suggestion; any other name is a
    user-defined record type (§5.2: "A bareword (e.g., `error_entry`) refers to a record type"),
    kept as written — a record, a mapping of its fields, never an unconstrained type."""
    canonical = TYPE_ALIASES.get(name, name)
    if canonical in KNOWN_TYPES:
        return canonical
    near = sorted((edits, known not in KNOWN_TYPES, known) for known in KNOWN_TYPES | set(TYPE_ALIASES)
                  if (edits := _edits(name.lower(), known.lower())) <= _NEAR_MISS)  # the closest, a canonical name first
    if near:
        raise GrammarError(f"type {text or name!r}: unknown type name {name!r} (did you mean {near[0][2]!r}?)", offset)
    return name


_NEAR_MISS = 2  # edits: a name this close to a known type name is its misspelling, not a record type


def _edits(a: str, b: str) -> int:
    """Edits (insert, delete, replace, swap of neighbours) from ``a`` to ``b``."""
    previous, current = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        before, previous, current = previous, current, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
    return current[len(b)]


def classify_token(text: str) -> FormatToken | BindingToken:
    """The node of a well-formed token: its words are a format or a binding stem and a label."""
    inner = text[1:-1]
    for kind in FORMAT_TOKENS:
        if inner == kind:
            return FormatToken.make(kind=kind, label=None, text=text)
        if inner.startswith(kind + "-"):
            return FormatToken.make(kind=kind, label=inner[len(kind) + 1 :], text=text)
    for stem in BINDING_STEMS:
        if inner.startswith(stem + "_") and len(inner) > len(stem) + 1:
            return BindingToken.make(stem=stem, label=inner[len(stem) + 1 :], text=text)
    known = ", ".join(f"<{k}>" for k in FORMAT_TOKENS) + ", " + ", ".join(f"<{s}_X>" for s in BINDING_STEMS)
    raise GrammarError(f"unknown value token {text!r} (known: {known})", 1)


def placeholder_node(text: str, attribute: str | None, source: str, outcome: str | None) -> Placeholder:
    return Placeholder.make(attribute=attribute or "invocation_id", source=source, outcome=outcome, text=text)


__all__ = ["GrammarError", "classify_token", "placeholder_node", "resolve_type_name", "type_of"]
