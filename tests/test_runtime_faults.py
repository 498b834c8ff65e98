"""Runtime faults (tools/runtime_faults.py): each fault applies to this runtime build exactly once,
and each case a fault names in ``caught_by`` (bundled, or of the target corpus) fails against a copy
of the runtime with that fault applied (it passes against the intact runtime: tests/test_run.py runs
every bundled case)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.runtime_faults import FaultError, detections, load_faults, outcomes_under, patched_runtime

from .conftest import BUNDLED_SPEC, target_fixture

FAULTS = load_faults()


def test_the_fault_list_is_well_formed():
    assert FAULTS, "tools/runtime-faults.toml lists no fault"
    assert all(f.clause.strip() and "§" in f.clause for f in FAULTS), "each fault names the spec clause it breaks"


@pytest.mark.parametrize("fault", FAULTS, ids=[f.id for f in FAULTS])
def test_each_fault_applies_to_this_runtime_exactly_once(fault, tmp_path):
    root = patched_runtime(fault, tmp_path)
    patched = (root / "openarmature" / fault.file).read_text(encoding="utf-8")
    assert fault.new in patched  # patched_runtime refuses text that is not there exactly once


def _fixture_path(case_id: str) -> Path:
    """A bundled case's fixture, or else the target corpus's (a fault may name an upstream case)."""
    capability, rest = case_id.split("/", 1)
    relative = f"{capability}/conformance/{rest.split('[', 1)[0]}.yaml"
    bundled = BUNDLED_SPEC / relative
    return bundled if bundled.is_file() else target_fixture(relative)


CAUGHT = [(f, case) for f in FAULTS for case in f.caught_by]


@pytest.mark.parametrize(("fault", "case_id"), CAUGHT, ids=[f"{f.id}-{c}" for f, c in CAUGHT])
def test_a_bundled_case_catches_its_fault(fault, case_id):
    outcomes = outcomes_under(fault, [str(_fixture_path(case_id))])
    assert case_id in outcomes, f"{case_id} is not a case of {_fixture_path(case_id)}: {sorted(outcomes)}"
    assert outcomes[case_id] == "failed", f"{case_id} is {outcomes[case_id]} under fault {fault.id}"


def test_a_fault_whose_text_is_not_in_the_runtime_is_refused(tmp_path):
    broken = FAULTS[0].__class__("nowhere", FAULTS[0].file, "text that is not there", "x", "§0")
    with pytest.raises(FaultError, match="occurs 0 times"):
        patched_runtime(broken, tmp_path)


def test_detections_are_the_cases_that_got_worse():
    baseline = {"a": "passed", "b": "xfail", "c": "skipped", "d": "failed", "e": "passed"}
    faulty = {"a": "failed", "b": "failed", "c": "skipped", "d": "failed", "e": "passed"}
    assert detections(baseline, faulty) == ["a", "b"]
