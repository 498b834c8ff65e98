"""``oa-conformance expectations update --from RUN.json [--from …] FILE [--runtime-range SPEC] [--write]``:
the command around :mod:`oa_conformance.frontends.expectations_from_runs` — a dry run prints the unified diff, ``--write``
writes the file whole (``files.write_whole``); bad input is one line on stderr and exit 2."""

from __future__ import annotations

import difflib
import os
import sys

from ..expectations_from_runs import UpdateError, read_run, update
from .files import why_not_written, write_whole


def update_command(run_paths: list[str], path: str, runtime_range: str | None, write: bool) -> int:
    """The command: print the diff (or write the file with ``write``); 2 with one line on bad input."""
    try:
        if runtime_range is not None:
            _check_range(runtime_range)
        runs = [read_run(run) for run in run_paths]
        old, new, warnings = update(path, runs, runtime_range)
        if write and new != old:
            _check_writable(path)
            write_whole(path, new)
    except UpdateError as exc:
        print(f"oa-conformance expectations update: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"oa-conformance expectations update: {path}: cannot write it: {why_not_written(exc)}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"oa-conformance expectations update: warning: {warning}", file=sys.stderr)
    if not write:
        sys.stdout.write("".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, f"{path} (updated)")))
    changed = "no change" if new == old else ("written" if write else "changed (dry run: --write writes it)")
    print(f"{path}: {changed}, from {len(runs)} run{'s' if len(runs) != 1 else ''}", file=sys.stderr)
    return 0


def _check_range(spec: str) -> None:
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        SpecifierSet(spec)
    except InvalidSpecifier:
        raise UpdateError(f'--runtime-range {spec!r} is not a PEP 440 version specifier (e.g. "<0.17")') from None


def _check_writable(path: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.access(directory, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise UpdateError(f"{path}: cannot write it: not writable")
