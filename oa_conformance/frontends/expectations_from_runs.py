"""``oa-conformance expectations update --from RUN.json FILE``: the expectations file brought in line
with what runs saw (web-platform-tests' ``update-metadata``, for this file format).

Each run's JSON report says, per case, its outcome and the checks that did not hold
(``failing_checks``); its ``host`` names the build. For each case the runs saw (a skipped case says
nothing), what it needs is: nothing when every run passed it; an entry listing its failing checks (a
whole-case one when it failed without reaching them) when every run failed it alike; an intermittent
entry (``outcome = ["fail", "pass"]``) when runs of one build disagree. Builds that disagree (one
passes the case, another fails it) are a deterministic difference, never intermittency: the entry
is scoped to the builds that fail it (``runtime = "==V"`` for a new entry of one failing build,
else ``"!=V"`` per passing build, within the entry's own range: an existing entry keeps the builds
no run saw); builds that fail it differently
get a warning and no change. The entry in scope for a run's build
that governs the case (its own, else its fixture's) is then removed, narrowed or widened to that; an
entry out of scope for every run's build is left alone. A case no entry governs gets a new one,
``kind = "untriaged"``, its reason naming the run, scoped ``runtime = RANGE`` with ``--runtime-range``.
A fixture-wide entry whose cases now need different things is split into entries per case. A case
another expectations file of the run decided (its report's ``expectation.file``) is left to that
file; an entry a run lists under ``unmatched_expectations`` and no run has a case of is removed,
with a line saying so.

The file is edited through tomlkit, so comments, order and layout stay; a removed entry's trailing
comments (a section header above the next entry) stay in place. :func:`update` returns the old and
the new text; the command prints their unified diff (dry run) or writes the new text atomically.
Applying the same runs again changes nothing.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass

from ..model.diagnostics import Span
from ..verdicts.expectations import (INTERMITTENT, UNTRIAGED, Expectation, ExpectationsError, fixture_id, load_expectations,
                           _is_under)
from ..verdicts.outcomes import Outcome
from .report import NotAReport, read_json_report, refuse_duplicate_ids

Failing = tuple[tuple[str, "str | None"], ...]  # (check name, the check it restates)


class UpdateError(Exception):
    """A run report or a file the update cannot use; ``str()`` is one line (exit 2)."""


@dataclass(frozen=True)
class Observed:
    """One case in one run: passed, or failed with these checks (none: it did not reach them)."""

    passed: bool
    checks: Failing = ()
    excused_by: str | None = None  # the expectations file whose entry the run applied (absolute)


@dataclass(frozen=True)
class ObservedRun:
    path: str
    version: str | None
    label: str  # the run, for a new entry's reason: file, build, date
    cases: dict[str, Observed | None]  # None: skipped (says nothing)
    unmatched: tuple[tuple[str | None, str], ...] = ()  # (file, entry id) the run matched to no case


@dataclass(frozen=True)
class Need:
    """What a case needs of the file: ``pass`` (no entry), ``fail`` or ``intermittent``, and the
    failing checks (None: the whole case)."""

    kind: str
    checks: Failing | None


def read_run(path: str) -> ObservedRun:
    """One ``oa-conformance run --json`` report; raises :class:`UpdateError` (one line)."""
    try:
        document = read_json_report(path)
    except NotAReport as exc:
        raise UpdateError(f"--from {path}: {exc}") from None
    if not isinstance(document.get("host"), dict):
        raise UpdateError(f"--from {path}: no 'host': not an oa-conformance run --json report")
    cases: dict[str, Observed | None] = {}
    for case in document["cases"]:
        if not isinstance(case, dict) or not isinstance(case.get("id"), str) or not isinstance(case.get("outcome"), str):
            raise UpdateError(f"--from {path}: not an oa-conformance run --json report (a case without id and outcome)")
        if not isinstance(case.get("failing_checks"), list):
            raise UpdateError(f"--from {path}: the report lists no failing_checks per case: written by an older "
                              "oa-conformance; run again with this one")
        cases[case["id"]] = _observed(case)
    try:
        refuse_duplicate_ids(case["id"] for case in document["cases"])
    except NotAReport as exc:
        raise UpdateError(f"--from {path}: {exc}") from None
    host = document["host"]
    version = host.get("version") if isinstance(host.get("version"), str) else None
    unmatched = tuple((_file(entry), entry["entry"]) for entry in document.get("unmatched_expectations") or ()
                      if isinstance(entry, dict) and isinstance(entry.get("entry"), str))
    return ObservedRun(path, version, _label(path, document), cases, unmatched)


def _file(entry: dict) -> str | None:
    """The expectations file of a report's entry: ``file`` (absolute), else its location's path."""
    path = entry.get("file")
    if not isinstance(path, str) and isinstance(entry.get("location"), str):
        span = Span.read(entry["location"])
        path = span.path if span is not None else None
    return os.path.realpath(path) if isinstance(path, str) and path else None


def _observed(case: dict) -> Observed | None:
    if case["outcome"] == Outcome.SKIPPED:
        return None
    checks = tuple((c.get("name"), c.get("restates")) for c in case["failing_checks"] if isinstance(c, dict) and c.get("name"))
    excused_by = _file(case["expectation"]) if isinstance(case.get("expectation"), dict) else None
    if case["outcome"] == Outcome.PASSED or (case["outcome"] == Outcome.XPASS and not checks):
        return Observed(True, excused_by=excused_by)
    return Observed(False, checks, excused_by)


def _label(path: str, document: dict) -> str:
    host = document["host"]
    installed = host.get("installed") if isinstance(host.get("installed"), dict) else {}
    build = " ".join(str(host[k]) for k in ("name", "version") if host.get(k)) or "an unnamed build"
    if installed.get("kind"):
        build += f", {installed['kind']}"
    created = document.get("created")
    if not isinstance(created, str):
        created = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc).date().isoformat()
    return f"{path} ({build}; {created})"


@dataclass(frozen=True)
class AcrossBuilds:
    """What a case needs across the runs' builds: ``need``, on every build (``passing`` empty) or
    only on the builds other than ``passing`` (those that fail it: ``failing``)."""

    need: Need
    failing: tuple[str, ...] = ()
    passing: tuple[str, ...] = ()


def across_builds(seen: dict[str | None, list[Observed]]) -> AcrossBuilds | str:
    """A case's need from its observations per build (``host.version``), or why no one entry can
    say it. Runs of one build that disagree make it intermittent; builds that disagree are no
    intermittency but a deterministic difference, so the entry is scoped to the builds that fail."""
    needs = {version: need(observed) for version, observed in seen.items()}
    if len(set(needs.values())) == 1:
        return AcrossBuilds(next(iter(needs.values())))
    failing = {version: wanted for version, wanted in needs.items() if wanted.kind != "pass"}
    passing = tuple(sorted(str(v) for v, wanted in needs.items() if wanted.kind == "pass"))
    if None in needs:
        return "its runs' builds differ and one names no version (host.version): update from each build's runs"
    if len(set(failing.values())) != 1:
        return (f"fails differently on builds {', '.join(sorted(map(str, failing)))}: update from each build's runs "
                "with --runtime-range")
    return AcrossBuilds(next(iter(failing.values())), tuple(sorted(map(str, failing))), passing)


def need(observed: list[Observed]) -> Need:
    fails = [o for o in observed if not o.passed]
    if not fails:
        return Need("pass", ())
    whole = any(not o.checks for o in fails)
    checks: list = []
    for o in fails:
        checks.extend(c for c in o.checks if c not in checks)
    alike = len(fails) == len(observed) and len({frozenset(o.checks) for o in fails}) == 1
    return Need("fail" if alike else "intermittent", None if whole else tuple(checks))


def fitted(listed: list[str], failing: Failing, narrow: bool) -> list[str]:
    """``listed`` with the names no failing check is under dropped (``narrow``) and each failing
    check nothing listed covers added (a predicate restating a listed check is covered)."""
    def covers(names: list[str], name: str, restates: str | None) -> bool:
        return any(_is_under(n, listed_name) for n in (name, restates) if n for listed_name in names)

    kept = [name for name in listed if not narrow or any(_is_under(n, name) for c in failing for n in c if n)]
    for name, restates in sorted(failing, key=lambda c: c[1] is not None):  # a restated check before what restates it
        if not covers(kept, name, restates):
            kept.append(name)
    return kept


@dataclass(frozen=True)
class EntryShape:
    """An entry's shape as the update edits it: intermittent or not, its checks (None: whole case),
    the builds it holds for (``runtime``; None: every build)."""

    intermittent: bool
    checks: tuple[str, ...] | None
    runtime: str | None = None


def current_shape(entry: Expectation) -> EntryShape:
    return EntryShape(entry.intermittent, entry.checks or None, entry.runtime)


def reshaped(entry: Expectation, wanted: Need, runtime: str | None = None) -> EntryShape | None:
    """The shape ``entry`` must take for a case that needs ``wanted`` (on the builds ``runtime``
    names; None: those it names now); None: remove it."""
    current = current_shape(entry)
    runtime = runtime or entry.runtime
    if wanted.kind == "pass":
        return current if entry.intermittent else None
    intermittent = entry.intermittent or wanted.kind == "intermittent"
    if wanted.checks is None or current.checks is None:
        return EntryShape(intermittent, None, runtime)
    return EntryShape(intermittent, tuple(fitted(list(current.checks), wanted.checks, narrow=not intermittent)), runtime)


def _scope(base: str | None, verdict: AcrossBuilds, new: bool) -> str | None:
    """``base`` narrowed to the builds that fail a case some builds pass: the one failing build
    (``==V``) for a ``new`` entry, else every build but the passing ones (``!=V``, kept within
    ``base``: an entry that held for builds no run saw still holds for them)."""
    if not verdict.passing:
        return base
    if new and base is None and len(verdict.failing) == 1:
        return f"=={verdict.failing[0]}"
    return ",".join([base] * (base is not None) + [f"!={version}" for version in verdict.passing])


def update(path: str, runs: list[ObservedRun], runtime_range: str | None = None) -> tuple[str, str, list[str]]:
    """(old text, new text, warnings) of the file at ``path`` (missing: empty) updated from ``runs``."""
    import tomlkit

    try:
        with open(path, encoding="utf-8-sig") as handle:
            old = handle.read()
        entries = load_expectations(path).entries
    except FileNotFoundError:
        old, entries = "", ()
    except OSError as exc:
        raise UpdateError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    except ExpectationsError as exc:
        raise UpdateError(str(exc)) from None
    doc = tomlkit.parse(old)
    # Each case's observations, per build (host.version): a difference between builds is no
    # intermittency (across_builds).
    governed: dict[str, tuple[Expectation, dict[str, dict[str | None, list[Observed]]]]] = {}
    loose: dict[str, dict[str | None, list[tuple[Observed, ObservedRun]]]] = {}
    here = os.path.realpath(path)
    for run in runs:
        in_scope = {e.case_id: e.for_runtime(run.version) for e in entries if e.outcome == "fail" and e.holds_for(run.version)}
        for case_id, observed in run.cases.items():
            if observed is None or observed.excused_by not in (None, here):
                continue  # skipped, or another expectations file of the run decided it: that file's business
            entry = in_scope.get(case_id) or in_scope.get(fixture_id(case_id))
            if entry is None:
                loose.setdefault(case_id, {}).setdefault(run.version, []).append((observed, run))
            else:
                cases = governed.setdefault(entry.case_id, (entry, {}))[1]
                cases.setdefault(case_id, {}).setdefault(run.version, []).append(observed)
    warnings: list[str] = []
    for entry, run in _matching_nothing(entries, here, runs):
        warnings.append(f"{entry.location}: removed {entry.case_id}: it matched no case of {run.path}")
        _remove(doc, entry.case_id)
        governed.pop(entry.case_id, None)
    added: list[tuple[str, dict]] = []
    for entry, cases in governed.values():
        shapes = {}
        for case_id, seen in cases.items():
            verdict = across_builds(seen)
            if isinstance(verdict, str):
                warnings.append(f"{entry.location}: {case_id} {verdict}; left alone")
                shapes[case_id] = current_shape(entry)
            else:
                shapes[case_id] = reshaped(entry, verdict.need, _scope(entry.runtime, verdict, new=False))
        table = doc[entry.case_id]
        if len(set(shapes.values())) == 1:
            _reshape(doc, entry, next(iter(shapes.values())))
            continue
        body = {k: v.unwrap() if hasattr(v, "unwrap") else v for k, v in table.items() if k != "builds"}
        _remove(doc, entry.case_id)
        for case_id, shape in shapes.items():
            if shape is not None:
                added.append((case_id, _body(body, entry, shape)))
    added.extend(_new_entries(path, loose, runtime_range, warnings))
    first = True
    for case_id, body in added:
        if case_id in doc:
            warnings.append(f"{path}: {case_id} needs an entry, but the file has one for other builds; left alone")
            continue
        if first and runs:
            doc.add(tomlkit.nl())
            doc.add(tomlkit.comment(f"--- added by oa-conformance expectations update from {', '.join(r.path for r in runs)}"))
            first = False
        table = tomlkit.table()
        for key, value in body.items():
            table[key] = tomlkit.string(value, multiline=True) if isinstance(value, str) and "\n" in value else value
        doc.add(case_id, table)
    return old, doc.as_string(), warnings


def _new_entries(path: str, loose: dict[str, dict[str | None, list[tuple[Observed, ObservedRun]]]], runtime_range: str | None,
                 warnings: list[str]) -> list[tuple[str, dict]]:
    """The entries the cases no entry governs need (an untriaged failure or intermittency), in the
    runs' order; a case whose builds disagree gets none, with a warning."""
    added: list[tuple[str, dict]] = []
    for case_id, by_build in loose.items():
        verdict = across_builds({version: [observed for observed, _ in seen] for version, seen in by_build.items()})
        if isinstance(verdict, str):
            warnings.append(f"{path}: {case_id} {verdict}; no entry added")
            continue
        wanted = verdict.need
        if wanted.kind == "pass":
            continue
        body = {"outcome": list(INTERMITTENT) if wanted.kind == "intermittent" else "fail", "kind": UNTRIAGED}
        scope = _scope(runtime_range, verdict, new=True)
        if scope:
            body["runtime"] = scope
        if wanted.checks is not None:
            body["checks"] = fitted([], wanted.checks, narrow=True)
        verb = "failed" if wanted.kind == "fail" else "failed and passed (intermittent)"
        failed_in = [run.label for version, seen in by_build.items() if str(version) not in verdict.passing for _, run in seen]
        passed_in = [run.label for version, seen in by_build.items() if str(version) in verdict.passing for _, run in seen]
        body["reason"] = (f"untriaged: {verb} in {'; '.join(dict.fromkeys(failed_in))}"
                          + (f"; passed in {'; '.join(dict.fromkeys(passed_in))}" if passed_in else ""))
        added.append((case_id, body))
    return added


def _matching_nothing(entries, here: str, runs: list[ObservedRun]) -> list[tuple[Expectation, ObservedRun]]:
    """The file's entries a run listed as matching no case (``unmatched_expectations``: a renamed or
    removed fixture) and no run has a case of, each with the first run that listed it."""
    seen = {i for run in runs for case_id in run.cases for i in (case_id, fixture_id(case_id))}
    found = []
    for entry in entries:
        if entry.case_id in seen:
            continue
        run = next((run for run in runs if (here, entry.case_id) in run.unmatched), None)
        if run is not None:
            found.append((entry, run))
    return found


def _body(body: dict, entry: Expectation, shape: EntryShape) -> dict:
    """A case's own entry split off a fixture-wide one: its keys, in the shape the case needs."""
    new = {k: v for k, v in body.items() if k not in ("outcome", "checks", "runtime")}
    ordered = {"outcome": list(INTERMITTENT) if shape.intermittent else "fail"}
    if "kind" in new:
        ordered["kind"] = new.pop("kind")
    if shape.runtime is not None:
        ordered["runtime"] = shape.runtime
    if shape.checks is not None:
        ordered["checks"] = list(shape.checks)
    ordered.update(new)
    return ordered


def _reshape(doc, entry: Expectation, shape: EntryShape | None) -> None:
    """Edit the entry's table in place into ``shape`` (None: remove it)."""
    if shape is None:
        _remove(doc, entry.case_id)
        return
    table = doc[entry.case_id]
    if shape == current_shape(entry):
        return
    if shape.intermittent != entry.intermittent:
        table["outcome"] = list(INTERMITTENT) if shape.intermittent else "fail"
    if shape.runtime != entry.runtime:
        table["runtime"] = shape.runtime
    if shape.checks is None:
        for key in ("checks", "builds"):
            if key in table:
                _remove(table, key)
        return
    own = [str(c) for c in table.get("checks", [])]
    stale = set(entry.checks) - set(shape.checks)
    builds = table.get("builds")
    for spec in list(builds.keys()) if builds is not None else []:
        listed = [str(c) for c in builds[spec]["checks"]]
        if any(c in stale for c in listed):
            kept = [c for c in listed if c not in stale]
            if kept:
                builds[spec]["checks"] = kept
            else:
                _remove(builds, spec)
    if builds is not None and not len(builds):
        _remove(table, "builds")
    in_builds = {str(c) for spec in (table["builds"] if "builds" in table else {}) for c in table["builds"][spec]["checks"]}
    new_own = [c for c in own if c not in stale] + [c for c in shape.checks if c not in own and c not in in_builds]
    if new_own != own:
        table["checks"] = new_own


def _remove(container, key: str) -> None:
    """Remove a table, keeping the comments that trail it (they head what follows): they move to
    the end of the table before it, or stay where it was when it is the first."""
    from tomlkit.items import Table, Whitespace

    item = container[key]
    trailing = _trailing_comments(item) if isinstance(item, Table) else []
    inner = container.value if isinstance(container, Table) else container
    keys = list(container.keys())
    before = keys[keys.index(key) - 1] if keys.index(key) > 0 else None
    position = next(i for i, (k, _) in enumerate(inner.body) if k is not None and k.key == key)
    del container[key]
    if not trailing:
        return
    target = container[before] if before is not None and isinstance(container[before], Table) else None
    while target is not None and target.value.body and isinstance(target.value.body[-1][1], Table):
        target = target.value.body[-1][1]  # the innermost last sub-table: what the comments follow
    if target is not None:
        for comment in trailing:
            target.value.append(None, comment)
    else:  # the removed table's slot (tomlkit leaves one) renders the comments verbatim
        inner.body[position] = (None, Whitespace("".join(c.as_string() for c in trailing)))


def _trailing_comments(table) -> list:
    """The comment lines (and the blank lines among them) after a table's last key, its sub-tables' included."""
    from tomlkit.items import Comment, Table

    body = table.value.body
    run: list = []
    for key, item in reversed(body):
        if key is None and not isinstance(item, Table):
            run.insert(0, item)
            continue
        if isinstance(item, Table):
            run = _trailing_comments(item) + run
        break
    first = next((i for i, item in enumerate(run) if isinstance(item, Comment)), None)
    return run[first:] if first is not None else []
