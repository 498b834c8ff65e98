"""The mini-languages embedded in fixture strings, as lark grammars.

One small ``.lark`` file per language, shipped as package data and compiled on first use (then
cached); one explicit transformer per language into AST nodes. Every parse error becomes a
:class:`GrammarError` carrying the 0-based offset inside the string, which callers add to the
string's span so the diagnostic points at the offending column.

* :func:`parse_type` — state-field type strings (``list<dict<string,record>>``, ``list[ChatMessage]``).
* :func:`parse_token` — §5.10 inline value tokens (``<uuid-hex-3>``, ``<trace_id_parent>``).
* :func:`parse_placeholder` — resume placeholders (``<from previous suspended outcome>``).
"""

from __future__ import annotations

import difflib
import os
import re
from functools import cache, lru_cache
from typing import NamedTuple

from lark import Lark, Token, Transformer, Tree, UnexpectedEOF, UnexpectedInput, UnexpectedToken, v_args
from pyrsistent import pvector

from ..ast.nodes import BindingToken, FormatToken, Placeholder, TypeRef
from ..diagnostics import Span
from ..vocabulary.tokens import BINDING_STEMS, FORMAT_TOKENS, KNOWN_TYPES, TYPE_ALIASES


class GrammarError(ValueError):
    """A string that does not parse; ``offset`` is the 0-based position of the problem in it."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


@cache
def _parser(name: str) -> Lark:
    # cache=True: lark keeps its LALR analysis of each grammar in the temp directory (keyed by the
    # grammar's hash and lark's version), so a fresh process loads it instead of rebuilding it
    # (about 5x faster; a missing or unreadable cache file is rebuilt, never an error).
    # Beside this module (importlib.resources would cost oa-lint's start-up a few milliseconds).
    with open(os.path.join(os.path.dirname(__file__), f"{name}.lark"), encoding="utf-8") as handle:
        text = handle.read()
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=True)


@lru_cache(maxsize=4096)
def _tree(name: str, text: str, what: str) -> Tree | GrammarError:
    """The parse tree of ``text`` (or the error), cached: fixtures repeat the same few strings.

    Trees are never mutated (transformers build new nodes), so sharing them is safe.
    """
    try:
        return _parser(name).parse(text)
    except UnexpectedInput as exc:
        at_end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
        offset = len(text) if at_end or exc.pos_in_stream is None else exc.pos_in_stream
        found = repr(text[offset]) if offset < len(text) else "end of text"
        return GrammarError(f"malformed {what} {text!r}: unexpected {found} at column {offset + 1} of the string", offset)


def _parse(name: str, text: str, what: str, transformer: Transformer):
    tree = _tree(name, text, what)
    if isinstance(tree, GrammarError):
        raise GrammarError(tree.message, tree.offset)
    try:
        return transformer.transform(tree)
    except Exception as exc:  # lark wraps transformer errors in VisitError
        inner = getattr(exc, "orig_exc", exc)
        if isinstance(inner, GrammarError):
            raise inner from None
        raise


def _with_span(node, span: Span | None):
    """A cached span-free node, placed at ``span``."""
    if span is None:
        return node
    return type(node).make(**{name: getattr(node, name) for name in node._fields}, span=span)


# ---------------------------------------------------------------------------------------------
# Type strings


class _Type(NamedTuple):
    """A parsed type before it is placed: ``offset`` is where it starts inside the string."""

    name: str
    spelling: str
    offset: int
    args: tuple


@v_args(meta=True)
class _TypeTransformer(Transformer):
    def __init__(self, text: str):
        super().__init__()
        self._text = text

    def start(self, meta, children):
        return children[0]

    def bare(self, meta, children):
        return self._type(children[0], (), meta)

    def angle(self, meta, children):
        return self._type(children[0], tuple(children[1:]), meta)

    square = angle

    def _type(self, name_token: Token, args: tuple, meta) -> _Type:
        text = self._text
        canonical = resolve_type_name(str(name_token), text, meta.start_pos)
        if canonical == "list" and len(args) > 1:
            raise GrammarError(f"type {text!r}: list takes one element type, got {len(args)}", meta.start_pos)
        if canonical == "dict" and len(args) not in (0, 2):
            raise GrammarError(f"type {text!r}: dict takes a key and a value type, got {len(args)}", meta.start_pos)
        return _Type(canonical, text[meta.start_pos : meta.end_pos], meta.start_pos, args)


def resolve_type_name(name: str, text: str = "", offset: int = 0) -> str:
    """The one resolver of §5.2 type names (the schema check, lint and graph build all parse type
    strings through here): an alias becomes its canonical name; an unknown name is a GrammarError
    with a suggestion — never an unconstrained type."""
    canonical = TYPE_ALIASES.get(name, name)
    if canonical in KNOWN_TYPES:
        return canonical
    spellings = sorted(KNOWN_TYPES | set(TYPE_ALIASES))
    close = difflib.get_close_matches(name, spellings, n=1) or difflib.get_close_matches(name.lower(), spellings, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(sorted(KNOWN_TYPES))})"
    raise GrammarError(f"type {text or name!r}: unknown type name {name!r}{hint}", offset)


@lru_cache(maxsize=4096)
def _type_shape(text: str) -> _Type:
    return _parse("type_string", text, "type string", _TypeTransformer(text))


def _type_ref(parsed: _Type, span: Span | None) -> TypeRef:
    return TypeRef.make(
        name=parsed.name,
        args=pvector([_type_ref(arg, span) for arg in parsed.args]),
        spelling=parsed.spelling,
        span=None if span is None else span.shifted(parsed.offset),
    )


def parse_type(text: str, span: Span | None = None) -> TypeRef:
    """Parse a state-field type string into a :class:`TypeRef` tree.

    ``span``, when given, is where the string's first character is; nodes get spans inside it.
    """
    return _type_ref(_type_shape(text), span)


# ---------------------------------------------------------------------------------------------
# Value tokens


class _TokenTransformer(Transformer):
    def __init__(self, text: str):
        super().__init__()
        self._text = text

    def start(self, parts):
        text = self._text
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


@lru_cache(maxsize=4096)
def _token(text: str) -> FormatToken | BindingToken:
    return _parse("value_token", text, "value token", _TokenTransformer(text))


def parse_token(text: str, span: Span | None = None) -> FormatToken | BindingToken:
    """Parse a §5.10 inline value token."""
    return _with_span(_token(text), span)


# A string in an expected value is read as a token when it is ``<`` + word characters, with or
# without the closing ``>`` (so a forgotten ``>`` is an error, not a silent literal).
_TOKENISH = re.compile(r"<[A-Za-z0-9_-]*>?\Z")


def looks_like_token(text: str) -> bool:
    """Whether an expected-value string is meant as a value token."""
    return len(text) > 1 and text[0] == "<" and _TOKENISH.match(text) is not None


# ---------------------------------------------------------------------------------------------
# Resume placeholders


class _PlaceholderTransformer(Transformer):
    def __init__(self, text: str):
        super().__init__()
        self._text = text

    def start(self, parts):
        attribute, source, outcome, _kind = parts
        return Placeholder.make(
            attribute=str(attribute) if attribute is not None else "invocation_id",
            source=str(source),
            outcome=str(outcome) if outcome is not None else None,
            text=self._text,
        )


@lru_cache(maxsize=1024)
def _placeholder(text: str) -> Placeholder:
    return _parse("placeholder", text, "resume placeholder", _PlaceholderTransformer(text))


def parse_placeholder(text: str, span: Span | None = None) -> Placeholder:
    """Parse a resume placeholder."""
    return _with_span(_placeholder(text), span)


def looks_like_placeholder(text: str) -> bool:
    return len(text) > 2 and text[0] == "<" and text[-1] == ">"


_PARSERS = {"type": parse_type, "token": parse_token, "placeholder": parse_placeholder}


@lru_cache(maxsize=4096)
def check(language: str, text: str) -> GrammarError | None:
    """The error in ``text`` as a string of ``language`` (``type``, ``token``, ``placeholder``), or None.

    Cached and span-free: what the schema check needs, without building span-carrying nodes.
    """
    try:
        _PARSERS[language](text)
    except GrammarError as exc:
        return exc
    return None


# ---------------------------------------------------------------------------------------------
# `-k` keyword expressions (oa-conformance run -k)


class _KeywordTransformer(Transformer):
    def word(self, parts):
        needle = str(parts[0]).lower()
        return lambda text: needle in text

    def negation(self, parts):
        inner = parts[0]
        return lambda text: not inner(text)

    def and_expr(self, parts):
        return lambda text: all(p(text) for p in parts)

    def or_expr(self, parts):
        return lambda text: any(p(text) for p in parts)


def parse_keyword_expression(text: str):
    """A predicate over case ids for a pytest-style ``-k`` expression."""
    matcher = _parse("keyword_expression", text, "-k expression", _KeywordTransformer())
    return lambda case_id: matcher(case_id.lower())
