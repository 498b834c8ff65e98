"""The interpreter: the passes a fixture goes through, in order.

    load (YAML → value tree)                    oa_conformance.interpreter.loader.load_path
    schema check (value tree × vocabulary)      .schema_check.check_schema
    build (value tree → typed AST)              oa_conformance.interpreter.build.build_fixture
    version check (typed AST × target version)  .version_check.check_version

:func:`read_fixture` chains them and stops at the first pass that reports a problem, so later passes
only ever see input the earlier ones accepted.
"""

from __future__ import annotations

import gc
import os
from typing import NamedTuple

from .interpreter.build import build_fixture
from .interpreter.loader import Composed, load_bytes, load_path
from .ast.nodes import Section
from .diagnostics import FIXTURE_VERSION_UNSUPPORTED, Diagnostic
from .interpreter.schema_check import check_schema
from .interpreter.version_check import check_version

STAGES = ("load", "schema", "version")
_RECOVERABLE = frozenset(("duplicate-key", "tag"))  # loader findings after which the schema check still runs


class ReadResult(NamedTuple):
    """The typed ``Fixture`` (``None`` when a pass failed) and every problem found; with
    ``keep_composed``, also the document libyaml composed (see :class:`~oa_conformance.interpreter.loader.Composed`)."""

    fixture: Section | None
    diagnostics: tuple[Diagnostic, ...]
    composed: Composed | None = None

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def capability_of(path: str) -> str | None:
    """The capability directory a fixture belongs to: ``spec/<capability>/conformance/NNN-x.yaml``."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    return parts[-3] if len(parts) >= 3 and parts[-2] == "conformance" else None


def read_fixture(path: str, data: bytes | str | None = None, stop_after: str = "version", capability: str | None = None,
                 keep_composed: bool = False) -> ReadResult:
    """Load and check one fixture file (or ``data`` read from elsewhere, reported as ``path``).

    ``capability`` defaults to the fixture's directory (see :func:`capability_of`).
    ``keep_composed`` keeps the composed YAML document in the result (the linter reads it; a run
    does not, so it is dropped as soon as the value tree is built).
    """
    if capability is None and path != "-":
        capability = capability_of(path)
    # The passes allocate many small immutable nodes and no cycles; pausing the cyclic collector
    # while they run saves it from scanning them over and over (about a third of the time).
    paused = gc.isenabled()
    gc.disable()
    try:
        result = _read(path, data, stop_after, capability)
        return result._replace(composed=result.composed if keep_composed else None)
    finally:
        if paused:
            gc.enable()


def _read(path: str, data: bytes | str | None, stop_after: str, capability: str | None) -> ReadResult:
    loaded = load_path(path) if data is None else load_bytes(data, path)
    composed = loaded.composed
    # A repeated key (the first one kept) or a refused tag (read as plain) leaves a tree worth checking.
    recoverable = all(d.code in _RECOVERABLE for d in loaded.diagnostics)
    if loaded.tree is None or stop_after == "load" or not recoverable:
        return ReadResult(None, loaded.diagnostics, composed)
    problems = check_schema(loaded.tree, capability, tokens=loaded.may_hold_tokens)
    if loaded.diagnostics:  # the loader's findings first: what the schema check saw depends on them
        return ReadResult(None, loaded.diagnostics + problems, composed)
    if problems:
        if stop_after != "schema":
            # A too-new fixture is expected to use directives this adapter lacks: say so first.
            too_new = tuple(d for d in check_version(loaded.tree) if d.category == FIXTURE_VERSION_UNSUPPORTED)
            problems = too_new + problems
        return ReadResult(None, problems, composed)
    fixture = build_fixture(loaded.tree, capability, tokens=loaded.may_hold_tokens)
    if stop_after == "schema":
        return ReadResult(fixture, (), composed)
    return ReadResult(fixture, check_version(fixture), composed)


__all__ = ["ReadResult", "capability_of", "STAGES", "check_schema", "check_version", "read_fixture"]
