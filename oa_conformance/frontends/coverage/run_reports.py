"""Run reports (``oa-conformance run --json``) → which cases passed.

Several reports are merged: a case counts as passed only when it passed in every report that ran
it (``xpass`` is a pass — its checks held — that the expectations file did not expect). A report
none of whose cases is a case under the roots is one for another corpus: a problem, and it is not
used; a report with some cases the roots lack (another version of the corpus, a renamed fixture)
is used for the rest, and the ones it lacks are a problem. A report whose run read another corpus
(its ``run.roots`` are not the roots mapped: a 0.109.0 run on the 0.118.2 corpus, whose ids are
mostly the same) is a problem too, and used for the cases both have.

Each report also says which proposals the build that ran ships (``host.proposals``, from its
``conformance.toml`` or its probes): a proposal one report says shipped is shipped, whatever the
others say — an accounting entry that needs it no longer accounts for anything.
"""

from __future__ import annotations

import json
import os
from typing import Iterable, NamedTuple

from ...verdicts.outcomes import Outcome

PASSING = frozenset((Outcome.PASSED, Outcome.XPASS))
RUNTIME_VIOLATION = "xfail (runtime)"


class Outcomes(NamedTuple):
    passed: frozenset[str]  # case ids that passed in every report that ran them
    ran: frozenset[str]  # every case id a usable report ran
    problems: tuple[str, ...]
    # case ids that failed as a known runtime violation (xfail under a ``runtime`` expectations
    # entry) in every report that ran them
    violating: frozenset[str] = frozenset()
    # proposal number → "report: evidence" for each proposal a report says the build that ran ships
    shipped: dict[str, str] = {}


class ResultsError(ValueError):
    """A file that is not a run report at all (the command exits 2)."""


def read_results(paths: Iterable[str], known: set[str], capabilities: set[str] | None = None,
                 roots: Iterable[str] = ()) -> Outcomes:
    """The outcomes of the reports at ``paths`` for the cases in ``known`` (of ``capabilities``, when
    given); a report whose run read none of ``roots`` (its ``run.roots``) is said to be of another
    corpus, and used for the cases both have."""
    outcome_sets: dict[str, set[str]] = {}
    problems: list[str] = []
    shipped: dict[str, str] = {}
    mapped = [_corpus(root) for root in roots]
    for path in paths:
        data = _report(path)
        ran_over = data.get("run", {}).get("roots") if isinstance(data.get("run"), dict) else None
        if mapped and isinstance(ran_over, list) and ran_over and not any(
                _overlap(_corpus(str(root)), here) for root in ran_over for here in mapped):
            problems.append(f"{path}:1: a run over {', '.join(map(str, ran_over))}, not over the roots mapped here: its "
                            "verdicts are of another corpus (version), used for the cases both have")
        cases = [c for c in data["cases"] if capabilities is None or c["id"].split("/")[0] in capabilities]
        ids = [case["id"] for case in cases]
        foreign = [i for i in ids if i not in known]
        if ids and len(foreign) == len(ids):
            problems.append(f"{path}:1: a results file for another corpus: none of its {len(ids)} cases is a case under the roots "
                            f"(first: {ids[0]}); not used")
            continue
        if foreign:
            problems.append(f"{path}:1: {len(foreign)} of its {len(ids)} cases are not cases under the roots "
                            f"(first: {foreign[0]}): results of another corpus version? those are not used")
        for number, evidence in _shipped(data).items():
            shipped.setdefault(number, f"{path}: {evidence}")
        for case in cases:
            if case["id"] in known:
                outcome_sets.setdefault(case["id"], set()).add(_outcome(case))
    passed = frozenset(i for i, outcomes in outcome_sets.items() if outcomes <= PASSING)
    violating = frozenset(i for i, outcomes in outcome_sets.items() if outcomes == {RUNTIME_VIOLATION})
    return Outcomes(passed, frozenset(outcome_sets), tuple(problems), violating, shipped)


def _shipped(data: dict) -> dict[str, str]:
    """The proposals the report's build ships (``host.proposals``: state ``shipped``), each with its evidence."""
    host = data.get("host")
    proposals = host.get("proposals") if isinstance(host, dict) else None
    if not isinstance(proposals, dict):
        return {}
    return {str(number): str(status.get("evidence") or "shipped") for number, status in proposals.items()
            if isinstance(status, dict) and status.get("state") == "shipped"}


def _outcome(case: dict) -> str:
    """The case's outcome, an expected failure told apart when its entry blames the runtime."""
    outcome = str(case.get("outcome"))
    expectation = case.get("expectation")
    if outcome == Outcome.XFAIL and isinstance(expectation, dict) and expectation.get("kind") == "runtime":
        return RUNTIME_VIOLATION
    return outcome


def _corpus(root: str) -> str:
    """A root as the folder it names fixtures in: a spec repository as its spec/ folder, real path."""
    from ...model.discovery import spec_dir

    return os.path.realpath(spec_dir(root) or root) if os.path.isdir(root) else os.path.realpath(root)


def _overlap(one: str, other: str) -> bool:
    """Whether one path is the other or inside it (a run of one capability's folder read the corpus too)."""
    return one == other or one.startswith(other + os.sep) or other.startswith(one + os.sep)


def _report(path: str) -> dict:
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
    return data
