"""Runtime coverage: which lines and branches of openarmature does no passing case reach?

    ./dev coverage [ROOT...] [--expectations FILE] [--bundled DIR] [--missing MODULE_PREFIX]

Runs the corpus once to learn which cases pass (seen through the expectations files), then runs
only the passing cases, one at a time, under coverage.py with branch coverage over the installed
``openarmature`` package — once for the upstream roots alone and once with the bundled fixtures
(``spec/``) added — and prints per module the statements and branches reached, side by side, with
the totals. ``--missing PREFIX`` lists the uncovered branches (``line->line``) of the modules under
that prefix (e.g. ``graph/``). Executed is not checked: ``./dev faults`` tells which bugs go unseen.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from oa_conformance.model.discovery import FixtureRef, discover
from oa_conformance.verdicts.expectations import load_all
from oa_conformance.pipeline import cases_of, run_case
from oa_conformance.verdicts.outcomes import Outcome
from oa_conformance.scheduling.runner import run_all
from oa_conformance.host.manifest import runtime_package, runtime_version


def passing_cases(roots: list[str], expectations: list[str]) -> list:
    refs = [case for fixture in discover(roots) for case in cases_of(fixture)]
    known = load_all(expectations, runtime_version())
    return [result.ref for result in run_all(refs, expectations=known) if result.outcome == Outcome.PASSED]


def measure(cases: list, package: str) -> dict:
    """coverage.py's JSON report (``files``: per-file summary and missing branches) of running
    ``cases`` one at a time, in a fresh process that starts coverage before openarmature is
    imported (module-level lines run at import count, as in any coverage run)."""
    with tempfile.TemporaryDirectory(prefix="oa-coverage-") as scratch:
        ids, out = Path(scratch) / "cases.json", Path(scratch) / "coverage.json"
        ids.write_text(json.dumps([[case.fixture.path, case.fixture.capability, case.fixture.name, case.id] for case in cases]))
        subprocess.run([sys.executable, "-m", "tools.runtime_coverage", "--measure", str(ids), str(out), package],
                       check=True, cwd=Path(__file__).resolve().parent.parent)
        return json.loads(out.read_text(encoding="utf-8"))


def _measure_here(ids: Path, out: Path, package: str) -> None:
    """The child of :func:`measure`: coverage first, then the cases."""
    import coverage

    cov = coverage.Coverage(branch=True, source=[package], data_file=None)
    cov.start()
    try:
        wanted = json.loads(ids.read_text(encoding="utf-8"))
        by_fixture: dict[tuple, set] = {}
        for path, capability, name, case_id in wanted:
            by_fixture.setdefault((path, capability, name), set()).add(case_id)
        for (path, capability, name), case_ids in by_fixture.items():
            for case in cases_of(FixtureRef(path, capability, name)):
                if case.id in case_ids:
                    run_case(case)
    finally:
        cov.stop()
    cov.json_report(outfile=str(out))


def _summary(report: dict, package: str) -> dict[str, tuple[int, int, int, int]]:
    """``{module: (statements, covered, branches, covered branches)}`` keyed relative to the package."""
    found = {}
    for path, data in report["files"].items():
        s = data["summary"]
        module = os.path.relpath(os.path.realpath(path), os.path.realpath(package))
        found[module] = (s["num_statements"], s["covered_lines"], s["num_branches"], s["covered_branches"])
    return found


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    - "


def print_table(columns: dict[str, dict[str, tuple[int, int, int, int]]]) -> None:
    names = list(columns)
    modules = sorted(set().union(*columns.values()))
    header = f"{'module':44}" + "".join(f"  {name + ' lines':>18} {name + ' branches':>20}" for name in names)
    print(header)
    totals = {name: [0, 0, 0, 0] for name in names}
    for module in modules:
        row = f"{module:44}"
        for name in names:
            stmts, covered, branches, covered_branches = columns[name].get(module, (0, 0, 0, 0))
            row += f"  {_percent(covered, stmts):>18} {_percent(covered_branches, branches):>20}"
            totals[name] = [a + b for a, b in zip(totals[name], (stmts, covered, branches, covered_branches))]
        print(row)
    row = f"{'total':44}"
    for name in names:
        stmts, covered, branches, covered_branches = totals[name]
        row += (f"  {_percent(covered, stmts) + f' {covered}/{stmts}':>18}"
                f" {_percent(covered_branches, branches) + f' {covered_branches}/{branches}':>20}")
    print(row)


def print_missing(report: dict, package: str, prefix: str) -> None:
    for path, data in sorted(report["files"].items()):
        module = os.path.relpath(os.path.realpath(path), os.path.realpath(package))
        if module.startswith(prefix) and data.get("missing_branches"):
            arcs = ", ".join(f"{a}->{b if b > 0 else 'exit'}" for a, b in data["missing_branches"])
            print(f"{module}: {arcs}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev coverage", description=__doc__.split("\n\n")[0])
    parser.add_argument("roots", nargs="*", metavar="ROOT", help="upstream spec roots (default: $OA_TARGET_SPEC)")
    parser.add_argument("--expectations", action="append", default=[], metavar="FILE")
    parser.add_argument("--bundled", default="spec", metavar="DIR", help="the bundled fixtures (default: spec)")
    parser.add_argument("--missing", metavar="PREFIX", action="append", default=[],
                        help="list the uncovered branches of modules under PREFIX (repeatable)")
    parser.add_argument("--measure", nargs=3, metavar=("CASES", "OUT", "PACKAGE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        _measure_here(Path(args.measure[0]), Path(args.measure[1]), args.measure[2])
        return 0
    roots = args.roots or [os.environ.get("OA_TARGET_SPEC", "")]
    if not all(roots) or not all(Path(root).exists() for root in roots):
        print("coverage: give the upstream spec roots (or set OA_TARGET_SPEC)", file=sys.stderr)
        return 2
    package = runtime_package()
    if package is None:
        print("coverage: openarmature is not installed", file=sys.stderr)
        return 2
    upstream = passing_cases(roots, args.expectations)
    bundled = passing_cases([args.bundled], args.expectations)
    print(f"openarmature {runtime_version()} at {package}: {len(upstream)} passing upstream cases, "
          f"{len(bundled)} passing bundled cases\n")
    alone = measure(upstream, package)
    both = measure(upstream + bundled, package)
    print_table({"upstream": _summary(alone, package), "+bundled": _summary(both, package)})
    for prefix in args.missing:
        print(f"\nuncovered branches (upstream + bundled) under {prefix!r}:")
        print_missing(both, package, prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
