"""What a capability harness is (spec §3.2 header comments; conformance-adapter §6).

The graph executor (``execute.py``) knows the general §4–§5 surface. A capability directory whose
header comment defines more — direct provider calls, a captured wire, OTel / Langfuse capture, a
prompt backend — has one :class:`CapabilityHarness`, listed in the package's explicit table
(``capabilities.HARNESSES``):

- ``captures``: the names of the captures (``captures.CAPTURES``) entered around each graph run, in
  order (``captures.instrument_of``); each yields an object with ``collections() -> dict``, merged
  into ``CaseTrace.collections`` (the trace document's top-level collections).
- ``is_direct`` / ``run_direct``: a case that is not a graph run (``calls:`` against a provider, a
  prompt fetch) is executed by ``run_direct`` instead of the graph flow and returns its own trace.

What the directory adds to the executor's supported surface is derived from the vocabulary rows
(:meth:`CapabilityHarness.directives`): the rows whose handler is one of its captures, its own
run (``direct``), its shapes (``case_expectation``) or a general kind keyed to it. Any other
directive still fails as "not implemented". ``case_expectations`` are the case-level directives its
shapes judge beside ``expected:`` (e.g. ``expected_wire_request``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Awaitable, Callable

from ...static.scenarios import Scenario
from ....model.trace import CaseTrace
from ....model.vocabulary import VOCABULARY
from ....model.vocabulary.registry import GENERAL_KINDS


@dataclass(frozen=True)
class CapabilityHarness:
    capability: str
    captures: tuple[str, ...] = ()
    is_direct: Callable[[Scenario], bool] = staticmethod(lambda scenario: False)
    run_direct: Callable[[Scenario], Awaitable[CaseTrace]] | None = None

    def directives(self, family: str) -> frozenset[str]:
        """The directives of ``family`` (case or invocation level) this harness adds to the
        general surface, as the vocabulary rows name their handlers."""
        keyed = VOCABULARY.handled_by(family, GENERAL_KINDS | {"direct", "case_expectation"}, self.capability)
        return keyed.union(*(VOCABULARY.handled_by(family, ("capture",), name) for name in self.captures))

    @cached_property
    def case_directives(self) -> frozenset[str]:
        return self.directives("fixture") | self.directives("case")

    @cached_property
    def invocation_directives(self) -> frozenset[str]:
        return self.directives("invocation")

    @cached_property
    def case_expectations(self) -> frozenset[str]:
        return VOCABULARY.handled_by("case", ("case_expectation",), self.capability)


