"""Diagnostics: one immutable record per problem, and the spans they point at.

Every problem the adapter reports about a fixture is a :class:`Diagnostic`: the :class:`Span` of
the YAML it is about, a §9 category (or an adapter-layer one such as ``lint``), a short code and a
message. Passes return tuples of diagnostics; they never print and never raise for a fixture
problem. Formatters (text, JSON, SARIF, …) are pure functions over lists of them.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# The four §9 categories of the conformance-adapter spec.
FIXTURE_DIRECTIVE_UNKNOWN = "fixture_directive_unknown"
FIXTURE_SCHEMA_INVALID = "fixture_schema_invalid"
FIXTURE_VERSION_UNSUPPORTED = "fixture_version_unsupported"
HARNESS_PRIMITIVE_MISSING = "harness_primitive_missing"

SPEC_CATEGORIES = (
    FIXTURE_DIRECTIVE_UNKNOWN,
    FIXTURE_SCHEMA_INVALID,
    FIXTURE_VERSION_UNSUPPORTED,
    HARNESS_PRIMITIVE_MISSING,
)


def escaped(path: str) -> str:
    """``path`` for a ``path:line:col`` line: a control character (a newline in a file name) is written
    as its escape (``\\n``), so the line stays one line and says which file it is."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), path)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


# The most of one value or source line a message shows (a fixture may hold a line of megabytes).
SHOWN_CHARACTERS = 200


def clipped(text: str, limit: int = SHOWN_CHARACTERS) -> str:
    """``text`` as every message shows it: at most ``limit`` characters, a cut marked ``...``."""
    return text if len(text) <= limit else text[:limit - 3] + "..."



def article(word: str) -> str:
    """``an`` before a vowel sound (``an int``, ``an item``), else ``a``: a message's wording."""
    return "an" if word[:1].lower() in "aeiou" else "a"


class Span(NamedTuple):
    """Where something is: file path, 1-based line and 1-based column — a fixture's node, a check, a
    problem, an expectations-file entry (a TOML line: ``column`` None). Results carry spans; only a
    front end turns one into text (``str``: ``path:line:col``), and only a reader of a stored JSON
    report turns text back into one (:meth:`read`).

    PyYAML marks are 0-based; :func:`span_at` is the one place that converts them.
    """

    path: str
    line: int
    column: int | None

    @property
    def position(self) -> str:
        """``line:col`` (``line`` for a span with no column): where in its file, as messages say it."""
        return f"{self.line}:{self.column}" if self.column is not None else str(self.line)

    def __str__(self) -> str:
        return f"{escaped(self.path)}:{self.position}"

    def shifted(self, columns: int) -> Span:
        """The span ``columns`` characters to the right on the same line (a spot inside a string of
        a fixture, whose spans all have a column)."""
        return Span(self.path, self.line, self.column + columns)

    @classmethod
    def read(cls, text: str) -> Span | None:
        """The span ``str`` wrote as ``text`` (``path:line:col`` or ``path:line``), read back from a
        stored JSON report (whose locations are text); None when ``text`` names no line."""
        found = _WRITTEN.fullmatch(text)
        if found is None:
            return None
        path, line, column = found.groups()
        return cls(path, int(line), int(column) if column is not None else None)


# What ``str(Span)`` writes: a path (it may hold colons), a line, and a column when there is one.
_WRITTEN = re.compile(r"(.*?):(\d+)(?::(\d+))?", re.DOTALL)


def span_at(path: str, line0: int, column0: int) -> Span:
    """The span of PyYAML's (libyaml's) 0-based line and column: the one place they become 1-based.

    The loader calls it for every node it builds, so it skips ``Span.__new__``'s argument handling
    (a NamedTuple's ``__new__`` is Python code; ``tuple.__new__`` is not)."""
    return _tuple_new(Span, (path, line0 + 1, column0 + 1))


_tuple_new = tuple.__new__


class Diagnostic(NamedTuple):
    """One problem found in one fixture, at a :class:`Span` it keeps as a span until a front end
    prints it (``str``: ``path:line:col: category: message``; the lint formats read its parts)."""

    location: Span
    category: str
    code: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.location}: {self.category}: {self.message}"
