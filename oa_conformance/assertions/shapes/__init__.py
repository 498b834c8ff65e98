"""The ``expected:`` shapes (conformance-adapter §5.8) and the explicit registry of them.

Each module here exports ``SHAPES``, its table of :class:`~oa_conformance.assertions.rules.ShapeRow`
rows: the directive, the function that builds its rule from the fixture's value and span
(``(node, span) -> Rule``, usually a ``ValueRule`` over a trace selector), and — for a shape of one
directory's vocabulary (§3.2) — the capability. :data:`MODULES` lists the modules; :data:`SHAPES`
is every row by key (``directive`` for a general shape, ``(capability, directive)`` for a scoped
one). Add a shape by writing its builder and its row in the module of its concern (a new module:
list it in :data:`MODULES`).

Importing this package loads every shape module (and the runtime-free pieces they read); the
assert pass does, ``oa-lint`` does not.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...model.diagnostics import Span
from ...model.vocabulary import VOCABULARY
from ..rules import Builder, Rule, ShouldLevel, Unverified
from . import (
    checkpoint,
    general,
    graph_engine,
    langfuse_leaks,
    langfuse_traces,
    llm_provider,
    observability_run,
    otel_logs_metrics,
    otel_spans,
    pipeline_utilities,
    prompt_management,
    retrieval_provider,
    typed_events,
)

MODULES = (general, checkpoint, graph_engine, pipeline_utilities, llm_provider, prompt_management, retrieval_provider,
           otel_spans, otel_logs_metrics, observability_run, langfuse_traces, langfuse_leaks, typed_events)


def _table() -> dict[Any, Builder]:
    table: dict[Any, Builder] = {}
    for module in MODULES:
        for row in module.SHAPES:
            if row.key in table:  # two modules claiming one directive: a programming error, not a fixture's
                raise ValueError(f"shape {row.key!r} is listed twice (again in {module.__name__})")
            table[row.key] = partial(row.build, shape_rule=shape_rule) if row.nested else row.build
    return table


def shape_rule(directive: str, node: Any, span: Span | None, capability: str | None = None) -> Rule:
    """The rule of one ``expected:`` directive: the capability's own shape first, then the general one."""
    build = SHAPES.get((capability, directive)) if capability else None
    build = build or SHAPES.get(directive)
    if build is None:
        return Unverified(f"expected.{directive}", span, f"not implemented: expected shape {directive!r}")
    row = VOCABULARY.lookup("expected", directive, capability)
    if row is not None and row.should:  # a SHOULD-level expectation: what does not hold is a warning
        return ShouldLevel(f"expected.{directive}", span, build(node, span), row.should)
    return build(node, span)


SHAPES: dict[Any, Builder] = _table()


__all__ = ["MODULES", "SHAPES", "shape_rule"]
