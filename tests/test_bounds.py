"""Alias expansion is bounded in one place (the loader's event pass), for every front end.

A fixture's aliases are shared, never copied, but every pass after the loader (the schema check,
the typed build, ``oa-ast``, lint rules, the harness and the trace) walks the tree as if they were
copies. An alias chain whose *text* nests 90 levels but whose *expansion* nests far deeper used to
pass ``check`` and ``lint``, crash ``oa-ast`` with RecursionError and fail ``run`` as a runtime
error. These tests hold the bound to its place: the loader, at the alias that crosses it.
"""

from __future__ import annotations

import sys

import pytest

from oa_conformance.ast import dump
from oa_conformance.interpreter.static.loader import load_bytes
from oa_conformance.interpreter.static.yaml_compose import DEFAULT_MAX_FIXTURE_BYTES, DEPTH_CEILING, MAX_DEPTH, MAX_EXPANDED_NODES, limits
from oa_conformance.frontends.cli.oa_ast import main as oa_ast
from oa_conformance.frontends.cli.oa_conformance import main as oa_conformance
from oa_conformance.frontends.cli.oa_lint import main as oa_lint
from oa_conformance.model.diagnostics import FIXTURE_SCHEMA_INVALID

from .test_run import write_fixture

HEAD = "state:\n  fields:\n    x:\n      type: list\n      default: []\nentry: a\nnodes:\n  a:\n    update: {x: ["
TAIL = "]}\nedges:\n  - {from: a, to: END}\ninitial_state: {}\nexpected:\n  execution_order: [a]\n"


def alias_chain(anchors: int, nesting: int) -> tuple[str, int]:
    """The issue's fixture: ``&a0 [1]`` then ``&aK [[[...*aK-1...]]]``, each nested ``nesting`` deep.

    Returns the text and the column of the alias ``*a1`` inside ``&a2`` (on the ``update:`` line).
    """
    parts = ["&a0 [1]"] + [f"&a{k} " + "[" * nesting + f"*a{k - 1}" + "]" * nesting for k in range(1, anchors)]
    line = HEAD + ",".join(parts)
    column = len(HEAD.rsplit("\n", 1)[1]) + len(",".join(parts[:2])) + 1 + len("&a2 ") + nesting + 1
    return line + TAIL, column


def test_the_issue_fixture_is_small_and_expands_past_the_recursion_limit():
    text, _ = alias_chain(13, 90)
    assert len(text) < 2500
    # Its expansion nests over 1,000 levels: walked as copies, it exceeds Python's recursion limit.
    assert 13 * 90 > sys.getrecursionlimit()


def test_an_alias_chain_nesting_too_deep_is_refused_at_the_alias():
    text, column = alias_chain(13, 90)
    result = load_bytes(text, "f.yaml")
    assert result.tree is None
    (problem,) = result.diagnostics
    assert problem.category == FIXTURE_SCHEMA_INVALID
    assert (problem.location.line, problem.location.column) == (9, column)
    assert "alias '*a1' expands to nesting 185 levels deep, deeper than 100 (OA_MAX_DEPTH)" in problem.message


def test_an_alias_chain_within_the_depth_bound_loads_and_dumps():
    text, _ = alias_chain(2, 90)  # a1 nests 91 levels under x's list: within 100
    result = load_bytes(text, "f.yaml")
    assert result.diagnostics == ()
    assert dump.dump_text(result.tree)  # the walk every dump does stays within the recursion limit


def test_billion_laughs_points_at_the_alias_that_crosses_the_bound():
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 10):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 10) + "]")
    (problem,) = load_bytes("\n".join(lines) + "\n", "f.yaml").diagnostics
    # l0..l4 expand to 123,461 nodes together, l4 alone to 111,111: l5's first *l4 crosses 200,000.
    assert "alias '*l4' expands this fixture beyond 200000 nodes" in problem.message
    assert (problem.location.line, problem.location.column) == (6, len("l5: &l5 [") + 1)


def test_a_recursive_alias_is_refused_at_the_alias():
    (problem,) = load_bytes("a: &x [1, *x]\n", "f.yaml").diagnostics
    assert "recursive alias '*x'" in problem.message and (problem.location.line, problem.location.column) == (1, 11)


def test_a_dag_under_the_bound_is_shared_not_copied():
    text = "a: &a [1, 2, 3]\nb: &b [*a, *a, *a]\nc: [*b, *b]\n"
    tree = load_bytes(text, "f.yaml").tree
    c = tree.get("c").items
    assert c[0] is c[1] is tree.get("b") and c[0].items[0] is tree.get("a")


@pytest.mark.parametrize("variable, value, text, expected", [
    ("OA_MAX_EXPANDED_NODES", "20", "a: &a [1, 2, 3, 4, 5, 6, 7, 8]\nb: [*a, *a]\n", "beyond 20 nodes"),
    ("OA_MAX_DEPTH", "3", "a: &a [[1]]\nb: [[*a]]\n", "nesting 4 levels deep, deeper than 3"),
    ("OA_MAX_DEPTH", "3", "a: [[[[1]]]]\n", "nesting deeper than 3 levels"),
])
def test_the_bounds_are_configurable(monkeypatch, variable, value, text, expected):
    assert load_bytes(text, "f.yaml").diagnostics == ()
    monkeypatch.setenv(variable, value)
    (problem,) = load_bytes(text, "f.yaml").diagnostics
    assert expected in problem.message and variable in problem.message


def test_a_long_text_without_aliases_is_counted_before_it_is_composed(monkeypatch):
    """A 4 MiB text of two million scalars cost a gigabyte of composed nodes; the node bound is
    checked on the event stream first, for any text long enough to cross it."""
    monkeypatch.setenv("OA_MAX_EXPANDED_NODES", "1000")
    text = "a: [" + ",".join(["1"] * 600) + "]\n"  # 1,203 characters: may hold 1,000 nodes
    assert load_bytes(text, "f.yaml").diagnostics == ()
    text = "a: [" + ",".join(["1"] * 1200) + "]\n"
    (problem,) = load_bytes(text, "f.yaml").diagnostics
    assert "fixture has more than 1000 nodes (OA_MAX_EXPANDED_NODES)" in problem.message
    assert (problem.location.line, problem.location.column) == (1, 5 + 2 * 997)  # the 1,001st node: root, key, list, 998th item


@pytest.mark.parametrize("variable, value, expected", [
    ("OA_MAX_DEPTH", "100000", "OA_MAX_DEPTH='100000': at most 150"),
    ("OA_MAX_DEPTH", "-4", "OA_MAX_DEPTH='-4': must be 1 or more"),
    ("OA_MAX_EXPANDED_NODES", "lots", "OA_MAX_EXPANDED_NODES='lots' is not a whole number"),
    ("OA_MAX_FIXTURE_BYTES", "0", "OA_MAX_FIXTURE_BYTES='0': must be 1 or more"),
])
def test_an_unusable_limit_is_a_usage_error_never_the_default(monkeypatch, capsys, tmp_path, variable, value, expected):
    ref = write_fixture(tmp_path, alias_chain(2, 3)[0])
    monkeypatch.setenv(variable, value)
    assert oa_conformance(["check", ref.path]) == 2
    assert oa_lint([ref.path]) == 2
    assert oa_ast([ref.path]) == 2
    assert capsys.readouterr().err.count(expected) == 3
    (problem,) = load_bytes("a: 1\n", "f.yaml").diagnostics  # a library caller gets a load problem
    assert expected in problem.message
    monkeypatch.setenv(variable, "")
    assert limits() == (DEFAULT_MAX_FIXTURE_BYTES, MAX_EXPANDED_NODES, MAX_DEPTH)


def test_the_deepest_allowed_expansion_survives_every_front_end(tmp_path, capsys, monkeypatch):
    """At the ceiling, the recursive walks after the loader (dump, JSON, run) must not overflow."""
    monkeypatch.setenv("OA_MAX_DEPTH", str(DEPTH_CEILING))
    text, _ = alias_chain(2, DEPTH_CEILING - 6)
    ref = write_fixture(tmp_path, text)
    assert load_bytes(text, ref.path).diagnostics == ()
    assert oa_ast([ref.path]) == 0
    assert oa_ast([ref.path, "--format", "json"]) == 0
    assert oa_conformance(["run", ref.path, "-q"]) == 0, capsys.readouterr().out


def test_every_front_end_reports_the_same_problem(tmp_path, capsys):
    text, column = alias_chain(13, 90)
    ref = write_fixture(tmp_path, text)
    where = f"{ref.path}:9:{column}:"
    assert oa_conformance(["check", ref.path]) == 1
    assert f"{where} fixture_schema_invalid: alias '*a1' expands to nesting" in capsys.readouterr().out
    assert oa_lint([ref.path, "--select", "V"]) == 1
    assert f"{where} V002 alias '*a1'" in capsys.readouterr().out
    assert oa_ast([ref.path]) == 1
    assert f"{where} fixture_schema_invalid: alias '*a1'" in capsys.readouterr().err
    assert oa_conformance(["run", ref.path, "-q"]) == 1
    out = capsys.readouterr().out
    assert "ERROR" in out and "[fixture_schema_invalid]" in out and f"{where} fixture_schema_invalid: alias '*a1'" in out


# ---------------------------------------------------------------------------------------------
# The trace shares what the fixture shares: distinct values, not events × expansion.

def alias_dag(levels: int, width: int, nodes: int) -> str:
    """A state holding an alias DAG (``l0`` of ``width`` ints, each next level ``width`` aliases
    of the one before) and a chain of ``nodes`` nodes, each recording its pre / post state."""
    anchors = ["&l0 [" + ", ".join(str(k) for k in range(width)) + "]"]
    anchors += [f"&l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]" for i in range(1, levels)]
    names = [f"n{i}" for i in range(nodes)]
    body = "\n".join(f"  {name}:\n    update: {{step: {i}}}" for i, name in enumerate(names))
    edges = "\n".join(f"  - {{from: {a}, to: {b}}}" for a, b in zip(names, names[1:] + ["END"]))
    return (f"state:\n  fields:\n    x:\n      type: list\n      default: []\n    step:\n      type: int\n"
            f"      default: 0\nentry: n0\nnodes:\n{body}\nedges:\n{edges}\ninitial_state:\n"
            f"  x: [{', '.join(anchors)}]\nexpected:\n  execution_order: [{', '.join(names)}]\n")


def distinct_containers(value, seen=None) -> int:
    """How many distinct container objects (by identity) ``value`` holds, each counted once."""
    from oa_conformance.model.kinds import is_mapping, is_sequence

    seen = set() if seen is None else seen
    stack = [value]
    while stack:
        current = stack.pop()
        if not (is_mapping(current) or is_sequence(current)) or id(current) in seen:
            continue
        seen.add(id(current))
        stack.extend(current.values() if is_mapping(current) else current)
    return len(seen)


def test_equal_runtime_values_freeze_to_one_shared_structure():
    from oa_conformance.model.trace.record import freezing, plain

    fresh = lambda: {"x": [[1, 2, 3] for _ in range(50)], "flag": True}  # noqa: E731 - a fresh copy each call
    with freezing():
        first, second = plain(fresh()), plain(fresh())
        assert first is second  # the runtime's copy of an unchanged state is the state before it
        assert first["x"][0] is first["x"][49]
        assert plain([first, first])[0] is first  # frozen once: freezing again keeps identity
    # Atoms that compare equal but differ in type are never merged.
    with freezing():
        assert [type(v[0]) for v in plain([[1], [1.0], [True]])] == [int, float, bool]
        assert [type(next(iter(m.keys()))) for m in plain([{1: "a"}, {True: "a"}])] == [int, bool]


def test_a_mutable_input_is_frozen_again_after_it_changed():
    from oa_conformance.model.trace.record import freezing, plain

    bucket = [1]
    with freezing():
        before = plain({"bucket": bucket})
        bucket.append(2)
        after = plain({"bucket": bucket})
    assert list(before["bucket"]) == [1] and list(after["bucket"]) == [1, 2]


def test_a_literal_keeps_the_fixtures_sharing():
    from oa_conformance.ast.visitor import walk
    from oa_conformance.ast.values import literal

    tree = load_bytes("a: &a [1, 2, 3]\nb: &b [*a, *a, *a]\nc: [*b, *b]\n", "f.yaml").tree
    c = literal(tree.get("c"))
    assert c[0] is c[1] and c[0][0] is c[0][2]
    assert literal(tree.get("c")) is not c  # fresh on every call
    assert sum(1 for _ in walk(tree)) == 1 + 1 + 3 + 1 + 1  # the mapping, a, its three ints, b, c: once each (expanded: 45)


def test_a_dag_state_costs_its_distinct_values_in_the_trace_and_its_document(tmp_path):
    """Old behaviour: every event froze (then re-froze) and thawed the expanded state, so the trace
    held ~events × expanded containers (here 6 nodes × 3 states × 111 lists ≈ 2,000 and more)."""
    from oa_conformance.interpreter.running.capabilities import harness_for
    from oa_conformance.interpreter.running.execute import execute_case
    from oa_conformance.model.trace.document import document

    from .test_run import write_fixture as write

    ref = write(tmp_path, alias_dag(levels=3, width=10, nodes=6))
    (case,) = __import__("oa_conformance.pipeline", fromlist=["cases_of"]).cases_of(ref)
    trace = execute_case(case.scenario, 20, harness_for(ref.capability))
    (invocation,) = trace.invocations
    assert invocation.outcome == "completed"
    events = invocation.events["(harness)"]
    assert len(events) >= 12
    states = [event[name] for event in events for name in ("pre_state", "post_state") if event.get(name) is not None]
    assert len({id(state["x"]) for state in states}) == 1  # one frozen x for every event
    assert distinct_containers(trace.invocations) < 150  # 111 expanded lists, 3 distinct: the rest is per event
    doc = document(trace)
    assert distinct_containers(doc) < 250
    xs = [e["pre_state"]["x"] for e in doc["invocations"][0]["events"]["(harness)"] if "pre_state" in e]
    assert len(xs) >= 12 and all(x is xs[0] for x in xs)


def test_standard_input_over_the_size_cap_is_refused_without_reading_it_all(monkeypatch, capsys):
    """``oa-ast -`` and ``oa-lint -`` read at most one byte past the cap (they read everything)."""
    import io

    monkeypatch.setenv("OA_MAX_FIXTURE_BYTES", "100")
    for main, argv, stream in ((oa_ast, ["-"], "err"), (oa_lint, ["-"], "out")):
        source = io.BytesIO(b"a: 1\n" + b"#" * 10_000 + b"\n")
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(source))
        assert main(argv) == 1
        assert "over the 100-byte cap (OA_MAX_FIXTURE_BYTES)" in getattr(capsys.readouterr(), stream)
        assert source.tell() == 101


def test_only_a_text_with_an_anchor_and_an_alias_takes_the_alias_pass(monkeypatch):
    """The event pass costs a Python step per event: texts that cannot share a node skip it (65
    corpus fixtures hold a '*' after a space, none an anchor), and still load as before."""
    from oa_conformance.interpreter.static import loader

    calls = []
    original = loader.bound_expansion
    monkeypatch.setattr(loader, "bound_expansion", lambda *a: calls.append(a[0]) or original(*a))
    assert load_bytes("a: 'x * y'\nb: [1, 2]\nc: '&z'\n", "f.yaml").diagnostics == ()
    assert calls == []
    assert load_bytes("a: &y [1]\nb: *y\n", "f.yaml").diagnostics == ()
    assert len(calls) == 1
