"""``oa-conformance run --processes N``: worker processes give the verdicts of one process, and a
stopped run, a case's time limit and a worker that dies behave as in one process."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import signal
import threading
import time
from pathlib import Path

import pytest

from oa_conformance.frontends.cli.oa_conformance import main as cli
from oa_conformance.model.discovery import discover
from oa_conformance.scheduling.forkserver import START_METHOD, end_forkserver, start_forkserver
from oa_conformance.scheduling.processes import end_workers, expected_seconds, plan_shares, run_in_processes, waiting_cases
from oa_conformance.verdicts.expectations import NO_EXPECTATIONS
from oa_conformance.pipeline import cases_of
from oa_conformance.verdicts.outcomes import Outcome

from .test_cli_options import SLOW_SINGLE, three_fixtures
from .test_run import write_fixture


def verdicts(report: Path) -> dict:
    """Each case's verdict as a JSON report gives it, without what differs run to run (durations,
    the random ids quoted in messages): outcome, category, check counts, where each finding is."""
    return {case["id"]: (case["outcome"], case["category"], case["location"], case["checks"],
                         [finding["location"] for finding in case["findings"]])
            for case in json.loads(report.read_text())["cases"]}


def test_workers_give_the_verdicts_of_one_process(target_spec, tmp_path, capsys):
    expectations = Path(__file__).resolve().parent.parent / "oa-expectations.toml"
    slice_ = ["-k", "graph-engine or pipeline-utilities or checkpoint", "--expectations", str(expectations)]
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    status_one = cli(["run", str(target_spec), "-q", "--processes", "1", "--json", str(one), *slice_])
    status_two = cli(["run", str(target_spec), "-q", "--processes", "2", "--json", str(two), *slice_])
    assert status_one == status_two
    first, second = verdicts(one), verdicts(two)
    assert len(first) > 100 and list(first) == list(second)  # the same cases, in the same order
    assert first == second
    capsys.readouterr()


def test_exitfirst_stops_every_worker_promptly(tmp_path, capsys):
    """Two slow cases (a 30 s sleep) beside a failing one: -x returns once the failure is in."""
    root = three_fixtures(tmp_path)
    for name in ("004-slow.yaml", "005-slow.yaml"):
        write_fixture(tmp_path, SLOW_SINGLE.replace("sleep_ms: 2000", "sleep_ms: 30000"), name=name)
    started = time.perf_counter()
    assert cli(["run", root, "--processes", "2", "-x", "-q"]) == 1
    assert time.perf_counter() - started < 15
    out = capsys.readouterr()
    assert "--maxfail 1" in out.out and out.err == ""


def test_a_case_time_limit_holds_in_a_worker(tmp_path, capsys):
    write_fixture(tmp_path, SLOW_SINGLE, "pipeline-utilities", "001-slow.yaml")
    write_fixture(tmp_path, SLOW_SINGLE.replace("    sleep_ms: 2000\n", ""), "pipeline-utilities", "002-quick.yaml")
    report = tmp_path / "report.json"
    assert cli(["run", str(tmp_path / "spec"), "--timeout", "0.3", "--processes", "2", "-q", "--json", str(report)]) == 1
    slow, quick = json.loads(report.read_text())["cases"]
    assert slow["outcome"] == "failed" and slow["reason"] == "the case did not finish within 0.3 s"
    assert quick["outcome"] == "passed"
    capsys.readouterr()


def _workers_now() -> set[int]:
    """The processes forked by this process's forkserver (its worker processes), from /proc."""
    def parent_of(pid: str) -> int | None:
        try:
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            return None

    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    servers = {int(p) for p in pids if parent_of(p) == os.getpid()
               and b"forkserver" in Path(f"/proc/{p}/cmdline").read_bytes()}
    return {int(p) for p in pids if parent_of(p) in servers}


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="finds the worker processes through /proc")
def test_a_worker_that_dies_makes_its_cases_errors(tmp_path):
    """Kill one worker while its case sleeps: its case is an error naming the abrupt end, the
    other worker's case passes, and the run ends (no hang)."""
    for name in ("001-slow.yaml", "002-slow.yaml"):
        write_fixture(tmp_path, SLOW_SINGLE.replace("sleep_ms: 2000", "sleep_ms: 4000"), name=name)
    refs = [case for fixture in discover([str(tmp_path / "spec")]) for case in cases_of(fixture)]
    before = _workers_now()
    results: dict = {}
    # One case side by side per worker: the waiting process takes one of the two, a computing one the other.
    consumer = threading.Thread(target=lambda: results.update(run_in_processes(refs, processes=2, workers=1)), daemon=True)
    consumer.start()
    deadline = time.monotonic() + 20
    new: set[int] = set()
    while len(new) < 2 and time.monotonic() < deadline:
        new = _workers_now() - before
        time.sleep(0.05)
    assert len(new) == 2
    time.sleep(1.0)  # both cases are under way
    os.kill(min(new), signal.SIGKILL)
    consumer.join(15)
    assert not consumer.is_alive()
    outcomes = sorted(result.outcome for result in results.values())
    assert outcomes == [Outcome.ERROR, Outcome.PASSED]
    (dead,) = [result for result in results.values() if result.outcome == Outcome.ERROR]
    assert "did not finish it (BrokenProcessPool" in dead.reason and "terminated abruptly" in dead.reason and dead.ref in refs


def test_the_longest_expected_cases_are_spread_first(target_spec):
    """A fixture's declared waits (a paced observer's sleeps) make it expected to take longest, and
    the shares are balanced on expected time."""
    fixture = next(f for f in discover([str(target_spec)], ["graph-engine"]) if f.name.startswith("030-"))
    (paced,) = cases_of(fixture)
    plain = cases_of(next(f for f in discover([str(target_spec)], ["graph-engine"]) if f.name.startswith("001-")))[0]
    assert [paced.waits, plain.waits] == [0.3, 0.0]  # its observer's `sleep_ms_per_event: 300`
    expected = expected_seconds([paced, plain])
    assert expected[0] > expected[1] * 5
    assert expected_seconds([paced, plain], {plain.id: 9.0})[1] == 9.0  # a previous report's duration wins
    assert plan_shares({0: 1.0, 1: 3.0, 2: 1.0, 3: 1.0}, 2) == [[1], [0, 2, 3]]
    # waits spread first, then the same load each: the waiting cases go to different shares
    assert plan_shares({0: 0.1, 1: 3.0, 2: 2.0, 3: 0.1}, 2, loads=dict.fromkeys(range(4), 0.1)) == [[0, 1], [2, 3]]


PACED_CASES = """\
state:
  fields:
    v: {type: int, default: 0}
    sleep_ms: {type: int, default: 0}
entry: a
subgraphs:
  slow:
    state: {fields: {v: {type: int, default: 0}}}
    entry: s
    nodes: {s: {sleep_ms: 40, update: {v: 1}}}
    edges: [{from: s, to: END}]
nodes:
  a: {update: {v: 1}}
edges:
  - {from: a, to: END}
cases:
  - name: paced
    observers:
      - name: obs
        attach: graph
        target: outer
        behavior: record
        sleep_ms_per_event: {first_invocation: 100, subsequent_invocations: 20}
    initial_state: {sleep_ms: 700}
    expected:
      final_state: {v: 1, sleep_ms: 700}
  - name: plain
    initial_state: {}
    expected:
      final_state: {v: 1, sleep_ms: 0}
"""


def test_a_case_declares_the_waits_of_the_rows_with_a_wait_unit(tmp_path):
    """The scenario pass sums the numbers of the rows declaring a wait (``Directive.waits``): a
    pacing section's milliseconds, a node's ``sleep_ms`` in a subgraph the case inherits from the
    top level; a state field or a value merely named like one (``sleep_ms: 700``) declares none."""
    paced, plain = cases_of(write_fixture(tmp_path, PACED_CASES))
    assert paced.scenario is not None, paced.problems
    assert paced.waits == pytest.approx(0.1 + 0.02 + 0.04)
    assert plain.waits == pytest.approx(0.04)  # the top level's, inherited by every case
    assert expected_seconds([paced, plain])[0] > expected_seconds([paced, plain])[1]


def test_the_cases_that_wait_get_a_process_of_their_own():
    """The cases declaring waits share a process only with each other (first, so it starts first),
    at most as many as run side by side; the others are balanced over the computing shares."""
    waits = {0: 0.0, 1: 0.3, 2: 0.0, 3: 5.0, 4: 0.2, 5: 0.0}
    assert waiting_cases(waits, side_by_side=16) == [3, 1, 4]
    assert waiting_cases(waits, side_by_side=2) == [3, 1]  # the longest waits
    assert waiting_cases(dict.fromkeys(range(3), 0.0), side_by_side=16) == []
    costs = dict.fromkeys(range(6), 1.0)
    assert plan_shares(costs, 2, waiting=[3, 1, 4]) == [[1, 3, 4], [0, 5], [2]]
    assert plan_shares(costs, 2) == [[0, 2, 4], [1, 3, 5]]  # nothing waits: no share of its own


def test_a_run_gives_the_waiting_cases_their_own_worker(tmp_path, monkeypatch):
    """What ``run_in_processes`` hands its workers: the case that declares a wait alone in the
    first worker, the two that do not each in a computing one."""
    import oa_conformance.scheduling.processes as processes

    handed: list[list[int]] = []

    class Recording(processes.ProcessPoolExecutor):
        def submit(self, function, jobs, *args):
            handed.append([index for index, _, _ in jobs])
            return super().submit(function, jobs, *args)

    monkeypatch.setattr(processes, "ProcessPoolExecutor", Recording)
    write_fixture(tmp_path, SLOW_SINGLE.replace("    sleep_ms: 2000\n", ""), name="001-quick.yaml")
    write_fixture(tmp_path, SLOW_SINGLE.replace("sleep_ms: 2000", "sleep_ms: 200"), name="002-paced.yaml")
    write_fixture(tmp_path, SLOW_SINGLE.replace("    sleep_ms: 2000\n", ""), name="003-quick.yaml")
    refs = [case for fixture in discover([str(tmp_path / "spec")]) for case in cases_of(fixture)]
    results = dict(run_in_processes(refs, processes=2))
    assert handed == [[1], [0], [2]]
    assert [results[i].outcome for i in range(3)] == ["passed"] * 3


def test_a_result_that_cannot_leave_its_worker_is_an_error():
    """Pickled in the worker's own thread: a result carrying a live object becomes an error result
    (a queue would fail in its background thread, losing the result and leaving the parent waiting)."""
    from oa_conformance.scheduling.processes import _portable
    from oa_conformance.verdicts.results import CaseResult

    sent = pickle.loads(_portable(CaseResult(None, Outcome.PASSED, notes=(threading.Lock(),))))
    assert sent.outcome == Outcome.ERROR and "cannot leave its worker" in sent.reason
    assert pickle.loads(_portable(CaseResult(None, Outcome.PASSED, notes=("fine",)))).outcome == "passed"


def test_a_share_whose_runner_fails_makes_its_cases_errors(tmp_path, monkeypatch):
    """The worker side of a share failing (not the process dying) is an error of its unsent cases,
    never a parent waiting for results that will not come. Run in this process: the share's runner
    with a results queue whose put fails."""
    import queue as queues

    import oa_conformance.scheduling.processes as processes

    class Broken(queues.SimpleQueue):
        def put(self, item):
            raise OSError("simulated: the pipe is gone")

    write_fixture(tmp_path, SLOW_SINGLE.replace("    sleep_ms: 2000\n", ""), name="001-quick.yaml")
    (fixture,) = discover([str(tmp_path / "spec")])
    monkeypatch.setattr(processes, "_results", Broken())
    monkeypatch.setattr(processes, "_stop", threading.Event())
    with pytest.raises(RuntimeError, match="the share's runner failed: OSError: simulated"):
        processes._run_share([(0, fixture, 0)], workers=1, timeout=10, expectations=NO_EXPECTATIONS)


def _leave_a_thread_running() -> None:
    threading.Thread(target=time.sleep, args=(60,), daemon=False).start()  # Python joins it at exit


def test_a_worker_that_cannot_end_is_killed_after_the_grace():
    """A case that leaves a thread running that is not a daemon keeps its worker from ending (Python
    joins such threads at exit, the pool joins its workers): the parent kills it after the grace
    instead of waiting for ever after the summary; a worker that ends by itself is left to end."""
    context = multiprocessing.get_context(START_METHOD)
    stuck, prompt = context.Process(target=_leave_a_thread_running), context.Process(target=int)
    stuck.start()
    prompt.start()
    started = time.monotonic()
    assert end_workers([prompt, stuck], grace=0.5) == [stuck]
    assert time.monotonic() - started < 10
    assert prompt.exitcode == 0 and stuck.exitcode == -signal.SIGKILL


def test_the_forkserver_is_ended_at_once_and_comes_back_when_needed(tmp_path):
    """At the command line's end the forkserver is ended by a signal (not left to run a whole
    interpreter shutdown while holding the caller's stdout); a later run in this process starts a
    new one and its cases still run."""
    import multiprocessing.forkserver

    start_forkserver()
    pid = multiprocessing.forkserver._forkserver._forkserver_pid
    end_forkserver()
    deadline, ended = time.monotonic() + 10, None
    while ended is None and time.monotonic() < deadline:  # left unreaped: the next start reaps it
        ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        time.sleep(0.01)
    assert ended is not None and (ended.si_code, ended.si_status) == (os.CLD_KILLED, signal.SIGTERM)
    end_forkserver()  # nothing left to end: no error
    write_fixture(tmp_path, SLOW_SINGLE.replace("    sleep_ms: 2000\n", ""), name="001-quick.yaml")
    write_fixture(tmp_path, SLOW_SINGLE.replace("    sleep_ms: 2000\n", ""), name="002-quick.yaml")
    refs = [case for fixture in discover([str(tmp_path / "spec")]) for case in cases_of(fixture)]
    assert [result.outcome for _, result in sorted(run_in_processes(refs, processes=2))] == ["passed", "passed"]


def test_an_interrupt_while_workers_start_is_held_until_each_is_on_record(tmp_path, monkeypatch):
    """Ctrl-C, or the output watcher's interrupt when ``run … | head -1``'s reader goes, arriving
    while a worker is being forked: let through, it lands inside ``submit`` between the fork and the
    pool's record of the worker, which then outlives the run and prints a traceback onto the
    caller's stderr once the parent has unlinked the semaphores it shares (seen in CI under load).
    Held until every worker is on record, then delivered; each worker ends."""
    import _thread
    from concurrent.futures import ProcessPoolExecutor

    for name in ("001-quick.yaml", "002-quick.yaml"):
        write_fixture(tmp_path, SLOW_SINGLE.replace("    sleep_ms: 2000\n", ""), name=name)
    refs = [case for fixture in discover([str(tmp_path / "spec")]) for case in cases_of(fixture)]
    started: list = []
    spawn = ProcessPoolExecutor._spawn_process

    def spawn_interrupted(pool):
        _thread.interrupt_main()  # delivered at the next bytecode: inside the spawn
        spawn(pool)
        started.extend(pool._processes.values())

    monkeypatch.setattr(ProcessPoolExecutor, "_spawn_process", spawn_interrupted)
    stream = run_in_processes(refs, processes=2)
    # Ctrl-C at Python's own handler, as in a command run from a terminal: a suite started with
    # SIGINT ignored (`nohup`, `&` in a script) drops the interrupt, held or not, and never raises.
    ignored_or_not = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            next(stream)
    finally:
        signal.signal(signal.SIGINT, ignored_or_not)
    assert len(started) == 2, "an interrupt let through mid-spawn: the workers after it never started"
    assert all(worker.exitcode is not None for worker in started), "a worker outlived the run"
