"""YAML text → immutable value tree (:class:`Scalar` / :class:`Mapping` / :class:`Sequence`).

The loader is the only code that touches PyYAML. It composes with libyaml (``CSafeLoader``), then
converts the node graph itself, which is where it enforces what ``yaml.safe_load`` does not:

* duplicate keys are rejected (safe_load keeps the last one silently);
* only the YAML core tags are accepted — a tag that would construct an object (``!!python/…``,
  ``!!set``, a local ``!tag``, merge keys) is rejected;
* aliases are never expanded into copies: an anchored subtree is converted once and shared; the
  size and the depth the tree *would* have when walked (what every later pass, ``oa-ast`` and the
  trace walk) are bounded before anything is built (:func:`_bound_expansion`, the one place), so a
  billion-laughs fixture or an alias chain thousands of levels deep fails fast, at the alias that
  crosses the bound;
* non-UTF-8 bytes, an empty file, several documents and a non-mapping document are reported with a
  location, never as a traceback.

Problems are returned as :class:`~oa_conformance.diagnostics.Diagnostic` records; the caller decides
whether to go on.
"""

from __future__ import annotations

import errno
import operator
import os
import re
import stat
import sys
from functools import lru_cache
from typing import NamedTuple

import yaml
from pyrsistent import pvector

from ..diagnostics import FIXTURE_SCHEMA_INVALID, Diagnostic, Span, span_at
from ..ast.nodes import Mapping, Scalar, Sequence, slot_setters

try:  # pragma: no branch - libyaml is a declared requirement (PyYAML wheels bundle it)
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

# Limits that keep a hostile or broken fixture from eating the machine (defaults; see :func:`limits`).
MAX_EXPANDED_NODES = 200_000  # the largest fixture in the spec corpus has about 3,000 nodes
MAX_DEPTH = 100  # the deepest corpus fixture nests about 10 levels
DEPTH_CEILING = 150  # OA_MAX_DEPTH may not exceed this: every pass after the loader walks the tree recursively
DEFAULT_MAX_FIXTURE_BYTES = 4 << 20

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"

# Where YAML can put an alias (``*name``) or an anchor (``&name``): after a space, a flow indicator
# or at a line start. A text without both cannot share nodes (an alias to no anchor does not
# compose): the converter skips identity bookkeeping and the alias bound its event pass (no corpus
# fixture has an anchor).
_ALIAS = re.compile(r"[\s\[{,:]\*[^\s,\]}]")
_ANCHOR = re.compile(r"[\s\[{,:]&[^\s,\]}]")


def _may_alias(text: str) -> bool:
    return ("*" in text and "&" in text and (text.startswith("*") or _ALIAS.search(text) is not None)
            and (text.startswith("&") or _ANCHOR.search(text) is not None))

_QUOTES = frozenset(("'", '"'))

class CoreSchemaResolver(yaml.resolver.BaseResolver):
    """YAML 1.2 core-schema tag resolution for plain scalars (YAML 1.2.2 §10.3.2).

    Fixtures are a cross-language contract, read by YAML 1.2 parsers in other languages, so a plain
    scalar means what the 1.2 core schema says, not what PyYAML's YAML 1.1 resolver says: ``yes``,
    ``on``, ``1:20`` and ``2024-01-01`` are strings; ``012`` and ``08`` are decimal 12 and 8;
    ``0o17`` is octal 15. Anything the core schema does not match is a string.
    """

    yaml_implicit_resolvers: dict = {}


for _tag, _pattern, _first in (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+.0123456789"),
    # Not core schema: a YAML 1.1 reader would merge `<<` keys, so they are resolved only to be refused.
    ("tag:yaml.org,2002:merge", r"^<<$", "<"),
):
    CoreSchemaResolver.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))

_plain_resolver = CoreSchemaResolver()


class IntegerTooLong(ValueError):
    """A decimal or octal integer longer than Python converts (``sys.get_int_max_str_digits()``)."""


def core_int(text: str) -> int:
    """A core-schema int: decimal (leading zeros allowed), ``0o`` octal or ``0x`` hexadecimal.
    Raises :class:`IntegerTooLong` past the interpreter's digit limit for decimals
    (``sys.get_int_max_str_digits()``, 4,300 by default: it bounds the quadratic cost of converting)."""
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    try:
        return int(text, 10)
    except ValueError:  # the text matched the core-schema pattern: only its length can be refused
        digits = len(text.lstrip("+-"))
        raise IntegerTooLong(f"an integer of {digits} digits: more than the {sys.get_int_max_str_digits()} "
                             "digits a number in a fixture may have") from None


def core_float(text: str) -> float:
    """A core-schema float, including ``.inf`` / ``-.inf`` / ``.nan`` in their three spellings."""
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return float(lowered.replace(".inf", "inf"))
    if lowered == ".nan":
        return float("nan")
    return float(text)


def core_value(tag: str, text: str):
    """The value of a scalar with a resolved core-schema tag (the one place scalars get values)."""
    if tag == _INT:
        return core_int(text)
    if tag == _FLOAT:
        return core_float(text)
    if tag == _BOOL:
        return text[0] in "tT"
    if tag == _NULL:
        return None
    return text


class _Composer(_Loader):
    """libyaml's composer with a memoized tag resolver.

    PyYAML resolves every plain scalar's implicit tag with a list of regular expressions, in
    Python; fixtures repeat the same few hundred scalars (keys, small numbers) thousands of times.
    The result depends only on (kind, value, implicit) — the safe loader registers no path
    resolvers — so it is cached by them with ``functools.lru_cache``, whose hits run no Python code:
    libyaml's composer calls it once per node.
    """

    resolve = staticmethod(lru_cache(maxsize=1 << 16)(_plain_resolver.resolve))

    # libyaml's composer calls these two hooks around every node for *path* resolvers; the safe
    # loader registers none, so they do nothing — but as Python methods they cost a frame each,
    # twice per node. C built-ins taking the same arguments do nothing observable at no frame cost
    # and allocate nothing (``slice`` did: a slice and an argument tuple per node, 5x the time).
    descend_resolver = staticmethod(operator.is_)  # (current_node, current_index) -> an unused bool
    ascend_resolver = staticmethod(tuple)  # () -> the unused empty tuple


def _compose(text: str):
    loader = _Composer(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


_CORE_SCALAR_TAGS = frozenset((_STR, _INT, _FLOAT, _BOOL, _NULL))

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


# A value token is a whole scalar starting with ``<``: in the text it follows a quote, a space, a
# flow indicator or a line start (``list<int>`` is a type, not a token). Escapes in double-quoted
# strings could spell ``<`` without writing it, so they count too. (Cheap enough to pay for itself:
# most fixtures hold no token, and their expected values then need no scan.)
_TOKEN_OPENING = re.compile(r"<[\w>-]")
_BEFORE_TOKEN = "\"'[{,:"  # or whitespace
_ESCAPED_LT = re.compile(r"\\(?:x3[cC]|u003[cC]|U0000003[cC])")


def _may_hold_tokens(text: str) -> bool:
    if "<" in text:
        if text.startswith("<"):
            return True
        # Each opening found by a pattern that starts with its literal ``<`` (searched ten times
        # faster than one starting with the class of what may precede it), then what precedes it.
        for opening in _TOKEN_OPENING.finditer(text):
            before = text[opening.start() - 1]
            if before.isspace() or before in _BEFORE_TOKEN:
                return True
    return "\\" in text and _ESCAPED_LT.search(text) is not None


class _Problem(Exception):
    def __init__(self, span: Span, message: str):
        self.span = span
        self.message = message


class Limits(NamedTuple):
    """The loader's bounds: file bytes, expanded nodes (aliases walked as copies), nesting depth."""

    fixture_bytes: int = DEFAULT_MAX_FIXTURE_BYTES
    expanded_nodes: int = MAX_EXPANDED_NODES
    depth: int = MAX_DEPTH


class LimitError(ValueError):
    """A limit set in the environment to something that is not a usable limit."""


def _environment_number(name: str, default: int, ceiling: int | None = None) -> int:
    """A whole number ≥ 1 (and ≤ ``ceiling``) from the environment; unset or empty → the default.
    Anything else is a :class:`LimitError`, never silently the default."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise LimitError(f"{name}={text!r} is not a whole number") from None
    if value < 1:
        raise LimitError(f"{name}={text!r}: must be 1 or more")
    if ceiling is not None and value > ceiling:
        raise LimitError(f"{name}={text!r}: at most {ceiling} (every pass after the loader walks the tree recursively)")
    return value


def limits() -> Limits:
    """The limits in force: ``OA_MAX_FIXTURE_BYTES`` (default 4 MiB; the largest corpus fixture is
    ~40 KB), ``OA_MAX_EXPANDED_NODES`` (200,000) and ``OA_MAX_DEPTH`` (100, at most 150).
    Raises :class:`LimitError` for a value set to anything else."""
    return Limits(
        _environment_number("OA_MAX_FIXTURE_BYTES", DEFAULT_MAX_FIXTURE_BYTES),
        _environment_number("OA_MAX_EXPANDED_NODES", MAX_EXPANDED_NODES),
        _environment_number("OA_MAX_DEPTH", MAX_DEPTH, DEPTH_CEILING),
    )


def limits_problem() -> str | None:
    """What is wrong with the limits set in the environment, or None: the command-line tools and
    the pytest plugin check this up front and stop with a usage error."""
    try:
        limits()
    except LimitError as exc:
        return str(exc)
    return None


def max_fixture_bytes() -> int:
    """The input size cap (``OA_MAX_FIXTURE_BYTES``, see :func:`limits`); the default when the
    environment's value is unusable — loading itself reports that (:func:`load_bytes`)."""
    try:
        return limits().fixture_bytes
    except LimitError:
        return DEFAULT_MAX_FIXTURE_BYTES


def read_capped(stream) -> bytes:
    """At most one byte more than the size cap from a binary stream (standard input, an open
    file): enough for :func:`load_bytes` to refuse an oversized input without holding all of it."""
    return stream.read(max_fixture_bytes() + 1)


def _io_problem(path: str, message: str) -> LoadResult:
    return LoadResult(None, (Diagnostic(FIXTURE_SCHEMA_INVALID, "io", message, path, 1, 1),))


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
            return LoadResult(None, (Diagnostic.at(_offset_span(data, exc.start, path), FIXTURE_SCHEMA_INVALID, "encoding", message),))
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]

    # The expansion bound runs before composing (it streams: memory by depth, not by nodes) when
    # the text may hold an alias, or is long enough to hold more nodes than the bound allows
    # (no YAML node takes less than half a character: ``{a,b}`` is four): a 4 MiB text of two
    # million scalars would otherwise cost a gigabyte of composed nodes before anything counted.
    may_alias = _may_alias(text)
    if may_alias or 2 * len(text) > bounds.expanded_nodes:
        crossing = _bound_expansion(text, path, bounds)
        if crossing is not None:
            return LoadResult(None, (Diagnostic.at(crossing.span, FIXTURE_SCHEMA_INVALID, "limit", crossing.message),))

    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as exc:
        return LoadResult(None, (_yaml_error(exc, path),))
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: located by its position
        message = f"invalid YAML: character U+{exc.character:04X} is not allowed in a YAML document ({exc.reason})"
        return LoadResult(None, (Diagnostic.at(_offset_span(text, exc.position, path), FIXTURE_SCHEMA_INVALID, "yaml", message),))
    except yaml.YAMLError as exc:  # pragma: no cover - libyaml always marks its errors
        return LoadResult(None, (Diagnostic(FIXTURE_SCHEMA_INVALID, "yaml", f"invalid YAML: {exc}", path, 1, 1),))

    if root is None:
        return LoadResult(None, (Diagnostic(FIXTURE_SCHEMA_INVALID, "empty", "fixture is empty: expected a mapping of directives", path, 1, 1),))
    composed = Composed(text, root)
    if type(root) is not _MappingNode:
        kind = "a list" if type(root) is _SequenceNode else "a single scalar"
        span = span_at(path, root.start_mark.line, root.start_mark.column)
        problem = Diagnostic.at(span, FIXTURE_SCHEMA_INVALID, "top-level", f"fixture must be a mapping of directives, found {kind}")
        return LoadResult(None, (problem,), composed=composed)

    converter = (_AliasedConverter if may_alias else _Converter)(path, bounds.depth)
    try:
        tree = converter.convert(root, 0)
    except _Problem as problem:
        refused = Diagnostic.at(problem.span, FIXTURE_SCHEMA_INVALID, "yaml", problem.message)
        return LoadResult(None, tuple(converter.diagnostics) + (refused,), composed=composed)
    return LoadResult(tree, tuple(converter.diagnostics), _may_hold_tokens(text), composed)


def _offset_span(text: str | bytes, offset: int, path: str) -> Span:
    """The span of a character (or byte) offset into the text."""
    newline = "\n" if isinstance(text, str) else b"\n"
    return span_at(path, text.count(newline, 0, offset), offset - (text.rfind(newline, 0, offset) + 1))


# Constructs that open at one place and must close later: an error inside one is located where it
# opens (an unclosed `{` is found only at the end of the file, or at the next line that cannot go on).
_OPENED = ("while parsing a flow", "while scanning a quoted", "while scanning a block scalar")


def _yaml_error(exc: yaml.MarkedYAMLError, path: str) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line, mark.column) if mark is not None else (0, 0)  # 0-based, as libyaml counts
    problem = exc.problem or "invalid YAML"
    if "expected a single document" in (exc.context or ""):
        message = "fixture holds several YAML documents; exactly one is expected"
    elif exc.context_mark is not None and exc.problem_mark is not None and (exc.context or "").startswith(_OPENED):
        opened, found = exc.context_mark, span_at(path, line, column)
        message = (f"invalid YAML: {exc.context.removeprefix('while ').split(' ', 1)[1]} that opens here is not closed: "
                   f"{problem} at line {found.line}, column {found.column}")
        line, column = opened.line, opened.column
    else:
        context = f" ({exc.context})" if exc.context else ""
        message = f"invalid YAML: {problem}{context}"
    return Diagnostic.at(span_at(path, line, column), FIXTURE_SCHEMA_INVALID, "yaml", message)


def _bound_expansion(text: str, path: str, bounds: Limits) -> _Problem | None:
    """The one bound on what aliases expand to, over libyaml's event stream (before composing).

    Walked as copies — as every pass after the loader, ``oa-ast`` and the trace walk it — a tree
    with aliases has more nodes and more depth than its text: ``b: &b [*a, *a]`` doubles ``a``, an
    alias inside an anchored list nested 90 deep adds 90 levels. Each anchored node's expanded size
    and height are computed once, when it closes; an alias adds them where it stands. The first
    alias whose expansion crosses ``bounds.expanded_nodes`` or ``bounds.depth`` is the problem, at
    its own ``line:col``; so is an alias to a node that is still open (a recursive alias), a
    collection nested deeper than the bound in the text itself, and the node at which a long text
    without aliases crosses the node bound. Text libyaml cannot parse returns
    None here: composing reports it with libyaml's own message.
    """
    loader = _Loader(text)
    anchors: dict[str, tuple[int, int]] = {}  # anchor → (expanded nodes, collection levels)
    open_nodes: list[list] = []  # per open collection: [anchor, nodes before it, deepest depth inside]
    total = 0
    last_alias = None
    try:
        while loader.check_event():
            event = loader.get_event()
            kind = type(event)
            if kind is yaml.ScalarEvent:
                total += 1
                if event.anchor is not None:
                    anchors[event.anchor] = (1, 0)
                if total > bounds.expanded_nodes:
                    return _too_many(path, event, bounds, last_alias)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                depth = len(open_nodes)
                if depth > bounds.depth:
                    return _Problem(_mark_span(path, event.start_mark), f"nesting deeper than {bounds.depth} levels (OA_MAX_DEPTH)")
                open_nodes.append([event.anchor, total, depth])
                total += 1
                if total > bounds.expanded_nodes:
                    return _too_many(path, event, bounds, last_alias)
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                anchor, before, deepest = open_nodes.pop()
                if anchor is not None:
                    anchors[anchor] = (total - before, deepest - len(open_nodes) + 1)
                if open_nodes and deepest > open_nodes[-1][2]:
                    open_nodes[-1][2] = deepest
            elif kind is yaml.AliasEvent:
                span = _mark_span(path, event.start_mark)
                name = event.anchor
                if name not in anchors:
                    if any(entry[0] == name for entry in open_nodes):
                        return _Problem(span, f"recursive alias '*{name}': the anchored node contains an alias to itself")
                    continue  # an undefined alias: composing reports it
                size, height = anchors[name]
                total += size
                last_alias = span
                if total > bounds.expanded_nodes:
                    return _Problem(span, f"alias '*{name}' expands this fixture beyond {bounds.expanded_nodes} nodes; "
                                          "refusing to expand (billion-laughs guard, OA_MAX_EXPANDED_NODES)")
                if height:
                    reached = len(open_nodes) + height - 1
                    if reached > bounds.depth:
                        return _Problem(span, f"alias '*{name}' expands to nesting {reached} levels deep, deeper than "
                                              f"{bounds.depth} (OA_MAX_DEPTH)")
                    if open_nodes and reached > open_nodes[-1][2]:
                        open_nodes[-1][2] = reached
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return None


def _too_many(path: str, event, bounds: Limits, last_alias: Span | None) -> _Problem:
    """The node count crossed the bound at an ordinary node (after aliases, or with none)."""
    if last_alias is not None:
        return _Problem(last_alias, f"aliases expand this fixture beyond {bounds.expanded_nodes} nodes; "
                                    "refusing to expand (billion-laughs guard, OA_MAX_EXPANDED_NODES)")
    return _Problem(_mark_span(path, event.start_mark), f"fixture has more than {bounds.expanded_nodes} nodes "
                                                        "(OA_MAX_EXPANDED_NODES); refusing to read on")


def _mark_span(path: str, mark) -> Span:
    return span_at(path, mark.line, mark.column)


class _Converter:
    """Converts one composed document. Without an anchor and an alias in the text, no node can
    be reached twice and ``convert`` is ``build`` (most fixtures); :class:`_AliasedConverter`
    remembers shared (aliased) subtrees by identity; aliases reach it already bounded
    (:func:`_bound_expansion`: no recursion, bounded expanded size and depth), so it only shares
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
            raise _Problem(self.span(node), f"nesting deeper than {self.max_depth} levels (OA_MAX_DEPTH)")
        kind = type(node)
        if kind is _ScalarNode:
            if node.tag == _STR:
                return _string_scalar(node, self.path)
            return self.scalar(node)
        if kind is _MappingNode:
            return self.mapping(node, depth)
        if node.tag != _SEQ:
            self.bad_tag(node)
        convert = self.convert
        path = self.path
        items = []
        add = items.append
        depth += 1
        for item in node.value:
            if type(item) is _ScalarNode and item.tag == _STR:  # the common case, without convert()
                add(_string_scalar(item, path))
            else:
                add(convert(item, depth))
        return _make_sequence(pvector(items), self.span(node))

    def scalar(self, node: yaml.ScalarNode) -> Scalar:
        tag = node.tag
        text = node.value
        if tag in _CORE_SCALAR_TAGS:
            try:
                value = core_value(tag, text)
            except IntegerTooLong as exc:  # reported where it stands; the rest of the file is still read
                self.diagnostics.append(Diagnostic.at(self.span(node), FIXTURE_SCHEMA_INVALID, "limit", str(exc)))
                value = text
        else:
            self.bad_tag(node)
            value = text
        mark = node.start_mark
        return _make_scalar(value, node.style in _QUOTES, span_at(self.path, mark.line, mark.column))

    def mapping(self, node: yaml.MappingNode, depth: int) -> Mapping:
        # The hot loop of loading: locals for everything, string scalars built inline.
        if node.tag != _MAP:
            self.bad_tag(node)
        keys: list = []
        key_spans: list = []
        values: list = []
        add_key, add_key_span, add_value = keys.append, key_spans.append, values.append
        convert = self.convert
        path = self.path
        depth += 1
        for key_node, value_node in node.value:
            if type(key_node) is _ScalarNode and key_node.tag == _STR:
                add_key(key_node.value)
            else:
                add_key(self.key(key_node))
            mark = key_node.start_mark
            add_key_span(span_at(path, mark.line, mark.column))
            if type(value_node) is _ScalarNode and value_node.tag == _STR:  # the common case, without convert()
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
            raise _Problem(self.span(key_node), "mapping keys must be scalars, found a complex key")
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise _Problem(self.span(key_node), "merge keys ('<<') are not supported in fixtures")
        return self.scalar(key_node).value

    def without_duplicates(self, keys: list, key_spans: list, values: list) -> tuple[list, list, list]:
        """Report every repeated key at its repetition and keep the first occurrence."""
        first: dict = {}
        kept = ([], [], [])
        for name, span, value in zip(keys, key_spans, values):
            typed = (type(name), name)  # 1 and true are different keys (Python: 1 == True)
            if typed in first:
                message = f"duplicate key {name!r} (first defined at line {first[typed].line})"
                self.diagnostics.append(Diagnostic.at(span, FIXTURE_SCHEMA_INVALID, "duplicate-key", message))
                continue
            first[typed] = span
            for bucket, item in zip(kept, (name, span, value)):
                bucket.append(item)
        return kept

    def bad_tag(self, node: yaml.Node) -> None:
        """Reported where it stands; the node is read as the plain value it is written as, so every
        tag of the file is reported (and what the schema check finds besides)."""
        message = f"tag {node.tag!r} is not allowed in a fixture (only plain YAML values; no object-constructing tags)"
        self.diagnostics.append(Diagnostic.at(self.span(node), FIXTURE_SCHEMA_INVALID, "tag", message))

    convert = build


class _AliasedConverter(_Converter):
    convert = _Converter.convert_aliased
