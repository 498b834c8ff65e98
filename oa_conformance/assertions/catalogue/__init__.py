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

The row types are in :mod:`.rows`. Each capability has one table module here exporting ``ROWS``
(one literal entry per row; compute functions and example builders live in modules of their own,
``*_compute.py`` / ``*_examples.py``); :data:`TABLES` is the explicit registry (capability → its
rows), with the §5.9 canonical rows every capability shares under ``None``. Nothing registers
itself on import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

from ...ast.nodes import Scalar, Section
from ...model.kinds import is_sequence
from . import (canonical, graph_engine, llm_provider, observability, pipeline_utilities, prompt_management,
               retrieval_provider)
from .rows import Row


# capability → its table of rows (the explicit registry; add one line). ``None``: the §5.9 canonical
# rows, shared by every capability.
TABLES: dict[str | None, tuple[Row, ...]] = {
    None: canonical.ROWS,
    "graph-engine": graph_engine.ROWS,
    "llm-provider": llm_provider.ROWS,
    "pipeline-utilities": pipeline_utilities.ROWS,
    "observability": observability.ROWS,
    "prompt-management": prompt_management.ROWS,
    "retrieval-provider": retrieval_provider.ROWS,
}


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
    """The rows of one capability's table (``None``: the general §5.9 rows); () when it has none."""
    return TABLES.get(capability, ())


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
        elif isinstance(node, Section):  # a directive the predicate's row names by its path
            node = node.named(part)
        elif hasattr(node, "get") and not isinstance(node, Scalar):  # the scenario, a data mapping
            node = node.get(part)
        else:
            return None
    return node


def all_rows() -> Iterator[tuple[str | None, Row]]:
    """Every row of every registered table, as (capability, row); the general rows first."""
    for capability in TABLES:
        for row in rows_of(capability):
            yield capability, row


__all__ = ["Resolved", "TABLES", "all_rows", "directive_node", "pattern_regex", "resolve", "rows_of"]
