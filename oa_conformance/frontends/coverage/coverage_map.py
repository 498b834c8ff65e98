"""The coverage map: the prose's normative statements, the fixtures' citations resolved to them,
the cases that verify them (from run reports) and the accounting file's reasons.

:func:`build_map` is the one pass; :meth:`CoverageMap.document` is the JSON the command writes
(``{"statements": [...], "citations": [...]}``). It is static: it reads the prose, the sidecars and
the fixtures' YAML (for their case names) and imports no runtime.
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, NamedTuple

from ...model.discovery import FixtureRef, discover
from ...interpreter.static.loader import load_path
from .accounting import RETIRED, AccountingEntry
from .citations import Citation, header_citations, sidecar_citations
from .evidence import Evidence, JUnit
from .faults import FaultEntry
from .run_reports import read_results
from .prose import Prose, Statement, normalised, read_prose
from .prose_index import ProseError, prose_dir
from .resolve import StatementIndex, index, resolve
from .status import Status, legend, status_of


class CoverageMap(NamedTuple):
    statements: tuple[Statement, ...]
    citations: tuple[tuple[Citation, tuple[str, ...]], ...]  # each citation with the statement ids it resolved to
    cited_by: dict[str, tuple[str, ...]]  # statement id → case ids whose citations the resolver matched to it
    named_by: dict[str, tuple[str, ...]]  # statement id → cases (or adapter tests) that name it
    proven_by: dict[str, tuple[dict[str, str], ...]]  # statement id → {"case", "fault"} or {"test"}
    statuses: dict[str, Status]  # statement id → its status (status.py)
    reasons: dict[str, str]  # statement id → the accounting reason, described
    fixtures: int
    uncited: tuple[str, ...]  # fixture ids no citation names
    with_results: bool
    problems: tuple[str, ...]  # "path:line: what is wrong", in the order found
    unresolved: tuple[str, ...] = ()  # "path:line: citation resolves to nothing: why", one per citation part

    def status(self, statement: Statement) -> Status:
        return self.statuses[statement.id]

    def document(self) -> dict:
        return {
            "statuses": legend(),
            "statements": [
                {"id": s.id, "capability": s.capability, "section": s.section, "path": s.path, "line": s.line,
                 "level": s.level, "text": s.text, "status": self.statuses[s.id].value,
                 "cited_by": list(self.cited_by.get(s.id, ())), "named_by": list(self.named_by.get(s.id, ())),
                 "proven_by": [dict(p) for p in self.proven_by.get(s.id, ())], "reason": self.reasons.get(s.id)}
                for s in self.statements
            ],
            "citations": [
                {"fixture": c.fixture, "case": c.case, "path": c.path, "line": c.line, "text": c.text, "resolved": list(ids)}
                for c, ids in self.citations
            ],
        }


def read_all_prose(directory: str) -> dict[str, Prose]:
    found = {}
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name, "spec.md")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                found[name] = read_prose(handle.read(), name, path)
    return found


def case_names(path: str) -> list[str] | None:
    """The fixture's case names as ``oa-conformance run`` names them (None: the single-case form)."""
    tree = load_path(path).tree
    cases = tree.get("cases") if tree is not None and hasattr(tree, "get") else None
    if cases is None or not hasattr(cases, "items"):
        return None
    names = []
    for index_, case in enumerate(cases.items):
        name = case.get("name") if hasattr(case, "get") else None
        names.append(str(name.value) if name is not None and hasattr(name, "value") else f"case {index_}")
    return names


def fixture_id(ref: FixtureRef) -> str:
    return f"{ref.capability}/{ref.name.removesuffix('.yaml')}"


def fixture_citations(ref: FixtureRef, capabilities: Iterable[str]) -> tuple[list[Citation], list[str], list[str]]:
    """A fixture's citations, its case ids, and the problems of its sidecar."""
    capabilities = list(capabilities)
    ident = fixture_id(ref)
    names = case_names(ref.path)
    cases = [f"{ident}[{name}]" for name in names] if names is not None else [ident]
    problems: list[str] = []
    citations: list[Citation] = []
    sidecar = ref.path[: -len(".yaml")] + ".md"
    try:
        with open(sidecar, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        problems.append(f"{ref.path}:1: no readable sidecar {os.path.basename(sidecar)}: its citations are unknown")
    else:
        found, has_block = sidecar_citations(ident, ref.capability or "", sidecar, text, names or [], capabilities)
        citations.extend(found)
        if not has_block:
            problems.append(f"{sidecar}:1: no \"Spec sections exercised\" block: the sidecar cites nothing")
    try:
        with open(ref.path, encoding="utf-8") as handle:
            citations.extend(header_citations(ident, ref.capability or "", ref.path, handle.read(), names or [], capabilities))
    except (OSError, UnicodeDecodeError):
        pass  # the loader reported it (case_names); a fixture that cannot be read has no header to cite
    return citations, cases, problems


def build_map(roots: list[str], checkout: str, results: list[str] | None = None,
              accounting: dict[str, AccountingEntry] | None = None, capabilities: Iterable[str] | None = None,
              faults: Iterable[FaultEntry] = (), evidence: dict[str, Evidence] | None = None,
              junit: JUnit | None = None) -> CoverageMap:
    """The coverage map of the fixtures under ``roots`` against the prose of ``checkout``: with
    ``results`` (run reports) the cases that passed, with ``faults`` the statements their caught
    faults prove, with ``evidence`` (and ``junit``) the adapter statements its own tests prove
    (raises :class:`ProseError`, ``ResultsError`` for a file that is no run report,
    ``DiscoveryError`` for a bad root)."""
    directory = prose_dir(checkout)
    proses = read_all_prose(directory)
    problems: list[str] = [p for prose in proses.values() for p in prose.problems]
    unresolved: list[str] = []
    wanted = set(capabilities) if capabilities else None
    # Every fixture is read: another capability's fixture may cite a wanted capability's statement
    # (observability fixtures cite graph-engine §6); only the wanted ones are counted and reported.
    every_fixture = discover(roots)
    fixtures = [ref for ref in every_fixture if wanted is None or ref.capability in wanted]
    for capability in sorted({ref.capability for ref in fixtures if ref.capability} - set(proses)):
        count = sum(1 for ref in fixtures if ref.capability == capability)
        problems.append(f"{os.path.join(directory, capability, 'spec.md')}:1: missing: the {count} fixtures of {capability} "
                        "cite sections of a capability without prose")
    indexes = {name: index(prose) for name, prose in proses.items()}
    every_statement = {s.id: s for prose in proses.values() for s in prose.statements}
    statements = tuple(s for name, prose in proses.items() if wanted is None or name in wanted for s in prose.statements)
    naming = _Naming(every_statement.values())
    known_cases: set[str] = set()
    cited: dict[str, list[str]] = {}
    named: dict[str, list[str]] = {}
    resolved: list[tuple[Citation, tuple[str, ...]]] = []
    uncited: list[str] = []
    shown = {s.id for s in statements}
    for ref in every_fixture:
        own = wanted is None or ref.capability in wanted
        citations, cases, sidecar_problems = fixture_citations(ref, proses)
        known_cases.update(cases)
        if own:
            problems.extend(sidecar_problems)
        if own and not citations:
            uncited.append(fixture_id(ref))
            problems.append(f"{ref.path}:1: uncited fixture: neither its sidecar nor its header comment cites a spec section")
        for citation in citations:
            scope = [c for c in cases if c == f"{citation.fixture}[{citation.case}]"] if citation.case else cases
            # A citation names statements for its cases only when it is theirs alone (scoped to them,
            # or the fixture has one case): a fixture-wide citation never names one.
            if citation.case or len(cases) == 1:
                for ident in naming.named_in(citation):
                    named.setdefault(ident, []).extend(scope)
            result = resolve(citation, indexes)
            if not own and shown.isdisjoint(result.ids):
                continue  # another capability's citation of nothing shown: not this map's business
            resolved.append((citation, result.ids))
            if own:
                unresolved.extend(f"{citation.path}:{citation.line}: citation resolves to nothing: {p}" for p in result.problems)
            for ident in result.ids:
                cited.setdefault(ident, []).extend(scope)
    cited_by = {ident: tuple(dict.fromkeys(cases)) for ident, cases in cited.items()}
    outcomes = read_results(results, known_cases, roots=roots) if results else None
    passed = outcomes.passed if outcomes is not None else frozenset()
    if outcomes is not None:
        problems.extend(outcomes.problems)
    proven = _fault_proofs(faults, every_statement, passed, named, problems)
    checked_by_tests = _adapter_evidence(evidence or {}, junit, every_statement, named, proven, problems)
    chosen = {ident: entry for ident, entry in (accounting or {}).items() if wanted is None or ident.split(":")[0] in wanted}
    named_by = {ident: tuple(dict.fromkeys(cases)) for ident, cases in named.items()}
    shipped = outcomes.shipped if outcomes is not None else {}
    reasons = _accounted(statements, every_statement, chosen, cited_by, named_by, problems, shipped)
    checked = {ident for ident, cases in named_by.items() if any(c in passed for c in cases)} | checked_by_tests
    violating = outcomes.violating if outcomes is not None else frozenset()
    violated = {ident for ident, cases in named_by.items() if any(c in violating for c in cases)}
    statuses = {s.id: status_of(proven=bool(proven.get(s.id)), violated=s.id in violated, checked=s.id in checked,
                                accounted=s.id in reasons, cited=bool(cited_by.get(s.id))) for s in statements}
    problems.extend(_stale_accounting(statements, statuses, chosen, proven, named_by, passed))
    return CoverageMap(statements, tuple(resolved), cited_by, named_by,
                       {ident: tuple(found) for ident, found in proven.items()}, statuses, reasons, len(fixtures),
                       tuple(uncited), outcomes is not None, tuple(problems), tuple(unresolved))


def _fault_proofs(faults: Iterable[FaultEntry], every_statement: dict, passed: frozenset, named: dict[str, list[str]],
                  problems: list[str]) -> dict[str, list[dict[str, str]]]:
    """The statements the caught faults prove: each case a fault lists names its statement (added to
    ``named``), and proves it when it passed; a fault naming no statement of the prose is a problem."""
    proven: dict[str, list[dict[str, str]]] = {}
    for fault in faults:
        if fault.statement is None:
            continue
        if fault.statement not in every_statement:
            problems.append(f"{fault.location}: fault {fault.id!r}: statement {fault.statement!r} is no statement of the prose "
                            "(give the id `coverage --json` prints)")
            continue
        for case in fault.caught_by:  # the fault's reviewed claim: each case it lists names its statement
            named.setdefault(fault.statement, []).append(case)
            if case in passed:
                proven.setdefault(fault.statement, []).append({"case": case, "fault": fault.id})
    return proven


def _stale_accounting(statements: Iterable[Any], statuses: dict, chosen: dict, proven: dict, named_by: dict, passed: frozenset) -> list[str]:
    """An accounting entry for a statement now proven, checked or shown violated: drop it (retired
    reasons aside; a known runtime violation is a failing case, never an accounting entry)."""
    problems = []
    for s in statements:
        if statuses[s.id] in (Status.PROVEN, Status.VIOLATED, Status.CHECKED) and s.id in chosen and chosen[s.id].reason not in RETIRED:
            entry = chosen[s.id]
            by = (proven.get(s.id) or [{"case": c} for c in named_by.get(s.id, ()) if c in passed]
                  or [{"case": c} for c in named_by.get(s.id, ())] or [{"test": "adapter evidence"}])[0]
            problems.append(f"{entry.location}: accounting entry {s.id!r} is {statuses[s.id].value} by "
                            f"{by.get('case') or by.get('test')}: drop the entry")
    return problems


class _Naming:
    """Which statements a citation names: by id (``graph-engine:2:9b0d3d54``) or by quoting the
    sentence whole (compared as the id's hash compares it: markup dropped, whitespace collapsed) —
    a sentence of a section the citation names, when it names any (the same sentence stands in
    several sections: "The caller's original `messages` MUST be left unchanged.")."""

    _ID = re.compile(r"\b[a-z][a-z-]*:[0-9a-z.-]+:[0-9a-f]{8}(?:-\d+)?\b")

    def __init__(self, statements: Iterable[Statement]):
        self.ids = {s.id for s in statements}
        self.sentences = [(normalised(s.text).rstrip(".").lower(), s) for s in statements]

    def named_in(self, citation: Citation) -> list[str]:
        found = [m.group(0) for m in self._ID.finditer(citation.text) if m.group(0) in self.ids]
        flat = normalised(citation.text).lower()
        found.extend(s.id for sentence, s in self.sentences if sentence and sentence in flat and _within(s, citation))
        return list(dict.fromkeys(found))


def _within(statement: Statement, citation: Citation) -> bool:
    """Whether the statement is in a section the citation names (or it names none)."""
    return not citation.refs or any(ref.capability == statement.capability and statement.number is not None
                                    and (statement.number == ref.number or statement.number.startswith(ref.number + "."))
                                    for ref in citation.refs)


def _adapter_evidence(evidence: dict[str, Evidence], junit: JUnit | None, statements: dict[str, Statement],
                      named: dict[str, list[str]], proven: dict[str, list[dict[str, str]]], problems: list[str]) -> set[str]:
    """Fill ``proven`` from the adapter's own tests (all named tests passed in the JUnit file) and
    return the statements they check (no JUnit file: named, not run here)."""
    checked: set[str] = set()
    for ident, entry in evidence.items():
        statement = statements.get(ident)
        if statement is None:
            problems.append(f"{entry.location}: evidence entry {ident!r} matches no statement of the prose (reworded or moved?)")
            continue
        if entry.text and not _opens(statement.text, entry.text):
            problems.append(f"{entry.location}: evidence entry {ident!r}: its text no longer opens the statement ({statement.text[:60]!r})")
        named.setdefault(ident, []).extend(entry.tests)
        if junit is None:
            checked.add(ident)
            continue
        missing = [t for t in entry.tests if not junit.runs_of(t)]
        failed = [t for t in entry.tests if junit.runs_of(t) and not junit.passed_test(t)]
        if missing or failed:
            what = f"{missing[0]} is not in the JUnit file" if missing else f"{failed[0]} did not pass"
            problems.append(f"{entry.location}: evidence entry {ident!r}: {what}: not proven")
            continue
        proven.setdefault(ident, []).extend({"test": t} for t in entry.tests)
    return checked


def _opens(statement: str, opening: str) -> bool:
    return statement.replace("*", "").replace("`", "").startswith(opening.replace("*", "").replace("`", ""))


def _accounted(statements: tuple[Statement, ...], every_statement: dict[str, Statement], accounting: dict[str, AccountingEntry],
               cited_by: dict[str, tuple[str, ...]], named_by: dict[str, tuple[str, ...]], problems: list[str],
               shipped: dict[str, str] | None = None) -> dict[str, str]:
    """The reason of each accounted statement of ``statements`` (those shown), and each entry's
    problems (an entry of a retired kind is a problem and accounts for nothing; so is a
    ``needs-proposal`` entry whose proposal a run report says the runtime ships, ``shipped``: its
    statement is open again). The statement an entry restates is looked up among
    ``every_statement``: it may be another capability's, shown or not."""
    by_id = {s.id: s for s in statements}
    reasons = {}
    for ident, entry in accounting.items():
        statement = by_id.get(ident)
        if statement is None:
            problems.append(f"{entry.location}: accounting entry {ident!r} matches no statement of the prose (reworded or moved?)")
            continue
        if entry.reason in RETIRED:
            problems.append(f"{entry.location}: accounting entry {ident!r}: reason {entry.reason!r} is no longer an accounting "
                            f"kind: {RETIRED[entry.reason]}")
            continue
        if entry.reason == "needs-proposal" and entry.proposal in (shipped or {}):
            problems.append(f"{entry.location}: accounting entry {ident!r} needs proposal {entry.proposal}, which the runtime "
                            f"ships ({shipped[entry.proposal]}): the statement is open again: drop the entry, write the case")
            continue
        if entry.text and not _opens(statement.text, entry.text):
            problems.append(f"{entry.location}: accounting entry {ident!r}: its text no longer opens the statement "
                            f"({statement.text[:60]!r})")
        if entry.reason == "restates" and entry.restates not in every_statement:
            problems.append(f"{entry.location}: accounting entry {ident!r} restates {entry.restates!r}, which is no statement of the prose")
        for listed in sorted(entry.cited_without_checking):
            if not any(_names_case(listed, case) for case in cited_by.get(ident, ()) + named_by.get(ident, ())):
                problems.append(f"{entry.location}: accounting entry {ident!r}: {listed} does not cite it: "
                                "drop it from cited_without_checking")
        reasons[ident] = entry.describe()
    return reasons


def _names_case(listed: str, case: str) -> bool:
    """Whether ``listed`` (a fixture id, covering all its cases, or one case's id) names ``case``."""
    return case == listed or case.startswith(listed + "[")
