"""Runtime variants (tools/runtime_variants.py, ./dev variants): each applies to this runtime build
exactly once and cites the prose that allows it, and no bundled case of its capability fails against
a copy of the runtime with one of the variants bundled cases used to pin applied. (``./dev variants``
runs the whole target corpus plus spec/ under every variant, about 25 s a variant; the suite runs
this subset, each on its capability's bundled cases alone: all of them would take minutes.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.runtime_faults import FaultError, load_faults, patched_runtime, run_corpus
from tools.runtime_variants import Defect, Variant, false_alarms, load, outcomes_under

from .conftest import BUNDLED_SPEC

VARIANTS, DEFECTS = load()
# The id prefix names the capability a variant changes (as the faults' ids do).
CAPABILITY = {"ge": "graph-engine", "pu": "pipeline-utilities", "lp": "llm-provider", "ob": "observability",
              "rp": "retrieval-provider", "pm": "prompt-management"}


def test_the_variant_list_is_well_formed():
    assert len(VARIANTS) >= 20, "the issue asks for at least 20 variants"
    assert len(SUBSET) == len(PINNED_BEFORE), "every variant the suite runs is listed"
    assert all("§" in v.allows and v.allows.strip() for v in VARIANTS), "each variant cites the prose that allows it"
    assert {v.id.split("-", 1)[0] for v in VARIANTS} >= {"ge", "pu", "lp", "ob", "rp", "pm"}, "variants across the capabilities"
    assert not {v.id for v in VARIANTS} & {f.id for f in load_faults()}, "a variant is not a fault"
    assert all(not case.startswith(tuple(f"{c}/1" for c in CAPABILITY.values())) for d in DEFECTS for case in [d.case]), \
        "a fixture defect is upstream's: a bundled case (NNN >= 100) that fails a variant is fixed, not recorded"


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])
def test_each_variant_applies_to_this_runtime_exactly_once(variant, tmp_path):
    root = patched_runtime(variant, tmp_path)
    assert variant.new in (root / "openarmature" / variant.file).read_text(encoding="utf-8")


# The variants a bundled case failed before the audit of spec/AUDIT.md (the cases now accept them).
PINNED_BEFORE = ("lp-tool-arguments-spaced", "ob-langfuse-payload-ascii-escaped", "ob-otel-payload-ascii-escaped",
                 "lp-retry-after-hint-omitted", "ge-state-validation-error-names-fields-as-a-list-only")
SUBSET = [v for v in VARIANTS if v.id in PINNED_BEFORE]


@pytest.fixture(scope="module")
def baseline():
    return {}


@pytest.mark.parametrize("variant", SUBSET, ids=[v.id for v in SUBSET])
def test_no_bundled_case_of_its_capability_fails_the_variant(variant, baseline):
    capability = str(BUNDLED_SPEC / CAPABILITY[variant.id.split("-", 1)[0]] / "conformance")
    if capability not in baseline:
        baseline[capability] = run_corpus([capability], None, ["--processes", "1"])
    varied = outcomes_under(variant, [capability], ["--processes", "1"])
    assert varied.keys() == baseline[capability].keys()
    assert false_alarms(variant, baseline[capability], varied) == []


def test_a_recorded_fixture_defect_is_not_a_false_alarm_and_anything_else_is():
    variant = Variant("v", "f.py", "a", "b", "x §1", ("up/005[c]",))
    baseline = {"up/005[c]": "passed", "spec/101[d]": "passed", "up/006[e]": "skipped"}
    varied = {"up/005[c]": "failed", "spec/101[d]": "failed", "up/006[e]": "skipped"}
    assert false_alarms(variant, baseline, varied) == ["spec/101[d]"]


def test_defects_and_the_variants_naming_them_must_agree(tmp_path):
    path = tmp_path / "variants.toml"
    path.write_text('[[variant]]\nid = "v"\nfile = "f.py"\nold = "a"\nnew = "b"\nallows = "x §1"\n'
                    'fixture_defects = ["up/005[c]"]\n', encoding="utf-8")
    with pytest.raises(FaultError, match="disagree"):
        load(path)
    path.write_text(path.read_text() + '[[defect]]\ncase = "up/005[c]"\nvariants = ["w"]\nreason = "r"\n', encoding="utf-8")
    with pytest.raises(FaultError, match="names no variant 'w'"):
        load(path)
    assert isinstance(load(Path(__file__).parents[1] / "tools" / "runtime-variants.toml")[1][0], Defect)
