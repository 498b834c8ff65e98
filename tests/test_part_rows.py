"""Every `part` row is read by its parent's handler: proved by walking the reads while a corpus runs.

A `part` row (``handled_by=PART``) is a key inside another directive's value, read by that
directive's handler. The proof records every directive a Section hands out — by attribute, ``get``
or ``items`` — while the execute and assert passes run each case (the gates and the visitor's
generic walk are not reads), then requires every part row written in a case that ran to have been
read. A row the handler never reads would be accepted by the schema and silently ignored.

The walks run the target corpus, the 0.109.0 set, the bundled spec/ and the minimal cases of
``part_row_cases`` (rows no running corpus case writes). Every part row of the vocabulary is then
proven read, or accounted for by rule — its family is held only by `not_executed` directives, or
the features gate ties it to a proposal this runtime lacks — or listed in NOT_SEEN_READ with why.
"""

from __future__ import annotations

import pytest

from oa_conformance.ast.nodes import Section
from oa_conformance.ast.visitor import walk
from oa_conformance.model.vocabulary import VOCABULARY, shapes

PART = "part"


def part_rows_written(scenario) -> set[tuple[str, str]]:
    """(family, directive) of every part row the scenario writes, at any depth."""
    found = set()
    for name in dict.fromkeys(n for source in scenario.sources() for n in source.order):
        value = scenario.get(name)
        for node in walk(value) if value is not None and hasattr(value, "children") else ():
            if isinstance(node, Section):
                for key in node.order:
                    row = VOCABULARY.lookup(node.family, key)
                    if row is not None and any(h.kind == PART for h in row.handlers_in(node.family)):
                        found.add((node.family, key))
    return found


class ReadLog:
    """Records (family, directive) whenever a Section hands a directive's value out."""

    def __init__(self) -> None:
        self.reads: set[tuple[str, str]] = set()
        self.on = False
        self.names = {family: {attr: name for name, attr in VOCABULARY.attrs_of(family).items()} for family in VOCABULARY.families}

    def install(self, monkeypatch) -> None:
        log, plain_attribute, generic = self, object.__getattribute__, Section.children

        def traced(section, attribute):
            if log.on:
                name = log.names.get(type(section).family, {}).get(attribute)
                if name is not None:
                    log.reads.add((type(section).family, name))
            return plain_attribute(section, attribute)

        def untraced_children(section):  # the visitor's generic walk is no handler's read
            on, log.on = log.on, False
            try:
                return list(generic(section))
            finally:
                log.on = on

        monkeypatch.setattr(Section, "__getattribute__", traced)
        monkeypatch.setattr(Section, "children", untraced_children)


def unread_part_rows(refs, monkeypatch, seen_read: frozenset = frozenset()) -> tuple[set, set]:
    """(part rows written in the cases that ran, those never read) over ``refs``: the reads of the
    passes that handle a case's directives one by one (``requires_capability``'s gate, execute,
    assert), not of the features gate, which scans every value for a proposal's marks. A case all
    of whose part rows were already seen read (here or in ``seen_read``) can prove nothing more and
    is not run: the proof is per row, and that keeps three corpora about as fast as one."""
    from oa_conformance.assertions.assert_pass import assert_case
    from oa_conformance.interpreter.running.adapter_capabilities import capability_mismatches
    from oa_conformance.interpreter.running.capabilities import harness_for
    from oa_conformance.interpreter.running.execute import execute_case, unsupported
    from oa_conformance.interpreter.running.features import feature_needs
    from oa_conformance.pipeline import own_sections

    log = ReadLog()
    log.install(monkeypatch)
    written: set[tuple[str, str]] = set()
    for ref in refs:
        scenario, capability = ref.scenario, ref.fixture.capability
        if scenario is None or feature_needs(capability, own_sections(scenario), scenario).missing:
            continue
        rows = part_rows_written(scenario)
        if rows <= log.reads | seen_read:
            written |= rows
            continue
        log.on = True
        try:
            contract = harness_for(capability)
            if capability_mismatches(scenario) or unsupported(scenario, contract) is not None:
                continue
            assert_case(scenario, execute_case(scenario, 20, contract), capability)
        except Exception:  # a case whose execution raised still read what it read
            pass
        finally:
            log.on = False
        written |= rows
    return written, written - log.reads - seen_read


# Part rows the walks write but whose handler reads them on no path the walks take, or never: each
# with why. The test fails when one is read after all (drop it here) or a new one appears.
NOT_SEEN_READ = {
    # llm-provider header: the OpenAI-compatible provider has no construction knob for it; it learns
    # image support from the server's rejection, which the fixture's canned response supplies
    ("llm_mock_capabilities", "supports_image_input"): "no runtime knob: the canned rejection carries it",
}


def part_rows() -> set[tuple[str, str]]:
    """(family, directive) of every part row of the vocabulary."""
    return {(family, d.name) for d in VOCABULARY.all_directives() for family in d.where
            if any(h.kind == PART for h in d.handlers_in(family))}


def _families_held(shape) -> set[str]:
    """The families whose sections a value of ``shape`` holds (directly, or in a map, list, option)."""
    if isinstance(shape, shapes.SectionShape):
        return {shape.family}
    inner = [getattr(shape, name) for name in ("value", "item", "inner") if hasattr(shape, name)]
    return set().union(*map(_families_held, inner + list(getattr(shape, "options", ()))))


def executed_families() -> set[str]:
    """The families a case can reach: a family no directive holds (the top level), and any family a
    row holds whose handler in a reached family is no `not_executed` one. Every other family's keys
    — and so its part rows — belong to a directive the adapter never executes: a case writing one
    fails as not implemented at that directive (``execute.not_executed_within``), its one verdict."""
    holders: dict[str, list[tuple[str, object]]] = {}
    for directive in VOCABULARY.all_directives():
        for held in _families_held(directive.shape):
            holders.setdefault(held, []).extend((family, directive) for family in directive.where)
    reached = {family for family in VOCABULARY.families if family not in holders}
    grown = True
    while grown:
        more = {held for held, parents in holders.items() if held not in reached and any(
            parent in reached and any(h.kind != "not_executed" for h in directive.handlers_in(parent)) for parent, directive in parents)}
        reached |= more
        grown = bool(more)
    return reached


def gated_by_missing_proposal(family: str, name: str) -> str | None:
    """The proposal the features gate ties every use of this row to, when this runtime does not ship
    it: a case writing it is a recognized skip naming that proposal, so no handler runs on it here."""
    from oa_conformance.host.manifest import NOT_SHIPPED, proposal_status
    from oa_conformance.interpreter.running.features import DIRECTIVE_PROPOSALS, VALUE_PROPOSALS

    needs = DIRECTIVE_PROPOSALS.get(name) or VALUE_PROPOSALS.get((name, None))
    return f"{needs[0]} ({needs[1]})" if needs and proposal_status(needs[0]).state == NOT_SHIPPED else None


@pytest.fixture(scope="module")
def walks(target_spec, shared_spec, tmp_path_factory):
    """One read-walk per corpus — the target, the 0.109.0 set, the bundled spec/ — and one over the
    minimal cases of ``part_row_cases``: name -> (part rows written by the cases that ran, those unread)."""
    from oa_conformance.model.discovery import discover
    from oa_conformance.pipeline import cases_of, read_cases

    from .conftest import BUNDLED_SPEC
    from .part_row_cases import CASES
    from .test_run import write_fixture

    folder = tmp_path_factory.mktemp("part-rows")
    minimal = [case for capability, text in CASES.items() for case in cases_of(write_fixture(folder, text, capability))]
    found: dict[str, tuple[set, set]] = {}
    seen_read: frozenset = frozenset()
    with pytest.MonkeyPatch.context() as monkeypatch:
        for name, refs in (("target", lambda: read_cases(discover([str(target_spec)]))),
                           ("0.109.0", lambda: read_cases(discover([str(shared_spec)]))),
                           ("spec/", lambda: read_cases(discover([str(BUNDLED_SPEC)]))), ("minimal cases", lambda: minimal)):
            written, unread = found[name] = unread_part_rows(refs(), monkeypatch, seen_read)
            seen_read |= written - unread
    return found


def test_every_part_row_the_walks_write_is_read(walks):
    """A part row written in a case that ran is read by its handler in some walk: the proof is per
    row (one case may write a row on a path this runtime never takes it down, while another does)."""
    read = set().union(*(written - unread for written, unread in walks.values()))
    unread = set().union(*(unread for _, unread in walks.values())) - read
    assert unread == set(NOT_SEEN_READ), f"part rows written and never read by their handler: {sorted(unread - set(NOT_SEEN_READ))}; read after all: {sorted(set(NOT_SEEN_READ) - unread)}"


def account(walks: dict, rows: set) -> tuple[set, set, dict, set]:
    """``rows`` split by what accounts for each: (read by their parent's handler in some walk, in a
    family only a `not_executed` directive holds, {gated row: the proposal this runtime lacks},
    accounted for by nothing — neither these nor NOT_SEEN_READ)."""
    read = rows & set().union(*(written - unread for written, unread in walks.values()))
    reached = executed_families()
    never_executed = {(family, name) for family, name in rows - read if family not in reached}
    gated = {row: gated_by_missing_proposal(*row) for row in sorted(rows - read - never_executed)}
    gated = {row: proposal for row, proposal in gated.items() if proposal}
    return read, never_executed, gated, rows - read - never_executed - set(gated) - set(NOT_SEEN_READ)


def test_every_part_row_is_proven_read_or_never_executed(walks):
    """Every part row is read by its parent's handler in some walk, or belongs to a family only a
    `not_executed` directive holds, or is tied by the features gate to a proposal this runtime does
    not ship, or is one of NOT_SEEN_READ: a new part row none of these accounts for fails here."""
    rows = part_rows()
    read, never_executed, gated, unaccounted = account(walks, rows)
    print(f"part rows checked: {len(rows)} of {len(rows)}: {len(read)} proven read "
          f"({', '.join(f'{name} {len(rows & (w - u))}' for name, (w, u) in walks.items())}), "
          f"{len(never_executed)} under a directive never executed, {len(gated)} gated by a proposal this runtime lacks "
          f"({', '.join(sorted(set(gated.values())))}), {len(NOT_SEEN_READ)} not seen read")
    assert not unaccounted, f"part rows no walk proves read and no rule accounts for (add a case to tests/part_row_cases.py): {sorted(unaccounted)}"
    # the rule is checked, not trusted: no walk reads a key of a family it calls never executed
    reached = executed_families()
    assert not {row for row in read if row[0] not in reached}, "a family judged never executed had a row read"


def test_a_part_row_nothing_proves_is_reported(walks):
    """The accounting can fail: a new part row of a reached family, and the rows only the minimal
    cases prove once those cases are gone, are each reported as accounted for by nothing."""
    invented = ("wrap_middleware", "invented_key")
    assert invented in account(walks, part_rows() | {invented})[3]
    corpora_only = {name: walk for name, walk in walks.items() if name != "minimal cases"}
    assert {("branch", "name"), ("cause", "cause"), ("subgraph_call", "subgraph")} <= account(corpora_only, part_rows())[3]


def test_a_part_of_a_not_executed_directive_is_never_executed():
    """The rule follows the rows: `chat_turns` is not executed, so `chat_turn` and the families only
    it holds are never reached; a family an executed directive holds is."""
    reached = executed_families()
    assert not {"chat_turn", "chat_turn_expected", "descriptor"} & reached
    assert {"wrap_middleware", "node_raise", "cause", "subgraph_call"} <= reached


def test_an_unread_part_row_is_reported(tmp_path, monkeypatch):
    """The proof can fail: with the clock stub's kind no longer read, a case writing it reports it."""
    from oa_conformance.interpreter.running import execute
    from oa_conformance.pipeline import cases_of

    from . import faults
    from .test_run import write_fixture

    text = faults.target_text("pipeline-utilities", "012-timing-middleware-basic-firing.yaml")
    refs = cases_of(write_fixture(tmp_path, text, "pipeline-utilities"))
    _, unread = unread_part_rows(refs, monkeypatch)
    assert ("clock_stub", "type") not in unread
    original = execute.instruments  # the step as it would be if it read the clock's advance, not its kind
    monkeypatch.setattr(execute, "instruments", lambda scenario, *rest: original(_Masked(scenario), *rest))
    _, unread = unread_part_rows(refs, monkeypatch)
    assert ("clock_stub", "type") in unread


class _Masked:
    """A scenario whose clock stub hides its `type` from the reader (the step that does not read it)."""

    def __init__(self, scenario):
        self._scenario = scenario

    def __getattr__(self, name):
        return getattr(self._scenario, name)

    @property
    def view(self):
        return _MaskedView(self._scenario.view)


class _MaskedView:
    def __init__(self, view):
        self._view = view

    def __getattr__(self, name):
        value = getattr(self._view, name)
        return _ClockWithoutType(value) if name == "clock_stub" and value is not None else value


class _ClockWithoutType:
    def __init__(self, clock):
        self._clock = clock

    def get(self, name, default=None):
        return default if name == "type" else self._clock.get(name, default)

    def __getattr__(self, name):
        return None if name == "type" else getattr(self._clock, name)
