"""Runtime faults (tools/runtime_faults.py): each fault applies to this runtime build exactly once,
and each case a fault names in ``caught_by`` — bundled (spec/) or of the target corpus
(OA_TARGET_SPEC) — fails against a copy of the runtime with that fault applied (it passes against
the intact runtime: tests/test_run.py runs every case). A listed case that no longer fails is stale,
and so is the claim that it proves the fault's ``statement`` (docs/COVERAGE.md): the test fails.
One run per (fault, fixture file), all of that file's listed cases at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.runtime_faults import Fault, FaultError, detections, load_faults, outcomes_under, patched_runtime

from .conftest import BUNDLED_SPEC, shared_spec_root, target_spec_root

FAULTS = load_faults()


def test_the_fault_list_is_well_formed():
    assert FAULTS, "tools/runtime-faults.toml lists no fault"
    assert all(f.clause.strip() and "§" in f.clause for f in FAULTS), "each fault names the spec clause it breaks"


@pytest.mark.parametrize("fault", FAULTS, ids=[f.id for f in FAULTS])
def test_each_fault_applies_to_this_runtime_exactly_once(fault, tmp_path):
    root = patched_runtime(fault, tmp_path)
    patched = (root / "openarmature" / fault.file).read_text(encoding="utf-8")
    assert fault.new in patched  # patched_runtime refuses text that is not there exactly once


def _fixture_of(case_id: str) -> str:
    """``graph-engine/006-x[case]`` → ``graph-engine/006-x``."""
    return case_id.split("[", 1)[0]


def _fixture_path(fixture: str) -> Path | None:
    """The fixture file of ``capability/NNN-name``: bundled first, then the target corpus's."""
    capability, name = fixture.split("/", 1)
    roots = [BUNDLED_SPEC] + [root / "spec" for root in filter(None, [target_spec_root()])]
    return next((path for root in roots if (path := root / capability / "conformance" / f"{name}.yaml").is_file()), None)


CAUGHT: dict[tuple[str, str], list[str]] = {}
for _fault in FAULTS:
    for _case in _fault.caught_by:
        CAUGHT.setdefault((_fault.id, _fixture_of(_case)), []).append(_case)
BY_ID = {f.id: f for f in FAULTS}


@pytest.mark.proof
@pytest.mark.parametrize(("fault_id", "fixture"), list(CAUGHT), ids=[f"{f}-{x}" for f, x in CAUGHT])
def test_each_case_a_fault_lists_fails_under_it(fault_id, fixture):
    path = _fixture_path(fixture)
    if path is None and target_spec_root() is None:
        pytest.skip(f"{fixture} is not bundled, and OA_TARGET_SPEC (the target corpus) is not set")
    assert path is not None, f"fault {fault_id}: caught_by names {fixture}, which is neither under spec/ nor in the target corpus"
    # One process, no worker pool: a fixture's few cases do not repay the forkserver's start-up
    # (about 1.3 s a run against 3.5 s).
    outcomes = outcomes_under(BY_ID[fault_id], [str(path)], ["--processes", "1"])
    stale = {case: outcomes.get(case, "not a case of the file") for case in CAUGHT[(fault_id, fixture)] if outcomes.get(case) != "failed"}
    assert not stale, f"stale caught_by of fault {fault_id} (each must fail under it): {stale}"


def test_a_faults_statement_is_a_statement_of_the_prose():
    """The ``statement`` a fault breaks is an id ``coverage --json`` prints (coverage reports a wrong
    one too, located; this keeps the file itself right)."""
    shared = shared_spec_root()
    if shared is None:
        pytest.skip("OA_SHARED_SPEC (a spec checkout with prose) is not set")
    from oa_conformance.frontends.coverage.coverage_map import prose_dir, read_all_prose

    known = {s.id for prose in read_all_prose(prose_dir(str(shared))).values() for s in prose.statements}
    wrong = {f.id: f.statement for f in FAULTS if f.statement is not None and f.statement not in known}
    assert not wrong, f"faults naming no statement of the prose: {wrong}"
    # A fault naming its statement with no caught_by is a recorded gap (./dev faults lists it
    # undetected): it proves nothing, since coverage counts a statement proven only through a case
    # that catches its fault.


def test_a_fault_whose_text_is_not_in_the_runtime_is_refused(tmp_path):
    broken = FAULTS[0].__class__("nowhere", FAULTS[0].file, "text that is not there", "x", "§0")
    with pytest.raises(FaultError, match="occurs 0 times"):
        patched_runtime(broken, tmp_path)


def test_detections_are_the_cases_that_got_worse():
    baseline = {"a": "passed", "b": "xfail", "c": "skipped", "d": "failed", "e": "passed"}
    faulty = {"a": "failed", "b": "failed", "c": "skipped", "d": "failed", "e": "passed"}
    assert detections(baseline, faulty) == ["a", "b"]


def test_a_runtime_that_cancels_itself_fails_its_case_and_the_run_ends():
    """A cancellation the invocation raises on its own (here every function node's step) is the
    case's outcome, judged like any error: it used to end the case's worker, and the run waited for
    it forever, so one such case hung a whole run."""
    cancels = Fault("test-node-step-cancels-itself", "graph/compiled.py",
                    "        # Mutable single-element list so innermost (a closure) can\n",
                    "        raise asyncio.CancelledError()\n        # Mutable single-element list so innermost (a closure) can\n",
                    "graph-engine §2: a node step the runtime itself cancels (a fault for this test)")
    fixture = BUNDLED_SPEC / "graph-engine" / "conformance" / "001-linear-reducers.yaml"
    outcomes = outcomes_under(cancels, [str(fixture)], ["--processes", "1", "--timeout", "60"])
    assert outcomes and set(outcomes.values()) == {"failed"}, outcomes
