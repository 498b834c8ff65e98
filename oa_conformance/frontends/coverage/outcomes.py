"""Run reports (``oa-conformance run --json``) → which cases passed.

Several reports are merged: a case counts as passed only when it passed in every report that ran
it (``xpass`` is a pass — its checks held — that the expectations file did not expect). A report
none of whose cases is a case under the roots is one for another corpus: a problem, and it is not
used; a report with some cases the roots lack (another version of the corpus, a renamed fixture)
is used for the rest, and the ones it lacks are a problem.
"""

from __future__ import annotations

import json
from typing import Iterable, NamedTuple

PASSING = frozenset(("passed", "xpass"))


class Outcomes(NamedTuple):
    passed: frozenset[str]  # case ids that passed in every report that ran them
    ran: frozenset[str]  # every case id a usable report ran
    problems: tuple[str, ...]


class ResultsError(ValueError):
    """A file that is not a run report at all (the command exits 2)."""


def read_results(paths: Iterable[str], known: set[str], capabilities: set[str] | None = None) -> Outcomes:
    """The outcomes of the reports at ``paths`` for the cases in ``known`` (of ``capabilities``, when given)."""
    outcome_sets: dict[str, set[str]] = {}
    problems: list[str] = []
    for path in paths:
        cases = [c for c in _cases(path) if capabilities is None or c["id"].split("/")[0] in capabilities]
        ids = [case["id"] for case in cases]
        foreign = [i for i in ids if i not in known]
        if ids and len(foreign) == len(ids):
            problems.append(f"{path}:1: a results file for another corpus: none of its {len(ids)} cases is a case under the roots "
                            f"(first: {ids[0]}); not used")
            continue
        if foreign:
            problems.append(f"{path}:1: {len(foreign)} of its {len(ids)} cases are not cases under the roots "
                            f"(first: {foreign[0]}): results of another corpus version? those are not used")
        for case in cases:
            if case["id"] in known:
                outcome_sets.setdefault(case["id"], set()).add(str(case.get("outcome")))
    passed = frozenset(i for i, outcomes in outcome_sets.items() if outcomes <= PASSING)
    return Outcomes(passed, frozenset(outcome_sets), tuple(problems))


def _cases(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read: {exc.strerror}") from None
    except ValueError as exc:
        raise ResultsError(f"{path}: not JSON ({exc})") from None
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list) or not all(isinstance(c, dict) and isinstance(c.get("id"), str) for c in cases):
        raise ResultsError(f"{path}: not a report of oa-conformance run --json (no cases with ids)")
    return cases
