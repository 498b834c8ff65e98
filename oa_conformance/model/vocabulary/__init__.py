"""The directive vocabulary, as data.

One table of every directive a fixture may use: where it may appear (its family), the shape of its
value, the spec section and capability it serves, and the spec version it arrived in where known.
Entries are grouped in one module per capability (plus :mod:`.core` for the conformance-adapter §5
general surface); :data:`MODULES` is the explicit registry of those modules.

To add a directive: add a :class:`Directive` to the module of the capability it serves, with
``handled_by`` naming who runs it (or a new :class:`Family` if it opens a new kind of mapping). The
schema check accepts it, ``python -m tools.generate_views`` gives its family's typed view an
attribute for it (``tests/test_views.py`` fails until the checked-in ``ast/views.py`` is
regenerated), the executor's supported surface is derived from it, and ``oa-lint
--list-directives`` documents it.
"""

from __future__ import annotations

from . import (
    core,
    graph_engine,
    harness,
    llm_provider,
    observability,
    pipeline_utilities,
    prompt_management,
    retrieval_provider,
    sessions,
    suspension,
)
from .registry import Directive, Family, Judged, Vocabulary, attr_name

MODULES = (
    core,
    graph_engine,
    pipeline_utilities,
    observability,
    llm_provider,
    retrieval_provider,
    prompt_management,
    sessions,
    suspension,
    harness,
)

VOCABULARY = Vocabulary(
    (family for module in MODULES for family in module.FAMILIES),
    (directive for module in MODULES for directive in module.DIRECTIVES),
)

# The predicate blocks of an `expected:` block: its rows the predicate catalogue judges (the assert
# pass runs their rows one by one; lint's P002 reads the predicates they name).
# The fixture-level directives a case never inherits: they describe the file, not a scenario.
FILE_ONLY = frozenset(("cases", "conformance_version", "name", "description"))

PREDICATE_BLOCKS = tuple(sorted(d.name for d in VOCABULARY.directives_of("expected") if VOCABULARY.rule_builder("expected", d.name, d.capability) == "predicates"))

__all__ = ["Directive", "FILE_ONLY", "Family", "Judged", "MODULES", "PREDICATE_BLOCKS", "VOCABULARY", "Vocabulary", "attr_name"]
