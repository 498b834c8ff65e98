"""What `oa-conformance run` prints: only the table and the cases that did not pass (nothing on
stderr); each case's entries one per line, each with its own location once, never broken across
lines, and a restating check naming what it restates instead of nesting its message."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from oa_conformance.frontends.cli.oa_conformance import main as cli

ROOT = Path(__file__).resolve().parents[1]
EXPECTATIONS = ROOT / "oa-expectations.toml"
OVERLAY_0_109 = ROOT / "oa-expectations-spec-0.109.0.toml"
LOCATION = re.compile(r"\S+\.(?:yaml|toml):\d+(?::\d+)?")
INDENT = " " * 10


# Each corpus run is a module-wide fixture per corpus: ./dev test's shuffled order keeps this
# module's tests in place (the module itself moves), or each corpus would be run again and again.
pytestmark = pytest.mark.random_order(disabled=True)


@pytest.fixture(scope="module", params=["target", "0.109.0"])
def corpus_run(request):
    """A whole corpus through the installed command, as a user runs it, with the shipped
    expectations: the target 0.118.2 corpus, and the 0.109.0 regression set with its overlay."""
    if request.param == "target":
        root, files = request.getfixturevalue("target_spec"), [EXPECTATIONS]
    else:
        root, files = request.getfixturevalue("shared_spec"), [EXPECTATIONS, OVERLAY_0_109]
    return subprocess.run(
        [sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", "run", str(root),
         *(arg for path in files for arg in ("--expectations", str(path)))],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )


def test_a_whole_corpus_run_with_the_shipped_expectations_passes_and_prints_nothing_to_stderr(corpus_run):
    assert corpus_run.stderr == ""
    assert corpus_run.returncode == 0, corpus_run.stdout[-3000:]
    assert "cases in" in corpus_run.stdout.splitlines()[-1]
    table = corpus_run.stdout[corpus_run.stdout.index("capability "):].split("\n\n", 1)[0].splitlines()  # below header and progress
    total = dict(zip(table[0].replace("not implemented", "not_implemented").split()[1:], table[-1].split()[1:]))
    assert int(total["passed"]) > 500 and total["not_implemented"] == total["error"] == total["xpass"] == "0"


def test_every_line_of_a_whole_corpus_run_carries_at_most_one_location(corpus_run):
    lines = corpus_run.stdout.splitlines()
    entries = [line for line in lines if line.startswith(INDENT)]
    assert len(entries) > 100  # the run has non-passing cases to show
    repeated = [line for line in lines if len(LOCATION.findall(line)) > 1]
    assert not repeated, repeated[:3]
    # every line below the table is a case header, an entry (with a location or a note) or blank
    below = lines[lines.index("", next(i for i, line in enumerate(lines) if line.startswith("capability "))) + 1:]
    for line in below:
        assert (not line or re.match(r"[A-Z]+ +\S+( \[\w+\])?$", line) or line.startswith(INDENT)
                or LOCATION.match(line) or re.match(r"\d+ of \d+ cases in ", line)), line


def case_entries(out: str, case_id: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[1:2] == [case_id])
    entries = []
    for line in lines[start + 1:]:
        if not line.startswith(INDENT):
            break
        entries.append(line[len(INDENT):])
    return entries


def test_each_check_is_one_line_with_its_own_location(shared_spec, capsys):
    """A span_tree check with three mismatches and two predicates restating it: three entries, each at
    its own line of the fixture; a later mismatch says its line once, inside its check."""
    name = "119-otel-callable-branch-attempt-index-under-node-retry"
    assert cli(["run", str(shared_spec), "-q", "-k", name]) == 1
    fixture = shared_spec / "spec" / "observability" / "conformance" / f"{name}.yaml"
    entries = case_entries(capsys.readouterr().out,
                           f"observability/{name}[callable_branch_dispatch_span_carries_attempt_index_one_on_node_retry]")
    assert [entry.split(": ", 2)[:2] for entry in entries] == [
        [f"{fixture}:100:19", "expected.span_tree"],
        [f"{fixture}:172:9", "expected.invariants.retry_callable_branch_dispatch_span_attempt_index_is_one"],
        [f"{fixture}:175:9", "expected.invariants.callable_branch_attempt_index_sourced_from_node_event_not_zero"],
    ]
    assert "span_tree[0].status: expected 'OK', got 'ERROR'; " in entries[0]
    assert "expected 'node_exception', got 'parallel_branches_branch_failed' (at 111:46)" in entries[0]
    assert all(entry.count(str(fixture)) == 1 for entry in entries)


def test_a_restating_check_names_the_restated_one_instead_of_nesting_it(shared_spec, capsys):
    assert cli(["run", str(shared_spec), "-q", "-k", "034-caller-metadata-open-span-update-serial"]) == 1
    fixture = shared_spec / "spec" / "observability" / "conformance" / "034-caller-metadata-open-span-update-serial.yaml"
    entries = case_entries(capsys.readouterr().out,
                           "observability/034-caller-metadata-open-span-update-serial[serial_node_augmentation_updates_open_context_spans]")
    restating = next(entry for entry in entries if "baseline_caller_metadata_universal" in entry)
    assert restating == (f"{fixture}:81:9: expected.invariants.baseline_caller_metadata_universal: failed: "
                         "restates expected.langfuse_trace, and expected.langfuse_trace failed")
    assert any(entry.startswith(f"{fixture}:74:19: expected.langfuse_trace: failed: ") for entry in entries)
