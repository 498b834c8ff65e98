"""What the coverage map says of a statement: one status, the first of these that holds (the one
place the statuses are defined; the JSON, the text map and the page all read them from here).

* ``proven`` — a runtime fault that breaks exactly the statement (``statement = "<id>"`` in
  ``tools/runtime-faults.toml``) is caught by a case that passed in every report that ran it; or,
  for a statement binding the adapter, every pytest test its ``adapter-evidence.toml`` entry names
  passed in the ``--junit`` file;
* ``violated`` — a case that names the statement fails on this runtime as a known violation (an
  expected failure whose ``oa-expectations*.toml`` entry is of kind ``runtime``) in every report
  that ran it: the map says the runtime breaks it, which no fault can prove;
* ``checked`` — a passing case names the statement (its own per-case citation carries the id or
  quotes the sentence), or an adapter evidence entry names tests and no JUnit file was given;
* ``accounted`` — ``spec-coverage.toml`` gives a reason true by construction (it binds someone
  other than the implementation, asks for documentation, restates another statement, needs a
  proposal the runtime lacks, or nothing could observe it);
* ``cited`` — only the resolver matches a citation to it (by section and wording): a hint;
* ``open`` — everything else.

``accounted`` comes before ``cited``: a reviewed reason outranks a resolver's guess, so a statement
both accounted for and cited counts as accounted.
"""

from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    PROVEN = "proven"
    VIOLATED = "violated"
    CHECKED = "checked"
    ACCOUNTED = "accounted"
    CITED = "cited"
    OPEN = "open"

    @property
    def meaning(self) -> str:
        return MEANINGS[self]

    @property
    def letter(self) -> str:
        return LETTERS[self]


MEANINGS = {
    Status.PROVEN: "a fault breaking it is caught by a passing case that names it (or the adapter's named tests passed)",
    Status.VIOLATED: "a case that names it fails on this runtime, a known runtime violation with its expectations entry",
    Status.CHECKED: "a passing case names it, no caught fault backs it yet",
    Status.ACCOUNTED: "a reviewed reason, true by construction, why no case verifies it",
    Status.CITED: "only a citation's section and wording point at it: a hint, not a verification",
    Status.OPEN: "nothing covers it",
}
LETTERS = {Status.PROVEN: "P", Status.VIOLATED: "V", Status.CHECKED: "K", Status.ACCOUNTED: "A", Status.CITED: "C", Status.OPEN: "O"}


def status_of(*, proven: bool, violated: bool, checked: bool, accounted: bool, cited: bool) -> Status:
    """The first status that holds, in the order above."""
    if proven:
        return Status.PROVEN
    if violated:
        return Status.VIOLATED
    if checked:
        return Status.CHECKED
    if accounted:
        return Status.ACCOUNTED
    if cited:
        return Status.CITED
    return Status.OPEN


def legend() -> list[dict[str, str]]:
    """The statuses in order, as the JSON document carries them (the page reads its legend there)."""
    return [{"name": s.value, "letter": s.letter, "meaning": s.meaning} for s in Status]
