"""The per-case harness keeps one writer per part: graph build reads frozen instruments and returns
frozen wiring; only the log is written while the runtime runs (interpreter/running/harness.py)."""

from __future__ import annotations

import dataclasses

import pytest

from .faults import target_text
from .test_run import write_fixture

FAN_OUT = ("pipeline-utilities", "017-fan-out-basic.yaml")  # fan-out with an item_field
CRASH = ("pipeline-utilities", "070-crash-injection-after-node-resume.yaml")  # checkpointer, crash, resume


def built_harness(tmp_path, monkeypatch, fixture):
    """Run the fixture's first case for real; return the Harness graph build handed back, and the trace."""
    from oa_conformance.interpreter.running import execute
    from oa_conformance.interpreter.running.capabilities import harness_for
    from oa_conformance.pipeline import cases_of

    seen = []

    def recording_build(*args):
        built, harness = real_build(*args)
        seen.append(harness)
        return built, harness

    real_build = execute.build_graph
    monkeypatch.setattr(execute, "build_graph", recording_build)
    capability, name = fixture
    ref = write_fixture(tmp_path, target_text(capability, name), capability, name)
    trace = execute.execute_case(cases_of(ref)[0].scenario, 20, harness_for(ref.capability))
    return seen[-1], trace


def test_instruments_and_wiring_are_frozen_once_graph_build_returns(tmp_path, monkeypatch):
    harness, trace = built_harness(tmp_path, monkeypatch, FAN_OUT)
    assert trace.invocations[0].outcome == "completed"
    with pytest.raises(dataclasses.FrozenInstanceError):
        harness.instruments.checkpointer = object()
    with pytest.raises(TypeError):
        harness.instruments.services["llm"] = object()
    with pytest.raises(TypeError):
        harness.instruments.observers["(harness)"] = object()
    assert harness.graph.fan_out_item_fields  # graph build recorded the fan-out's item_field ...
    with pytest.raises(TypeError):  # ... and nothing may change it afterwards
        harness.graph.fan_out_item_fields["other"] = "x"
    with pytest.raises(TypeError):
        harness.graph.wiring["nodes"] = {}
    with pytest.raises(RuntimeError, match="filled once"):
        harness.wired.fill(harness.graph)


def test_the_wiring_is_unreadable_before_graph_build_returns():
    from oa_conformance.interpreter.running.harness import WiringSlot

    with pytest.raises(RuntimeError, match="before graph build returned"):
        WiringSlot().get()


def test_a_crash_fires_through_the_log_and_leaves_the_cursor_as_the_passes_set_it(tmp_path, monkeypatch):
    harness, trace = built_harness(tmp_path, monkeypatch, CRASH)
    assert [invocation.outcome for invocation in trace.invocations] == ["crashed", "completed"]
    assert [(kind, run) for kind, run, _ in harness.log.crashes] == [("fired", 0)]  # the first run's crash, once
    assert harness.cursor.crash is None and harness.cursor.index == 1  # disarmed by crashable, moved by execute


def test_an_observer_that_records_nothing_is_seen_in_the_trace(tmp_path, monkeypatch):
    """An observer's events are read from the log's deliveries: an observer that appends none has none."""
    from oa_conformance.interpreter.running import harness as parts

    async def deaf(self, event):
        return None

    monkeypatch.setattr(parts.RecordingObserver, "__call__", deaf)
    _, trace = built_harness(tmp_path, monkeypatch, FAN_OUT)
    assert trace.invocations[0].events and all(len(events) == 0 for events in trace.invocations[0].events.values())
