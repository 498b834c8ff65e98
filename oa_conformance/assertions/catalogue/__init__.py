"""The predicate catalogue: every invariant predicate name a fixture may use, as data.

Rows are keyed by ``(capability, name)`` — an observability name is never resolved by a
pipeline-utilities row. A name may be a pattern: ``<node>_node_events_count`` matches any name
of that shape and binds ``node``. Three kinds of row:

- :class:`Restates` — the predicate says no more than another expectation of the same case, named
  by its directive path relative to the block's owner (``expected.final_state.vectors``). Verified
  when the fixture gives the value the row covers (``value``, normally ``true``) and that
  expectation is present in the case and verified; otherwise failed or unverified, with why.
- :class:`Query` — a JMESPath expression over the trace document (docs/TRACE.md) and a
  comparison: ``equals`` (the result matches the fixture's value with the §5.10 matchers), ``set``
  (as sets), ``count`` (the result's length equals the value), ``flag`` (the result's truthiness
  equals the boolean value), ``absent`` (the result is empty — only counted when ``anchor``, a
  second query, is non-empty, so an empty collection never passes an absence check). Pattern
  bindings are substituted into the query text as ``{node}`` (quoted as JMESPath raw strings).
- :class:`Compute` — a Python function ``(scope, expected, **bindings) -> actual | Verdict`` for the
  few predicates that need joins, timing or two runs; ``why`` says why it cannot be a query.

Each capability has one data module here exporting ``ROWS``; :data:`MODULES` is the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Row:
    name: str  # the predicate name, or a pattern with <placeholders>
    doc: str  # one line: what it checks, quoting or paraphrasing the fixture prose that defines it


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
