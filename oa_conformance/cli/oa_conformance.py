"""``oa-conformance``: the adapter's command line.

    oa-conformance check [SPEC_ROOT...]   read every fixture (load, schema, version) and report problems

Exit status: 0 when nothing failed, 1 otherwise, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import collections
import sys

from ..discovery import DiscoveryError, discover
from ..interpreter import read_fixture


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="oa-conformance", description="OpenArmature conformance adapter.")
    commands = parser.add_subparsers(dest="command", required=True)
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
    return _check(fixtures)


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
