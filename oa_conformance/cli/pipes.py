"""Standard output into a pipe that closes early (``oa-conformance run … | head -1``).

Python raises ``BrokenPipeError`` from the first write after the reader is gone — mid-run, or while
flushing at exit ("Exception ignored … BrokenPipeError") — and the command ends with a traceback
and the wrong status. Here a closed pipe is what ``head`` means: output stops, the work goes on, the
exit status is the work's own, stderr says nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Callable, Iterator


def _silence(stream: Any) -> None:
    """Point the stream's descriptor at /dev/null: what is still buffered or written later goes nowhere."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not backed by a descriptor (a test's capture): nothing to redirect
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


class _Tolerant:
    """The real stdout, whose writes and flushes survive the reader going away."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            _silence(self._stream)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            _silence(self._stream)
            with contextlib.suppress(OSError, ValueError):
                self._stream.flush()  # what was buffered now goes to /dev/null

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def closed_pipe_tolerated() -> Iterator[None]:
    """Run a command's body with a stdout that tolerates a closed pipe, and flush it before leaving."""
    real = sys.stdout
    tolerant = _Tolerant(real)
    sys.stdout = tolerant
    try:
        yield
    finally:
        tolerant.flush()
        if sys.stdout is tolerant:
            sys.stdout = real


INTERRUPTED = 130  # the shell's code for a process stopped by SIGINT


def run_command(program: str, body: Callable[[list[str] | None], int], argv: list[str] | None) -> int:
    """A command's body under :func:`closed_pipe_tolerated`; Ctrl-C is one line and status 130,
    not a traceback."""
    try:
        with closed_pipe_tolerated():
            return body(argv)
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return INTERRUPTED
