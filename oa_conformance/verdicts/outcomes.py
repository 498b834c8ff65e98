"""What a case's verdict can be — its :class:`Outcome` — and the columns reports count verdicts in.

Below every other module of the package but the shared model: the results (``results.CaseResult``)
carry an outcome, and the readers of stored reports (``diff``, the report page, the coverage map)
compare a report's spellings with the same members, without reaching the running parts.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """A case's verdict, in the order reports count them; each value is how reports spell it (the
    JSON report's ``outcome``, the table's column)."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    ERROR = "error"
    XFAIL = "xfail"  # a failure the expectations file lists
    XPASS = "xpass"  # a pass it lists as a failure (strict: the entry is stale)

    @property
    def fails_run(self) -> bool:
        """Whether a case of this outcome makes the run fail (an xpass does: strict)."""
        return self in RUN_FAILING


RUN_FAILING = frozenset((Outcome.FAILED, Outcome.ERROR, Outcome.XPASS))

# An adapter-layer category for a case that uses a directive the executor does not implement yet: it
# fails (nothing is silently skipped), but reports count it apart from the runtime's failures.
NOT_IMPLEMENTED = "not_implemented"
NOT_IMPLEMENTED_COLUMN = "not implemented"
# The table's columns: the outcomes, with "failed" split so adapter gaps stand apart from the runtime's.
COLUMNS = tuple(o for outcome in Outcome for o in ((outcome, NOT_IMPLEMENTED_COLUMN) if outcome == Outcome.FAILED else (outcome,)))
# Each column's symbol: what ``run`` prints as a case of it finishes, as pytest does; the report page's too.
SYMBOLS = dict(zip(COLUMNS, ".FNsExX", strict=True))
# A change from a good column to a bad one is worse, the other way better (``diff``, the report page);
# any other change (passed → skipped, a case one run lacks) is only a change.
GOOD = (Outcome.PASSED, Outcome.XFAIL, Outcome.SKIPPED)
BAD = (Outcome.FAILED, Outcome.ERROR, Outcome.XPASS, NOT_IMPLEMENTED_COLUMN)


def column_of(outcome: str, category: str | None) -> str:
    """The column a case of this outcome and category counts in (a result's, or a stored report's
    case's): its outcome, or "not implemented" for an adapter gap."""
    return NOT_IMPLEMENTED_COLUMN if outcome == Outcome.FAILED and category == NOT_IMPLEMENTED else outcome
