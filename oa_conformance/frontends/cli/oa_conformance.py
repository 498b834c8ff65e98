"""``oa-conformance``: the adapter's command line.

    oa-conformance run [SPEC_ROOT...] [--capability NAME] [-k EXPR] [--json FILE] [--expectations FILE]
                                          run every case against openarmature; summary table + JSON report
    oa-conformance check [SPEC_ROOT...]   read every fixture (load, schema, version) and report problems
    oa-conformance diff OLD.json NEW.json the cases whose verdict changed between two --json reports
    oa-conformance report RUN.json... -o report.html
                                          the runs side by side as one self-contained HTML page
    oa-conformance coverage ROOT... --prose SPEC_CHECKOUT [--results RUN.json ...] [--json FILE] [--html FILE]
                                          the spec's normative statements the fixtures cite and verify
    oa-conformance expectations update --from RUN.json FILE [--runtime-range SPEC] [--write]
                                          bring an expectations file in line with runs (dry run: a diff)

`run` first names the build that runs and the source of truth for its skips (the runtime's
conformance.toml, wherever it is, ``--runtime-manifest FILE``, or a probe of its API: host/manifest.py);
``-q`` leaves that out, never a warning that a needed proposal's status is undetermined. Cases run
in ``--processes`` worker processes (default: one per core; scheduling/processes.py), each running its share
side by side on ``--workers`` threads, plus one for the cases that declare waits; ``--processes 1``
runs them all in this process.

Exit status: 0 when nothing failed or errored (an expected failure listed in the expectations file is
``xfail``; a listed case that passes is ``xpass`` and fails the run), 1 otherwise (a case that is
``not implemented`` by the adapter fails too), 2 on a usage error (bad option value, unwritable
``--json`` path, unknown capability) or a malformed expectations file, 130 when interrupted (Ctrl-C:
the cases that finished are summarised), 141 when the output's reader went away (``| head -1``:
the run is abandoned quietly; frontends/cli/pipes.py), 2 with one line when the output cannot be
written (``> /dev/full``; every command alike). `diff`: 1 when a verdict got worse, 0 otherwise, 2 when a
report cannot be read (frontends/cli/report_diff.py). `report`: 0 when the page is written, 2 when a report
cannot be read or the page cannot be written (frontends/cli/report_command.py). `coverage`: 0 when the map was
built, 2 when it cannot be (frontends/cli/coverage_command.py). `expectations update`: 0 (dry run or written), 2 with
one line for a bad report, file or range (frontends/cli/expectations_update.py).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import json
import os
import sys
import time

from ...model.discovery import CAPABILITIES, DiscoveryError, capability_unknown, find
from ..options import capability_hint, cores_capped, positive_count, positive_seconds
from ...model.version import version_text
from .files import unwritable_because, why_not_written, write_whole
from .coverage_command import add_parser as add_coverage_parser
from .pipes import OUTPUT_CLOSED, closed_pipe_tolerated, output_closed, stopped_when_output_closes, unwritten

# One progress character per finished case (pytest's letters), in completion order.
INTERRUPTED = 130  # the shell's code for a process stopped by SIGINT
CLOSED = "abandoned: the output was closed"
DEFAULT_ROOT = "spec"  # run and check with no root: the bundled fixtures of a checkout


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="oa-conformance", description="OpenArmature conformance adapter.",
                                     epilog="Exit status: each command's --help says its own; 2 on a usage error.")
    parser.add_argument("--version", action="version", version=version_text("oa-conformance"))
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run every case against the openarmature runtime")
    run.add_argument("roots", nargs="*", metavar="SPEC_ROOT", help="spec repository, spec/ folder, conformance/ folder or file (default: spec)")
    run.add_argument("--capability", action="append", help="only this capability (repeatable)")
    run.add_argument("-k", dest="keyword", metavar="EXPR", help="only cases whose id matches (pytest-style: words, and, or, not, parentheses)")
    run.add_argument("--json", dest="json_path", metavar="FILE",
                     help="write the JSON report here (-: standard output, and the rest of the output to standard error)")
    run.add_argument("--expectations", metavar="FILE", action="append",
                     help="known deviations (TOML): listed failures are xfail, listed passes xpass (strict); "
                          "repeatable: a later file's entry replaces an earlier one for the same id")
    run.add_argument("--strict-expectations", action="store_true",
                     help='an untriaged expectations entry (kind = "untriaged") excuses no failure: its case fails the run')
    run.add_argument("--label", metavar="NAME", help="a name for this run, kept in the JSON report: the report page's column heading")
    run.add_argument("--junitxml", metavar="FILE",
                     help="write a JUnit XML report here (the case ids the pytest plugin uses; -: standard output, as --json -)")
    run.add_argument("--workers", type=positive_count, default=16, help="cases run side by side (default 16; each has its own event loop)")
    run.add_argument("--processes", type=positive_count, metavar="N",
                     help="worker processes, each running its share of the cases side by side (default: one per core; 1: all in this "
                          "process); the cases that declare waits (sleeps, delays) get one more, to wait in")
    run.add_argument("--durations", metavar="FILE",
                     help="a previous --json report: its case durations decide which cases start first (longest first) with --processes > 1")
    run.add_argument("--timeout", type=positive_seconds, default=60.0, help="per-case time limit in seconds (default 60)")
    run.add_argument("-x", "--exitfirst", dest="maxfail", action="store_const", const=1, help="stop after the first failing case")
    run.add_argument("--maxfail", type=positive_count, metavar="N", help="stop after N failing cases")
    run.add_argument("-q", "--quiet", action="store_true", help="no run header, no progress characters while cases run, no skipped or expected-failure detail in the summary")
    run.add_argument("--runtime-manifest", metavar="FILE",
                     help="the runtime's conformance.toml to decide its skips by (default: the one the build ships, else probing its API)")
    check = commands.add_parser("check", help="load and statically check fixtures (no runtime)")
    check.add_argument("roots", nargs="*", metavar="SPEC_ROOT", help="spec repository, spec/ folder, conformance/ folder or file (default: spec)")
    check.add_argument("--capability", action="append", help="only this capability (repeatable)")
    diff = commands.add_parser("diff", help="the cases whose verdict changed between two JSON reports of run")
    diff.add_argument("old", metavar="OLD.json", help="the earlier report (run --json)")
    diff.add_argument("new", metavar="NEW.json", help="the later report")
    diff.add_argument("--same", action="store_true", help="exit 1 when any verdict differs (not only a worse one)")
    page = commands.add_parser("report", help="the runs of one or more JSON reports side by side, as one self-contained HTML page")
    page.add_argument("runs", nargs="+", metavar="RUN.json[=LABEL]",
                      help="reports of run --json, one column each, in this order (the first is the baseline until the page picks another); "
                           "=LABEL names the column (else the run's --label, else its build and what sets it apart)")
    page.add_argument("--coverage", metavar="MAP.json",
                      help="a coverage --json map: each case links to the statements it proves, checks and cites on the coverage page")
    page.add_argument("--coverage-page", metavar="URL",
                      help="where that map's --html page is, from the report page's folder (default: MAP.json's name with .html)")
    page.add_argument("-o", "--output", required=True, metavar="FILE", help="the page to write (replaced whole, never partly written; - for standard output)")
    add_coverage_parser(commands)
    expectations = commands.add_parser("expectations", help="maintain an expectations file")
    tasks = expectations.add_subparsers(dest="task", required=True)
    update = tasks.add_parser("update", help="bring an expectations file in line with runs' JSON reports (dry run: print the diff)")
    update.add_argument("--from", dest="runs", metavar="RUN.json", action="append", required=True,
                        help="a run --json report (repeatable: runs that disagree on a case make its entry intermittent)")
    update.add_argument("file", metavar="FILE", help="the expectations file (created when missing)")
    update.add_argument("--runtime-range", metavar="SPEC", help='scope new entries to these builds (PEP 440, e.g. "<0.17")')
    update.add_argument("--write", action="store_true", help="write the file (atomically) instead of printing the diff")
    for command in [*commands.choices.values(), update]:  # every command takes --version, as the tool does
        command.add_argument("--version", action="version", version=version_text("oa-conformance"))
    for name, command in [*commands.choices.items(), ("expectations", update)]:
        command.epilog = EXIT_STATUS[name]  # as oa-ast and oa-lint say theirs
    return parser


# Each command's exit status, as its --help ends (the module docstring says the same at length).
EXIT_STATUS = {
    "run": "Exit status: 0 nothing failed or errored, 1 a case failed, errored or is an xpass, 2 usage error, "
           "130 interrupted, 141 the output's reader went away.",
    "check": "Exit status: 0 clean, 1 problems found, 2 usage error.",
    "diff": "Exit status: 0 no verdict got worse, 1 one did (--same: any differs), 2 a report cannot be read.",
    "report": "Exit status: 0 the page is written, 2 a report cannot be read or the page cannot be written.",
    "coverage": "Exit status: 0 the map was built (problems or not), 2 it cannot be.",
    "expectations": "Exit status: 0 dry run or written, 2 a bad report, file or range.",
}


def main(argv: list[str] | None = None) -> int:
    try:
        with closed_pipe_tolerated() as output:
            code = _main(argv)
    except KeyboardInterrupt:  # Ctrl-C before any case ran (reading fixtures, importing the runtime)
        if output_closed():  # or after the run was abandoned for a closed output: quietly
            return OUTPUT_CLOSED
        print("oa-conformance: interrupted", file=sys.stderr)
        return INTERRUPTED
    return unwritten("oa-conformance", output) or code


def _main(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    if "-" in (getattr(args, "json_path", None), getattr(args, "junitxml", None)):
        # the report is standard output: everything else goes to stderr
        args.report_stream = sys.stdout
        with contextlib.redirect_stdout(sys.stderr):
            return _command(args)
    return _command(args)


def _command(args: argparse.Namespace) -> int:
    if getattr(args, "processes", None):
        args.processes = cores_capped("oa-conformance", args.processes)
    if args.command == "diff":
        from .report_diff import diff

        return diff(args.old, args.new, same=args.same)
    if args.command == "report":
        from .report_command import report

        return report(args.runs, args.output, coverage=args.coverage, coverage_page=args.coverage_page)
    if args.command == "coverage":
        from .coverage_command import coverage

        return coverage(args)
    if args.command == "expectations":
        from .expectations_update import update_command

        return update_command(args.runs, args.file, args.runtime_range, args.write)
    if args.command == "run" and _processes(args) > 1 and args.keyword is None:
        # Everything runs: the worker processes' imports (about 1 s, the longest step before a
        # worker's first case) start now, beside this process's own imports and reading.
        _start_workers_imports()
    from ...interpreter.static.yaml_compose import limits_problem  # the reading stack: imported after the workers' start

    limit = limits_problem()
    if limit:
        print(f"oa-conformance: {limit}", file=sys.stderr)
        return 2
    if not args.roots:  # the default: the fixtures bundled in a checkout, which an installed copy lacks
        if not os.path.isdir(DEFAULT_ROOT):
            print(f"oa-conformance {args.command}: no SPEC_ROOT given, and no {DEFAULT_ROOT}/ here (the default: the fixtures "
                  "bundled in a checkout of oa-conformance): give a spec repository, its spec/ folder, a conformance/ "
                  "folder or a fixture", file=sys.stderr)
            return 2
        args.roots = [DEFAULT_ROOT]
    for option, path in (("--json", getattr(args, "json_path", None)), ("--junitxml", getattr(args, "junitxml", None))):
        problem = unwritable_because(path)
        if problem:
            print(f"oa-conformance: {option} {path}: {problem}", file=sys.stderr)
            return 2
    if _one_path(getattr(args, "json_path", None), getattr(args, "junitxml", None)):
        print(f"oa-conformance: --junitxml {args.junitxml}: the path --json writes: give each report a path of its own",
              file=sys.stderr)
        return 2
    try:
        everything, passed_over = find(args.roots, loose_capability=args.capability[0] if len(args.capability or ()) == 1 else None)
    except DiscoveryError as exc:
        print(f"oa-conformance: {exc}", file=sys.stderr)
        return 2
    known = set(CAPABILITIES) | {f.capability for f in everything if f.capability}
    for name in args.capability or ():
        if name not in known:
            print(f"oa-conformance: --capability {name}: no such capability ({capability_hint(name, known)})", file=sys.stderr)
            return 2
    fixtures = [f for f in everything if not args.capability or f.capability in args.capability]
    warnings = [item.warning for item in passed_over if not args.capability or item.capability in args.capability]
    for warning in warnings:  # a file that looks like a fixture and will not run is never passed over in silence
        print(warning)
    if not fixtures:
        print(f"oa-conformance: no fixtures under {' '.join(args.roots)}", file=sys.stderr)
        return 2
    if args.command == "check":
        return _check(fixtures, printed=len(warnings))
    loose = next((f for f in fixtures if f.capability is None), None)
    if loose is not None:  # the static passes read it against every vocabulary; a run needs its executors
        print(f"oa-conformance: {capability_unknown(loose.path)}", file=sys.stderr)
        return 2
    shared = shared_case_ids(fixtures, args.roots)
    if shared:
        print(f"oa-conformance: {shared}", file=sys.stderr)
        return 2
    return _run(fixtures, args)


def shared_case_ids(fixtures, roots: list[str]) -> str | None:
    """Why the run is refused when two fixtures of it have one case id (two corpora of one spec side
    by side), or None. A report keyed by id would hold both, and every reader of it (``diff``,
    ``report``, ``expectations update``, a CI's JUnit history) would keep one: the run is two runs."""
    first: dict[tuple[str | None, str], str] = {}
    for ref in fixtures:
        other = first.setdefault((ref.capability, ref.name), ref.path)
        if other != ref.path:
            case_id = f"{ref.capability}/{ref.name.removesuffix('.yaml')}"
            return (f"{_root_of(other, roots)} and {_root_of(ref.path, roots)} share case ids (e.g. {case_id}: {other} "
                    f"and {ref.path}): run each root on its own")
    return None


def _root_of(path: str, roots: list[str]) -> str:
    """The root given on the command line that ``path`` was found under."""
    absolute = os.path.abspath(path)
    for root in roots:
        top = os.path.abspath(root)
        if absolute == top or absolute.startswith(top.rstrip(os.sep) + os.sep):
            return root
    return path


def _one_path(first: str | None, second: str | None) -> bool:
    """Whether two report paths name one file (or both standard output): the second would replace the first."""
    if first is None or second is None:
        return False
    if "-" in (first, second):
        return first == second
    return os.path.realpath(first) == os.path.realpath(second)


class _Refused(Exception):
    """A usage problem found before or after the cases run: one line on stderr, status 2."""


def _run(fixtures, args) -> int:
    from ...pipeline import read_cases

    try:
        expectations, durations, selected = _run_settings(args)
    except _Refused as exc:
        print(f"oa-conformance: {exc}", file=sys.stderr)
        return 2
    read = read_cases(fixtures)
    cases = [case for case in read if selected is None or selected(case.id)]
    if not cases:
        print("oa-conformance: no case matches", file=sys.stderr)
        return 2
    started, started_at = time.perf_counter(), time.time()
    finished, stopped = _run_cases(cases, args, expectations, durations)
    elapsed = time.perf_counter() - started
    results = [finished[i] for i in sorted(finished)]
    # Judged against every case read (a -k selection deselects no entry), for the fixtures read and
    # the directories read in full (a fixture given as a file says nothing about its neighbours).
    whole = {f.capability for f in fixtures if f.path not in args.roots}
    unmatched = expectations.unmatched((case.id for case in read), whole) if stopped is None else ()
    from ..report import summary_table

    print(summary_table(results, unmatched, quiet=args.quiet))
    print(f"\n{len(results)} of {len(cases)} cases in {elapsed:.1f} s" + (f"; {stopped}" if stopped else ""))
    try:
        _write_reports(args, results, unmatched, started_at, elapsed)
    except _Refused as exc:
        print(f"oa-conformance: {exc}", file=sys.stderr)
        return 2
    if stopped and stopped.startswith("interrupted"):
        return INTERRUPTED
    if stopped == CLOSED:
        return OUTPUT_CLOSED
    return 1 if any(r.fails_run for r in results) else 0


def _run_settings(args):
    """What the run is judged by and which cases it runs, each option read (or refused) before any
    case starts: (expectations, durations, -k selection or None)."""
    from ...verdicts.expectations import NO_EXPECTATIONS, ExpectationsError, load_all
    from ...grammar import GrammarError, parse_keyword_expression
    from ...host.manifest import ManifestError, runtime_version, use_runtime_manifest

    try:
        use_runtime_manifest(args.runtime_manifest)
    except ManifestError as exc:
        given = "--runtime-manifest " if args.runtime_manifest else ""
        hint = "" if given else " (give --runtime-manifest FILE to judge the build by another)"
        raise _Refused(f"{given}{exc}{hint}") from None
    expectations = NO_EXPECTATIONS
    if args.expectations:
        try:
            expectations = load_all(args.expectations, runtime_version(), strict=args.strict_expectations)
        except ExpectationsError as exc:
            raise _Refused(str(exc)) from None
    durations = None
    if args.durations:
        durations = _durations(args.durations)
        if isinstance(durations, str):
            raise _Refused(f"--durations {durations}")
    selected = None
    if args.keyword:
        try:
            selected = parse_keyword_expression(args.keyword)
        except GrammarError as exc:
            raise _Refused(f"-k: {exc.message}") from None
    return expectations, durations, selected


def _run_cases(cases, args, expectations, durations) -> tuple[dict[int, object], str | None]:
    """Run the cases (in worker processes or here), printing progress: the results by case index,
    and why the run stopped early (None when every case finished)."""
    from ...host.manifest import header_lines, warning_lines
    from ..report import column
    from ...verdicts.outcomes import SYMBOLS
    from ...scheduling.runner import run_as_completed

    processes = _processes(args)
    in_processes = processes > 1 and len(cases) > 1
    if in_processes:
        _start_workers_imports()
    for line in ([] if args.quiet else header_lines()) + warning_lines():
        print(line)
    finished: dict[int, object] = {}
    failures, stopped = 0, None
    if in_processes:
        from ...scheduling.processes import run_in_processes

        stream = run_in_processes(cases, processes, workers=args.workers, timeout=args.timeout, expectations=expectations,
                                  runtime_manifest=args.runtime_manifest, durations=durations)
    else:
        stream = run_as_completed(cases, workers=args.workers, timeout=args.timeout, expectations=expectations)
    try:
        with stopped_when_output_closes():
            for index, result in stream:
                finished[index] = result
                _progress(SYMBOLS[column(result)], len(finished), args.quiet)
                failures += result.fails_run
                if args.maxfail and failures >= args.maxfail:
                    stopped = f"stopped after {failures} failing case{'s' if failures > 1 else ''} (--maxfail {args.maxfail})"
                    break
                if output_closed():  # `… | head -1` has exited: nobody reads the rest
                    stopped = CLOSED
                    break
    except KeyboardInterrupt:  # Ctrl-C, or the reader of the output gone
        stopped = CLOSED if output_closed() else "interrupted (Ctrl-C)"
    finally:
        stream.close()
    if not args.quiet and finished:
        print()
    return finished, stopped


def _write_reports(args, results, unmatched, started_at: float, elapsed: float) -> None:
    """The --json and --junitxml reports, each written whole (or refused in one line)."""
    from ..report import json_report, run_document

    if args.json_path:
        text = json.dumps(json_report(results, unmatched, run_document(started_at, args.roots, args.expectations or (), args.label)), indent=2) + "\n"
        if args.json_path == "-":
            args.report_stream.write(text)
        else:
            try:
                write_whole(args.json_path, text)
            except OSError as exc:  # a full disk, a file system that takes no new file: the old file stays
                raise _Refused(f"--json {args.json_path}: cannot write the report: {why_not_written(exc)}") from None
    if args.junitxml:
        from ..junit import junit_xml

        text = junit_xml(results, elapsed)
        if args.junitxml == "-":
            args.report_stream.write(text)
            return
        try:
            write_whole(args.junitxml, text)
        except OSError as exc:
            raise _Refused(f"--junitxml {args.junitxml}: cannot write the report: {why_not_written(exc)}") from None


def _start_workers_imports() -> None:
    from ...scheduling.forkserver import start_forkserver

    start_forkserver()


def default_processes() -> int:
    """``--processes`` when not given: one worker process per core."""
    return os.cpu_count() or 1


def _processes(args: argparse.Namespace) -> int:
    return args.processes or default_processes()


def _progress(symbol: str, count: int, quiet: bool) -> None:
    if quiet:
        return
    sys.stdout.write(symbol + ("\n" if count % 80 == 0 else ""))
    sys.stdout.flush()


def _durations(path: str) -> dict[str, float] | str:
    """Each case's duration in a previous ``--json`` report, or why it is not one (one line, saying
    where in the file)."""
    try:
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
    except OSError as exc:
        return f"{path}: cannot read: {why_not_written(exc)}"
    except ValueError as exc:
        where = f"{exc.lineno}:{exc.colno}: " if isinstance(exc, json.JSONDecodeError) else ""
        return f"{path}:{where}not JSON ({getattr(exc, 'msg', exc)})"
    cases = report.get("cases") if isinstance(report, dict) else None
    if not isinstance(cases, list):
        return f"{path}: not a --json report of run (no \"cases\" list)"
    durations = {}
    for index, case in enumerate(cases):
        try:
            durations[str(case["id"])] = float(case["duration_s"])
        except (KeyError, TypeError, ValueError) as exc:
            what = f"no {exc.args[0]!r}" if isinstance(exc, KeyError) else "a case that is not an id and a number duration_s"
            return f"{path}: not a --json report of run: cases[{index}] has {what}"
    return durations


def _check(fixtures, printed: int = 0) -> int:
    from ...pipeline import read_fixture

    per_capability: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for ref in fixtures:
        result = read_fixture(ref.path, capability=ref.capability)
        for problem in result.diagnostics:
            print(problem)
        printed += len(result.diagnostics)
        per_capability[ref.capability or "-"]["clean" if result.ok else "problems"] += 1
    width = max(len("capability"), *(len(c) for c in per_capability))
    if printed:
        print()  # the table apart from the findings above it
    print(f"{'capability':<{width}}  clean  problems")
    for capability, counts in sorted(per_capability.items()):
        print(f"{capability:<{width}}  {counts['clean']:>5}  {counts['problems']:>8}")
    failed = sum(c["problems"] for c in per_capability.values())
    print(f"{len(fixtures) - failed} clean, {failed} with problems")
    return 1 if failed else 0


def run() -> int:
    """The ``oa-conformance`` command (and ``python -m``): :func:`main`, after which the process ends.

    The heap is frozen (``gc.freeze()``) first, as ``oa-lint`` does: the interpreter's shutdown would
    otherwise run the cyclic collector over every fixture's tree and every result, only for the
    process to drop them — 0.4 to 0.8 s after a run of the target corpus on a loaded 2-core machine,
    0.03 s frozen. The forkserver of a run in worker processes is ended at once too (see
    ``forkserver.end_forkserver``). In-process callers use :func:`main`, which leaves both alone."""
    code = main()
    gc.freeze()
    if "multiprocessing.forkserver" in sys.modules:  # a run in worker processes started it
        from ...scheduling.forkserver import end_forkserver

        end_forkserver()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
