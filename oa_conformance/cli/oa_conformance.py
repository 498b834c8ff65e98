"""``oa-conformance``: the adapter's command line.

    oa-conformance run [SPEC_ROOT...] [--capability NAME] [-k EXPR] [--json FILE] [--expectations FILE]
                                          run every case against openarmature; summary table + JSON report
    oa-conformance check [SPEC_ROOT...]   read every fixture (load, schema, version) and report problems

Exit status: 0 when nothing failed or errored (an expected failure listed in the expectations file is
``xfail``; a listed case that passes is ``xpass`` and fails the run), 1 otherwise, 2 on a usage error
or a malformed expectations file.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time

from ..discovery import DiscoveryError, discover
from ..interpreter import read_fixture


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="oa-conformance", description="OpenArmature conformance adapter.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run every case against the openarmature runtime")
    run.add_argument("roots", nargs="*", default=["spec"], metavar="SPEC_ROOT", help="spec repository, spec/ folder, conformance/ folder or file (default: spec)")
    run.add_argument("--capability", action="append", help="only this capability (repeatable)")
    run.add_argument("-k", dest="keyword", metavar="EXPR", help="only cases whose id matches (pytest-style: words, and, or, not, parentheses)")
    run.add_argument("--json", dest="json_path", metavar="FILE", help="write the JSON report here")
    run.add_argument("--expectations", metavar="FILE", help="known deviations (TOML): listed failures are xfail, listed passes xpass (strict)")
    run.add_argument("--workers", type=int, default=16, help="cases run side by side (default 16; each has its own event loop)")
    run.add_argument("--timeout", type=float, default=60.0, help="per-case time limit in seconds (default 60)")
    check = commands.add_parser("check", help="load and statically check fixtures (no runtime)")
    check.add_argument("roots", nargs="*", default=["spec"], metavar="SPEC_ROOT", help="spec repository, spec/ folder, conformance/ folder or file (default: spec)")
    check.add_argument("--capability", action="append", help="only this capability (repeatable)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        fixtures = discover(args.roots, args.capability)
    except DiscoveryError as exc:
        print(f"oa-conformance: {exc}", file=sys.stderr)
        return 2
    if not fixtures:
        print(f"oa-conformance: no fixtures under {' '.join(args.roots)}", file=sys.stderr)
        return 2
    if args.command == "check":
        return _check(fixtures)
    return _run(fixtures, args)


def _run(fixtures, args) -> int:
    from ..expectations import NO_EXPECTATIONS, ExpectationsError, load_expectations
    from ..grammar import GrammarError, parse_keyword_expression
    from ..report import json_report, summary_table
    from ..runner import cases_of, run_all

    expectations = NO_EXPECTATIONS
    if args.expectations:
        try:
            expectations = load_expectations(args.expectations)
        except ExpectationsError as exc:
            print(f"oa-conformance: {exc}", file=sys.stderr)
            return 2

    selected = None
    if args.keyword:
        try:
            selected = parse_keyword_expression(args.keyword)
        except GrammarError as exc:
            print(f"oa-conformance: -k: {exc.message}", file=sys.stderr)
            return 2
    cases = [case for fixture in fixtures for case in cases_of(fixture) if selected is None or selected(case.id)]
    if not cases:
        print("oa-conformance: no case matches", file=sys.stderr)
        return 2
    started = time.perf_counter()
    results = list(run_all(cases, workers=args.workers, timeout=args.timeout, expectations=expectations))
    elapsed = time.perf_counter() - started
    unmatched = expectations.unmatched((case.id for case in cases), {f.capability for f in fixtures})
    print(summary_table(results, unmatched))
    print(f"\n{len(results)} cases in {elapsed:.1f} s")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as handle:
            json.dump(json_report(results, unmatched), handle, indent=2)
            handle.write("\n")
    return 1 if any(r.fails_run for r in results) else 0


def _check(fixtures) -> int:
    per_capability: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for ref in fixtures:
        result = read_fixture(ref.path, capability=ref.capability)
        for problem in result.diagnostics:
            print(problem)
        per_capability[ref.capability or "-"]["clean" if result.ok else "problems"] += 1
    width = max(len(c) for c in per_capability)
    print(f"\n{'capability':<{width}}  clean  problems")
    for capability, counts in sorted(per_capability.items()):
        print(f"{capability:<{width}}  {counts['clean']:>5}  {counts['problems']:>8}")
    failed = sum(c["problems"] for c in per_capability.values())
    print(f"{len(fixtures) - failed} clean, {failed} with problems")
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
