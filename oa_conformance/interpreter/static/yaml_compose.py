"""YAML text → the node graph libyaml composes, under the YAML 1.2 core schema and the loader's bounds.

The first half of the load pass (``loader.py`` builds the value tree from what this composes):

* plain scalars resolve by the YAML 1.2 core schema (:class:`CoreSchemaResolver`, :func:`core_value`),
  memoized, with libyaml's per-node path-resolver hooks as C no-ops (:class:`_Composer`);
* the limits (:func:`limits`: bytes, expanded nodes, depth) and :func:`bound_expansion`, the one
  bound on what aliases expand to, over libyaml's event stream before anything is composed;
* libyaml's errors as located diagnostics (:func:`yaml_error`);
* two cheap text gates: :func:`may_alias` (can any node be shared?) and :func:`may_hold_tokens`
  (can any string be a §5.10 value token?).
"""

from __future__ import annotations

import operator
import os
import re
import sys
from functools import lru_cache
from typing import NamedTuple

import yaml

from ...model.diagnostics import FIXTURE_SCHEMA_INVALID, Diagnostic, Span, span_at

try:  # pragma: no branch - libyaml is a declared requirement (PyYAML wheels bundle it)
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

# Limits that keep a hostile or broken fixture from eating the machine (defaults; see :func:`limits`).
MAX_EXPANDED_NODES = 200_000  # the largest fixture in the spec corpus has about 3,000 nodes
MAX_DEPTH = 100  # the deepest corpus fixture nests about 10 levels
DEPTH_CEILING = 150  # OA_MAX_DEPTH may not exceed this: every pass after the loader walks the tree recursively
DEFAULT_MAX_FIXTURE_BYTES = 4 << 20

STR_TAG = "tag:yaml.org,2002:str"
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
BOOL_TAG = "tag:yaml.org,2002:bool"
NULL_TAG = "tag:yaml.org,2002:null"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"

# Where YAML can put an alias (``*name``) or an anchor (``&name``): after a space, a flow indicator
# or at a line start. A text without both cannot share nodes (an alias to no anchor does not
# compose): the converter skips identity bookkeeping and the alias bound its event pass (no corpus
# fixture has an anchor).
_ALIAS = re.compile(r"[\s\[{,:]\*[^\s,\]}]")
_ANCHOR = re.compile(r"[\s\[{,:]&[^\s,\]}]")


def may_alias(text: str) -> bool:
    return ("*" in text and "&" in text and (text.startswith("*") or _ALIAS.search(text) is not None)
            and (text.startswith("&") or _ANCHOR.search(text) is not None))


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
    if tag == INT_TAG:
        return core_int(text)
    if tag == FLOAT_TAG:
        return core_float(text)
    if tag == BOOL_TAG:
        return text[0] in "tT"
    if tag == NULL_TAG:
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


class _FixtureDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """PyYAML's safe dumper, quoting every string that a reader of either dialect would take for
    something else: PyYAML quotes by its YAML 1.1 resolver alone, so ``"1e3"`` (a float in the 1.2
    core schema, what the adapter reads) came out plain and read back as 1000.0."""

    def resolve(self, kind, value, implicit):
        tag = super().resolve(kind, value, implicit)
        if kind is yaml.ScalarNode and implicit[0]:
            core = _plain_resolver.resolve(kind, value, implicit)
            if core != STR_TAG:
                return core
        return tag


def dump_fixture_yaml(data) -> str:
    """Fixture data as YAML text that reads back, by the adapter and by a YAML 1.1 reader, to the
    same values (``oa-ast --format yaml``)."""
    return yaml.dump(data, Dumper=_FixtureDumper, sort_keys=False, allow_unicode=True, width=100)


def compose(text: str):
    loader = _Composer(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


CORE_SCALAR_TAGS = frozenset((STR_TAG, INT_TAG, FLOAT_TAG, BOOL_TAG, NULL_TAG))

# A value token is a whole scalar starting with ``<``: in the text it follows a quote, a space, a
# flow indicator or a line start (``list<int>`` is a type, not a token). Escapes in double-quoted
# strings could spell ``<`` without writing it, so they count too. (Cheap enough to pay for itself:
# most fixtures hold no token, and their expected values then need no scan.)
_TOKEN_OPENING = re.compile(r"<[\w>-]")
_BEFORE_TOKEN = "\"'[{,:"  # or whitespace
_ESCAPED_LT = re.compile(r"\\(?:x3[cC]|u003[cC]|U0000003[cC])")


def may_hold_tokens(text: str) -> bool:
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


class LoadProblem(Exception):
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


def offset_span(text: str | bytes, offset: int, path: str) -> Span:
    """The span of a character (or byte) offset into the text."""
    newline = "\n" if isinstance(text, str) else b"\n"
    return span_at(path, text.count(newline, 0, offset), offset - (text.rfind(newline, 0, offset) + 1))


# Constructs that open at one place and must close later: an error inside one is located where it
# opens (an unclosed `{` is found only at the end of the file, or at the next line that cannot go on).
_OPENED = ("while parsing a flow", "while scanning a quoted", "while scanning a block scalar")


def yaml_error(exc: yaml.MarkedYAMLError, path: str) -> Diagnostic:
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
    return Diagnostic(span_at(path, line, column), FIXTURE_SCHEMA_INVALID, "yaml", message)


def bound_expansion(text: str, path: str, bounds: Limits) -> LoadProblem | None:
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
                    return LoadProblem(mark_span(path, event.start_mark), f"nesting deeper than {bounds.depth} levels (OA_MAX_DEPTH)")
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
                span = mark_span(path, event.start_mark)
                name = event.anchor
                if name not in anchors:
                    if any(entry[0] == name for entry in open_nodes):
                        return LoadProblem(span, f"recursive alias '*{name}': the anchored node contains an alias to itself")
                    continue  # an undefined alias: composing reports it
                size, height = anchors[name]
                total += size
                last_alias = span
                if total > bounds.expanded_nodes:
                    return LoadProblem(span, f"alias '*{name}' expands this fixture beyond {bounds.expanded_nodes} nodes; "
                                          "refusing to expand (billion-laughs guard, OA_MAX_EXPANDED_NODES)")
                if height:
                    reached = len(open_nodes) + height - 1
                    if reached > bounds.depth:
                        return LoadProblem(span, f"alias '*{name}' expands to nesting {reached} levels deep, deeper than "
                                              f"{bounds.depth} (OA_MAX_DEPTH)")
                    if open_nodes and reached > open_nodes[-1][2]:
                        open_nodes[-1][2] = reached
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return None


def _too_many(path: str, event, bounds: Limits, last_alias: Span | None) -> LoadProblem:
    """The node count crossed the bound at an ordinary node (after aliases, or with none)."""
    if last_alias is not None:
        return LoadProblem(last_alias, f"aliases expand this fixture beyond {bounds.expanded_nodes} nodes; "
                                    "refusing to expand (billion-laughs guard, OA_MAX_EXPANDED_NODES)")
    return LoadProblem(mark_span(path, event.start_mark), f"fixture has more than {bounds.expanded_nodes} nodes "
                                                        "(OA_MAX_EXPANDED_NODES); refusing to read on")


def mark_span(path: str, mark) -> Span:
    return span_at(path, mark.line, mark.column)


