"""Known deviations: the expectations file (like web-platform-tests metadata or test262's
expectation files).

A user keeps a TOML file of cases that are known not to pass against a given runtime × spec pair,
each with the outcome expected, the reason and whose deviation it is::

    ["pipeline-utilities/901-example-recovery"]                    # a fixture id covers all its cases
    outcome = "fail"                                              # fail | skip | ["fail", "pass"]
    kind = "runtime"                                              # runtime | fixture | adapter | untriaged
    reason = "the runtime emits ... where the spec requires ..."

    ["graph-engine/902-example-routing[routing_error_case]"]
    outcome = "fail"
    kind = "fixture"
    reason = "..."

Ids are the ones ``oa-conformance run`` prints (:attr:`results.CaseRef.id`). A case-level entry wins
over its fixture's entry.

An entry of a case that runs names the checks it expects to fail (the names the run prints before
``: failed``); every other check of the case must pass::

    ["observability/903-example-detached[detached_case]"]
    outcome = "fail"
    kind = "runtime"
    checks = ["expected.log_records", "expected.invariants.log_trace_ids_differ_when_detached"]
    reason = "..."

A listed name covers the checks under it (``expected_error`` covers ``expected_error.category``) and
the predicates that restate it. The case is ``xfail`` when exactly the listed checks fail; a failure
no entry lists leaves it ``failed`` (web-platform-tests keys expectations by subtest for this: a new
failure beside a known one is not hidden); a listed check that passes makes it ``xpass`` (stale). A
whole-case entry (no ``checks``) stays for a case that cannot run: skipped, schema-invalid, erroring;
a whole-case ``fail`` entry should name the category its case fails with, so a case that comes to
fail another way (a runtime error where a schema problem was excused) is ``failed``, not excused
(an entry without one excuses any failure; ``tests/test_expectations.py`` keeps the shipped files pinned)::

    ["pipeline-utilities/904-example-unreadable"]
    outcome = "fail"
    kind = "fixture"
    category = "fixture_schema_invalid"
    reason = "..."

An entry may be scoped to the runtime builds it holds for, with a PEP 440 specifier::

    runtime = "<0.17"        # only against openarmature releases before 0.17

An entry out of scope for the build under test is dropped when the file is read (it is neither
applied nor reported unmatched). Several files may be given; they are read in order and a later
file's entry replaces an earlier one for the same id, so a small overlay (e.g. the deviations of an
older spec corpus) rides on the shipped file; an overlay entry ``outcome = "pass"`` says the case
is expected to pass there, cancelling the earlier entry (it applies nothing itself).

Outcomes, judged by :func:`judge` (and :meth:`Expectations.skip` before running; :func:`judged`
is the one way every front end gets a case's verdict, both in order):

* ``fail`` — a listed case that fails or errors is ``xfail`` (not a failure of the run; the entry's
  reason is shown). A listed case that passes is ``xpass``, which *fails* the run (strict), so a
  stale entry is noticed. A listed case that is a recognized skip stays ``skipped``, with a note.
* ``skip`` — the case is not run at all (e.g. it hangs the runtime); it is reported ``skipped`` with
  the entry's reason.
* ``["fail", "pass"]`` — intermittent (web-platform-tests' known intermittent statuses): a case whose
  outcome depends on timing the spec leaves open. A failure is ``xfail``, a pass stays ``passed``;
  either keeps the run green, and the result carries the entry (reported as intermittent). With
  ``checks``, a failure of any of the listed checks (not necessarily all) is ``xfail``.

``kind = "untriaged"`` marks an entry nobody has looked at yet (``expectations update`` writes them):
an expected failure as any other, except under ``--strict-expectations``, where its case's failure
fails the run (:attr:`Expectations.strict`).

Entries that match no case of a run are reported (:meth:`Expectations.unmatched`) — a typo or a
renamed fixture. A malformed file raises :class:`ExpectationsError` whose message is
``path:line: what is wrong``; the command line exits 2 on it.

The stable API other front ends use: :func:`load_expectations`, :func:`load_all`, :func:`judged`,
:func:`judge`, :meth:`Expectations.lookup`, :meth:`Expectations.skip`, :meth:`Expectations.unmatched`,
:class:`Expectation` (``case_id``, ``outcome``, ``kind``, ``reason``, ``path``, ``line``, ``intermittent``).
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from ..model.diagnostics import Span
from .outcomes import Outcome
from .results import CaseRef, CaseResult

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from ..assertions.rules import Check

EXPECTED_OUTCOMES = ("fail", "skip", "pass")  # pass: replaces an earlier file's entry, then applies nothing
INTERMITTENT = ("fail", "pass")  # the one list an outcome may be: either outcome keeps the run green
UNTRIAGED = "untriaged"  # an entry nobody has triaged: fails the run under --strict-expectations
KINDS = ("runtime", "fixture", "adapter", UNTRIAGED)
KEYS = ("outcome", "kind", "reason")
# a PEP 440 specifier; the failing checks; per-build additions; the category a whole-case failure has
OPTIONAL_KEYS = ("runtime", "checks", "builds", "category")

# capability/NNN-name, optionally [case]: what results.CaseRef.id prints.
_CASE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*/[^/\[\]\s]+(?:\[[^\[\]]+\])?$")
_TOML_LINE = re.compile(r"at line (\d+)")


class ExpectationsError(Exception):
    """A malformed expectations file; ``str()`` is ``path:line: message``."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")


@dataclass(frozen=True)
class Expectation:
    """One entry: the case (or fixture) id, the expected outcome, whose deviation, and why."""

    case_id: str
    outcome: str  # fail | skip (an intermittent entry: fail, with ``intermittent``)
    kind: str  # runtime | fixture | adapter
    reason: str
    path: str = ""
    line: int = 0
    runtime: str | None = None  # PEP 440 specifier; None: every build
    checks: tuple[str, ...] = ()  # the checks expected to fail; empty: the whole case
    # (specifier, checks, reason): more checks expected to fail on the builds a specifier names
    builds: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    intermittent: bool = False  # outcome = ["fail", "pass"]: a failure is xfail, a pass stays passed
    category: str | None = None  # a whole-case entry: the category its case fails with (any other is not excused)

    def for_runtime(self, runtime_version: str | None) -> "Expectation":
        """The entry as it applies to this build: the checks (and reasons) of each ``builds``
        sub-table whose specifier names the build added to its own."""
        extra = [(checks, reason) for spec, checks, reason in self.builds
                 if runtime_version is not None and _contains(spec, runtime_version)]
        if not extra:
            return self
        return dataclasses.replace(self, checks=self.checks + tuple(c for checks, _ in extra for c in checks),
                                   reason=" ".join([self.reason] + [f"On this build also: {reason}" for _, reason in extra]))

    def covers(self, check: "Check") -> bool:
        """Whether this entry expects ``check`` to fail: it is listed, or under a listed name, or a
        predicate restating one (its detail reads ``restates <name>, and …``)."""
        return self.covers_name(check.name, restated(check))

    def covers_name(self, name: str, restates: str | None = None) -> bool:
        """Whether a check of this name (restating ``restates``, if any) is listed or under a listed name."""
        return any(_is_under(n, listed) for n in (name, restates) if n for listed in self.checks)

    def holds_for(self, runtime_version: str | None) -> bool:
        """Whether the entry is in scope for this runtime version (an unscoped entry always is; a
        scoped one never is for an unknown version)."""
        if self.runtime is None:
            return True
        return runtime_version is not None and _contains(self.runtime, runtime_version)

    @property
    def location(self) -> Span:
        return Span(self.path, self.line, None)  # a TOML line: no column

    @property
    def expected(self) -> str:
        """What the entry expects, in words: ``fail``, ``skip``, ``fail or pass (intermittent)``."""
        return "fail or pass (intermittent)" if self.intermittent else self.outcome

    def describe(self) -> str:
        return f"expected to {self.expected} ({self.kind}): {self.reason}"

    def document(self) -> dict:
        """The entry as JSON-able data (the JSON report's ``expectation``)."""
        return {"outcome": list(INTERMITTENT) if self.intermittent else self.outcome, "intermittent": self.intermittent,
                "kind": self.kind, "reason": self.reason, "entry": self.case_id, "location": str(self.location),
                # which of the run's files it is, wherever the run was started (expectations update)
                "file": os.path.abspath(self.path) if self.path else None}


def restated(check: "Check") -> str | None:
    """The check a predicate restates (its detail reads ``restates <name>, and …``), else None."""
    found = re.match(r"restates (\S+?),", check.detail or "")
    return found.group(1) if found else None


def _is_under(name: str, listed: str) -> bool:
    """A check name is the listed one or a check under it (``expected_error.category``, ``calls[0]``)."""
    return name == listed or name.startswith((listed + ".", listed + "["))


def _contains(specifier: str, version: str) -> bool:
    from packaging.specifiers import SpecifierSet

    return SpecifierSet(specifier).contains(version, prereleases=True)


def fixture_id(case_id: str) -> str:
    """The fixture part of a case id: ``graph-engine/020-x[case]`` → ``graph-engine/020-x``."""
    return case_id.split("[", 1)[0]


@dataclass(frozen=True)
class Expectations:
    """The entries of one expectations file, looked up by case id."""

    path: str = ""
    entries: tuple[Expectation, ...] = ()
    strict: bool = False  # --strict-expectations: an untriaged entry excuses no failure

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {e.case_id: e for e in self.entries})

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, case_id: str) -> Expectation | None:
        """The entry for this case: its own, else its fixture's, else ``None``."""
        return self._by_id.get(case_id) or self._by_id.get(fixture_id(case_id))  # type: ignore[attr-defined]

    def skip(self, ref: "CaseRef") -> "CaseResult | None":
        """The ``skipped`` result of a case listed ``outcome = "skip"`` (it is not run), else ``None``."""
        entry = self.lookup(ref.id)
        if entry is None or entry.outcome != "skip":
            return None
        return CaseResult(ref, Outcome.SKIPPED, reason=f"listed in the expectations file: {entry.describe()}",
                          location=entry.location, expectation=entry)

    def unmatched(self, case_ids: Iterable[str], directories: Iterable[str] | None = None) -> tuple[Expectation, ...]:
        """The entries that match none of these case ids (by case id or fixture id): pass every
        case a run *read*, selected or not, so an entry for a deselected case is not stale. With
        ``directories``, only the entries the run can judge: those of a fixture it read, and those
        of a capability directory it read in full (an entry naming a fixture no longer there) — a
        run of one directory, one file or a ``-k`` selection says nothing about other fixtures."""
        seen: set[str] = set()
        for case_id in case_ids:
            seen.add(case_id)
            seen.add(fixture_id(case_id))
        whole = set(directories) if directories is not None else None
        return tuple(e for e in self.entries if e.case_id not in seen
                     and (whole is None or fixture_id(e.case_id) in seen or e.case_id.split("/", 1)[0] in whole))


NO_EXPECTATIONS = Expectations()


def judged(ref: CaseRef, expectations: Expectations, run: Callable[[CaseRef], CaseResult]) -> CaseResult:
    """A case's verdict, the one way every front end (the command line in one process or in worker
    processes, the pytest plugin, :func:`runner.run_all`) gets it: a case listed ``skip`` is not run;
    any other is run (``run``) and judged (:func:`judge`)."""
    listed = expectations.skip(ref)
    return listed if listed is not None else judge(run(ref), expectations)


def judge(result: CaseResult, expectations: Expectations) -> CaseResult:
    """The result as the expectations file sees it — the one judge: failed/error → xfail, passed →
    xpass (strict); an intermittent entry's pass stays passed (carrying the entry); an untriaged
    entry under ``strict`` excuses nothing; a per-check entry is judged on the checks."""
    entry = expectations.lookup(result.ref.id)
    if entry is None or entry.outcome != "fail" or result.expectation is not None:
        return result
    seen = _judge(result, entry)
    if seen.outcome == Outcome.XFAIL and entry.kind == UNTRIAGED and expectations.strict:
        why = "the entry is untriaged, and under --strict-expectations no expected failure"
        if entry.checks:  # the reason of the per-check entry's line, which leads with the entry's location
            return dataclasses.replace(seen, outcome=result.outcome, reason=why)
        return dataclasses.replace(seen, outcome=result.outcome, notes=result.notes + (f"{entry.location}: {why}",))
    return seen


def _judge(result: CaseResult, entry: Expectation) -> CaseResult:
    failing = result.outcome in (Outcome.FAILED, Outcome.ERROR)
    if entry.checks and failing:
        return _apply_checks(result, entry)
    if failing and entry.category is not None and result.category != entry.category:
        found = result.category or "failing checks"
        note = (f"the expectations entry ({entry.location}) excuses a failure with category {entry.category}; "
                f"the case failed with {found}")
        return dataclasses.replace(result, reason=f"{note}: {result.reason}" if result.reason else note,
                                   expectation=entry)
    if failing:
        return dataclasses.replace(result, outcome=Outcome.XFAIL, expectation=entry)
    if result.outcome == Outcome.PASSED and entry.intermittent:
        return dataclasses.replace(result, expectation=entry)
    if result.outcome == Outcome.PASSED:
        return dataclasses.replace(
            result, outcome=Outcome.XPASS, expectation=entry, location=entry.location,
            reason=f"passed, but the expectations file lists it {entry.describe()} — remove the entry")
    note = f"listed as an expected failure ({entry.location}) but skipped"
    return dataclasses.replace(result, expectation=entry, notes=result.notes + (note,))


def _apply_checks(result: "CaseResult", entry: Expectation) -> "CaseResult":
    """A per-check entry: xfail when exactly its checks fail (an intermittent one: any of them),
    failed beside an unlisted failure (or when the case did not run its checks), xpass when a
    listed check passed."""
    failing = [check for check in result.checks if not check.status.holds]
    unlisted = [check for check in failing if not entry.covers(check)]
    if unlisted or not failing:
        why = (f"{', '.join(check.name for check in unlisted)} failed too" if unlisted
               else f"the case did not reach its checks ({result.reason})")
        note = f"the expectations entry lists {', '.join(entry.checks)}; {why}"
        return dataclasses.replace(result, reason=note, expectation=entry)
    stale = [name for name in entry.checks if not any(_is_under(check.name, name) for check in failing)]
    if stale and not entry.intermittent:
        return dataclasses.replace(
            result, outcome=Outcome.XPASS, expectation=entry, location=entry.location,
            reason=f"listed checks passed: {', '.join(stale)} — remove them from the expectations entry")
    return dataclasses.replace(result, outcome=Outcome.XFAIL, expectation=entry)


def load_all(paths: Iterable[str], runtime_version: str | None, strict: bool = False) -> Expectations:
    """Read every file in order (a later file's entry replaces an earlier one for the same id) and
    keep the entries in scope for ``runtime_version``; raises :class:`ExpectationsError`. ``strict``:
    an untriaged entry excuses no failure (``--strict-expectations``)."""
    by_id: dict[str, Expectation] = {}
    names = []
    for path in paths:
        names.append(path)
        for entry in load_expectations(path).entries:
            by_id.pop(entry.case_id, None)
            by_id[entry.case_id] = entry
    kept = tuple(e.for_runtime(runtime_version) for e in by_id.values()
                 if e.holds_for(runtime_version) and e.outcome != "pass")
    return Expectations(", ".join(names), kept, strict)


def load_expectations(path: str) -> Expectations:
    """Read and check an expectations file; raises :class:`ExpectationsError` (``path:line: …``)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise ExpectationsError(path, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")  # an editor's byte-order mark is not a TOML statement
        data = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise ExpectationsError(path, None, f"not UTF-8: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_LINE.search(str(exc))
        raise ExpectationsError(path, int(found.group(1)) if found else None, f"invalid TOML: {exc}") from None
    return parse_expectations(data, _header_lines(text), path)


def parse_expectations(data: dict, lines: dict[str, int], path: str) -> Expectations:
    """Check the decoded TOML table: one table per case id with exactly ``outcome``, ``kind``, ``reason``."""
    entries = []
    for case_id, body in data.items():
        line = lines.get(case_id)
        if not isinstance(body, dict):
            raise ExpectationsError(path, line, f"{case_id!r}: expected a table "
                                    f'["<capability>/<NNN-name>[<case>]"] with outcome, kind and reason')
        if not _CASE_ID.match(case_id):
            raise ExpectationsError(path, line, f"{case_id!r} is not a case id: write <capability>/<NNN-name> "
                                    "or <capability>/<NNN-name>[<case>] as oa-conformance run prints it")
        unknown = sorted(set(body) - set(KEYS) - set(OPTIONAL_KEYS))
        if unknown:
            allowed = ", ".join(KEYS + OPTIONAL_KEYS)
            raise ExpectationsError(path, line, f"{case_id!r}: unknown key {unknown[0]!r} (allowed: {allowed})")
        for key in KEYS:
            if key not in body:
                raise ExpectationsError(path, line, f"{case_id!r}: missing required key {key!r}")
            if key == "outcome" and isinstance(body[key], list):
                continue  # an intermittent entry's outcomes (_intermittent)
            if not isinstance(body[key], str) or not body[key].strip():
                raise ExpectationsError(path, line, f"{case_id!r}: {key} must be a non-empty string")
        intermittent = _intermittent(body, case_id, path, line)
        if intermittent:
            body = {**body, "outcome": "fail"}
        if body["outcome"] not in EXPECTED_OUTCOMES:
            raise ExpectationsError(path, line, f"{case_id!r}: outcome {body['outcome']!r} is not one of "
                                    f"{', '.join(EXPECTED_OUTCOMES)}")
        if body["kind"] not in KINDS:
            raise ExpectationsError(path, line, f"{case_id!r}: kind {body['kind']!r} is not one of {', '.join(KINDS)}")
        runtime = _runtime_specifier(body.get("runtime"), case_id, path, line)
        checks = _check_names(body, case_id, path, line)
        builds = _builds(body, case_id, path, line)
        category = _category(body, checks, case_id, path, line)
        entries.append(Expectation(case_id, body["outcome"], body["kind"], " ".join(body["reason"].split()), path,
                                   line or 0, runtime, checks, builds, intermittent, category))
    return Expectations(path, tuple(entries))


def _intermittent(body: dict, case_id: str, path: str, line: int | None) -> bool:
    """Whether ``outcome`` is the list of an intermittent entry; a list other than fail and pass,
    each once, is an error."""
    value = body["outcome"]
    if not isinstance(value, list):
        return False
    if len(value) != len(INTERMITTENT) or sorted(value, key=str) != sorted(INTERMITTENT):
        raise ExpectationsError(path, line, f"{case_id!r}: outcome {value!r}: a list of outcomes names "
                                '"fail" and "pass", each once (an intermittent case: outcome = ["fail", "pass"])')
    return True


def _check_names(body: dict, case_id: str, path: str, line: int | None) -> tuple[str, ...]:
    value = body.get("checks")
    if value is None:
        return ()
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise ExpectationsError(path, line, f"{case_id!r}: checks must be a non-empty list of check names "
                                '(as the run prints them, e.g. "expected.span_tree")')
    if body["outcome"] != "fail":
        raise ExpectationsError(path, line, f"{case_id!r}: checks apply to outcome \"fail\" only (a skipped case runs no check)")
    return tuple(value)


def _category(body: dict, checks: tuple[str, ...], case_id: str, path: str, line: int | None) -> str | None:
    """A whole-case ``fail`` entry pins the category its case fails with (``fixture_schema_invalid``,
    ``not_implemented``, a §9 runtime category…), so a case that comes to fail otherwise is not excused;
    an entry with ``checks`` is pinned by them, and a ``skip`` entry runs nothing."""
    value = body.get("category")
    if value is None:
        return None  # an unpinned whole-case entry excuses any failure (the shipped files pin every one)
    if not isinstance(value, str) or not value.strip():
        raise ExpectationsError(path, line, f"{case_id!r}: category must be a non-empty string")
    if body["outcome"] != "fail" or checks:
        raise ExpectationsError(path, line, f"{case_id!r}: category pins a whole-case failure: it goes with "
                                'outcome "fail" and no checks (checks pin a failure that reaches them)')
    return value


def _builds(body: dict, case_id: str, path: str, line: int | None) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """``["<id>".builds."<specifier>"] = {checks, reason}``: checks that also fail on those builds."""
    tables = body.get("builds")
    if tables is None:
        return ()
    if not isinstance(tables, dict) or not body.get("checks"):
        raise ExpectationsError(path, line, f"{case_id!r}: builds is a table of PEP 440 specifiers, each {{checks, reason}}, "
                                "beside the entry's own checks")
    found = []
    for spec, table in tables.items():
        where = f"{case_id!r} builds {spec!r}"
        if not isinstance(table, dict) or set(table) != {"checks", "reason"} or not isinstance(table["reason"], str):
            raise ExpectationsError(path, line, f"{where}: a build's table has exactly checks and reason")
        found.append((_runtime_specifier(spec, case_id, path, line), _check_names({"checks": table["checks"], "outcome": "fail"},
                                                                                   case_id, path, line),
                      " ".join(table["reason"].split())))
    return tuple(found)


def _runtime_specifier(value: object, case_id: str, path: str, line: int | None) -> str | None:
    if value is None:
        return None
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        if not isinstance(value, str):
            raise InvalidSpecifier(repr(value))
        return str(SpecifierSet(value))
    except InvalidSpecifier:
        raise ExpectationsError(path, line, f"{case_id!r}: runtime {value!r} is not a PEP 440 version specifier "
                                '(e.g. "<0.17" or ">=0.16,<0.17")') from None


def _header_lines(text: str) -> dict[str, int]:
    """The 1-based line of each top-level table header, or of a top-level ``key = value`` written
    before the first header (tomllib keeps no positions; each such line is a TOML document itself)."""
    lines: dict[str, int] = {}
    in_table = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        is_header = stripped.startswith("[")
        if not stripped or stripped.startswith("#") or (in_table and not is_header):
            continue
        in_table = in_table or is_header
        try:
            parsed = tomllib.loads(stripped)
        except tomllib.TOMLDecodeError:
            continue
        if len(parsed) == 1:
            lines.setdefault(next(iter(parsed)), number)
    return lines
