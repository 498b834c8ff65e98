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
from oa_conformance.ast.loader import DEPTH_CEILING, MAX_DEPTH, MAX_EXPANDED_NODES, limits, load_bytes
from oa_conformance.cli.oa_ast import main as oa_ast
from oa_conformance.cli.oa_conformance import main as oa_conformance
from oa_conformance.cli.oa_lint import main as oa_lint
from oa_conformance.diagnostics import FIXTURE_SCHEMA_INVALID

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
    assert (problem.line, problem.column) == (9, column)
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
    assert (problem.line, problem.column) == (6, len("l5: &l5 [") + 1)


def test_a_recursive_alias_is_refused_at_the_alias():
    (problem,) = load_bytes("a: &x [1, *x]\n", "f.yaml").diagnostics
    assert "recursive alias '*x'" in problem.message and (problem.line, problem.column) == (1, 11)


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


def test_the_depth_bound_is_clamped_below_the_recursion_limit(monkeypatch):
    monkeypatch.setenv("OA_MAX_DEPTH", "100000")
    assert limits().depth == DEPTH_CEILING
    monkeypatch.setenv("OA_MAX_DEPTH", "-4")
    assert limits().depth == MAX_DEPTH
    monkeypatch.delenv("OA_MAX_DEPTH")
    assert limits().expanded_nodes == MAX_EXPANDED_NODES


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
