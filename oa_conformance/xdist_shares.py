"""The pytest plugin under pytest-xdist: which worker runs which case, and Ctrl-C reaching them all.

With spec roots and ``--dist load`` (what ``-n N`` means by default) the controller hands worker
``gwK`` of N a fixed share of the items, every N-th from its position (:func:`share_of`), all at
once, so each worker knows its items when its loop starts (it even knows, while it collects, which
cases it will run unless they are deselected) and runs them ahead side by side as a session without
xdist does. Imported by the plugin's hooks only: nothing here imports xdist until a controller asks
for its scheduler.
"""

from __future__ import annotations

import contextlib
import signal
from typing import Any

# The key a worker's input carries when the controller hands out static shares.
SHARES_KEY = "oa_static_shares"


def share_of(index: int, workers: int) -> int:
    """The worker that runs the item at ``index`` of the collection: every ``workers``-th item, so
    each worker gets the slow and the fast cases of every capability alike."""
    return index % workers


def worker_position(workerinput: dict[str, Any]) -> tuple[int, int]:
    """(this worker's position, how many workers) from xdist's worker input (``gw3`` is 3)."""
    return int(workerinput["workerid"].removeprefix("gw")), int(workerinput["workercount"])


def my_share(config: Any) -> tuple[int, int] | None:
    """(position, workers) of an xdist worker with a fixed share; (0, 1) in a session without
    xdist; None in a worker that learns its items one by one (xdist's own scheduler)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        return 0, 1
    return worker_position(workerinput) if workerinput.get(SHARES_KEY) else None


def static_scheduler(config: Any, log: Any) -> Any:
    """The controller's scheduler: ``--dist load`` with the first distribution fixed."""
    from xdist.scheduler import LoadScheduling

    class StaticShares(LoadScheduling):
        """Worker ``gwK`` of N gets the items :func:`share_of` gives it, all at once. What a crashed
        worker leaves is handed on to the others by ``LoadScheduling`` as usual (they run it in the
        test itself)."""

        def schedule(self) -> None:
            if self.collection is not None or not self._check_nodes_have_same_collection():
                return super().schedule()
            self.collection = next(iter(self.node2collection.values()))
            if not self.collection:
                return
            for node in self.nodes:
                position, workers = worker_position(node.workerinput)
                share = [i for i in range(len(self.collection)) if share_of(i, workers) == position]
                if share:
                    self.node2pending[node].extend(share)
                    node.send_runtest_some(share)
            for node in self.nodes:
                node.shutdown()  # everything is handed out: each ends after its share

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
