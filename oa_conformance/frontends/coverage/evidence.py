"""The adapter's own conformance: ``adapter-evidence.toml`` maps a statement that binds the adapter
(conformance-adapter: how it reads fixtures, reports §9 categories, honours assertion shapes) to the
project's own pytest tests that would fail if the adapter broke that sentence::

    ["conformance-adapter:9:1a2b3c4d"]
    text = "An unknown directive MUST be reported as"   # the statement's opening words
    tests = ["tests/test_directives.py::test_an_unknown_directive_is_reported"]
    why = "the test injects an unknown key and asserts the category and its location"

With ``--junit FILE`` (a JUnit XML of a pytest run, ``pytest --junitxml``) a statement whose named
tests all passed there is proven (a test named without ``[params]`` is its parametrized family: one
member passed and none failed — a member may skip); without one, checked. A malformed file raises
:class:`EvidenceError`; an entry naming no statement, or whose ``text`` no longer opens it, is a
located problem (as in the accounting file).
"""

from __future__ import annotations

from typing import NamedTuple

from ...model.diagnostics import Span

from .toml_file import read_toml, table_line

_KEYS = frozenset(("text", "tests", "why"))


class Evidence(NamedTuple):
    id: str
    tests: tuple[str, ...]  # pytest node ids (tests/test_x.py::test_y[param])
    text: str
    why: str
    path: str
    line: int

    @property
    def location(self) -> Span:
        return Span(self.path, self.line, None)


class EvidenceError(ValueError):
    """A malformed evidence or JUnit file: ``path[:line]: what is wrong``."""


def load_evidence(path: str) -> dict[str, Evidence]:
    text, data = read_toml(path, EvidenceError)
    entries = {}
    for ident, table in data.items():
        line = table_line(text, ident)
        where = f"{path}:{line}: {ident}"
        if not isinstance(table, dict):
            raise EvidenceError(f"{where}: must be a table [\"{ident}\"]")
        unknown = sorted(set(table) - _KEYS)
        if unknown:
            raise EvidenceError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")
        tests = table.get("tests")
        if not isinstance(tests, list) or not tests or not all(isinstance(t, str) and "::" in t for t in tests):
            raise EvidenceError(f"{where}: tests must be a non-empty list of pytest node ids (path.py::test_name)")
        if not isinstance(table.get("why"), str) or not table["why"].strip():
            raise EvidenceError(f"{where}: why is required (what each test breaks on)")
        entries[ident] = Evidence(ident, tuple(tests), " ".join(str(table.get("text", "")).split()),
                                  " ".join(table["why"].split()), path, line)
    return entries


class JUnit(NamedTuple):
    passed: frozenset[str]  # node ids of the tests that passed
    ran: frozenset[str]  # every node id in the file
    skipped: frozenset[str] = frozenset()

    def runs_of(self, test: str) -> frozenset[str]:
        """The node ids a named test ran as: itself, or (named without ``[params]``) each of its
        parametrizations."""
        return frozenset(node for node in self.ran if node == test or ("[" not in test and node.startswith(test + "[")))

    def passed_test(self, test: str) -> bool:
        """A test passed; a parametrized family (named without ``[params]``) passed when one of its
        members passed and none failed — a member may skip (nothing to inject into that fixture)."""
        runs = self.runs_of(test)
        if test in runs:
            return test in self.passed
        return bool(runs & self.passed) and runs <= self.passed | self.skipped


def read_junit(path: str) -> JUnit:
    """The tests of a pytest JUnit XML file, by pytest node id (``classname`` ``tests.test_x.TestA``
    and ``name`` ``test_y[p]`` → ``tests/test_x.py::TestA::test_y[p]``)."""
    # Imported here: importing ElementTree leaves its pure-Python classes as cyclic garbage once the C
    # accelerator replaces them, and oa-lint (which reads this package for L005) never reads JUnit.
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.parse(path).getroot()
    except OSError as exc:
        raise EvidenceError(f"{path}: cannot read: {exc.strerror}") from None
    except ElementTree.ParseError as exc:
        raise EvidenceError(f"{path}:{exc.position[0]}: not XML: {exc}") from None
    cases = list(root.iter("testcase"))
    if root.tag not in ("testsuites", "testsuite"):
        raise EvidenceError(f"{path}: not a JUnit XML file (its root is <{root.tag}>)")
    passed, ran, skipped = set(), set(), set()
    for case in cases:
        node = _node_id(case.get("classname", ""), case.get("name", ""))
        ran.add(node)
        tags = {child.tag for child in case}
        if not tags & {"failure", "error", "skipped"}:
            passed.add(node)
        elif not tags & {"failure", "error"}:
            skipped.add(node)
    return JUnit(frozenset(passed), frozenset(ran), frozenset(skipped))


def _node_id(classname: str, name: str) -> str:
    parts = classname.split(".")
    # the module is the longest prefix written in lower case (a class name starts upper case)
    cut = next((i for i, p in enumerate(parts) if p[:1].isupper()), len(parts))
    return "::".join(["/".join(parts[:cut]) + ".py", *parts[cut:], name])
