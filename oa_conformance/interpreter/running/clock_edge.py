"""The case's clocks at the edge the spec lets a harness control: the runtime's sleeps
(`clock_stub: {type: virtual_sleep}`, an extension) and the runtime's monotonic clock
(`clock_stub: {type: deterministic_monotonic}`).

**The monotonic clock.** Timing middleware MUST measure with the language's monotonic clock
(pipeline-utilities §6.2). The deterministic stub is therefore put where the runtime reads the
clock: while the case runs, ``time.monotonic`` called from the runtime's own code (a module under
``openarmature``) in the case's context returns the stub's next reading; every other caller — the
event loop, the adapter, another case — reads the real clock. The runtime is never handed a clock,
so a runtime that measured with another clock would not see the stub.

**The sleeps.**
A retry middleware sleeps between attempts (pipeline-utilities §6.1); with the runtime's default
backoff that sleep is random (full jitter, up to 30 s). A case asserting the default backoff needs
the delays the runtime asked for, not a wall-clock wait: while such a case runs, ``asyncio.sleep``
called from the runtime's own code (a module under ``openarmature``) records the delay in the run
log's ``middleware_log`` (``runtime_sleep``: seconds, and the attempt index, namespace and fan-out
index the runtime reports at that moment) and yields once instead of waiting. The clock is the edge
the spec lets a harness control; every other sleep — the fixture's own (`sleep_ms`), the adapter's,
another case's — runs as it would.

``asyncio.sleep`` is process-wide and cases run side by side in threads: the replacement is
installed by the first case that needs it and restored by the last (a reference-counted
:class:`~.case_output.SharedSlot`), and a context variable routes each call to the case whose task
made it (a task the case's code creates inherits it).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import sys
import time
from typing import Any, Callable, Iterator

from .case_output import SharedSlot

# The running case's recorder of the runtime's sleeps; None outside a case that asked for them.
_RECORDER: contextvars.ContextVar[Callable[[float], None] | None] = contextvars.ContextVar("runtime_sleep_recorder", default=None)
# The running case's stub of the monotonic clock (seconds); None outside a case that declares one.
_MONOTONIC: contextvars.ContextVar[Callable[[], float] | None] = contextvars.ContextVar("runtime_monotonic_stub", default=None)


def _from_runtime(frame: Any) -> bool:
    return frame.f_globals.get("__name__", "").startswith("openarmature")


def _install_monotonic() -> Any:
    real = time.monotonic

    def monotonic() -> float:
        stub = _MONOTONIC.get()
        if stub is not None and _from_runtime(sys._getframe(1)):
            return stub()
        return real()

    time.monotonic = monotonic
    return real


def _restore_monotonic(real: Any) -> None:
    time.monotonic = real


_MONOTONIC_SLOT = SharedSlot(_install_monotonic, _restore_monotonic)


@contextlib.contextmanager
def stubbed_monotonic(read: Callable[[], float]) -> Iterator[None]:
    """While the block runs, the runtime's reads of the monotonic clock in this context are ``read()``."""
    with _MONOTONIC_SLOT.held():
        token = _MONOTONIC.set(read)
        try:
            yield
        finally:
            _MONOTONIC.reset(token)


def _install() -> Any:
    real = asyncio.sleep

    def sleep(delay: float, result: Any = None) -> Any:
        recorder = _RECORDER.get()
        if recorder is not None and _from_runtime(sys._getframe(1)):
            recorder(float(delay))
            return real(0, result)
        return real(delay, result)

    asyncio.sleep = sleep  # type: ignore[assignment]
    return real


def _restore(real: Any) -> None:
    asyncio.sleep = real


_SLOT = SharedSlot(_install, _restore)


@contextlib.contextmanager
def virtual_sleeps(middleware_log: list[Any]) -> Iterator[None]:
    """While the block runs, the runtime's sleeps in this context are recorded into
    ``middleware_log`` and not waited."""
    from ...host import observability as obs

    def record(seconds: float) -> None:
        middleware_log.append(("runtime_sleep", {"seconds": seconds, "attempt_index": obs.current_attempt_index(),
                                                 "namespace": obs.current_namespace_prefix(),
                                                 "fan_out_index": obs.current_fan_out_index()}))

    with _SLOT.held():
        token = _RECORDER.set(record)
        try:
            yield
        finally:
            _RECORDER.reset(token)


__all__ = ["stubbed_monotonic", "virtual_sleeps"]
