"""``oa-conformance coverage``: the normative coverage map (oa_conformance/frontends/coverage/, docs/COVERAGE.md).

    oa-conformance coverage ROOT... --prose SPEC_CHECKOUT [--results RUN.json ...] [--accounting FILE]
                                    [--faults FILE] [--evidence FILE] [--junit FILE]
                                    [--capability NAME] [--json FILE] [--html FILE] [-q]

The text map goes to standard output; every problem found on the way (a citation resolving to
nothing, an uncited fixture, a missing spec.md, a results file for another corpus, a stale
accounting entry, a fault naming no statement) is one located line on standard error (with
``-q``, the citations resolving to nothing are one summary line). Exit status: 0 when the map was
built (problems or not), 2 when it cannot be (no prose, no fixtures, an unreadable or malformed
results, accounting, faults, evidence or JUnit file, an output path that cannot be written, no
page renderer).
"""

from __future__ import annotations

import json
import os
import sys

DEFAULT_ACCOUNTING = "spec-coverage.toml"
DEFAULT_FAULTS = os.path.join("tools", "runtime-faults.toml")
DEFAULT_EVIDENCE = "adapter-evidence.toml"


def add_parser(commands) -> None:
    coverage = commands.add_parser("coverage", help="the map of the spec's normative statements the fixtures cite, check and prove")
    coverage.add_argument("roots", nargs="+", metavar="ROOT", help="spec repository, spec/ folder, conformance/ folder or file")
    coverage.add_argument("--prose", required=True, metavar="SPEC_CHECKOUT", help="a spec checkout with spec/<capability>/spec.md")
    coverage.add_argument("--results", action="append", default=[], metavar="RUN.json",
                          help="a report of oa-conformance run --json: which cases passed (repeatable)")
    coverage.add_argument("--accounting", metavar="FILE",
                          help=f"why statements no case can verify stay so (default: {DEFAULT_ACCOUNTING} here, when there is one)")
    coverage.add_argument("--faults", metavar="FILE",
                          help=f"runtime faults with the statement each breaks (default: {DEFAULT_FAULTS} here, when there is one)")
    coverage.add_argument("--evidence", metavar="FILE",
                          help=f"the adapter's own tests per statement binding it (default: {DEFAULT_EVIDENCE} here, when there is one)")
    coverage.add_argument("--junit", metavar="FILE", help="a JUnit XML of a pytest run: the evidence's tests that passed")
    coverage.add_argument("--capability", action="append", help="only this capability (repeatable)")
    coverage.add_argument("--json", dest="json_path", metavar="FILE", help="write the map as JSON here")
    coverage.add_argument("--html", dest="html_path", metavar="FILE", help="write the map as a self-contained HTML page here")
    coverage.add_argument("-q", "--quiet", action="store_true",
                          help="one summary line for the citations resolving to nothing instead of one line each")


def _default(given: str | None, default: str) -> str | None:
    return given or (default if os.path.isfile(default) else None)


def measured(args, accounting_path: str | None) -> dict:
    """What the map measured, as its JSON and its page say: the roots, the prose checkout, the
    ``--results`` files and the accounting file (absolute paths), the capabilities, and when (UTC)."""
    import datetime

    return {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "roots": [os.path.abspath(root) for root in args.roots], "prose": os.path.abspath(args.prose),
            "results": [os.path.abspath(path) for path in args.results],
            "accounting": os.path.abspath(accounting_path) if accounting_path else None,
            "capabilities": list(args.capability or [])}


def _unknown_capability(roots: list[str], names: list[str] | None) -> str | None:
    """A ``--capability`` neither the adapter nor the roots know, with the hint ``run`` gives."""
    from ...model.discovery import CAPABILITIES, find
    from ..options import capability_hint

    if not names or all(name in CAPABILITIES for name in names):
        return None
    known = set(CAPABILITIES) | {ref.capability for ref in find(roots).fixtures if ref.capability}
    name = next((name for name in names if name not in known), None)
    return f"--capability {name}: no such capability ({capability_hint(name, known)})" if name else None


def coverage(args) -> int:
    from ..coverage.accounting import AccountingError, load_accounting
    from ..coverage.coverage_map import ProseError, build_map
    from ..coverage.evidence import EvidenceError, load_evidence, read_junit
    from ..coverage.faults import FaultsError, read_faults
    from ..coverage.run_reports import ResultsError
    from ..coverage.text import render
    from ...model.discovery import DiscoveryError
    from ..pages import render_coverage_page
    from .files import unwritable_because, why_not_written, write_whole

    for option, path in (("--json", args.json_path), ("--html", args.html_path)):
        problem = unwritable_because(path)
        if problem:
            print(f"oa-conformance: {option} {path}: {problem}", file=sys.stderr)
            return 2
    accounting_path = _default(args.accounting, DEFAULT_ACCOUNTING)
    faults_path = _default(args.faults, DEFAULT_FAULTS)
    evidence_path = _default(args.evidence, DEFAULT_EVIDENCE)
    try:
        unknown = _unknown_capability(args.roots, args.capability)
        if unknown:
            print(f"oa-conformance: {unknown}", file=sys.stderr)
            return 2
        accounting = load_accounting(accounting_path) if accounting_path else {}
        faults = read_faults(faults_path) if faults_path else []
        evidence = load_evidence(evidence_path) if evidence_path else {}
        junit = read_junit(args.junit) if args.junit else None
        coverage_map = build_map(args.roots, args.prose, args.results, accounting, args.capability, faults, evidence, junit)
    except (AccountingError, FaultsError, EvidenceError, ProseError, ResultsError, DiscoveryError) as exc:
        print(f"oa-conformance: {exc}", file=sys.stderr)
        return 2
    if coverage_map.fixtures == 0:
        print(f"oa-conformance: no fixtures under {' '.join(args.roots)}", file=sys.stderr)
        return 2
    data = {"measured": measured(args, accounting_path), **coverage_map.document()}
    html = render_coverage_page(data) if args.html_path else None
    for problem in coverage_map.problems:
        print(problem, file=sys.stderr)
    if args.quiet and coverage_map.unresolved:
        print(f"{len(coverage_map.unresolved)} citation parts resolve to nothing (run without -q for each, located)", file=sys.stderr)
    elif not args.quiet:
        for line in coverage_map.unresolved:
            print(line, file=sys.stderr)
    print(render(coverage_map))
    used = [(name, path, count) for name, path, count in (("accounting", accounting_path, len(accounting)),
                                                          ("faults", faults_path, len(faults)),
                                                          ("evidence", evidence_path, len(evidence))) if path]
    for name, path, count in used:
        print(f"{name}: {path} ({count} entries)")
    for path, text in ((args.json_path, lambda: json.dumps(data, indent=2, ensure_ascii=False) + "\n"), (args.html_path, lambda: html)):
        if path:
            try:
                write_whole(path, text())
            except OSError as exc:
                print(f"oa-conformance: cannot write {path}: {why_not_written(exc)}", file=sys.stderr)
                return 2
    return 0
