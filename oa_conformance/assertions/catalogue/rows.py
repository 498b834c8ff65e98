"""The catalogue's row types: what one row of a capability's table is (see the package docstring).

A row is one literal entry in its capability's ``ROWS`` table — name, what it checks, how (a
restated directive, a query, or a compute function with why it cannot be a query), and the
example on which it holds and the one on which it fails, together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class Example:
    """A hand-built trace document and the value a fixture gives the predicate over it."""

    document: dict  # a trace document (docs/TRACE.md); only what the row reads is needed
    value: Any = True  # the predicate's value in the fixture (plain data)
    invocation: int | None = 0  # the invocation the block is about; None: a case-level block
    name: str | None = None  # for a pattern row: a concrete name (default: placeholders → "x")


@dataclass(frozen=True)
class Row:
    name: str  # the predicate name, or a pattern with <placeholders>
    doc: str  # one line: what it checks, quoting or paraphrasing the fixture prose that defines it
    holds: Example | None = field(default=None, kw_only=True)
    fails: Example | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class Restates(Row):
    directive: str  # e.g. "expected.final_state.embedding_response.vectors"
    value: Any = True


@dataclass(frozen=True)
class Query(Row):
    query: str
    compare: str = "equals"  # equals | set | count | flag | absent
    anchor: str | None = None  # required for absent (and "none of" flags): must select something


@dataclass(frozen=True)
class Compute(Row):
    function: Callable[..., Any]
    why: str  # why this cannot be a query or a restatement


@dataclass(frozen=True)
class Verdict:
    """A compute row's own verdict, when its value is a flag rather than a quantity."""

    ok: bool
    detail: str = ""


def flag(expected: Any, holds: bool, detail: str) -> Verdict:
    """A compute row's verdict on a predicate that holds or not, against the boolean the fixture gives."""
    if holds == bool(expected):
        return Verdict(True)
    if holds:  # the fixture gives false: say so, whatever the row found
        return Verdict(False, "it holds, and the fixture gives false" + (f" ({detail})" if detail else ""))
    return Verdict(False, detail or "it does not hold")


COMPARES = ("equals", "set", "count", "flag", "absent")


__all__ = ["COMPARES", "Compute", "Example", "Query", "Restates", "Row", "Verdict", "flag"]
