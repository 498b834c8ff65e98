"""The case's clock for the runtime's sleeps (`clock_stub: {type: virtual_sleep}`, an extension).

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
from typing import Any, Callable, Iterator

from .case_output import SharedSlot

# The running case's recorder of the runtime's sleeps; None outside a case that asked for them.
_RECORDER: contextvars.ContextVar[Callable[[float], None] | None] = contextvars.ContextVar("runtime_sleep_recorder", default=None)


def _install() -> Any:
    real = asyncio.sleep

    def sleep(delay: float, result: Any = None) -> Any:
        recorder = _RECORDER.get()
        if recorder is not None and sys._getframe(1).f_globals.get("__name__", "").startswith("openarmature"):
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


__all__ = ["virtual_sleeps"]
