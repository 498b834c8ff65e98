"""Runtime faults: which small runtime bugs does no case detect?

    ./dev faults [ROOT...] [--faults FILE] [--only ID] [--expectations FILE] [--jobs N]

Each fault in ``tools/runtime-faults.toml`` is a one-line patch to a *copy* of the installed
``openarmature`` package, with the spec clause (a MUST) it breaks::

    [[fault]]
    id = "ge-append-reducer-prepends"
    file = "graph/reducers.py"          # relative to the openarmature package
    old = "return current + update"     # must occur exactly once in that file
    new = "return update + current"
    clause = "graph-engine §3 append: concatenates update after current"
    statement = "graph-engine:2:9b0d3d54"   # optional: the one statement it breaks exactly
    caught_by = ["graph-engine/905-example-reducers[append_order]"]   # optional: cases (bundled or of
                                        # the target corpus) that must detect it (tests/test_runtime_faults.py)

The file is read by ``oa_conformance.frontends.coverage.faults`` (``oa-conformance coverage`` reads it too).

For each fault the corpus runs in a fresh process whose ``PYTHONPATH`` puts the patched copy ahead
of the installed runtime. A fault is *detected* by a case whose verdict is worse than on the intact
runtime (passed, xfail or skipped → failed, error, not implemented or xpass). The report lists
each fault with the cases that detect it; exit 1 when any fault goes undetected.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from oa_conformance.frontends.cli.report_diff import ReportedCase
from oa_conformance.verdicts.outcomes import BAD, GOOD
from oa_conformance.frontends.coverage.faults import FaultEntry, FaultsError, read_faults

FAULTS = Path(__file__).with_name("runtime-faults.toml")


class FaultError(Exception):
    """A fault that cannot be applied (its file or its text is not in this runtime build), or a
    malformed faults file."""


# One fault as the faults file gives it (the reader the coverage map uses too).
Fault = FaultEntry


def load_faults(path: Path = FAULTS) -> list[Fault]:
    try:
        return read_faults(str(path))
    except FaultsError as exc:
        raise FaultError(str(exc)) from None


def fault(fault_id: str, path: Path = FAULTS) -> Fault:
    return next(f for f in load_faults(path) if f.id == fault_id)


def runtime_package() -> Path:
    """The installed openarmature package directory (the one this interpreter imports)."""
    spec = importlib.util.find_spec("openarmature")
    if spec is None or not spec.submodule_search_locations:
        raise FaultError("openarmature is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def patched_runtime(fault: Fault, workdir: Path) -> Path:
    """A copy of the runtime with ``fault`` applied; returns the directory to put on PYTHONPATH."""
    root = workdir / fault.id
    target = root / "openarmature"
    shutil.copytree(runtime_package(), target, ignore=shutil.ignore_patterns("__pycache__"))
    source = target / fault.file
    if not source.is_file():
        raise FaultError(f"fault {fault.id!r}: no file {fault.file!r} in this runtime build")
    text = source.read_text(encoding="utf-8")
    count = text.count(fault.old)
    if count != 1:
        raise FaultError(f"fault {fault.id!r}: {fault.old!r} occurs {count} times in {fault.file} (must be once)")
    source.write_text(text.replace(fault.old, fault.new), encoding="utf-8")
    return root


def run_corpus(roots: list[str], pythonpath: Path | None, args: list[str] = ()) -> dict[str, str]:
    """``{case id: outcome}`` of one ``oa-conformance run`` in a fresh process (with the patched
    runtime first on the path, when given)."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(pythonpath), env.get("PYTHONPATH"))))
    with tempfile.TemporaryDirectory(prefix="oa-fault-") as scratch:
        report = Path(scratch) / "report.json"
        command = [sys.executable, "-m", "oa_conformance.frontends.cli.oa_conformance", "run", *roots, "-q",
                   "--json", str(report), *args]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        if not report.exists():
            raise FaultError(f"the run did not finish (exit {done.returncode}): {done.stderr.strip()[-400:]}")
        data = json.loads(report.read_text(encoding="utf-8"))
    imported = data["host"]["installed"]["path"]
    if pythonpath is not None and not str(imported).startswith(str(pythonpath.resolve())):
        raise FaultError(f"the run imported the runtime from {imported}, not the patched copy {pythonpath}")
    return {entry.id: entry.verdict for entry in map(ReportedCase.of, data["cases"])}


def detections(baseline: dict[str, str], faulty: dict[str, str]) -> list[str]:
    """The cases whose verdict got worse under the fault (as ``oa-conformance diff`` counts worse)."""
    return sorted(case for case, outcome in faulty.items() if baseline.get(case) in GOOD and outcome in BAD)


def outcomes_under(fault: Fault, roots: list[str], args: list[str] = ()) -> dict[str, str]:
    """``{case id: outcome}`` of ``roots`` run against a copy of the runtime with ``fault`` applied."""
    with tempfile.TemporaryDirectory(prefix="oa-faults-") as workdir:
        return run_corpus(roots, patched_runtime(fault, Path(workdir)), args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev faults", description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*", default=["spec"], metavar="ROOT")
    parser.add_argument("--faults", type=Path, default=FAULTS)
    parser.add_argument("--only", action="append", metavar="ID", help="only this fault (repeatable)")
    parser.add_argument("--expectations", action="append", default=[], metavar="FILE")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    try:
        faults = [f for f in load_faults(args.faults) if not args.only or f.id in args.only]
    except FaultError as exc:
        print(f"faults: {exc}", file=sys.stderr)
        return 2
    run_args = [arg for path in args.expectations for arg in ("--expectations", path)]
    baseline = run_corpus(args.roots, None, run_args)
    def one(fault: Fault) -> tuple[Fault, list[str] | str]:
        try:
            return fault, detections(baseline, outcomes_under(fault, args.roots, run_args))
        except FaultError as exc:
            return fault, str(exc)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, faults))
    undetected = 0
    for fault, found in results:
        if isinstance(found, str):
            undetected += 1
            print(f"ERROR       {fault.id}: {found}")
        elif found:
            more = f" (+{len(found) - 3} more)" if len(found) > 3 else ""
            print(f"detected    {fault.id}: {len(found)} case(s): {', '.join(found[:3])}{more}")
        else:
            undetected += 1
            print(f"UNDETECTED  {fault.id}: {fault.clause}")
    print(f"\n{len(results) - undetected} of {len(results)} faults detected by {' '.join(args.roots)}")
    return 1 if undetected else 0


if __name__ == "__main__":
    sys.exit(main())
