"""The mini-languages embedded in fixture strings, as lark grammars.

One small ``.lark`` file per language, shipped as package data and compiled on first use (then
cached); one explicit transformer per language into AST nodes (:mod:`.lark_parsers`). Every parse
error becomes a :class:`GrammarError` carrying the 0-based offset inside the string, which callers
add to the string's span so the diagnostic points at the offending column.

* :func:`parse_type` — state-field type strings (``list<dict<string,record>>``, ``list[ChatMessage]``).
* :func:`parse_token` — §5.10 inline value tokens (``<uuid-hex-3>``, ``<trace_id_parent>``).
* :func:`parse_placeholder` — resume placeholders (``<from previous suspended outcome>``).

Shortcuts. Almost every string a fixture holds is written the plain way: a type without spaces
(``list<dict<string,string>>``), a well-formed token, a placeholder with single spaces. Each such
string is read here by a shortcut that accepts only strings its grammar accepts and builds the same
node through the same constructors (:func:`type_of`, :func:`classify_token`,
:func:`placeholder_node`); any other string — one with an error, a type written with spaces — goes
to lark, which decides. So lark, about 25 ms of a fresh process's import, is loaded only when such
a string turns up: ``oa-lint`` over the spec corpus never imports it. ``tests/test_grammar.py``
checks every shortcut against lark.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pyrsistent import pvector

from ..ast.nodes import BindingToken, FormatToken, Placeholder, TypeRef
from ..model.diagnostics import Span
from .constructors import GrammarError, _Type, classify_token, placeholder_node, resolve_type_name, type_of  # noqa: F401 (the package's API)


def _lark():
    """The lark parsers, imported on first need (see the module docstring)."""
    from . import lark_parsers

    return lark_parsers


def _with_span(node, span: Span | None):
    """A cached span-free node, placed at ``span``."""
    if span is None:
        return node
    return type(node).make(**{name: getattr(node, name) for name in node._fields}, span=span)


# ---------------------------------------------------------------------------------------------
# Type strings


# type_string.lark without its ignored spaces: NAME, NAME "<" type ("," type)* ">", or the same in [].
_TYPE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # the grammar's NAME
_CLOSING = {"<": ">", "[": "]"}
_SHORTCUT_DEPTH = 32  # deeper nesting (no fixture has it) is left to lark


def _type_syntax(text: str, start: int, depth: int = 0) -> tuple[tuple, int] | None:
    """The type written at ``start`` as ``((name, start, end, args), end)``, or None when the text
    there is not a type written without spaces (lark then decides)."""
    name = _TYPE_NAME.match(text, start)
    if name is None or depth > _SHORTCUT_DEPTH:
        return None
    end = name.end()
    closing = _CLOSING.get(text[end : end + 1])
    if closing is None:
        return (name.group(), start, end, ()), end
    args = []
    position = end  # at the opening bracket, then at each comma
    while True:
        parsed = _type_syntax(text, position + 1, depth + 1)
        if parsed is None:
            return None
        arg, position = parsed
        args.append(arg)
        if text[position : position + 1] != ",":
            break
    if text[position : position + 1] != closing:
        return None
    return (name.group(), start, position + 1, tuple(args)), position + 1


def _checked_type(syntax: tuple, text: str) -> _Type:
    name, start, end, args = syntax
    return type_of(name, text, start, end, tuple(_checked_type(arg, text) for arg in args))


@lru_cache(maxsize=4096)
def _type_shape(text: str) -> _Type:
    parsed = _type_syntax(text, 0)
    if parsed is not None and parsed[1] == len(text):
        return _checked_type(parsed[0], text)
    return _lark().type_shape(text)


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

# Exactly the strings value_token.lark accepts: "<" WORD (SEP WORD)* ">" (no ignored characters).
_WELL_FORMED_TOKEN = re.compile(r"<[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*>\Z")


@lru_cache(maxsize=4096)
def _token(text: str) -> FormatToken | BindingToken:
    if _WELL_FORMED_TOKEN.match(text):
        return classify_token(text)
    return _lark().token(text)  # malformed: lark says where


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

# placeholder.lark's strings written with single spaces: each word is the only terminal the
# grammar accepts at its place, so lark reads it as the same terminal.
_PLAIN_PLACEHOLDER = re.compile(
    r"<(?:(invocation_id) )?from ([A-Za-z_][A-Za-z0-9_]*)(?: (suspended|completed|errored))?(?: (?:outcome|invoke|invocation|run))?>\Z"
)


@lru_cache(maxsize=1024)
def _placeholder(text: str) -> Placeholder:
    plain = _PLAIN_PLACEHOLDER.match(text)
    if plain is not None:
        return placeholder_node(text, *plain.groups())
    return _lark().placeholder(text)


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


# keyword_expression.lark's WORD alone, between the spaces it ignores: a case id contains it.
_PLAIN_KEYWORD = re.compile(r" *((?!(?:and|or|not)\b)[A-Za-z0-9_.\-\[\]/]+) *")


def parse_keyword_expression(text: str):
    """A predicate over case ids for a pytest-style ``-k`` expression (one word, the common
    expression, by a shortcut; any other to lark)."""
    plain = _PLAIN_KEYWORD.fullmatch(text)
    if plain is not None:
        needle = plain.group(1).lower()
        return lambda case_id: needle in case_id.lower()
    matcher = _lark().keyword_matcher(text)
    return lambda case_id: matcher(case_id.lower())
