"""``oa-lint``: lint conformance fixtures statically (no runtime).

    oa-lint PATH...                          spec repositories, spec/ or conformance/ folders, fixture files
    oa-lint - [--capability NAME]            one fixture read from standard input (reported as <stdin>)
    oa-lint PATH --format json|github|sarif  machine-readable output (text is the default; github
                                             under GitHub Actions)
    oa-lint PATH --select G,S --ignore S002  only some rules, by code prefix (the longer prefix wins)
    oa-lint PATH --exit-zero                 report, but exit 0 when there are findings
    oa-lint PATH --processes N               lint side by side in N processes (default: one per core)
    oa-lint PATH --prose SPEC_CHECKOUT       resolve sidecar citations against this spec's prose (L005;
                                             default: the checkout the fixtures are in, when it has it)
    oa-lint --list-rules                     every rule: code, severity, name, summary
    oa-lint --explain G003                   one rule's documentation
    oa-lint --list-predicates                the predicate catalogue as Markdown (docs/PREDICATES.md)

Exit status: 0 clean (or info findings only), 1 findings, 2 usage error or internal error.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

from typing import TYPE_CHECKING

from ...model.heap import collector_paused
from ..options import capability_name, cores_capped, positive_count
from ...model.version import version_text  # not the oa-conformance command's module: its imports are not the linter's
from .pipes import INTERRUPTED, run_command

if TYPE_CHECKING:
    from ..lint import Selection
    from ..lint.engine import LintResult

# The linter itself (the YAML loader, vocabulary, grammar, rules, predicate catalogue) is imported
# where it is used, not here: :func:`run` imports it with the cyclic collector paused and freezes
# what it built (see there), which it can only do if importing this module has not already.


def build_parser() -> argparse.ArgumentParser:
    from ..lint.engine import MIN_SHARE
    from ..lint.formatters import FORMATS

    parser = argparse.ArgumentParser(
        prog="oa-lint",
        description="Statically lint OpenArmature conformance fixtures: the adapter's load, schema and version checks, then lint rules.",
        epilog="Exit status: 0 clean (or info findings only), 1 findings, 2 usage error or internal error.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="a spec repository, its spec/ folder, a conformance/ folder or fixture files")
    parser.add_argument("--version", action="version", version=version_text("oa-lint"))
    parser.add_argument("--capability", type=capability_name,
                        help="the capability whose vocabulary applies to a fixture read from standard input or given "
                             "outside a <capability>/conformance/ folder (default: every capability's)")
    parser.add_argument("--format", choices=tuple(FORMATS), help="output format (default: text; github when GITHUB_ACTIONS is set)")
    parser.add_argument("--select", action="append", default=[], metavar="CODES", help="only these rules: comma-separated code prefixes (e.g. G,S001)")
    parser.add_argument("--ignore", action="append", default=[], metavar="CODES", help="not these rules: comma-separated code prefixes")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.add_argument("--processes", type=positive_count, metavar="N",
                        help=f"lint side by side in N processes, at least {MIN_SHARE} fixtures each (default for the command: "
                             "one per core; 1: all in this process)")
    parser.add_argument("--prose", metavar="SPEC_CHECKOUT",
                        help="a spec checkout with spec/<capability>/spec.md: sidecar citations are resolved against its prose "
                             "(default: the checkout the fixtures are in, when it has the prose)")
    parser.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    parser.add_argument("--explain", metavar="CODE", help="print a rule's documentation and exit")
    parser.add_argument("--list-predicates", action="store_true", help="print the predicate catalogue (Markdown) and exit")
    return parser


def main(argv: list[str] | None = None, processes: int = 1) -> int:
    """The command's body; ``processes`` is the default of ``--processes`` (the command: one per
    core; an in-process caller: this process only)."""
    return run_command("oa-lint", lambda given: _main(given, processes), argv)


def _main(argv: list[str] | None, default_processes: int) -> int:
    from ...interpreter.static.yaml_compose import limits_problem
    from ..lint import Selection, UsageError, lint_paths
    from ..lint.formatters import render

    parser = build_parser()
    args = parser.parse_args(argv)
    limit = limits_problem()
    if limit:
        print(f"oa-lint: {limit}", file=sys.stderr)
        return 2
    if args.explain is not None:
        return _explain(args.explain)
    if args.list_rules:
        return _list_rules()
    if args.list_predicates:
        from ...assertions.catalogue.reference import markdown

        sys.stdout.write(markdown())
        return 0
    if not args.paths:
        parser.print_usage(sys.stderr)
        print("oa-lint: error: no PATH given (a spec repository, a spec/ or conformance/ folder, or fixture files)", file=sys.stderr)
        return 2
    try:
        selection = Selection.parse(args.select, args.ignore)
        if args.paths == ["-"]:
            result = _lint_stdin(args.capability, selection)
        else:
            processes = cores_capped("oa-lint", args.processes) if args.processes else default_processes
            result = lint_paths(args.paths, selection, args.capability, processes, prose=args.prose)
    except UsageError as exc:
        print(f"oa-lint: error: {exc}", file=sys.stderr)
        return 2
    output_format = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    sys.stdout.write(render(output_format, result.diagnostics, selection.rules()))
    for note in result.notes:
        print(f"oa-lint: note: {note}", file=sys.stderr)
    counts = result.counts()
    information = f", {_count(counts['info'], 'info finding')}" if counts["info"] else ""
    print(f"oa-lint: {_count(result.files, 'fixture')}, {_count(counts['error'], 'error')}, {_count(counts['warning'], 'warning')}{information}", file=sys.stderr)
    if result.internal_errors:
        print(f"oa-lint: {result.internal_errors} internal errors (X001): this is a bug in oa-lint", file=sys.stderr)
        return 2
    # Info findings (an extension used) are information: they never change the exit status.
    return 1 if any(d.severity != "info" for d in result.diagnostics) and not args.exit_zero else 0


def _lint_stdin(capability: str | None, selection: Selection) -> LintResult:
    """``oa-lint -``: one fixture from standard input; rules about the file's name and folder do not apply."""
    from ...interpreter.static.yaml_compose import read_capped
    from ..lint.engine import INTERNAL, LintResult, UsageError, lint_file
    from .pipes import StandardInputClosed, standard_input

    try:
        data = read_capped(standard_input())
    except (StandardInputClosed, OSError) as exc:
        raise UsageError(f"cannot read standard input: {exc.strerror if isinstance(exc, OSError) else exc}") from None
    found = [d for d in lint_file("<stdin>", data, capability=capability)
             if d.code == INTERNAL.code or (selection.allows(d.code) and not d.code.startswith("L"))]
    return LintResult(tuple(found), 1)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _explain(code: str) -> int:
    from ..lint import BY_CODE

    rule = BY_CODE.get(code.strip().upper())
    if rule is None:
        print(f"oa-lint: error: no rule {code!r} (see oa-lint --list-rules)", file=sys.stderr)
        return 2
    print(f"{rule.code} {rule.name} ({rule.severity}; category {rule.category})\n")
    print(rule.doc)
    return 0


def _list_rules() -> int:
    from ..lint import RULES

    width = max(len(rule.name) for rule in RULES)
    for rule in RULES:
        print(f"{rule.code}  {rule.severity:<7}  {rule.name:<{width}}  {rule.summary}")
    return 0


def run() -> int:
    """The ``oa-lint`` command (and ``python -m``): :func:`main`, after which the process ends.

    The linter is imported first with the cyclic collector paused, and what it built frozen
    (``gc.freeze()``): the vocabulary, grammar, rules and catalogue are tens of thousands of objects
    that live as long as the process, and the collector would otherwise rescan them some sixty
    times while they are built and again at every later collection — about a tenth of the
    start-up. The heap is frozen again before returning: the interpreter's shutdown would otherwise
    run the collector over everything the run built and cached, only for the process to drop it —
    about 30 ms after linting the corpus, a twentieth of the run. The command lints on every core
    (``--processes``, default one per core: shares forked from this process once everything is
    imported). In-process callers use :func:`main`, which leaves the collector alone and lints in
    their process unless told otherwise."""
    try:
        with collector_paused(freeze=True):
            from .. import lint  # noqa: F401 - imported for its cost, see above
            from ..lint import formatters  # noqa: F401
    except KeyboardInterrupt:  # Ctrl-C while importing (seconds on a loaded machine): as in main
        print("oa-lint: interrupted", file=sys.stderr)
        return INTERRUPTED
    code = main(processes=os.cpu_count() or 1)
    gc.freeze()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
