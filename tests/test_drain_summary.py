"""A drain that breaks graph-engine §6's contract — refusing the timeout argument, or returning no
summary — is a located failure of the fixture's `drain_summary`, never an adapter error: the case
fails at the expectation that says what was wrong, as a runtime fault should make it."""

from __future__ import annotations

from openarmature.graph import CompiledGraph

from oa_conformance.pipeline import cases_of, run_case

from .test_run import write_fixture

DRAINED = """\
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a: {update: {v: 1}}
edges:
  - {from: a, to: END}
initial_state: {}
observers:
  - {name: log, attach: graph, target: outer, behavior: record}
invoke:
  drain: {timeout_seconds: 5.0}
expected:
  final_state: {v: 1}
  drain_summary:
    timeout_reached: false
    undelivered_count: 0
"""
SUMMARY_LINE = DRAINED.splitlines().index("  drain_summary:") + 1


def run_drained(tmp_path):
    ref = write_fixture(tmp_path, DRAINED, "graph-engine", "001-drained.yaml")
    return run_case(cases_of(ref)[0], timeout=20), ref.path


def test_an_honest_drain_passes(tmp_path):
    result, _ = run_drained(tmp_path)
    assert result.outcome == "passed", result.reason


def test_a_drain_returning_no_summary_fails_at_drain_summary(tmp_path, monkeypatch):
    original = CompiledGraph.drain

    async def no_summary(self, timeout=None):
        await original(self, timeout)
        return None

    monkeypatch.setattr(CompiledGraph, "drain", no_summary)
    result, path = run_drained(tmp_path)
    assert result.outcome == "failed", result.reason
    assert (result.location.path, result.location.line) == (str(path), SUMMARY_LINE)
    assert "drain returned a NoneType, not a summary" in result.reason


def test_a_drain_refusing_its_timeout_fails_at_drain_summary(tmp_path, monkeypatch):
    original = CompiledGraph.drain

    async def no_timeout(self):  # the timeout parameter is missing
        return await original(self)

    monkeypatch.setattr(CompiledGraph, "drain", no_timeout)
    result, path = run_drained(tmp_path)
    assert result.outcome == "failed", result.reason
    assert (result.location.path, result.location.line) == (str(path), SUMMARY_LINE)
    assert "the drain call raised TypeError" in result.reason
