"""The predicate catalogue: every invariant predicate name a fixture may use, as data.

Rows are keyed by ``(capability, name)`` — an observability name is never resolved by a
pipeline-utilities row. A name may be a pattern: ``<node>_node_events_count`` matches any name
of that shape and binds ``node``; ``<field:branch_name|fan_out_index>`` binds one of the words
listed; ``[...]`` marks an optional literal part
(``<node>[_node]_fan_out_index_chain_empty`` matches both ``leaf_fan_out_index_chain_empty`` and
``outer_node_fan_out_index_chain_empty``, binding ``leaf`` / ``outer``). Placeholders bind the
shortest text that makes the whole name match. Three kinds of row:

- :class:`Restates` — the predicate says no more than another expectation of the same case, named
  by its directive path relative to the block's owner (``expected.final_state.vectors``). Verified
  when the fixture gives the value the row covers (``value``, normally ``true``) and that
  expectation is present in the case and verified; otherwise failed or unverified, with why.
  Restating rows are judged after every other check of the case.
- :class:`Query` — a JMESPath expression over the query scope (the trace document of
  docs/TRACE.md plus the views listed there: ``invocation``, ``node_events``, ``inner_events``,
  ``runs``) and a comparison: ``equals`` (the result matches the fixture's value with the §5.10
  matchers), ``set`` (as sets), ``count`` (the result's length equals the value), ``flag`` (the
  result's JMESPath truthiness equals the boolean value), ``absent`` (the result is empty; a
  ``false`` value asks for the opposite). ``anchor``, a second query, must select something
  before the comparison counts — required for ``absent`` and for "none of" flags, so an empty
  collection never passes. A query naming a top-level key the scope lacks (a collection the case
  did not instrument, ``invocation`` at case level) fails "cannot evaluate", never passes. In the
  query text, ``{node}`` (a pattern binding) is replaced by a JMESPath raw string ``'...'`` and
  ``{value}`` by the fixture's value as a JSON literal (a parameter: ``no_events_for_node: [a]``).
- :class:`Compute` — a Python function ``(scope, expected, **bindings) -> actual | Verdict`` over
  the same scope (``expected`` is the fixture's value as plain data) for the few predicates that
  need joins, timing or two runs; ``why`` says why it cannot be a query or a restatement.

Each row may carry ``holds=`` and ``fails=`` :class:`Example` s — a hand-built trace document on
which the predicate holds and one on which it fails; ``tests/test_catalogue.py`` runs every row's
pair (a Query or Compute row without both fails that test; a Restates row's pair is derived).

Each capability has one data module here exporting ``ROWS``; :data:`MODULES` is the registry
(capability → module name); :data:`GENERAL` holds the §5.9 canonical rows every capability
shares. Modules are imported on first use, so a lookup costs one capability's table.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator

from ...ast.nodes import Scalar
from ...kinds import is_sequence


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

# capability → module of this package holding its ROWS (the explicit registry; add one line)
MODULES: dict[str, str] = {
    "graph-engine": "graph_engine",
    "llm-provider": "llm_provider",
    "pipeline-utilities": "pipeline_utilities",
    "observability": "observability",
    "prompt-management": "prompt_management",
    "retrieval-provider": "retrieval_provider",
}
GENERAL = "canonical"  # the §5.9 canonical rows, shared by every capability


@dataclass(frozen=True)
class Resolved:
    """A row found for a concrete name, with the pattern's bindings."""

    capability: str | None
    row: Row
    bindings: tuple[tuple[str, str], ...] = ()


def pattern_regex(name: str) -> re.Pattern | None:
    """The regex of a pattern name (``<x>`` binds, ``[...]`` is optional), or None for a plain name."""
    if "<" not in name and "[" not in name:
        return None
    parts = []
    for token in re.split(r"(<[^>]+>|\[[^\]]*\])", name):
        if token.startswith("<"):
            placeholder, _, choices = token[1:-1].partition(":")
            alternatives = "|".join(map(re.escape, choices.split("|"))) if choices else ".+?"
            parts.append(f"(?P<{placeholder}>{alternatives})")
        elif token.startswith("["):
            parts.append(f"(?:{re.escape(token[1:-1])})?")
        else:
            parts.append(re.escape(token))
    return re.compile("".join(parts) + r"\Z")


def rows_of(capability: str | None) -> tuple[Row, ...]:
    """The rows of one capability's module (``None``: the general §5.9 rows); () when it has none."""
    module = MODULES.get(capability) if capability is not None else GENERAL
    if module is None:
        return ()
    return tuple(importlib.import_module(f"{__name__}.{module}").ROWS)


@lru_cache(maxsize=None)
def _table(capability: str | None) -> tuple[dict[str, Row], tuple[tuple[re.Pattern, Row], ...]]:
    exact, patterns = {}, []
    for row in rows_of(capability):
        regex = pattern_regex(row.name)
        if regex is None:
            exact[row.name] = row
        else:
            patterns.append((regex, row))
    return exact, tuple(patterns)


def _lookup(capability: str | None, name: str) -> Resolved | None:
    exact, patterns = _table(capability)
    if name in exact:
        return Resolved(capability, exact[name])
    for regex, row in patterns:
        found = regex.match(name)
        if found:
            return Resolved(capability, row, tuple(found.groupdict().items()))
    return None


@lru_cache(maxsize=4096)
def resolve(capability: str | None, name: str) -> Resolved | None:
    """The row for predicate ``name`` in ``capability``'s fixtures: its own table first, then the
    general §5.9 rows. Never another capability's rows."""
    if capability is not None:
        found = _lookup(capability, name)
        if found is not None:
            return found
    return _lookup(None, name)


def directive_node(owner: Any, directive: str) -> Any:
    """The AST node at a dotted directive path below ``owner`` (a Section, Scenario or Mapping), or None.

    Here rather than in the engine: ``oa-lint`` (P002) needs it without the assertion machinery."""
    node = owner
    for part in directive.split("."):
        if node is None:
            return None
        if is_sequence(getattr(node, "items", None)) and part.isdigit():
            items = node.items
            node = items[int(part)] if int(part) < len(items) else None
        elif hasattr(node, "get") and not isinstance(node, Scalar):
            node = node.get(part)
        else:
            return None
    return node


def all_rows() -> Iterator[tuple[str | None, Row]]:
    """Every row of every registered module, as (capability, row); the general rows first."""
    for capability in (None, *MODULES):
        for row in rows_of(capability):
            yield capability, row


__all__ = ["COMPARES", "Compute", "Example", "GENERAL", "MODULES", "Query", "Resolved", "Restates", "Row", "Verdict",
           "all_rows", "directive_node", "flag", "pattern_regex", "resolve", "rows_of"]
