"""Standard output into a pipe that closes early (``oa-conformance run … | head -1``), or closed
before the command starts, or unable to encode what is written.

Python raises ``BrokenPipeError`` from the first write after the reader is gone — mid-run, or while
flushing at exit ("Exception ignored … BrokenPipeError") — and the command ends with a traceback
and the wrong status. Here a closed pipe is what ``head`` means: output stops and stderr says
nothing. A command whose output is all there is to it (``check``, ``oa-lint``, ``oa-ast``) finishes
its quick work with its own status; ``run``, whose cases may take minutes, asks
:func:`output_closed` after each case and abandons the run once nobody reads it (status
:data:`OUTPUT_CLOSED`, as a process ended by SIGPIPE shows in a shell). A stream closed from the start (``>&-``) writes
to /dev/null, and a character the stream's encoding lacks (``PYTHONIOENCODING=ascii``, the C
locale: ``—``, ``§``, ``ü``) is written as its escape instead of raising ``UnicodeEncodeError``.
An output that fails otherwise (``> /dev/full``: no space left) is silenced the same way, and the
command ends with one line saying so and status 2 (:func:`unwritten`), every command alike.
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
    """The real stdout, whose writes and flushes survive the reader going away — or the output
    failing (a full disk, ``> /dev/full``: recorded in ``failed``, said once by :func:`unwritten`)."""

    def __init__(self, stream: Any):
        self._stream = stream
        self.broken = False  # a write or flush found the reader gone
        self.failed: OSError | None = None  # a write or flush failed otherwise

    def _lost(self, exc: OSError) -> None:
        if isinstance(exc, BrokenPipeError):
            self.broken = True
        elif self.failed is None:
            self.failed = exc
        _silence(self._stream)

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._lost(exc)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self._lost(exc)
            with contextlib.suppress(OSError, ValueError):
                self._stream.flush()  # what was buffered now goes to /dev/null

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


# Error handlers that never raise on an unencodable character.
_FORGIVING = frozenset(("backslashreplace", "replace", "ignore", "namereplace", "xmlcharrefreplace"))


def usable_standard_streams() -> None:
    """Standard output and error that can always be written: a descriptor closed before the command
    started (``>&-``; Python then sets the stream to ``None``) is pointed at /dev/null — taking the
    descriptor, so no file the command opens later lands on it — and a character the encoding
    lacks is written as its backslash escape."""
    for descriptor, name in ((1, "stdout"), (2, "stderr")):
        stream = getattr(sys, name)
        if stream is None:
            null = os.open(os.devnull, os.O_WRONLY)
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
            setattr(sys, name, open(descriptor, "w", encoding="utf-8", errors="backslashreplace", closefd=False))
        elif getattr(stream, "errors", "strict") not in _FORGIVING and hasattr(stream, "reconfigure"):
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change handler keeps its own
                stream.reconfigure(errors="backslashreplace")


@contextlib.contextmanager
def closed_pipe_tolerated() -> Iterator[_Tolerant]:
    """Run a command's body with a stdout that tolerates a closed pipe (and a closed or narrow
    stream: :func:`usable_standard_streams`) or a failing one, and flush it before leaving; the
    body gets the stream, for :func:`unwritten` to ask after the flush."""
    usable_standard_streams()
    real = sys.stdout
    tolerant = _Tolerant(real)
    sys.stdout = tolerant
    try:
        yield tolerant
    finally:
        tolerant.flush()
        if sys.stdout is tolerant:
            sys.stdout = real


OUTPUT_FAILED = 2  # the command's output could not be written: its result is lost, as with an unwritable -o


def unwritten(program: str, output: _Tolerant) -> int | None:
    """When standard output failed (``> /dev/full``): one line on stderr, and the status to end with."""
    if output.failed is None:
        return None
    print(f"{program}: cannot write standard output: {output.failed.strerror or output.failed}", file=sys.stderr)
    return OUTPUT_FAILED


class StandardInputClosed(Exception):
    """Standard input was closed before the command started (``<&-``)."""


def standard_input():
    """Standard input's binary stream; raises :class:`StandardInputClosed` when there is none."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise StandardInputClosed("it is closed")
    return stream


def output_closed() -> bool:
    """Whether standard output's reader has gone: a write found the pipe broken, or the pipe says so
    without a write (``poll`` reports an error on a pipe whose reading end is closed)."""
    import select

    if getattr(sys.stdout, "broken", False):
        return True
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(event & select.POLLERR for _, event in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no descriptor (a test's capture), no poll
        return False


@contextlib.contextmanager
def stopped_when_output_closes() -> Iterator[None]:
    """While the body runs, standard output's reader going away (``| head -1`` exiting) interrupts
    it at once, as Ctrl-C would (``KeyboardInterrupt`` in the main thread; :func:`output_closed`
    tells the two apart): a run waiting for its next case hears of it now, not when that case
    ends. Only for a pipe: a terminal or a file has no reader to lose."""
    import _thread
    import select
    import stat
    import threading

    try:
        descriptor = sys.stdout.fileno()
        piped = stat.S_ISFIFO(os.fstat(descriptor).st_mode)
    except (AttributeError, OSError, ValueError):
        piped = False
    if not piped:
        yield
        return
    done = threading.Event()
    # The watcher checks `done` and interrupts under this lock, and the body's end sets `done` under
    # it: an interrupt is either sent before the body ends, and so raised inside this block (at the
    # main thread's next call, ``done.set`` itself), or not at all. Checked and sent apart, a
    # watcher descheduled between the two (a loaded machine) interrupted whatever came after the
    # run: its clean-up of the workers, the report being written.
    deciding = threading.Lock()

    def watch() -> None:
        poller = select.poll()
        poller.register(descriptor, 0)  # no event asked for: poll reports the error of a reader gone
        while not done.is_set():
            if poller.poll(200):
                with deciding:
                    if not done.is_set():
                        _thread.interrupt_main()
                return

    threading.Thread(target=watch, name="oa-output-watch", daemon=True).start()
    try:
        yield
    finally:
        with deciding:
            done.set()


INTERRUPTED = 130  # the shell's code for a process stopped by SIGINT
OUTPUT_CLOSED = 141  # the shell's code for a process ended by SIGPIPE (its reader gone: `| head -1`)


def run_command(program: str, body: Callable[[list[str] | None], int], argv: list[str] | None) -> int:
    """A command's body under :func:`closed_pipe_tolerated`; Ctrl-C is one line and status 130,
    not a traceback."""
    try:
        with closed_pipe_tolerated() as output:
            code = body(argv)
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return INTERRUPTED
    return unwritten(program, output) or code
