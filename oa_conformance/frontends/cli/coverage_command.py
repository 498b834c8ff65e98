"""``oa-conformance coverage``: the normative coverage map (oa_conformance/frontends/coverage/).

    oa-conformance coverage ROOT... --prose SPEC_CHECKOUT [--results RUN.json ...] [--accounting FILE]
                                    [--capability NAME] [--json FILE] [--html FILE]

The text map goes to standard output; every problem found on the way (a citation resolving to
nothing, an uncited fixture, a missing spec.md, a results file for another corpus, a stale
accounting entry) is one located line on standard error. Exit status: 0 when the map was built
(problems or not), 2 when it cannot be (no prose, no fixtures, an unreadable results or accounting
file, an output path that cannot be written, no page renderer).
"""

from __future__ import annotations

import json
import os
import sys

DEFAULT_ACCOUNTING = "spec-coverage.toml"


def add_parser(commands) -> None:
    coverage = commands.add_parser("coverage", help="the map of the spec's normative statements the fixtures cite and verify")
    coverage.add_argument("roots", nargs="+", metavar="ROOT", help="spec repository, spec/ folder, conformance/ folder or file")
    coverage.add_argument("--prose", required=True, metavar="SPEC_CHECKOUT", help="a spec checkout with spec/<capability>/spec.md")
    coverage.add_argument("--results", action="append", default=[], metavar="RUN.json",
                          help="a report of oa-conformance run --json: statements its passing cases cite are verified (repeatable)")
    coverage.add_argument("--accounting", metavar="FILE",
                          help=f"why statements no case can verify stay so (default: {DEFAULT_ACCOUNTING} here, when there is one)")
    coverage.add_argument("--capability", action="append", help="only this capability (repeatable)")
    coverage.add_argument("--json", dest="json_path", metavar="FILE", help="write the map as JSON here")
    coverage.add_argument("--html", dest="html_path", metavar="FILE", help="write the map as a self-contained HTML page here")


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
    from ..coverage.outcomes import ResultsError
    from ..coverage.text import render
    from ...model.discovery import DiscoveryError
    from ..pages import render_coverage_page
    from .files import unwritable_because, why_not_written, write_whole

    for option, path in (("--json", args.json_path), ("--html", args.html_path)):
        problem = unwritable_because(path)
        if problem:
            print(f"oa-conformance: {option} {path}: {problem}", file=sys.stderr)
            return 2
    accounting_path = args.accounting or (DEFAULT_ACCOUNTING if os.path.isfile(DEFAULT_ACCOUNTING) else None)
    try:
        unknown = _unknown_capability(args.roots, args.capability)
        if unknown:
            print(f"oa-conformance: {unknown}", file=sys.stderr)
            return 2
        accounting = load_accounting(accounting_path) if accounting_path else {}
        coverage_map = build_map(args.roots, args.prose, args.results, accounting, args.capability)
    except (AccountingError, ProseError, ResultsError, DiscoveryError) as exc:
        print(f"oa-conformance: {exc}", file=sys.stderr)
        return 2
    if coverage_map.fixtures == 0:
        print(f"oa-conformance: no fixtures under {' '.join(args.roots)}", file=sys.stderr)
        return 2
    data = coverage_map.document()
    html = render_coverage_page(data) if args.html_path else None
    for problem in coverage_map.problems:
        print(problem, file=sys.stderr)
    print(render(coverage_map))
    if accounting_path:
        print(f"accounting: {accounting_path} ({len(accounting)} entries)")
    for path, text in ((args.json_path, lambda: json.dumps(data, indent=2, ensure_ascii=False) + "\n"), (args.html_path, lambda: html)):
        if path:
            try:
                write_whole(path, text())
            except OSError as exc:
                print(f"oa-conformance: cannot write {path}: {why_not_written(exc)}", file=sys.stderr)
                return 2
    return 0
