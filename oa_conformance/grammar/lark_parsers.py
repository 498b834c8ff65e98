"""The lark side of :mod:`oa_conformance.grammar`: the ``.lark`` grammars, their parsers and one
transformer per language.

Imported only when a string needs it (see the package's docstring): importing lark costs a fresh
process about 25 ms, more than linting fifty fixtures. The transformers build their nodes with the
package's own constructors, so a string read here and one read by a shortcut there become the same
node.
"""

from __future__ import annotations

import os
from functools import cache, lru_cache

from lark import Lark, Token, Transformer, Tree, UnexpectedEOF, UnexpectedInput, UnexpectedToken, v_args

from .constructors import GrammarError, _Type, classify_token, placeholder_node, type_of


@cache
def _parser(name: str) -> Lark:
    # cache=True: lark keeps its LALR analysis of each grammar in the temp directory (keyed by the
    # grammar's hash and lark's version), so a fresh process loads it instead of rebuilding it
    # (about 5x faster; a missing or unreadable cache file is rebuilt, never an error).
    # Beside this module (importlib.resources would cost a few milliseconds of start-up).
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


# ---------------------------------------------------------------------------------------------
# Type strings


class _TextTransformer(Transformer):
    """A transformer for one string, which it keeps (the nodes record how they were spelled)."""

    def __init__(self, text: str):
        super().__init__()
        self._text = text


@v_args(meta=True)
class _TypeTransformer(_TextTransformer):
    def start(self, meta, children):
        return children[0]

    def bare(self, meta, children):
        return self._type(children[0], (), meta)

    def angle(self, meta, children):
        return self._type(children[0], tuple(children[1:]), meta)

    square = angle

    def _type(self, name_token: Token, args: tuple, meta) -> _Type:
        return type_of(str(name_token), self._text, meta.start_pos, meta.end_pos, args)


def type_shape(text: str) -> _Type:
    """A type string as parsed by ``type_string.lark`` (a :class:`GrammarError` when it is not one)."""
    return _parse("type_string", text, "type string", _TypeTransformer(text))


# ---------------------------------------------------------------------------------------------
# Value tokens


class _TokenTransformer(_TextTransformer):
    def start(self, parts):
        return classify_token(self._text)


def token(text: str):
    """A value token as parsed by ``value_token.lark``, span-free."""
    return _parse("value_token", text, "value token", _TokenTransformer(text))


# ---------------------------------------------------------------------------------------------
# Resume placeholders


class _PlaceholderTransformer(_TextTransformer):
    def start(self, parts):
        attribute, source, outcome, _kind = parts
        return placeholder_node(self._text, None if attribute is None else str(attribute), str(source),
                                None if outcome is None else str(outcome))


def placeholder(text: str):
    """A resume placeholder as parsed by ``placeholder.lark``, span-free."""
    return _parse("placeholder", text, "resume placeholder", _PlaceholderTransformer(text))


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


def keyword_matcher(text: str):
    """A predicate over lower-cased case ids for a ``-k`` expression."""
    return _parse("keyword_expression", text, "-k expression", _KeywordTransformer())
