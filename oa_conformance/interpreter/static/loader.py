"""The load pass: YAML text → immutable value tree (:class:`Scalar` / :class:`Mapping` / :class:`Sequence`).

The loader and ``yaml_compose.py`` are the only code that touches PyYAML. It composes with libyaml
(``CSafeLoader``, through ``yaml_compose.compose``), then converts the node graph itself, which is where it enforces what ``yaml.safe_load`` does not:

* duplicate keys are rejected (safe_load keeps the last one silently);
* only the YAML core tags are accepted — a tag that would construct an object (``!!python/…``,
  ``!!set``, a local ``!tag``, merge keys) is rejected;
* aliases are never expanded into copies: an anchored subtree is converted once and shared; the
  size and the depth the tree *would* have when walked (what every later pass, ``oa-ast`` and the
  trace walk) are bounded before anything is built (:func:`bound_expansion`, the one place), so a
  billion-laughs fixture or an alias chain thousands of levels deep fails fast, at the alias that
  crosses the bound;
* non-UTF-8 bytes, an empty file, several documents and a non-mapping document are reported with a
  location, never as a traceback.

Problems are returned as :class:`~oa_conformance.model.diagnostics.Diagnostic` records; the caller decides
whether to go on.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import NamedTuple

import yaml
from pyrsistent import pvector

from ...ast.nodes import Mapping, Scalar, Sequence, slot_setters
from ...model.diagnostics import FIXTURE_SCHEMA_INVALID, Diagnostic, Span, span_at
from .yaml_compose import (CORE_SCALAR_TAGS, MAP_TAG, MAX_DEPTH, SEQ_TAG, STR_TAG, IntegerTooLong, LimitError, LoadProblem,
                           Limits, bound_expansion, compose, core_value, limits, may_alias, may_hold_tokens, offset_span,
                           yaml_error)

_QUOTES = frozenset(("'", '"'))
_ScalarNode = yaml.ScalarNode
_MappingNode = yaml.MappingNode
_SequenceNode = yaml.SequenceNode
_new = object.__new__


# The loader sets some 200,000 slots per corpus load: through their descriptors (see slot_setters).
_scalar_value, _scalar_quoted, _scalar_span, _scalar_frozen = slot_setters(Scalar, "value", "quoted", "span", "_pclass_frozen")
_sequence_items, _sequence_span, _sequence_frozen = slot_setters(Sequence, "items", "span", "_pclass_frozen")
_mapping_keys, _mapping_values, _mapping_key_spans, _mapping_span, _mapping_frozen = slot_setters(
    Mapping, "keys", "values", "key_spans", "span", "_pclass_frozen")


def _make_scalar(value, quoted, span):
    # Hand-inlined Node.make: the loader builds one of these per YAML scalar.
    node = _new(Scalar)
    _scalar_value(node, value)
    _scalar_quoted(node, quoted)
    _scalar_span(node, span)
    _scalar_frozen(node, True)
    return node


def _string_scalar(node, path):
    """A string scalar node (the bulk of every fixture), built with the trusted constructor."""
    mark = node.start_mark
    scalar = _new(Scalar)
    _scalar_value(scalar, node.value)
    _scalar_quoted(scalar, node.style in _QUOTES)
    _scalar_span(scalar, span_at(path, mark.line, mark.column))
    _scalar_frozen(scalar, True)
    return scalar


def _make_sequence(items, span):
    node = _new(Sequence)
    _sequence_items(node, items)
    _sequence_span(node, span)
    _sequence_frozen(node, True)
    return node


class Composed(NamedTuple):
    """The document as libyaml composed it, before conversion: the decoded text and PyYAML's node
    graph (plain scalars keep their text, style and YAML 1.2 core-schema tag). A pass that needs
    the YAML itself rather than values — lint rule Y007 — reads this instead of parsing again."""

    text: str
    root: yaml.Node


class LoadResult(NamedTuple):
    """The value tree of one file (``None`` when nothing usable was read) and the problems found.

    ``may_hold_tokens`` is False when no string of the document can be a §5.10 value token (no
    ``<`` starting a scalar anywhere in the text): the passes then skip scanning expected values.
    ``composed`` is the composed document whenever the text parsed as one YAML document (also
    when conversion then refused it: a duplicate key, a tag, a non-mapping top level).
    """

    tree: Mapping | None
    diagnostics: tuple[Diagnostic, ...]
    may_hold_tokens: bool = True
    composed: Composed | None = None



def _io_problem(path: str, message: str) -> LoadResult:
    return LoadResult(None, (Diagnostic(Span(path, 1, 1), FIXTURE_SCHEMA_INVALID, "io", message),))


def load_path(path: str) -> LoadResult:
    """Read and load one fixture file: a regular file under the size cap (a FIFO is never opened)."""
    try:
        bounds = limits()
    except LimitError as exc:
        return _io_problem(path, str(exc))
    try:
        status = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _io_problem(path, "cannot read fixture: a symbolic link loop (it leads back to itself)")
        broken = os.path.islink(path)
        return _io_problem(path, "cannot read fixture: a dangling symbolic link" if broken else f"cannot read fixture: {exc.strerror}")
    if stat.S_ISDIR(status.st_mode):  # a folder discovery could not list comes here to be reported
        try:
            os.listdir(path)
        except OSError as exc:
            return _io_problem(path, f"cannot read the folder: {exc.strerror}")
    if not stat.S_ISREG(status.st_mode):
        kind = "a directory" if stat.S_ISDIR(status.st_mode) else "a FIFO" if stat.S_ISFIFO(status.st_mode) else "not a regular file"
        return _io_problem(path, f"cannot read fixture: {kind}, not a regular file")
    if status.st_size > bounds.fixture_bytes:
        return _io_problem(path, f"fixture is {status.st_size} bytes, over the {bounds.fixture_bytes}-byte cap (OA_MAX_FIXTURE_BYTES)")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return _io_problem(path, f"cannot read fixture: {exc.strerror}")
    return _load(data, path, bounds)


def load_bytes(data: bytes | str, path: str = "<string>") -> LoadResult:
    """Load one fixture document from bytes (must be UTF-8) or text."""
    try:
        bounds = limits()
    except LimitError as exc:
        return _io_problem(path, str(exc))
    return _load(data, path, bounds)


def _load(data: bytes | str, path: str, bounds: Limits) -> LoadResult:
    if len(data) > bounds.fixture_bytes:
        return _io_problem(path, f"fixture is over the {bounds.fixture_bytes}-byte cap (OA_MAX_FIXTURE_BYTES)")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            message = f"fixture is not valid UTF-8: byte 0x{data[exc.start]:02x} cannot start or continue a character"
            return LoadResult(None, (Diagnostic(offset_span(data, exc.start, path), FIXTURE_SCHEMA_INVALID, "encoding", message),))
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]

    # The expansion bound runs before composing (it streams: memory by depth, not by nodes) when
    # the text may hold an alias, or is long enough to hold more nodes than the bound allows
    # (no YAML node takes less than half a character: ``{a,b}`` is four): a 4 MiB text of two
    # million scalars would otherwise cost a gigabyte of composed nodes before anything counted.
    shares_nodes = may_alias(text)
    if shares_nodes or 2 * len(text) > bounds.expanded_nodes:
        crossing = bound_expansion(text, path, bounds)
        if crossing is not None:
            return LoadResult(None, (Diagnostic(crossing.span, FIXTURE_SCHEMA_INVALID, "limit", crossing.message),))

    try:
        root = compose(text)
    except yaml.MarkedYAMLError as exc:
        deep = _flow_depth_crossing(text, bounds.depth) if "maximum nesting depth" in str(exc.problem) else None
        if deep is not None:  # libyaml's own cap (1000 levels) stopped it: ours is lower, said as ours
            message = f"nesting deeper than {bounds.depth} levels (OA_MAX_DEPTH)"
            return LoadResult(None, (Diagnostic(offset_span(text, deep, path), FIXTURE_SCHEMA_INVALID, "limit", message),))
        return LoadResult(None, (yaml_error(exc, path),))
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: located by its position
        message = f"invalid YAML: character U+{exc.character:04X} is not allowed in a YAML document ({exc.reason})"
        return LoadResult(None, (Diagnostic(offset_span(text, exc.position, path), FIXTURE_SCHEMA_INVALID, "yaml", message),))
    except yaml.YAMLError as exc:  # pragma: no cover - libyaml always marks its errors
        return LoadResult(None, (Diagnostic(Span(path, 1, 1), FIXTURE_SCHEMA_INVALID, "yaml", f"invalid YAML: {exc}"),))

    if root is None:
        return LoadResult(None, (Diagnostic(Span(path, 1, 1), FIXTURE_SCHEMA_INVALID, "empty", "fixture is empty: expected a mapping of directives"),))
    composed = Composed(text, root)
    if type(root) is not _MappingNode:
        kind = "a list" if type(root) is _SequenceNode else "a single scalar"
        span = span_at(path, root.start_mark.line, root.start_mark.column)
        problem = Diagnostic(span, FIXTURE_SCHEMA_INVALID, "top-level", f"fixture must be a mapping of directives, found {kind}")
        return LoadResult(None, (problem,), composed=composed)

    converter = (_AliasedConverter if shares_nodes else _Converter)(path, bounds.depth)
    try:
        tree = converter.convert(root, 0)
    except LoadProblem as problem:
        refused = Diagnostic(problem.span, FIXTURE_SCHEMA_INVALID, "yaml", problem.message)
        return LoadResult(None, tuple(converter.diagnostics) + (refused,), composed=composed)
    return LoadResult(tree, tuple(converter.diagnostics), may_hold_tokens(text), composed)


def _flow_depth_crossing(text: str, limit: int) -> int | None:
    """The offset of the first ``[`` / ``{`` nested more than ``limit`` deep in flow collections
    (quoted scalars and comments skipped), or None. For text libyaml refuses as nested over its own
    1000 levels: its scanner stops there before any event reaches :func:`bound_expansion`."""
    depth, index, length = 0, 0, len(text)
    while index < length:
        char = text[index]
        if char in "[{":
            depth += 1
            if depth > limit:
                return index
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char in "'\"" and depth:  # a quoted scalar inside a flow collection: to its closing quote
            index = text.find(char, index + 1)
            while char == '"' and index > 0 and text[index - 1] == "\\":
                index = text.find(char, index + 1)
            if index < 0:
                return None
        elif char == "#" and (index == 0 or text[index - 1] in " \t\n"):
            index = text.find("\n", index)
            if index < 0:
                return None
        index += 1
    return None


class _Converter:
    """Converts one composed document. Without an anchor and an alias in the text, no node can
    be reached twice and ``convert`` is ``build`` (most fixtures); :class:`_AliasedConverter`
    remembers shared (aliased) subtrees by identity; aliases reach it already bounded
    (:func:`bound_expansion`: no recursion, bounded expanded size and depth), so it only shares
    and checks the text's own nesting. (The choice is a class, not a bound method
    stored on the instance: that would be a reference cycle, left to the cyclic collector.)"""

    def __init__(self, path: str, max_depth: int = MAX_DEPTH):
        self.path = path
        self.max_depth = max_depth
        self.diagnostics: list[Diagnostic] = []
        self.memo: dict[int, object] = {}

    def span(self, node: yaml.Node) -> Span:
        mark = node.start_mark
        return span_at(self.path, mark.line, mark.column)

    def convert_aliased(self, node: yaml.Node, depth: int):
        key = id(node)
        done = self.memo.get(key)
        if done is not None:
            return done
        result = self.memo[key] = self.build(node, depth)
        return result

    def build(self, node: yaml.Node, depth: int):
        if depth > self.max_depth:
            raise LoadProblem(self.span(node), f"nesting deeper than {self.max_depth} levels (OA_MAX_DEPTH)")
        kind = type(node)
        if kind is _ScalarNode:
            if node.tag == STR_TAG:
                return _string_scalar(node, self.path)
            return self.scalar(node)
        if kind is _MappingNode:
            return self.mapping(node, depth)
        if node.tag != SEQ_TAG:
            self.bad_tag(node)
        convert = self.convert
        path = self.path
        items = []
        add = items.append
        depth += 1
        for item in node.value:
            if type(item) is _ScalarNode and item.tag == STR_TAG:  # the common case, without convert()
                add(_string_scalar(item, path))
            else:
                add(convert(item, depth))
        return _make_sequence(pvector(items), self.span(node))

    def scalar(self, node: yaml.ScalarNode) -> Scalar:
        tag = node.tag
        text = node.value
        if tag in CORE_SCALAR_TAGS:
            try:
                value = core_value(tag, text)
            except IntegerTooLong as exc:  # reported where it stands; the rest of the file is still read
                self.diagnostics.append(Diagnostic(self.span(node), FIXTURE_SCHEMA_INVALID, "limit", str(exc)))
                value = text
        else:
            self.bad_tag(node)
            value = text
        mark = node.start_mark
        return _make_scalar(value, node.style in _QUOTES, span_at(self.path, mark.line, mark.column))

    def mapping(self, node: yaml.MappingNode, depth: int) -> Mapping:
        # The hot loop of loading: locals for everything, string scalars built inline.
        if node.tag != MAP_TAG:
            self.bad_tag(node)
        keys: list = []
        key_spans: list = []
        values: list = []
        add_key, add_key_span, add_value = keys.append, key_spans.append, values.append
        convert = self.convert
        path = self.path
        depth += 1
        for key_node, value_node in node.value:
            if type(key_node) is _ScalarNode and key_node.tag == STR_TAG:
                add_key(key_node.value)
            else:
                add_key(self.key(key_node))
            mark = key_node.start_mark
            add_key_span(span_at(path, mark.line, mark.column))
            if type(value_node) is _ScalarNode and value_node.tag == STR_TAG:  # the common case, without convert()
                add_value(_string_scalar(value_node, path))
            else:
                add_value(convert(value_node, depth))
        if len(set(keys)) != len(keys):
            keys, key_spans, values = self.without_duplicates(keys, key_spans, values)
        mark = node.start_mark
        mapping = _new(Mapping)
        _mapping_keys(mapping, tuple(keys))
        _mapping_values(mapping, pvector(values))
        _mapping_key_spans(mapping, tuple(key_spans))
        _mapping_span(mapping, span_at(path, mark.line, mark.column))
        _mapping_frozen(mapping, True)
        return mapping

    def key(self, key_node: yaml.Node):
        """A key that is not a plain string: a typed scalar, or an error."""
        if type(key_node) is not _ScalarNode:
            raise LoadProblem(self.span(key_node), "mapping keys must be scalars, found a complex key")
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise LoadProblem(self.span(key_node), "merge keys ('<<') are not supported in fixtures")
        return self.scalar(key_node).value

    def without_duplicates(self, keys: list, key_spans: list, values: list) -> tuple[list, list, list]:
        """Report every repeated key at its repetition and keep the first occurrence."""
        first: dict = {}
        kept = ([], [], [])
        for name, span, value in zip(keys, key_spans, values):
            typed = (type(name), name)  # 1 and true are different keys (Python: 1 == True)
            if typed in first:
                message = f"duplicate key {name!r} (first defined at line {first[typed].line})"
                self.diagnostics.append(Diagnostic(span, FIXTURE_SCHEMA_INVALID, "duplicate-key", message))
                continue
            first[typed] = span
            for bucket, item in zip(kept, (name, span, value)):
                bucket.append(item)
        return kept

    def bad_tag(self, node: yaml.Node) -> None:
        """Reported where it stands; the node is read as the plain value it is written as, so every
        tag of the file is reported (and what the schema check finds besides)."""
        message = f"tag {node.tag!r} is not allowed in a fixture (only plain YAML values; no object-constructing tags)"
        self.diagnostics.append(Diagnostic(self.span(node), FIXTURE_SCHEMA_INVALID, "tag", message))

    convert = build


class _AliasedConverter(_Converter):
    convert = _Converter.convert_aliased

