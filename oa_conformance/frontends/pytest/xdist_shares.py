"""The pytest plugin under pytest-xdist: which worker reads and runs which fixture, and Ctrl-C
reaching them all.

With spec roots and ``--dist load`` (what ``-n N`` means by default) each worker collects only its
own share: worker ``gwK`` of N reads every N-th fixture file in collection order
(:meth:`Shares.owns_next_file`; the others are not read at all, so the corpus is read once across
the workers, not once per worker) and keeps its share of the other items (``own_items``). Its
collection *is* its share, so the controller's scheduler (:func:`static_scheduler`) sends each
worker all it collected at once, and each runs its cases ahead side by side as a session without
xdist does. A worker that crashes leaves its unfinished items to the worker that replaces it, which
takes over its position and so collects the same share. Imported by the plugin's hooks only:
nothing here imports xdist until a controller asks for its scheduler.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import zlib
from typing import Any

# The key a worker's input carries when it has a fixed share: its position (the replacement of a
# crashed worker takes over the crashed one's), or None when xdist's own scheduler hands out items.
SHARES_KEY = "oa_share_position"


def share_of(index: int, workers: int) -> int:
    """The worker that owns the ``index``-th fixture file of the collection: every ``workers``-th,
    so each worker gets the slow and the fast fixtures of every capability alike."""
    return index % workers


class Shares:
    """This process's share: (position, workers). (0, 1) owns everything: a session without
    xdist, or a worker of xdist's own scheduler (which needs every worker to collect everything,
    and hands it its items one by one: ``runs_ahead`` is False, each case runs in its test)."""

    def __init__(self, position: int = 0, workers: int = 1, runs_ahead: bool = True):
        self.position, self.workers, self.runs_ahead = position, workers, runs_ahead
        self._files = 0  # fixture files met so far, in collection order (the same in every worker)

    @classmethod
    def of(cls, config: Any) -> "Shares":
        workerinput = getattr(config, "workerinput", None)
        if workerinput is None:
            return cls()
        if workerinput.get(SHARES_KEY) is None:
            return cls(runs_ahead=False)
        return cls(int(workerinput[SHARES_KEY]), int(workerinput["workercount"]))

    @property
    def split(self) -> bool:
        return self.workers > 1

    def owns_next_file(self) -> bool:
        """Whether this process reads the next fixture file the collection meets."""
        index, self._files = self._files, self._files + 1
        return share_of(index, self.workers) == self.position

    def own_items(self, items: list, is_fixture_item: Any) -> list:
        """``items`` less the other workers' items that are not fixture cases. Every worker collects
        those alike; each is kept by the one its node id names (a hash, so a plugin that reorders
        the items differently in each worker still leaves each to exactly one)."""
        if not self.split:
            return items
        return [item for item in items  # a fixture case is from a file this worker read: the others' were never read
                if is_fixture_item(item) or zlib.crc32(item.nodeid.encode()) % self.workers == self.position]


@dataclasses.dataclass
class Orphan:
    """The share of a worker that crashed: ``left``, the node ids it did not finish (None: it
    crashed before it sent its collection, so all of it), until a replacement ``claimed`` it."""

    position: int
    left: list[str] | None
    claimed: bool = False


def position_for(node: Any, orphans: list[Orphan]) -> int:
    """The share a starting worker collects: a crashed worker's that no replacement has claimed,
    else its own position (``gw3`` is 3; a replacement with nothing to take over owns nothing)."""
    for orphan in orphans:
        if not orphan.claimed:
            orphan.claimed = True
            return orphan.position
    return int(node.workerinput["workerid"].removeprefix("gw"))


def show_every_share(config: Any, node2collection: dict, scheduler: str) -> None:
    """xdist's status line (``2 workers [N items]``), N counting every worker's items. Through the
    session's reporter, where it has one."""
    dsession = config.pluginmanager.getplugin("dsession")
    reporter, terminal = getattr(dsession, "trdist", None), getattr(dsession, "terminal", None)
    if reporter is None or terminal is None:
        return
    from xdist.dsession import WorkerStatus

    total = sum(len(c) for c in node2collection.values())
    for node in node2collection:
        reporter.setstatus(node.gateway.spec, WorkerStatus.CollectionDone, tests_collected=total)
    reporter.ensure_show_status()
    terminal.write_line("")
    if config.option.verbose > 0:
        terminal.write_line(f"scheduling tests via {scheduler}")


def static_scheduler(config: Any, log: Any, orphans: list[Orphan], session: Any) -> Any:
    """The controller's scheduler for workers whose collections are their shares. ``orphans`` is
    shared with the plugin's ``pytest_configure_node`` (:func:`position_for`); ``session`` is the
    controller's, whose count of collected items it keeps right (xdist counts the last worker's)."""
    from xdist.scheduler import LoadScheduling

    class StaticShares(LoadScheduling):
        """Each worker is sent every item it collected, all at once, then told to end after them."""

        scheduled = False  # every first collection is in and handed out (LoadScheduling's .collection stays None)

        def add_node_collection(self, node: Any, collection: Any) -> None:
            self.node2collection[node] = list(collection)
            if session is not None:
                session.testscollected = sum(len(c) for c in self.node2collection.values())
            orphan = next((o for o in orphans if o.claimed and o.position == node.workerinput[SHARES_KEY]), None)
            if orphan is not None:
                orphans.remove(orphan)
            if not self.scheduled:  # still collecting: schedule() sends it its whole collection
                return
            if orphan is not None:  # a replacement after scheduling began: what it inherits
                left = set(collection if orphan.left is None else orphan.left)
                self._send(node, [i for i, nodeid in enumerate(collection) if nodeid in left])
            node.shutdown()

        @property
        def tests_finished(self) -> bool:
            return (self.collection_is_completed and not orphans
                    and all(len(pending) < 2 for pending in self.node2pending.values()))

        def schedule(self) -> None:
            if self.scheduled:
                return
            self._show_every_share()
            self.scheduled = True
            for node, collection in self.node2collection.items():
                self._send(node, list(range(len(collection))))
                node.shutdown()  # everything is handed out: each ends after its share

        @property
        def has_pending(self) -> bool:
            """True once every worker has collected, so xdist leaves the status line to
            :meth:`_show_every_share` (its own counts the first worker's items: its collection was
            everyone's)."""
            return (not self.scheduled and self.collection_is_completed) or super().has_pending

        def _show_every_share(self) -> None:
            show_every_share(config, self.node2collection, type(self).__name__)

        def _send(self, node: Any, indices: list[int]) -> None:
            if indices:
                self.node2pending[node].extend(indices)
                node.send_runtest_some(indices)

        def remove_node(self, node: Any) -> str | None:
            pending = self.node2pending.pop(node, [])
            collection = self.node2collection.get(node)
            if collection is None:  # it ended before it sent its collection: its replacement collects it all
                orphans.append(Orphan(node.workerinput[SHARES_KEY], None))
                return None
            if not pending:
                return None
            del self.node2collection[node]  # its replacement's collection takes its place
            crashed = collection[pending.pop(0)]
            if pending:  # the replacement (same position, same share) runs the rest
                orphans.append(Orphan(node.workerinput[SHARES_KEY], [collection[i] for i in pending]))
            return crashed

        def mark_test_pending(self, item: str) -> None:
            raise NotImplementedError("oa-conformance's fixed shares do not run a crashed item again")

    return StaticShares(config, log)


def interrupt_workers(config: Any) -> None:
    """Ctrl-C that reached the controller alone (a ``kill -INT`` of its process, an IDE's stop
    button) is passed on to every worker, which abandons its cases in flight at once. Otherwise
    xdist tells each worker to end and waits: a worker waiting on a case towards its time limit
    is sent its own SIGINT by execnet only after 5 s. Through execnet's record of each worker's
    process (no public one); where it keeps none, nothing changes but the time."""
    dsession = config.pluginmanager.getplugin("dsession")
    group = getattr(getattr(dsession, "nodemanager", None), "group", None)
    for gateway in list(group or ()):
        process = getattr(getattr(gateway, "_io", None), "popen", None)
        if process is not None and process.poll() is None:
            with contextlib.suppress(OSError):
                process.send_signal(signal.SIGINT)
