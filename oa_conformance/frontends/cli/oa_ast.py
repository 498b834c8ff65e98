"""``oa-ast``: read one fixture and dump its AST, or just check it.

    oa-ast FIXTURE.yaml                      quiet indented tree
    oa-ast FIXTURE.yaml --format json        JSON (reads back to an equal AST)
    oa-ast FIXTURE.yaml --format yaml        the fixture re-serialised from the AST
    oa-ast FIXTURE.yaml --show-spans         add @line:col to every node
    oa-ast - < FIXTURE.yaml                  read standard input
    oa-ast FIXTURE.yaml --stop-after schema  only check; print problems as path:line:col: category: message

Exit status: 0 clean, 1 problems found, 2 usage error.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys

from ...interpreter.static.yaml_compose import dump_fixture_yaml, limits_problem, read_capped
from ...ast.dump import dump_json, dump_text, unparse
from ...pipeline import read_fixture
from ..options import capability_name
from ...model.version import version_text  # not the oa-conformance command's module: its imports are not the linter's
from .pipes import StandardInputClosed, run_command, standard_input


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="oa-ast",
        description="Dump the AST of an OpenArmature conformance fixture, or check it.",
        epilog="Exit status: 0 clean, 1 problems found, 2 usage error.",
    )
    parser.add_argument("--version", action="version", version=version_text("oa-ast"))
    parser.add_argument("fixture", metavar="FILE|-", help="a fixture YAML file, or - for standard input")
    parser.add_argument("--format", choices=("text", "json", "yaml"), default="text", help="dump format (default: text)")
    parser.add_argument("--show-spans", action="store_true", help="show each node's line:column")
    parser.add_argument("--stop-after", choices=("load", "schema", "version"), help="run the checks up to this pass and print problems only")
    parser.add_argument("--capability", type=capability_name,
                        help="the capability whose §3.2 vocabulary applies (default: from the path; for - "
                             "or a file outside a <capability>/conformance/ folder, every capability's)")
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_command("oa-ast", _main, argv)


def _main(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    limit = limits_problem()
    if limit:
        print(f"oa-ast: {limit}", file=sys.stderr)
        return 2
    if args.fixture == "-":
        try:
            path, data = "<stdin>", read_capped(standard_input())
        except (StandardInputClosed, OSError) as exc:
            print(f"oa-ast: cannot read standard input: {exc.strerror if isinstance(exc, OSError) else exc}", file=sys.stderr)
            return 2
    else:
        # The loader reads the file itself: a FIFO, a directory or a link loop is a finding, never opened.
        path, data = args.fixture, None
        if not os.path.lexists(path):
            print(f"oa-ast: cannot read {path}: {os.strerror(errno.ENOENT)}", file=sys.stderr)
            return 2
        if os.path.isdir(path):  # a usage error: oa-ast reads one fixture (oa-lint and check take folders)
            print(f"oa-ast: {path}: a directory; give one fixture file (oa-lint or oa-conformance check read folders)", file=sys.stderr)
            return 2
    result = read_fixture(path, data, stop_after=args.stop_after or "version", capability=args.capability)
    for problem in result.diagnostics:
        print(problem, file=sys.stderr if args.stop_after is None else sys.stdout)
    if args.stop_after is not None or result.fixture is None:
        return 1 if result.diagnostics else 0
    if args.format == "json":
        sys.stdout.write(dump_json(result.fixture, spans=args.show_spans) + "\n")
    elif args.format == "yaml":
        sys.stdout.write(dump_fixture_yaml(unparse(result.fixture)))
    else:
        sys.stdout.write(dump_text(result.fixture, spans=args.show_spans))
    return 1 if result.diagnostics else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
