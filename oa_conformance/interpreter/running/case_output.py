"""What a case's run would have printed — runtime warnings (``warnings.warn``, pydantic's warnings)
and the records of the runtime's loggers — captured as notes of that case instead of lines on stderr.

Both mechanisms are process-wide and cases run side by side in threads, so the capture is a
:class:`SharedSlot` (installed by the first case, removed by the last) that routes by a context
variable, which ``asyncio.run`` copies into every task of the case's event loop:

- **warnings**: ``warnings._showwarnmsg`` — the hook both the C and the Python ``warn`` call once
  a warning passed the filters — appends to the running case's sink; outside a case it shows the
  warning if the filters other than ours let it through (a finalizer run by a collection in a
  thread with no case is outside every case: an unclosed resource of some case, shown on stderr
  by our filter alone, is a warning Python ignores by default). Each case start puts an ``always`` filter first (until the last case ends): a
  warning reaches every case that causes it, not only the first one in the process (the default
  action shows a warning once per location), whatever filters were added since. ``warnings.catch_warnings`` leaves ``_showwarnmsg`` alone, so pytest's own
  warning capture does not take a case's warnings away from it.
- **the case's event loop** (:func:`run_loop`): what the loop would report through its exception
  handler (``asyncio``'s "Task exception was never retrieved", an exception in a callback) is a
  record of the case. A task whose exception nobody retrieved is reported when the task is freed —
  with a traceback in a reference cycle, at some later garbage collection, in whatever thread runs
  it — so the loop keeps every task it created and reports the unretrieved ones when the case's
  coroutine returns: the note lands on the case that caused it, every time.
- **log records** of :data:`LOGGERS`: one handler on each logger appends the record to the running
  case's sink. Records still propagate, so the OTel logs bridge on the root logger
  (``capabilities/otel_capture.py``) sees them exactly as before; a record emitted outside any case
  goes where Python would have sent it without this handler (the root's handlers, else the last
  resort).

:func:`captured` is the one entry point; :func:`notes` turns what it caught into one-line notes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import logging
import threading
import warnings
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator, TypeVar

T = TypeVar("T")

# The loggers whose records are a case's output: the runtime's, and the one `emits_log` writes to.
LOGGERS = ("openarmature", "oa_conformance.node")

_SINK: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar("oa_case_output", default=None)


class SharedSlot:
    """A process-wide installation shared by concurrently running cases: installed by the first
    user, restored by the last (reference counted under a lock)."""

    def __init__(self, install: Callable[[], Any], restore: Callable[[Any], None]):
        self._install, self._restore = install, restore
        self._lock = threading.Lock()
        self._users = 0
        self._saved: Any = None

    @contextlib.contextmanager
    def held(self):
        with self._lock:
            if self._users == 0:
                self._saved = self._install()
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    self._restore(self._saved)
                    self._saved = None


class _RouteRecords(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        sink = _SINK.get()
        if sink is not None:
            sink.append(record)
        elif not logging.getLogger().handlers and logging.lastResort is not None and record.levelno >= logging.lastResort.level:
            logging.lastResort.handle(record)  # what Python does for a record no handler takes


def _install() -> Any:
    shown = warnings._showwarnmsg  # type: ignore[attr-defined]

    def route(message: warnings.WarningMessage) -> None:
        sink = _SINK.get()
        if sink is not None:
            sink.append(message)
        elif not _ignored_without_always(message):
            shown(message)

    warnings._showwarnmsg = route  # type: ignore[attr-defined]
    handler = _RouteRecords()
    for name in LOGGERS:
        logging.getLogger(name).addHandler(handler)
    return shown, handler


def _ignored_without_always(message: warnings.WarningMessage) -> bool:
    """Whether the filters, without :data:`ALWAYS`, ignore a warning emitted outside any case — a
    resource warning of a case's garbage that a collection in another thread finalizes, say. While
    cases run, ALWAYS lets every warning reach this hook; outside a case it must change nothing."""
    text = str(message.message)
    module = message.filename[:-3] if message.filename.endswith(".py") else message.filename
    for action, pattern, category, module_pattern, lineno in list(warnings.filters):
        if (action, pattern, category, module_pattern, lineno) == ALWAYS:
            continue
        if ((pattern is None or pattern.match(text)) and issubclass(message.category, category)
                and (module_pattern is None or module_pattern.match(module)) and lineno in (0, message.lineno)):
            return action == "ignore"
    return warnings.defaultaction == "ignore"  # type: ignore[attr-defined]


def _restore(saved: Any) -> None:
    shown, handler = saved
    warnings._showwarnmsg = shown  # type: ignore[attr-defined]
    with _FILTERS_LOCK:
        if ALWAYS in warnings.filters:
            warnings.filters.remove(ALWAYS)
            warnings._filters_mutated()  # type: ignore[attr-defined]
    for name in LOGGERS:
        logging.getLogger(name).removeHandler(handler)


CASE_OUTPUT = SharedSlot(_install, _restore)
# The filter that lets every warning through to the running case (see the module docstring).
ALWAYS = ("always", None, Warning, None, 0)
_FILTERS_LOCK = threading.Lock()


def _always_first() -> None:
    """Put :data:`ALWAYS` first, where a filter added since (pytest adds its configured ones at every
    test; a ``catch_warnings`` block restores the list it saved) would otherwise take precedence."""
    with _FILTERS_LOCK:
        if not warnings.filters or warnings.filters[0] != ALWAYS:
            if ALWAYS in warnings.filters:
                warnings.filters.remove(ALWAYS)
            warnings.filters.insert(0, ALWAYS)
            warnings._filters_mutated()  # type: ignore[attr-defined]


@contextlib.contextmanager
def captured() -> Iterator[list[Any]]:
    """Route the warnings and log records emitted in this context (and in every task it starts)
    into the yielded list — ``warnings.WarningMessage`` and ``logging.LogRecord`` items — instead
    of stderr. Nests: an inner block takes what is emitted inside it."""
    caught: list[Any] = []
    with CASE_OUTPUT.held():
        _always_first()
        token = _SINK.set(caught)
        try:
            yield caught
        finally:
            _SINK.reset(token)


def _loop_report(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The case loop's exception handler: the report is a record of the running case, else what the
    loop would have done with it."""
    sink = _SINK.get()
    if sink is None:
        loop.default_exception_handler(context)
        return
    exception = context.get("exception")
    detail = f": {type(exception).__name__}: {exception}" if exception is not None else ""
    sink.append(logging.LogRecord("asyncio", logging.ERROR, __file__, 0, f"{context.get('message', 'event loop report')}{detail}", None, None))


def _unretrieved(task: asyncio.Task[Any]) -> bool:
    # `_log_traceback` is the flag Task.__del__ reads to decide whether to report (C and Python Task).
    return task.done() and not task.cancelled() and bool(getattr(task, "_log_traceback", False))


def run_loop(main: Awaitable[T]) -> T:
    """``asyncio.run(main)``, in a fresh loop whose reports are the running case's records (see the
    module docstring): each task the case's code created and whose exception nobody retrieved is
    reported once, when ``main`` returns, and marked retrieved so it is not reported again later."""
    created: list[asyncio.Task[Any]] = []

    def keep(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        task = asyncio.Task(coro, loop=loop, **kwargs)
        created.append(task)
        return task

    with asyncio.Runner() as runner:
        loop = runner.get_loop()
        loop.set_exception_handler(_loop_report)
        loop.set_task_factory(keep)
        try:
            return runner.run(main)
        finally:
            for task in created:
                if _unretrieved(task):
                    loop.call_exception_handler({"message": "Task exception was never retrieved", "exception": task.exception(), "task": task})


def forward(items: list[Any]) -> None:
    """Hand items an inner :func:`captured` block does not keep to the enclosing block, if any."""
    sink = _SINK.get()
    if sink is not None:
        sink.extend(items)


def _where(filename: str, lineno: int) -> str:
    """A warning's source, from the installed package on (``openarmature/graph/builder.py:12``)."""
    parts = Path(filename).parts
    if "site-packages" in parts:
        parts = parts[parts.index("site-packages") + 1:]
    return f"{'/'.join(parts[-4:])}:{lineno}"


def note(item: Any) -> str:
    """One caught item as a one-line note."""
    if isinstance(item, warnings.WarningMessage):
        text = f"warning {item.category.__name__}: {item.message} ({_where(item.filename, item.lineno)})"
    else:
        text = f"log {item.levelname} {item.name}: {item.getMessage()}"
    return " ".join(text.split())


def notes(items: list[Any]) -> tuple[str, ...]:
    """The caught items as notes, in first-seen order, a repeated note once with its count."""
    counts = collections.Counter(note(item) for item in items)
    return tuple(text if n == 1 else f"{text} (×{n})" for text, n in counts.items())
