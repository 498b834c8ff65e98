"""The lint engine: the static passes, then the rules, over fixture files.

For each file, in discovery order:

1. the ``file`` rules (layout: its name among its siblings), then the ``sidecar`` rules over its
   ``.md`` sidecar (its citations, against the spec prose: ``prose`` or the checkout it is in);
2. the static passes of :func:`oa_conformance.pipeline.read_fixture` — load, schema check, build,
   version check — whose diagnostics are re-coded to the lint rule that claims them (keeping their
   §9 category); then the ``document`` rules over the YAML those passes composed (the file is
   parsed once);
3. when the passes passed, the ``fixture`` rules once, then for each scenario (case) the ``scenario``
   rules and the ``outcome`` rules. A finding that stands for an error category the scenario itself
   expects (``expected_compile_error: unreachable_node`` …) is dropped: that case is correct.

A rule that raises becomes an ``X001`` finding for that file; the other rules and files go on.
Findings are deduplicated (cases report what they inherit once) and sorted by position; selection
(``--select`` / ``--ignore``) applies last, to the finished list.
"""

from __future__ import annotations

import os
from collections import Counter
from functools import lru_cache
from typing import Iterable, Iterator, NamedTuple

from ...model.diagnostics import Diagnostic, Span
from ...model.discovery import Discovery, DiscoveryError, FixtureRef, capability_of, find
from ...model.heap import collector_paused
from ...pipeline import read_fixture
from .context import DocumentContext, FileContext, Finding, FixtureContext, SidecarContext
from .rules import BY_CODE, DETECTABLE, RULES, LintRule

INTERNAL = BY_CODE["X001"]
PASSED_OVER = BY_CODE["L004"]
_BY_KIND: dict[str, tuple[LintRule, ...]] = {kind: tuple(r for r in RULES if r.kind == kind)
                                         for kind in ("file", "sidecar", "document", "fixture", "scenario", "outcome")}
_CLAIMED: dict[str, LintRule] = {claim: rule for rule in RULES for claim in rule.claims}
_FALLBACK = BY_CODE["V002"]  # a static code no rule claims yet is a schema problem


class UsageError(Exception):
    """A path that names no fixtures, or a selection that names no rule."""


# --------------------------------------------------------------------------------------------
# Selection


class Selection(NamedTuple):
    """``--select`` / ``--ignore`` by code prefix; the longer matching prefix wins (as flake8)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def parse(cls, select: Iterable[str] = (), ignore: Iterable[str] = ()) -> Selection:
        chosen = cls(_prefixes(select), _prefixes(ignore))
        for prefix in chosen.select + chosen.ignore:
            if not any(rule.code.startswith(prefix) for rule in RULES):
                raise UsageError(f"{prefix!r} selects no rule (codes: {', '.join(r.code for r in RULES)})")
        return chosen

    def allows(self, code: str) -> bool:
        selected = _longest(self.select, code) if self.select else 0  # nothing selected: everything is
        return selected >= 0 and selected > _longest(self.ignore, code)

    def rules(self) -> list[LintRule]:
        return [rule for rule in RULES if self.allows(rule.code)]


def _longest(prefixes: tuple[str, ...], code: str) -> int:
    """The length of the longest prefix matching ``code`` (-1 when none does)."""
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)


def _prefixes(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(part.strip().upper() for value in values for part in value.split(",") if part.strip())


# --------------------------------------------------------------------------------------------
# Running


class LintResult(NamedTuple):
    diagnostics: tuple[Diagnostic, ...]
    files: int
    notes: tuple[str, ...] = ()  # what was not checked, said once (a rule that had no prose to read)

    @property
    def internal_errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.code == INTERNAL.code)

    def counts(self) -> Counter:
        return Counter(d.severity for d in self.diagnostics)


def fixture_refs(paths: Iterable[str], capability: str | None = None) -> list[FixtureRef]:
    """The fixtures under each path, in order, each once; a path with none is a usage error.
    ``capability`` is the one of a fixture file outside a ``<capability>/conformance/`` folder."""
    return found_under(paths, capability).fixtures


def found_under(paths: Iterable[str], capability: str | None = None) -> Discovery:
    """:func:`fixture_refs`, with the files discovery passes over under the paths (a path holding
    only such files is not a usage error: they are its findings)."""
    found: list[Discovery] = []
    for path in paths:
        try:
            discovered = find([path], loose_capability=capability)
        except DiscoveryError as exc:
            raise UsageError(str(exc)) from None
        if not discovered.fixtures and not discovered.passed_over:
            raise UsageError(f"{path}: no fixtures (*.yaml) found")
        found.append(discovered)
    if len(found) == 1:
        return found[0]  # find() already lists each file once
    return Discovery(_unique(ref for each in found for ref in each.fixtures), _unique(item for each in found for item in each.passed_over))


def _unique(items: Iterable) -> list:
    seen: set[str] = set()
    unique = []
    for item in items:
        key = os.path.realpath(item.path)
        if key not in seen:
            seen.add(key)
            unique.append(item)
    return unique


# A process of its own pays off for this many fixtures or more (forking and gathering cost about
# what linting 20 does).
MIN_SHARE = 48


def lint_paths(paths: Iterable[str], selection: Selection = Selection(), capability: str | None = None,
               processes: int = 1, prose: str | None = None) -> LintResult:
    """Lint every fixture under ``paths`` (raises :class:`UsageError` for a path with none);
    ``capability`` applies to fixture files outside a ``<capability>/conformance/`` folder;
    ``prose`` is the spec checkout sidecar citations resolve against (default: the one each fixture
    is in, when it has the prose).

    With ``processes`` > 1, consecutive shares of the files (of about equal cost, at least
    :data:`MIN_SHARE` each) are linted side by side in children forked from this process —
    everything is imported already, so a fork costs milliseconds — and their findings put together in file order: the result of one
    process. Only a single-threaded process forks (a lock another thread held at the fork would stay
    held in the child); a share whose child fails is linted here."""
    import threading  # here, not with the module: one file's lint pays for no process machinery

    refs, passed_over = found_under(paths, capability)
    if prose is not None:
        from ..coverage.prose_index import ProseError, prose_dir

        try:
            prose = prose_dir(prose)
        except ProseError as exc:
            raise UsageError(f"--prose {exc}") from None
    count = min(processes, len(refs) // MIN_SHARE)
    if count > 1 and threading.active_count() == 1 and hasattr(os, "fork"):
        found = _lint_side_by_side(refs, selection, count, prose)
    else:
        found = _lint_refs(refs, selection, prose)
    if selection.allows(PASSED_OVER.code):
        found.extend(Diagnostic(Span(item.path, 1, 1), PASSED_OVER.category, PASSED_OVER.code, item.reason, PASSED_OVER.severity)
                     for item in passed_over)
    return LintResult(tuple(found), len(refs), _prose_notes(refs, selection, prose))


def _prose_notes(refs: list[FixtureRef], selection: Selection, prose: str | None) -> tuple[str, ...]:
    """One line when a sidecar rule had no prose to check some fixtures' citations against."""
    from ..coverage.prose_index import beside

    rules = [rule for rule in _BY_KIND["sidecar"] if selection.allows(rule.code)]
    if prose is not None or not rules:
        return ()
    folders: dict[str, str | None] = {}  # a folder's fixtures share their prose: looked for once
    for ref in refs:
        folder = os.path.dirname(os.path.abspath(ref.path))
        if folder not in folders:
            folders[folder] = beside(ref.path)
    without = sum(1 for ref in refs if folders[os.path.dirname(os.path.abspath(ref.path))] is None)
    if not without:
        return ()
    codes = ", ".join(rule.code for rule in rules)
    return (f"{codes} not checked for {without} of {len(refs)} fixtures: no spec prose beside them "
            "(give --prose SPEC_CHECKOUT, a checkout with spec/<capability>/spec.md)",)


def _lint_refs(refs: list[FixtureRef], selection: Selection, prose: str | None = None) -> list[Diagnostic]:
    folders = Folders()
    found: list[Diagnostic] = []
    sidecars = any(selection.allows(rule.code) for rule in _BY_KIND["sidecar"])  # else no prose is read
    with collector_paused():  # like read_fixture: many small immutable objects, no cycles
        for ref in refs:
            found.extend(d for d in lint_file(ref.path, capability=ref.capability, folders=folders, prose=prose, sidecars=sidecars)
                         if d.code == INTERNAL.code or selection.allows(d.code))
    return found


def _lint_side_by_side(refs: list[FixtureRef], selection: Selection, count: int, prose: str | None) -> list[Diagnostic]:
    """The first share here, the others in forked children, concurrently; findings in file order.
    A lint that stops early (Ctrl-C, an error) kills the children not yet gathered on its way out:
    they hold the command's standard output and error open, so whoever reads them (a pipe, a
    terminal's ``| less``) would otherwise wait for every share to be linted."""
    shares = _shares(refs, count)
    children: list[tuple[int, int]] = []
    try:
        for share in shares[1:]:
            _fork(share, selection, prose, children)
        found = _lint_refs(shares[0], selection, prose)
        for share in shares[1:]:
            pid, read_end = children[0]
            children[0] = (pid, -1)  # the pipe is _gather's to close from here
            sent = _gather(pid, read_end)
            children.pop(0)
            found.extend(_lint_refs(share, selection, prose) if sent is None else sent)
        return found
    finally:
        _abandon(children)


# What a fixture costs to lint besides its size, in bytes of fixture: the per-file part (the
# sidecar and its citations, the passes' and rules' fixed work). Chosen so the two shares of the
# 0.109.0 corpus take the same CPU time (measured per share: within 2%; by number, 7-9% apart).
_FILE_COST_BYTES = 12000


def _shares(refs: list[FixtureRef], count: int) -> list[list[FixtureRef]]:
    """``count`` consecutive shares of ``refs`` of about equal cost (a fixed cost per file plus its
    size; each at least :data:`MIN_SHARE` files), not of equal length: fixtures differ in size, and
    the command waits for the slower share."""
    weights = []
    for ref in refs:
        try:
            weights.append(_FILE_COST_BYTES + os.path.getsize(ref.path))
        except OSError:  # unreadable: its lint reports it, at a file's cost
            weights.append(_FILE_COST_BYTES)
    each = sum(weights) / count
    shares: list[list[FixtureRef]] = [[]]
    reached = 0.0
    for position, (ref, weight) in enumerate(zip(refs, weights)):
        later = count - len(shares)  # shares still to start
        if (later and reached >= each * len(shares) and len(shares[-1]) >= MIN_SHARE
                and len(refs) - position >= MIN_SHARE * later):
            shares.append([])
        shares[-1].append(ref)
        reached += weight
    return [share for share in shares if share]


def _abandon(children: list[tuple[int, int]]) -> None:
    """Kill each child and close its pipe, without waiting for it to end (a killed child is reaped
    by the next wait, or by the system once this process ends)."""
    import contextlib
    import signal

    for pid, read_end in children:
        with contextlib.suppress(OSError):  # it has ended already
            os.kill(pid, signal.SIGKILL)
        if read_end >= 0:
            os.close(read_end)
        with contextlib.suppress(OSError):
            os.waitpid(pid, os.WNOHANG)


def _fork(share: list[FixtureRef], selection: Selection, prose: str | None, children: list[tuple[int, int]]) -> None:
    """A child linting ``share``, which sends its findings (pickled) down a pipe and ends without
    running the parent's exit handlers or flushing its buffers: ``(pid, the pipe's read end)`` is
    added to ``children`` with Ctrl-C held off, so a child forked is always one the parent knows."""
    import pickle
    import signal

    read_end, write_end = os.pipe()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: one line, status 130
                os.close(read_end)
                payload = pickle.dumps(_lint_refs(share, selection, prose))
                with os.fdopen(write_end, "wb") as pipe:
                    pipe.write(payload)
                status = 0
            finally:
                os._exit(status)
        children.append((pid, read_end))
        os.close(write_end)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _gather(pid: int, read_end: int) -> list[Diagnostic] | None:
    """What a child sent, once it has ended; ``None`` if it failed (killed, out of memory)."""
    import pickle

    with os.fdopen(read_end, "rb") as pipe:
        payload = pipe.read()
    _, status = os.waitpid(pid, 0)
    return pickle.loads(payload) if os.waitstatus_to_exitcode(status) == 0 else None


class Folders:
    """What a lint learns once per folder, not once per fixture: each folder's listing, and the
    prose beside a ``conformance/`` folder (the spec checkout it is in)."""

    def __init__(self) -> None:
        self.listings: dict[str, tuple[str, ...]] = {}
        self.prose: dict[str, object] = {}
        self.real: dict[str, str] = {}

    def realpath(self, path: str) -> str:
        """``os.path.realpath(path)``, its folder's resolved once (a file not itself a link is where
        its folder really is)."""
        if os.path.islink(path):
            return os.path.realpath(path)
        folder, name = os.path.split(os.path.abspath(path))
        if folder not in self.real:
            self.real[folder] = os.path.realpath(folder)
        return os.path.join(self.real[folder], name)

    def siblings(self, directory: str) -> tuple[str, ...]:
        found = self.listings.get(directory)
        if found is None:
            try:
                found = tuple(sorted(os.listdir(directory)))
            except OSError:
                found = ()
            self.listings[directory] = found
        return found

    def prose_beside(self, fixture: str, prose: str | None):
        """The prose indexes the fixture's citations resolve against (``prose``, else the checkout
        the fixture is in), or None when there is none."""
        from ..coverage.prose_index import beside, indexes_for

        key = prose or os.path.dirname(os.path.abspath(fixture))
        if key not in self.prose:
            directory = prose or beside(fixture)
            self.prose[key] = indexes_for(directory) if directory else None
        return self.prose[key]


def lint_file(path: str, data: bytes | str | None = None, capability: str | None = None,
              folders: Folders | None = None, prose: str | None = None,
              sidecars: bool = True) -> list[Diagnostic]:
    """Every finding for one fixture file (or ``data`` read from elsewhere, reported as ``path``), sorted;
    ``sidecars=False`` skips the sidecar rules (none selected: the prose is not read)."""
    if capability is None:
        capability = capability_of(path)
    folders = folders if folders is not None else Folders()
    found: list[Diagnostic] = []
    file = _file_context(path, folders)
    for rule in _BY_KIND["file"]:
        found.extend(_run(rule, path, file))
    sidecar = _sidecar_context(file, capability, prose, folders) if sidecars and data is None and file.in_conformance_dir else None
    if sidecar is not None:
        for rule in _BY_KIND["sidecar"]:
            found.extend(_run(rule, path, sidecar))
    try:
        result = read_fixture(path, data, capability=capability, keep_composed=True)
    except Exception as exc:  # a bug in a static pass: report it, go on with the other files
        found.append(_internal(path, f"internal error in the static passes: {type(exc).__name__}: {exc}"))
        return _finished(found)
    found.extend(_claimed(d) for d in result.diagnostics)
    if result.composed is not None:
        document = DocumentContext(path, result.composed.text, result.composed.root)
        for rule in _BY_KIND["document"]:
            found.extend(_run(rule, path, document))
    if result.fixture is not None:
        found.extend(_rules(FixtureContext(path, capability, result.fixture, result.scenarios, result.sections)))
    return _finished(found)


def _rules(fixture: FixtureContext) -> Iterator[Diagnostic]:
    for rule in _BY_KIND["fixture"]:
        yield from _run(rule, fixture.path, fixture)
    try:
        scenarios = fixture.scenarios
    except Exception as exc:
        yield _internal(fixture.path, f"internal error reading the scenarios: {type(exc).__name__}: {exc}")
        return
    for scenario in scenarios:
        raised: set[str] = set()
        for rule in _BY_KIND["scenario"]:
            for item in _run(rule, fixture.path, scenario, keep=True):
                if isinstance(item, Diagnostic):
                    yield item  # an internal error
                    continue
                if rule.expected_as is not None:
                    raised.add(rule.expected_as)
                    if rule.expected_as in scenario.expected_errors:
                        continue  # the case expects exactly this error
                yield _diagnostic(rule, item)
        for rule in _BY_KIND["outcome"]:
            yield from _run(rule, fixture.path, scenario, frozenset(raised), DETECTABLE)


def _run(rule: LintRule, path: str, *subject: object, keep: bool = False) -> list:
    """A rule's findings on ``subject`` (its check's arguments) as diagnostics (or, ``keep``, as
    findings), or one X001 if it raised."""
    try:
        findings = list(rule.check(*subject))
    except Exception as exc:
        return [_internal(path, f"internal error in {rule.code} ({rule.name}): {type(exc).__name__}: {exc}")]
    return findings if keep else [_diagnostic(rule, finding) for finding in findings]


def _diagnostic(rule: LintRule, finding: Finding) -> Diagnostic:
    return Diagnostic(finding.span, rule.category, rule.code, finding.message, finding.severity or rule.severity)


def _internal(path: str, message: str) -> Diagnostic:
    return Diagnostic(Span(path, 1, 1), INTERNAL.category, INTERNAL.code, message, INTERNAL.severity)


def _claimed(diagnostic: Diagnostic) -> Diagnostic:
    """A static pass's diagnostic under the code of the rule that claims it (its category kept)."""
    rule = _CLAIMED.get(diagnostic.code, _FALLBACK)
    return diagnostic._replace(code=rule.code, severity=rule.severity)


def _file_context(path: str, folders: Folders) -> FileContext:
    directory = os.path.dirname(os.path.abspath(path))
    return FileContext(path, os.path.basename(path), os.path.basename(directory) == "conformance", folders.siblings(directory))


@lru_cache(maxsize=1)
def _own_spec() -> str | None:
    """This project's bundled ``spec/`` (a source checkout: the package beside a pyproject.toml)."""
    import oa_conformance

    root = os.path.dirname(os.path.dirname(os.path.abspath(oa_conformance.__file__)))
    spec = os.path.join(root, "spec")
    return os.path.realpath(spec) if os.path.isfile(os.path.join(root, "pyproject.toml")) and os.path.isdir(spec) else None


def _sidecar_context(file: FileContext, capability: str | None, prose: str | None, folders: Folders) -> SidecarContext | None:
    """The fixture's sidecar with the prose for it, when it has one (``L003`` reports a missing one)."""
    sidecar = file.name[: -len(".yaml")] + ".md" if file.name.endswith(".yaml") else None
    if sidecar is None or sidecar not in file.siblings:
        return None
    path = os.path.join(os.path.dirname(file.path), sidecar)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    own = _own_spec()
    mine = own is not None and folders.realpath(file.path).startswith(own + os.sep)
    return SidecarContext(path, file.path, capability or "", text, folders.prose_beside(file.path, prose), mine)


def _finished(found: list[Diagnostic]) -> list[Diagnostic]:
    unique = list(dict.fromkeys(found))
    unique.sort(key=lambda d: (d.location.line, d.location.column, d.code, d.message))  # a sidecar's findings are at its own path
    return unique


__all__ = ["LintResult", "Selection", "UsageError", "fixture_refs", "lint_file", "lint_paths"]
