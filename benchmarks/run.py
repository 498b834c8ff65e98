"""Benchmarks that print numbers (not timed tests).

    ./dev bench                      all benchmarks
    ./dev bench parse                reading the shared corpus vs plain libyaml composing
    ./dev bench corpus               oa-conformance run over the whole target corpus next to its
                                     floor (its slowest case alone), with and without worker processes
    ./dev bench assert               the assert pass (and the catalogue's trace documents) next to execution
    ./dev bench run                  the graph-engine and pipeline-utilities cases against the runtime
    ./dev bench lint                 oa-lint over the shared corpus, on every core and in one process,
                                     next to a process that only composes the same files with libyaml
    ./dev bench goals                issue 20's goals side by side, each as a ratio to its floor:
                                     start-up, the slowest case, the whole corpus, pytest -n 2, oa-lint
    ./dev bench interrupt            Ctrl-C to the end of the process (goal <= 1 s): run, pytest alone,
                                     pytest -n 2 (SIGINT to the process group, and to its controller alone)
    ./dev bench bounds               hostile inputs (an alias chain, an alias DAG, a 50 MB file)
                                     through every front end: wall, CPU and peak RSS per process
    ./dev bench report               the report page of three runs of the target corpus (0.16.0,
                                     0.17.0, 0.17.0 again): its size, writing it, opening it in
                                     headless Chromium (goal <= 1 s)
    ./dev bench report-scale         the report page at 50,000 cases x 6 runs (copies of real runs,
                                     tools/build_reports.scaled_reports): its size, opening it and
                                     applying each filter in headless Chromium (goals <= 10 MB, <= 1 s)

``parse``: loads and checks (load → schema check → AST build → version check) every fixture of the
shared corpus in one process and prints the best of several rounds next to ``yaml.compose`` with
the C loader on the same bytes. Target: within 2× of it.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from oa_conformance.model.discovery import discover
from oa_conformance.pipeline import read_fixture

ROUNDS = 7
CORPUS_ROUNDS = 5


def shared_root() -> str:
    root = os.environ.get("OA_SHARED_SPEC")
    if not root:
        sys.exit("bench: set OA_SHARED_SPEC to an openarmature-spec checkout (./dev sets it when ../shared exists)")
    return root


def best_of(function, rounds: int = ROUNDS) -> float:
    times = []
    for _ in range(rounds):
        gc.collect()
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def bench_parse() -> None:
    refs = discover([shared_root()])
    blobs = [(ref, open(ref.path, "rb").read()) for ref in refs]
    size = sum(len(b) for _, b in blobs)

    def compose_all():
        for _, data in blobs:
            yaml.compose(data, Loader=yaml.CSafeLoader)

    problems = []

    def read_all():
        problems.clear()
        for ref, data in blobs:
            problems.extend(read_fixture(ref.path, data, capability=ref.capability).diagnostics)

    # Interleave the two so a change in machine load hits both alike; report the best of each and
    # the median of the per-round ratios (the steadier number on a shared 2-core machine).
    compose_times, our_times = [], []
    for _ in range(ROUNDS * 2 + 1):
        compose_times.append(best_of(compose_all, rounds=1))
        our_times.append(best_of(read_all, rounds=1))
    ratios = sorted(o / c for o, c in zip(our_times, compose_times))
    compose, ours, ratio = min(compose_times), min(our_times), ratios[len(ratios) // 2]
    print(f"parse: {len(blobs)} fixtures, {size / 1e6:.2f} MB, {len(ratios)} interleaved rounds")
    print(f"  yaml.compose (CSafeLoader)            {compose * 1000:8.1f} ms  (best)")
    print(f"  load + schema + build + version check {ours * 1000:8.1f} ms  (best)   median ratio {ratio:.2f}x (target <= 2x)")
    print(f"  problems found: {len(problems)}")


# The reference process for ``lint``: start Python, import PyYAML, compose every fixture with the C loader.
COMPOSE_ONLY = """
import sys, yaml
from pathlib import Path
for path in sorted(Path(sys.argv[1], "spec").glob("*/conformance/*.yaml")):
    yaml.compose(path.read_bytes(), Loader=yaml.CSafeLoader)
"""


def bench_lint() -> None:
    """``lint``: ``oa-lint`` over the whole shared corpus as a fresh process (start-up, imports,
    static passes, every rule, JSON output) — as the command runs (its shares side by side, one
    process per core) and in one process (``--processes 1``) — next to a fresh process that only
    composes the same files with PyYAML's C loader, interleaved; the best wall time of each, the
    median of the per-round ratios, and the same for CPU time (user + system, children included:
    steadier than wall time when other jobs share the machine); and the same lint in-process.
    Target: the ratio at most 3x. (``./dev bench`` byte-compiles the package first, as an installed
    package is.)"""
    import resource

    root = shared_root()
    command = [sys.executable, "-m", "oa_conformance.frontends.cli.oa_lint", root, "--format", "json", "--exit-zero"]
    commands = {"compose": [sys.executable, "-c", COMPOSE_ONLY, root], "oa-lint": command,
                "oa-lint --processes 1": command + ["--processes", "1"]}

    def one_process(argv):
        """(wall seconds, CPU seconds) of one run of ``argv``."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"bench: {argv[1]} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    summary = subprocess.run(command, capture_output=True, check=False).stderr.decode().strip().splitlines()[-1]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(ROUNDS * 2 + 1):
        for name, argv in commands.items():
            runs[name].append(one_process(argv))

    def median_ratio(name: str, index: int) -> float:
        ratios = sorted(lint[index] / compose[index] for lint, compose in zip(runs[name], runs["compose"]))
        return ratios[len(ratios) // 2]

    from oa_conformance.frontends.lint import lint_paths

    in_process = best_of(lambda: lint_paths([root]))
    print(f"lint: {summary}")
    for name, label in (("compose", "python + yaml.compose (CSafeLoader)"), ("oa-lint", "oa-lint (shares on every core)"),
                        ("oa-lint --processes 1", "oa-lint --processes 1")):
        print(f"  {label:<46} {min(r[0] for r in runs[name]) * 1000:8.1f} ms wall, "
              f"{min(r[1] for r in runs[name]) * 1000:6.1f} ms CPU  (best of {len(runs[name])} interleaved rounds)")
    for name in ("oa-lint", "oa-lint --processes 1"):
        print(f"  ratio {name + ' / compose':<40} {median_ratio(name, 0):8.2f}x wall, {median_ratio(name, 1):6.2f}x CPU  "
              f"(median of rounds; target <= 3x)")
    print(f"  lint_paths in-process, one process (best of {ROUNDS}) {in_process * 1000:8.1f} ms")


def bench_run() -> None:
    """``run``: every case of the shared corpus's graph-engine and pipeline-utilities directories
    against the runtime, side by side (the default) and one at a time, so the overlap of the
    fixtures' deliberate sleeps shows. Guide: well under 10 s side by side."""
    import collections

    from oa_conformance.pipeline import cases_of
    from oa_conformance.scheduling.runner import run_all

    refs = [case for fixture in discover([shared_root()], ["graph-engine", "pipeline-utilities"]) for case in cases_of(fixture)]

    def timed(workers: int):
        started = time.perf_counter()
        results = list(run_all(refs, workers=workers))
        return time.perf_counter() - started, collections.Counter(r.outcome for r in results)

    overlapped, outcomes = timed(16)
    serial, _ = timed(1)
    print(f"run: graph-engine + pipeline-utilities, {len(refs)} cases: {dict(outcomes)}")
    print(f"  side by side (16 threads, one event loop each)  {overlapped:6.2f} s   (guide: well under 10 s)")
    print(f"  one at a time                                   {serial:6.2f} s")


def bench_corpus() -> None:
    """``corpus``: ``oa-conformance run`` over the whole target corpus (OA_TARGET_SPEC, else the
    shared one) as a fresh process — one worker process per core (the default) and all in one
    process — next to its floor, the same command running only the corpus's slowest case (found in
    a first run's JSON report: a case spending seconds in deliberate sleeps). Interleaved rounds;
    medians, and the ratio of each to the floor. Goal: the default within 1.25x of the floor."""
    import statistics

    root = os.environ.get("OA_TARGET_SPEC") or shared_root()
    command = [os.path.join(os.path.dirname(sys.executable), "oa-conformance"), "run", root, "-q"]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        subprocess.run(command + ["--json", report], capture_output=True, check=False)
        with open(report, encoding="utf-8") as handle:
            cases = json.load(handle)["cases"]
    slowest = max(cases, key=lambda case: case["duration_s"])
    # a -k word matches the ids containing it: the floor runs the slowest case alone
    runs = {"floor": command + ["-k", slowest["id"]], "workers": command, "one process": command + ["--processes", "1"]}
    walls: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(CORPUS_ROUNDS):
        for name, argv in runs.items():
            started = time.perf_counter()
            subprocess.run(argv, capture_output=True, check=False)
            walls[name].append(time.perf_counter() - started)
    floor = statistics.median(walls["floor"])
    print(f"corpus: {len(cases)} cases of {root}; floor: {slowest['id']} alone ({slowest['duration_s']:.2f} s in the run)")
    print(f"  the slowest case alone (the floor)          {floor:6.2f} s  (median of {CORPUS_ROUNDS} interleaved rounds)")
    for name, label in (("workers", f"whole corpus, {os.cpu_count()} worker processes"), ("one process", "whole corpus, one process")):
        wall = statistics.median(walls[name])
        print(f"  {label:<42} {wall:6.2f} s  {wall / floor:5.2f}x the floor" + ("  (goal <= 1.25x)" if name == "workers" else ""))


def bench_assert() -> None:
    """``assert``: what the assert pass costs next to running the cases — each graph-engine and
    pipeline-utilities case is executed once, then its assert pass is timed (best of several), and
    within it the one-off build of the trace document the catalogue's queries read."""
    from oa_conformance.assertions.assert_pass import assert_case
    from oa_conformance.interpreter.running.capabilities import harness_for
    from oa_conformance.interpreter.running.execute import execute_case
    from oa_conformance.pipeline import cases_of
    from oa_conformance.model.trace.document import document

    refs = [case for fixture in discover([shared_root()], ["graph-engine", "pipeline-utilities"]) for case in cases_of(fixture)
            if case.scenario is not None]
    started = time.perf_counter()
    traced = []
    for ref in refs:
        try:
            traced.append((ref, execute_case(ref.scenario, 60, harness_for(ref.fixture.capability))))
        except Exception:  # skipped / erroring cases have nothing to assert
            continue
    executed = time.perf_counter() - started
    def assert_all():
        return [assert_case(ref.scenario, trace, ref.fixture.capability) for ref, trace in traced]

    asserting = best_of(assert_all, rounds=3)
    documents = best_of(lambda: [document(trace) for _, trace in traced], rounds=3)
    print(f"assert: {len(traced)} executed graph-engine + pipeline-utilities cases")
    print(f"  execute, one at a time                      {executed * 1000:8.1f} ms")
    print(f"  assert pass, all cases (best of 3)          {asserting * 1000:8.1f} ms")
    print(f"  trace documents alone (one per case)        {documents * 1000:8.1f} ms  (built only for cases with predicates)")


def _measured(argv: list[str]) -> tuple[float, float, float, int, str]:
    """Run one command as its own process: (wall s, CPU s, peak RSS MB, exit status, first output line).

    Peak RSS comes from GNU time (``/usr/bin/time -f``), whose small process forks the command: a
    child forked from this process would inherit its high-water mark. Without GNU time, 0."""
    timer = "/usr/bin/time"
    report = None
    if os.path.exists(timer):
        handle, report = tempfile.mkstemp(prefix="oa-bench-")
        os.close(handle)
        argv = [timer, "-o", report, "-f", "%U %S %M"] + argv
    started = time.perf_counter()
    finished = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    wall = time.perf_counter() - started
    cpu = rss = 0.0
    if report is not None:
        with open(report) as handle:
            user, system, peak = handle.read().split()[-3:]
        os.unlink(report)
        cpu, rss = float(user) + float(system), int(peak) / 1024
    output = finished.stdout.decode("utf-8", "replace")
    lines = [line for line in output.splitlines() if line.strip() and not set(line) <= set(".EFNsxX")]
    first = next((line for line in lines if "fixture_schema_invalid" in line or "cases in" in line or "FAILED" in line), lines[0] if lines else "")
    return wall, cpu, rss, finished.returncode, first


def bench_bounds() -> None:
    """``bounds``: the inputs issue 7 found unbounded, each through the front ends as a fresh process.

    - the 2.4 KB alias chain nesting ~1,000 levels when expanded (was: check and lint clean,
      ``oa-ast`` RecursionError, ``run`` a runtime failure): refused by the loader at the alias;
    - an alias DAG of 168,421 expanded nodes (within the 200,000-node bound) in the state of a
      20-node chain (was: 18.3 s CPU, 612 MB peak, the trace re-expanding it per event);
    - a 50 MB fixture (was: 3.1 GB): refused by the size cap before it is read.
    """
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests.test_bounds import alias_chain, alias_dag

    bin_dir = os.path.dirname(sys.executable)
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "spec", "graph-engine", "conformance")
        os.makedirs(folder)
        chain, dag, big = (os.path.join(folder, name) for name in ("001-alias-chain.yaml", "002-alias-dag.yaml", "003-big.yaml"))
        with open(chain, "w") as handle:
            handle.write(alias_chain(13, 90)[0])
        with open(dag, "w") as handle:
            handle.write(alias_dag(levels=4, width=20, nodes=20))
        with open(big, "w") as handle:
            handle.write(alias_dag(levels=1, width=10, nodes=2))
            block = ("# " + "x" * 77 + "\n") * 13_107  # 1 MiB of comment lines, written 50 times
            for _ in range(50):
                handle.write(block)
        print("bounds: each command a fresh process (wall s, CPU s, peak RSS MB, exit status)")
        runs = [
            (chain, "check", [f"{bin_dir}/oa-conformance", "check", chain]),
            (chain, "oa-lint", [f"{bin_dir}/oa-lint", chain, "--select", "V"]),
            (chain, "oa-ast", [f"{bin_dir}/oa-ast", chain]),
            (chain, "run", [f"{bin_dir}/oa-conformance", "run", chain, "-q"]),
            (dag, "run", [f"{bin_dir}/oa-conformance", "run", dag, "-q", "--timeout", "600"]),
            (dag, "oa-ast", [f"{bin_dir}/oa-ast", dag]),
            (big, "check", [f"{bin_dir}/oa-conformance", "check", big]),
        ]
        for path, label, argv in runs:
            wall, cpu, rss, status, first = _measured(argv)
            name = f"{os.path.basename(path)} ({os.path.getsize(path) / 1024:,.1f} KB)"
            print(f"  {name:<34} {label:<8} {wall:7.2f} s {cpu:7.2f} s CPU {rss:8.1f} MB  exit {status}")
            print(f"      {first.replace(tmp, '…')[:150]}")


def bench_goals(rounds: int = CORPUS_ROUNDS) -> None:
    """``goals``: each of issue 20's goals next to its floor, every command a fresh process, all in
    the same interleaved rounds (a change in machine load hits each alike); medians and their ratios.

    - start-up: ``run`` selecting nothing (imports, reading every fixture) / a bare ``python -c pass``;
    - the slowest case (found in a first run's report) alone, as a command / its own duration in
      that report (on a quiet machine graph-engine 030: its observer's sleeps, 16 events x 300 ms);
    - the whole target corpus / that same duration (goal <= 1.25x);
    - pytest over the corpus with ``-n 2`` / without (goal <= 1x), without the test suite's hypothesis plugin,
      and / the command's corpus run (issue 26: goal <= 1.25x);
    - xdist's own floor: ``-n 2`` over as many no-op tests as the corpus has cases / the command
      selecting nothing (what ``pytest -n 2`` costs beyond ``run`` before any case runs);
    - ``oa-lint`` over the shared corpus / a process composing the same files with libyaml (goal <= 3x),
      and the same lint in one process (``--processes 1``).
    """
    import statistics

    root = os.environ.get("OA_TARGET_SPEC") or shared_root()
    bin_dir = os.path.dirname(sys.executable)
    run = [f"{bin_dir}/oa-conformance", "run", root, "-q"]
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        subprocess.run(run + ["--json", report], capture_output=True, check=False)
        with open(report, encoding="utf-8") as handle:
            cases = json.load(handle)["cases"]
        slowest = max(cases, key=lambda case: case["duration_s"])
    # Without hypothesis's plugin: our test suite's extra, not something a corpus run installs. It
    # imports all of hypothesis at the end of every pytest process (the controller's and each xdist
    # worker's), and pytest recompiles it from source each time where it cannot cache (here,
    # PYTHONDONTWRITEBYTECODE=1): about 0.9 s per process, which would measure it, not the plugin.
    # The same corpus as the command's: without the project's own bundled spec/ (its ini's
    # oa_spec_roots), which would add its 136 cases to pytest's side alone.
    pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q", "-o", "addopts=",
              "-o", "oa_spec_roots=", f"--oa-spec-root={root}"]
    commands = {
        "python": [sys.executable, "-c", "pass"],
        "start-up": run + ["-k", "nothing_matches_this"],
        "slowest case": run + ["-k", slowest["id"]],
        "corpus": run,
        "pytest": pytest,
        "pytest -n 2": pytest + ["-n", "2"],
        "no-op -n 2": [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q", "-n", "2",
                       "test_no_ops.py"],  # in the folder every command runs in
        "compose": [sys.executable, "-c", COMPOSE_ONLY, shared_root()],
        "oa-lint": [f"{bin_dir}/oa-lint", shared_root(), "--format", "json", "--exit-zero"],
        "lint 1 proc": [f"{bin_dir}/oa-lint", shared_root(), "--format", "json", "--exit-zero", "--processes", "1"],
    }
    walls: dict[str, list[float]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory() as no_ops:
        # xdist's own floor: as many no-op tests as the corpus has cases, under -n 2 (three
        # interpreters each importing pytest and its plugins, every report sent to the controller).
        with open(os.path.join(no_ops, "test_no_ops.py"), "w", encoding="utf-8") as handle:
            handle.write(f"import pytest\n\n\n@pytest.mark.parametrize('i', range({len(cases)}))\ndef test_no_op(i):\n    pass\n")
        for _ in range(rounds):
            for name, argv in commands.items():
                started = time.perf_counter()
                subprocess.run(argv, capture_output=True, check=False, cwd=no_ops)  # waits for every process holding its pipes
                walls[name].append(time.perf_counter() - started)
    median = {name: statistics.median(times) for name, times in walls.items()}
    median["its case"] = slowest["duration_s"]
    print(f"goals: median of {rounds} interleaved rounds, load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"slowest case {slowest['id']} ({slowest['duration_s']:.2f} s in the corpus run's report)")
    for name, floor, goal in (("start-up", "python", None), ("slowest case", "its case", None), ("corpus", "its case", 1.25),
                              ("pytest -n 2", "pytest", 1.0), ("pytest -n 2", "corpus", 1.25), ("no-op -n 2", "start-up", None),
                              ("oa-lint", "compose", 3.0), ("lint 1 proc", "compose", None)):
        ratio = median[name] / median[floor]
        print(f"  {name:<13} {median[name]:6.2f} s / {floor:<9} {median[floor]:6.2f} s = {ratio:5.2f}x"
              + (f"  (goal <= {goal:g}x: {'met' if ratio <= goal else 'NOT met'})" if goal else ""))


def bench_report(rounds: int = ROUNDS) -> None:
    """``report``: ``oa-conformance report`` over three runs of the target corpus with the shipped
    expectations — the 0.16.0 wheel (its own environment, tools/build_reports.py), the 0.17.0 wheel,
    and the 0.17.0 wheel again — and that page opened from disk in headless Chromium (tools/browser.py),
    a fresh tab per round: from navigation to the load event, after which the page's script has
    folded the fixtures and the filters work. Best and median of the rounds, and the two-run page's
    size beside the three-run one's. Goal: open in <= 1 s, the page under 2 MB."""
    import statistics
    from pathlib import Path

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository's tools/
    from playwright.sync_api import sync_playwright

    from tools import browser
    from tools.build_reports import DEFAULT_BUILD, run_report

    if browser.missing():
        sys.exit(f"bench: {browser.missing()}")
    root = Path(os.environ.get("OA_TARGET_SPEC") or shared_root())
    command = [os.path.join(os.path.dirname(sys.executable), "oa-conformance"), "report"]
    with tempfile.TemporaryDirectory() as tmp:
        runs = [os.path.join(tmp, f"run{number}.json") for number in range(3)]
        for path, version in zip(runs, ("0.16.0", DEFAULT_BUILD, DEFAULT_BUILD)):
            run_report(version, root, Path(path))
        cases = len(json.load(open(runs[0], encoding="utf-8"))["cases"])
        two, three = os.path.join(tmp, "two.html"), os.path.join(tmp, "three.html")
        subprocess.run(command + runs[:2] + ["-o", two], capture_output=True, check=True)
        writes = []
        for _ in range(rounds):
            started = time.perf_counter()
            subprocess.run(command + runs + ["-o", three], capture_output=True, check=True)
            writes.append(time.perf_counter() - started)
        opens, loads = [], []
        with sync_playwright() as playwright:
            launched = browser.launch(playwright)
            for _ in range(rounds):
                page = launched.new_page()
                started = time.perf_counter()
                page.goto(Path(three).as_uri(), wait_until="load")
                opens.append(time.perf_counter() - started)
                loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000)
                page.close()
            launched.close()
        load = os.getloadavg()[0]  # the open time scales with it on a shared machine: say what it was
        print(f"report: {cases} cases of {root}; runs: 0.16.0, 0.17.0, 0.17.0; load average {load:.1f} on {os.cpu_count()} cores")
        print(f"  page size, 2 runs                      {os.path.getsize(two) / 1e6:6.2f} MB")
        print(f"  page size, 3 runs                      {os.path.getsize(three) / 1e6:6.2f} MB  (goal < 2 MB)")
        print(f"  oa-conformance report, 3 runs          {min(writes):6.2f} s best, {statistics.median(writes):.2f} s median (a fresh process)")
        print(f"  open in headless Chromium (to load)    {min(opens):6.2f} s best, {statistics.median(opens):.2f} s median  (goal <= 1 s: "
              f"{'met' if statistics.median(opens) <= 1 else 'NOT met'})")
        print(f"  the page's own load event              {min(loads):6.2f} s best, {statistics.median(loads):.2f} s median (navigation timing)")


# Each filter as the page's user sets it: (what, the control's id, the value; True checks a box).
# A control the page lacks is left out (an earlier page had fewer filters).
SCALE_FILTERS = (("changed only", "f-changed", True), ("regressions only", "f-reg", True), ("failing in run 3", "f-fail", "3"),
                 ("capability", "f-cap", "pipeline-utilities"), ("outcome in any run", "f-out", "xf"),
                 ("case id text", "f-text", "drain"), ("baseline run 3", "f-base", "3"))
# Sets one control, then waits two animation frames: the time includes the page's own work, style,
# layout and the paint that shows the filtered table.
APPLY_FILTER = """([id, value]) => new Promise((done) => {
    const control = document.getElementById(id), started = performance.now();
    if (value === true) control.checked = true; else control.value = value;
    control.dispatchEvent(new Event("input", { bubbles: true }));  // as a browser does first, for a box, a list or a field
    document.body.offsetHeight;
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - started)));
})"""
PAINTED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))))"


def bench_report_scale(cases: int = 50_000, runs: int = 6, rounds: int = 3) -> None:
    """``report-scale``: the report page of ``runs`` runs of ``cases`` cases each — copies of a real
    0.16.0 and a real 0.17.0 run of the target corpus with some verdicts changed
    (tools/build_reports.scaled_reports) — written by ``oa-conformance report``, then opened from
    disk in headless Chromium, a fresh tab per round: open is navigation to the first paint after the
    load event; each filter is set alone on a freshly opened page, to the paint that shows its result.
    Best and median of the rounds. Goals (issue 34): the page <= 10 MB, open and every filter <= 1 s."""
    import statistics

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from playwright.sync_api import sync_playwright

    from tools import browser
    from tools.build_reports import DEFAULT_BUILD, run_report, scaled_reports

    if browser.missing():
        sys.exit(f"bench: {browser.missing()}")
    root = Path(os.environ.get("OA_TARGET_SPEC") or shared_root())
    command = [os.path.join(os.path.dirname(sys.executable), "oa-conformance"), "report"]
    with tempfile.TemporaryDirectory() as tmp:
        real = [run_report(version, root, Path(tmp) / f"real{number}.json") for number, version in enumerate(("0.16.0", DEFAULT_BUILD))]
        paths = []
        for number, report in enumerate(scaled_reports(real, cases, runs), start=1):
            paths.append(os.path.join(tmp, f"run{number}.json"))
            with open(paths[-1], "w", encoding="utf-8") as handle:
                json.dump(report, handle)
        page_path = os.path.join(tmp, "page.html")
        started = time.perf_counter()
        subprocess.run(command + paths + ["-o", page_path], capture_output=True, check=True)
        written = time.perf_counter() - started
        opens: list[float] = []
        filters: dict[str, list[float]] = {}
        with sync_playwright() as playwright:
            launched = browser.launch(playwright)
            for _ in range(rounds):
                for name, control, value in (None, None, None), *SCALE_FILTERS:
                    page = launched.new_page(viewport={"width": 1400, "height": 900})
                    started = time.perf_counter()
                    page.goto(Path(page_path).as_uri(), wait_until="load", timeout=600_000)
                    page.evaluate(PAINTED)
                    opened = time.perf_counter() - started
                    if name is None:
                        opens.append(opened)
                    elif page.evaluate(f"() => Boolean(document.getElementById({json.dumps(control)}))"):
                        filters.setdefault(name, []).append(page.evaluate(APPLY_FILTER, [control, value]) / 1000)
                    page.close()
            launched.close()

        def figures(times: list[float]) -> str:
            median = statistics.median(times)
            return f"{min(times):6.2f} s best, {median:.2f} s median  (goal <= 1 s: {'met' if median <= 1 else 'NOT met'})"

        size = os.path.getsize(page_path) / 1e6
        print(f"report-scale: {cases} cases x {runs} runs (copies of {root}); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"  page size                              {size:6.2f} MB  (goal <= 10 MB: {'met' if size <= 10 else 'NOT met'})")
        print(f"  oa-conformance report                  {written:6.2f} s (a fresh process)")
        print(f"  open in headless Chromium (to paint)   {figures(opens)}")
        for name, _, _ in SCALE_FILTERS:
            if name in filters:
                print(f"  filter: {name:<30} {figures(filters[name])}")
            else:
                print(f"  filter: {name:<30} (the page has no such filter)")


def bench_interrupt(rounds: int = 5) -> None:
    """``interrupt``: Ctrl-C to the end of the process (issue 26: goal <= 1 s), while 8 cases sleep
    towards 20 s and 4 CPU-bound cases run (the alias DAG state, about 2 s of CPU each): ``run``,
    pytest alone, pytest ``-n 2`` with SIGINT to the process group (a terminal's Ctrl-C) and to the
    xdist controller alone (``kill -INT``, an IDE's stop button). Min, median and max of ``rounds``,
    and the exit status (2 for pytest, 130 for ``run``)."""
    import signal
    import statistics

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests.test_bounds import alias_dag
    from tests.test_front_end_edges import sleeping_spec, spec_of

    bin_dir = os.path.dirname(sys.executable)
    with tempfile.TemporaryDirectory() as tmp:
        spec = str(sleeping_spec(Path(tmp), 8, 20_000))
        for number in range(2, 6):
            spec_of(Path(tmp), f"00{number}-busy.yaml", alias_dag(levels=4, width=20, nodes=20))
        # Each pytest's temporary root is its own (PYTEST_DEBUG_TEMPROOT below): at its end pytest
        # deletes the oldest numbered directories there, which in the machine's shared root may be
        # other suites' trees — seconds of its ending that are not ours to measure.
        pytest = [sys.executable, "-m", "pytest", f"--oa-spec-root={spec}", "-p", "no:cacheprovider", "-v", "--oa-timeout=600"]
        variants = {
            "run": ([f"{bin_dir}/oa-conformance", "run", spec, "--timeout", "600"], b"runtime: ", True),
            "pytest": (pytest, b".yaml::", True),
            "pytest -n 2": (pytest + ["-n", "2"], b".yaml::", True),
            "pytest -n 2, controller only": (pytest + ["-n", "2"], b".yaml::", False),
        }
        print(f"interrupt: Ctrl-C to the end, {rounds} rounds, load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (goal <= 1 s)")
        for name, (argv, started_when, whole_group) in variants.items():
            endings, statuses = [], set()
            for _ in range(rounds):
                process = subprocess.Popen(argv, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                                           env=dict(os.environ, PYTHONUNBUFFERED="1", PYTEST_DEBUG_TEMPROOT=tmp),
                                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
                seen = b""
                while started_when not in seen:
                    chunk = process.stdout.read1(4096)
                    if not chunk:
                        break
                    seen += chunk
                time.sleep(1.0)  # the cases are under way
                interrupted = time.perf_counter()
                if whole_group:
                    os.killpg(process.pid, signal.SIGINT)
                else:
                    os.kill(process.pid, signal.SIGINT)
                process.communicate(timeout=120)
                endings.append(time.perf_counter() - interrupted)
                statuses.add(process.returncode)
            print(f"  {name:<30} {min(endings):5.2f} / {statistics.median(endings):5.2f} / {max(endings):5.2f} s"
                  f"  exit {', '.join(map(str, sorted(statuses)))}"
                  f"  (median {'<=' if statistics.median(endings) <= 1 else '>'} 1 s)")


BENCHMARKS = {"parse": bench_parse, "interrupt": bench_interrupt, "goals": bench_goals, "lint": bench_lint, "run": bench_run, "corpus": bench_corpus, "assert": bench_assert, "bounds": bench_bounds,
              "report": bench_report, "report-scale": bench_report_scale}


def main(argv: list[str]) -> int:
    names = argv or list(BENCHMARKS)
    for name in names:
        if name not in BENCHMARKS:
            print(f"bench: unknown benchmark {name!r} (known: {', '.join(BENCHMARKS)})", file=sys.stderr)
            return 2
        BENCHMARKS[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
