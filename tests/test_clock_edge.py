"""The clock edge (interpreter/running/clock_edge.py): the case's clock stub and sleep recorder reach
the runtime's own reads of the clock, in the case's context only, and are gone afterwards."""

from __future__ import annotations

import asyncio
import time

from oa_conformance.interpreter.running.clock_edge import stubbed_monotonic, virtual_sleeps


def runtime_module(source: str) -> dict:
    """Functions defined as if in a module of the runtime (a name under ``openarmature``)."""
    namespace: dict = {"__name__": "openarmature.graph.fake_clock_reader", "time": time, "asyncio": asyncio}
    exec(source, namespace)
    return namespace


def test_the_stub_answers_the_runtimes_reads_only_and_only_inside_the_block():
    reader = runtime_module("def read():\n    return time.monotonic()\n")["read"]
    real = time.monotonic
    with stubbed_monotonic(lambda: 42.0):
        assert reader() == 42.0
        assert time.monotonic() != 42.0  # the adapter's own read (and the event loop's) stays real
    assert time.monotonic is real and reader() != 42.0


def test_the_runtimes_sleeps_are_recorded_and_not_waited_and_others_sleep_for_real():
    sleeper = runtime_module("async def backoff(seconds):\n    await asyncio.sleep(seconds)\n")["backoff"]
    real = asyncio.sleep
    log: list = []

    async def main() -> float:
        with virtual_sleeps(log):
            started = time.monotonic()
            await sleeper(30.0)  # would take 30 s if waited
            await asyncio.sleep(0.01)  # the adapter's own sleep: real, not recorded
            return time.monotonic() - started

    elapsed = asyncio.run(main())
    assert [entry[0] for entry in log] == ["runtime_sleep"] and log[0][1]["seconds"] == 30.0
    assert 0.01 <= elapsed < 5.0
    assert asyncio.sleep is real
